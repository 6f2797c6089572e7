// Properties of free-time-slot reports (model/slot_report.hpp): sound, complete (against the grid brute force of
// solver/slot_report_grid.hpp, not the availability profile), and the open end published. Paper 002 sec. 4 and
// our own wording of what a gateway may rely on.
#pragma once

#include "model/slot_report.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::slots {

std::vector<PropertySpec<Instance, SlotReport>> properties();

}  // namespace schedcheck::slots
