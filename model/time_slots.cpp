// Free time slots of an availability profile (model/time_slots.hpp): paper 002 sec. 4, Fig. 2a, by the rule of
// its authors' profile. Our own code.
#include "model/time_slots.hpp"

#include <algorithm>

namespace schedcheck {

std::vector<TimeSlot> free_time_slots(const AvailabilityProfile& profile, double from, double horizon) {
  std::vector<TimeSlot> slots;
  if (!(from + kTimeTolerance < horizon)) return slots;
  // The entries of [from, horizon): the step in force at `from`, then every later breakpoint before the horizon.
  std::vector<double> times{from};
  for (const AvailabilityProfile::Step& step : profile.steps())
    if (step.time > from + kTimeTolerance && step.time + kTimeTolerance < horizon) times.push_back(step.time);
  const std::size_t n = times.size();
  const bool identity = profile.tracks_processors();
  // What each entry still has free and unpublished: a count, and with identity the set.
  std::vector<int> left(n);
  std::vector<ProcessorSet> left_on(identity ? n : 0);
  for (std::size_t k = 0; k < n; ++k) {
    const double next = k + 1 < n ? times[k + 1] : times[k] + 1;  // the last entry's set holds for ever after it
    if (identity) {
      left_on[k] = profile.free_over(times[k], next);
      left[k] = left_on[k].count();
    } else {
      left[k] = std::max(0, profile.min_free(times[k], next));
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    while (left[i] > 0) {
      TimeSlot slot{times[i], horizon, left[i], identity ? left_on[i] : ProcessorSet{}};
      std::size_t last = i;
      for (std::size_t j = i + 1; j < n; ++j) {
        if (identity) {
          ProcessorSet still = slot.on;
          still &= left_on[j];
          if (still.empty()) { slot.end = times[j]; break; }
          slot.on = std::move(still);
          slot.processors = slot.on.count();
        } else {
          if (left[j] == 0) { slot.end = times[j]; break; }
          slot.processors = std::min(slot.processors, left[j]);
        }
        last = j;
      }
      for (std::size_t k = i; k <= last; ++k) {
        if (identity) {
          left_on[k].subtract(slot.on);
          left[k] = left_on[k].count();
        } else {
          left[k] -= slot.processors;
        }
      }
      slots.push_back(std::move(slot));
    }
  }
  return slots;
}

std::vector<TimeSlot> partition_slots(const AvailabilityProfile& profile, double from, double horizon,
                                      const cluster::Partitions& partitions, std::size_t q, int processors) {
  const int share = partitions.size(q, processors);
  std::vector<TimeSlot> out;
  if (share <= 0) return out;
  const ProcessorSet owned = partitions.owned(q, processors);
  for (TimeSlot slot : free_time_slots(profile, from, horizon)) {
    if (slot.processors > share) {
      slot.processors = share;
      if (!slot.on.empty()) slot.on = cluster::prefer_owned(slot.on, owned, share);
    }
    out.push_back(std::move(slot));
  }
  return out;
}

}  // namespace schedcheck
