// Named properties of SLA admission decisions: capacity, deadline, eligibility (from the model's checks),
// plus the generic not-above-optimum and optimal-within. Paper 004 section 3.2 (Eq. 4; Algorithm 2 line 1.40);
// the timed capacity and deadline are our extension. Limits: those of the exact method used as the optimum.
#pragma once

#include "model/sla.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::sla {

using SlaProperty = PropertySpec<Instance, Admission>;

std::vector<SlaProperty> instant_properties();  // for sla-admission
std::vector<SlaProperty> timed_properties();    // for sla-admission-timed

}  // namespace schedcheck::sla
