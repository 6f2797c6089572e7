// The availability profile: free processors of a space-shared machine as a step function of time.
// Our own (the usual conservative-backfilling profile, cf. paper 002 "availability profile").
// Exact on the times it is given; breakpoints closer than kTimeTolerance are one breakpoint.
#pragma once

#include <limits>
#include <optional>
#include <vector>

namespace schedcheck {

// Times are seconds; breakpoints within this distance are treated as the same instant, so that a
// rational start time from an exact solver, rounded to a double, does not create a phantom overlap.
inline constexpr double kTimeTolerance = 1e-6;
inline constexpr double kForever = std::numeric_limits<double>::infinity();

class AvailabilityProfile {
public:
  struct Step {
    double time;     // from this time ...
    int free;        // ... until the next step's time, this many processors are free (may be < 0: over-used)
  };

  explicit AvailabilityProfile(int processors);

  int capacity() const { return capacity_; }
  const std::vector<Step>& steps() const { return steps_; }

  // Marks `processors` as busy over [start, end). Never refuses: over-use shows as free < 0.
  void reserve(double start, double end, int processors);
  // Fewest free processors at any instant of [start, end).
  int min_free(double start, double end) const;
  // Earliest t >= not_before with at least `processors` free over [t, t + duration); nullopt when more
  // processors are asked for than the machine has, or the start would be later than latest_start.
  std::optional<double> earliest_start(int processors, double duration, double not_before,
                                       double latest_start = kForever) const;

private:
  std::size_t step_index_at(double t) const;  // the step in force at t
  std::size_t split_at(double t);             // ensures a breakpoint at t (snapped), returns its index

  int capacity_;
  std::vector<Step> steps_;  // sorted by time, steps_[0].time == -infinity
};

}  // namespace schedcheck
