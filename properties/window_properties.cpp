// Properties of queue-window schedules (see window_properties.hpp). Our own.
#include "properties/window_properties.hpp"

namespace schedcheck::window {

std::vector<PropertySpec<Instance, Schedule>> properties() {
  return {
      violation_property<Instance, Schedule>(
          "capacity", "our own (space-shared, non-preemptive)",
          "every waiting job starts once, not before now, and running plus waiting jobs never use more than P",
          [](const Instance& i, const Schedule& s) { return validate(i, s).reason; }),
      not_above_optimum_property<Instance, Schedule>(),
      optimal_within_property<Instance, Schedule>(),
  };
}

}  // namespace schedcheck::window
