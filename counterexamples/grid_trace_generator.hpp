// A seeded synthetic grid workload for benchmarks at scale: serial jobs (one processor each) in bursts, with run
// times and queue limits shaped after LPC-EGEE-2004 (../shared/traces: the real trace of this shape). Our own.
// Limits: one processor a job; the offered load is exact over the submission span, not over any shorter window.
#pragma once

#include "model/workload.hpp"

#include <cstddef>
#include <cstdint>

namespace schedcheck::workload {

struct GridTraceSettings {
  std::uint64_t seed = 1;
  std::size_t jobs = 200000;
  int processors = 1200;
  double load = 0.95;      // offered load: total run time / (processors x time from first to last submission)
  double bag_mean = 50;    // jobs a burst, on average (geometric); a burst's jobs are submitted in the same second
};

// Throws std::invalid_argument on settings out of range (jobs 1..10^7, processors 1..10^7, load in (0, 100],
// bag_mean in [1, jobs]).
// Run times: the quantiles of LPC-EGEE's run times (10%: 4 s, 25%: 6 s, median 14 s, 75%: 246 s, 90%: 3,006 s,
// 99%: 82,033 s, at most 259,200 s), log-uniform between them, whole seconds. Estimate: the shortest of LPC-EGEE's
// queue limits (900, 3,600, 7,200, 86,400, 129,600, 259,200 s) not below the run time. Bursts arrive as a Poisson
// process, scaled so that the offered load is `load`.
Workload generate_grid_trace(const GridTraceSettings& settings);

}  // namespace schedcheck::workload
