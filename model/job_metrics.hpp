// Per-job metrics of a schedule and their statistics: wait, response, bounded slowdown (paper 002 sec. 5: bound
// 10 s, after Feitelson et al.), the improvement ratio R of paper 002 Eq. 2, and mean / median / p95 / max.
// Our own implementation; percentiles by nearest rank (the smallest value with at least p% of values <= it).
#pragma once

#include <cstddef>
#include <vector>

namespace schedcheck {

inline constexpr double kSlowdownBound = 10.0;  // seconds (paper 002: "bounded slowdown (bound=10 seconds)")

// max(1, (wait + run) / max(run, bound)).
double bounded_slowdown(double wait, double run, double bound = kSlowdownBound);

// Paper 002 Eq. 2 for one job: (s_base - s_new) / min(s_base, s_new). Positive: the new policy is better.
double improvement_ratio(double slowdown_base, double slowdown_new);

struct Stats {
  std::size_t count = 0;
  double mean = 0, median = 0, p95 = 0, max = 0;
};
// Statistics of `values` (taken by value: reordered). All zero when empty.
Stats statistics(std::vector<double> values);
// The nearest-rank percentile p in (0, 100] of sorted values.
double percentile_sorted(const std::vector<double>& sorted, double p);

}  // namespace schedcheck
