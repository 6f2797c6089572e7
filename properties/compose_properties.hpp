// Named properties of offer compositions: tasks-conserved, offer-respected, no-empty-assignment (the model's checks),
// meets-deadline-when-possible, optimal-completion (against the exact optimum) and balance-within (largest share
// within --tolerance of the best possible at the decision's own completion time). Paper 000 section IV; our checks.
#pragma once

#include "model/compose.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::compose {

using ComposeProperty = PropertySpec<Instance, Composition>;

std::vector<ComposeProperty> composition_properties();

}  // namespace schedcheck::compose
