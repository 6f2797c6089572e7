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

// Why a composition's completion time cannot be compared with the exact optimum ("" when it can): it is infeasible
// (it finishes "early" only because it is incomplete), or it uses free time slots (III-B), which the exact method,
// composing offers only, does not optimise over: such a decision may beat the "optimum" without contradiction.
std::string not_comparable(const Instance& instance, const Composition& composition);

}  // namespace schedcheck::compose
