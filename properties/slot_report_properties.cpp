// Properties of free-time-slot reports (see slot_report_properties.hpp). Our own.
#include "properties/slot_report_properties.hpp"

#include "solver/slot_report_grid.hpp"

#include <fmt/format.h>

#include <cmath>

namespace schedcheck::slots {

std::vector<PropertySpec<Instance, SlotReport>> properties() {
  PropertySpec<Instance, SlotReport> complete;
  complete.name = "slots-complete";
  complete.source = "paper 002 sec. 4 (the profile scanned up to the horizon)";
  complete.summary = "every processor-second that the holds leave free before the horizon (infinite: before the last "
                     "hold ends) lies in a published slot; checked on the processor x time grid";
  complete.check = [](const CheckContext<Instance, SlotReport>& c) {
    const auto gap = first_unpublished(c.instance, c.decision);
    if (!gap) return PropertyResult{"", PropertyStatus::kUndecided, fmt::format("more than {} grid cells", kMaxCells)};
    return gap->empty() ? PropertyResult{"", PropertyStatus::kHolds, "ok"}
                        : PropertyResult{"", PropertyStatus::kFails, *gap};
  };

  PropertySpec<Instance, SlotReport> open_end;
  open_end.name = "open-end-published";
  open_end.source = "paper 002 sec. 5 (planning horizon infinite: a provider informs all the free time slots)";
  open_end.summary = "with an infinite horizon, the slots that never end hold every processor from the last hold's end "
                     "on (with identity: each processor once)";
  open_end.check = [](const CheckContext<Instance, SlotReport>& c) {
    if (!std::isinf(c.instance.horizon))
      return PropertyResult{"", PropertyStatus::kNotApplicable, "the horizon is finite"};
    const double from = measure_end(c.instance);
    int count = 0;
    ProcessorSet on(c.instance.identity ? c.instance.processors : 0);
    for (const TimeSlot& slot : c.decision.slots)
      if (std::isinf(slot.end) && slot.start <= from + kTimeTolerance) {
        count += slot.processors;
        if (c.instance.identity) on |= slot.on;
      }
    const int held = c.instance.identity ? on.count() : count;
    if (held == c.instance.processors) return PropertyResult{"", PropertyStatus::kHolds, "ok"};
    return PropertyResult{"", PropertyStatus::kFails,
                          fmt::format("the slots open for ever from t={:g} on hold {} of the {} processors", from, held,
                                      c.instance.processors)};
  };

  return {
      violation_property<Instance, SlotReport>(
          "slots-sound", "paper 002 sec. 4 (a violation: the resources are no longer available)",
          "every slot lies in [now, horizon) over processors no hold uses then, and no two slots share a "
          "processor-second",
          [](const Instance& i, const SlotReport& r) { return validate(i, r).reason; }),
      std::move(complete),
      std::move(open_end),
      not_above_optimum_property<Instance, SlotReport>(),
      optimal_within_property<Instance, SlotReport>(),
  };
}

}  // namespace schedcheck::slots
