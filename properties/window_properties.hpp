// Properties of queue-window schedules (model/queue_window.hpp): capacity, and the comparison with the optimum.
// Our own.
#pragma once

#include "model/queue_window.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::window {

std::vector<PropertySpec<Instance, Schedule>> properties();

}  // namespace schedcheck::window
