// The availability profile (see profile.hpp). Our own.
#include "model/profile.hpp"

#include <algorithm>
#include <cmath>

namespace schedcheck {

AvailabilityProfile::AvailabilityProfile(int processors)
    : capacity_(processors), steps_{{-kForever, processors}} {}

std::size_t AvailabilityProfile::step_index_at(double t) const {
  // Last step whose time is <= t (+ tolerance: an instant within tolerance of a breakpoint is that breakpoint).
  auto it = std::upper_bound(steps_.begin(), steps_.end(), t + kTimeTolerance,
                             [](double value, const Step& s) { return value < s.time; });
  return static_cast<std::size_t>(it - steps_.begin()) - 1;
}

std::size_t AvailabilityProfile::split_at(double t) {
  const std::size_t i = step_index_at(t);
  if (std::fabs(steps_[i].time - t) <= kTimeTolerance) return i;
  steps_.insert(steps_.begin() + static_cast<std::ptrdiff_t>(i) + 1, Step{t, steps_[i].free});
  return i + 1;
}

void AvailabilityProfile::reserve(double start, double end, int processors) {
  if (!(end > start + kTimeTolerance) || processors == 0) return;
  const std::size_t first = split_at(start);
  const std::size_t last = split_at(end);  // exclusive; indices before `last` are unaffected by this insert
  for (std::size_t i = first; i < last; ++i) steps_[i].free -= processors;
}

int AvailabilityProfile::min_free(double start, double end) const {
  std::size_t i = step_index_at(start);
  int lowest = steps_[i].free;
  for (++i; i < steps_.size() && steps_[i].time < end - kTimeTolerance; ++i) lowest = std::min(lowest, steps_[i].free);
  return lowest;
}

std::optional<double> AvailabilityProfile::earliest_start(int processors, double duration, double not_before,
                                                          double latest_start) const {
  if (processors > capacity_) return std::nullopt;
  // Candidate starts: not_before and every later breakpoint (a window can only open at a breakpoint).
  double candidate = not_before;
  std::size_t i = step_index_at(not_before);
  while (candidate <= latest_start + kTimeTolerance) {
    // Scan forward from the candidate; jump past the first step that lacks processors.
    std::size_t j = i;
    bool fits = true;
    while (j < steps_.size() && (j == i || steps_[j].time < candidate + duration - kTimeTolerance)) {
      if (steps_[j].free < processors) {
        fits = false;
        break;
      }
      ++j;
    }
    if (fits) return candidate;
    // Next candidate: the first breakpoint after the blocking step j.
    if (j + 1 >= steps_.size()) return std::nullopt;  // blocked forever (cannot happen once jobs end)
    i = j + 1;
    candidate = steps_[i].time;
  }
  return std::nullopt;
}

}  // namespace schedcheck
