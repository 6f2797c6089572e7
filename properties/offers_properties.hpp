// Named properties of provider offers (paper 000 section III-A) and of deadline-feasibility answers:
// accepted deadlines kept, capacity, the offer staircase (step 4), FEEDBACK soundness and its monotonicity
// assumption (checked by a linear scan over all positions), EDF vs the exact optimum. Our own formulations.
// Limits: the optimum-based ones are only as strong as the exact method's answer (undecided without a proof).
#pragma once

#include "model/offers.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::offers {

using OffersProperty = PropertySpec<Instance, OfferList>;
using FeasibilityProperty = PropertySpec<Instance, FeasibilityAnswer>;

std::vector<OffersProperty> offers_properties();            // for `offers`
std::vector<FeasibilityProperty> feasibility_properties();  // for `deadline-feasibility`

}  // namespace schedcheck::offers
