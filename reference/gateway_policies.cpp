// The gateway's earliest-start choice from published free time slots (reference/gateway_policies.hpp): paper 002
// sec. 4. Our own code.
#include "reference/gateway_policies.hpp"

#include <algorithm>
#include <cmath>

namespace schedcheck::gateway {

AvailabilityProfile view_of_slots(int processors, bool identity, const std::vector<TimeSlot>& slots, double now) {
  AvailabilityProfile view(processors, identity);
  // Every processor busy over [now, cap), cap past every finite slot boundary; each slot's part of it given back.
  double cap = now;
  for (const TimeSlot& slot : slots) {
    cap = std::max(cap, slot.start);
    if (!std::isinf(slot.end)) cap = std::max(cap, slot.end);
  }
  cap += 1;
  const ProcessorSet all = identity ? ProcessorSet::all(processors) : ProcessorSet();
  view.reserve(now, cap, processors, all);
  int open = 0;
  ProcessorSet open_on = identity ? ProcessorSet(processors) : ProcessorSet();
  for (const TimeSlot& slot : slots) {
    const double a = std::max(slot.start, now), b = std::min(slot.end, cap);
    if (b > a + kTimeTolerance) view.release(a, b, slot.processors, slot.on);
    if (std::isinf(slot.end)) {
      open += slot.processors;
      if (identity) open_on |= slot.on;
    }
  }
  // After cap, the processors of no open slot stay busy: the gateway does not know them free.
  if (identity) {
    ProcessorSet closed = all;
    closed.subtract(open_on);
    if (!closed.empty()) view.reserve(cap, kForever, closed);
  } else if (open < processors) {
    view.reserve(cap, kForever, processors - open);
  }
  return view;
}

std::optional<Pick> earliest_start(const std::vector<AvailabilityProfile>& views, int procs, double duration, double now) {
  std::optional<Pick> best;
  for (std::size_t p = 0; p < views.size(); ++p) {
    if (procs > views[p].capacity()) continue;
    const auto slot = views[p].earliest_slot(procs, duration, now);
    if (slot && (!best || slot->start < best->start - kTimeTolerance)) best = Pick{p, slot->start};
  }
  return best;
}

}  // namespace schedcheck::gateway
