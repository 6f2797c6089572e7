// Per-job metrics and statistics (see job_metrics.hpp). Our own.
#include "model/job_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedcheck {

double bounded_slowdown(double wait, double run, double bound) {
  return std::max(1.0, (wait + run) / std::max(run, bound));
}

double improvement_ratio(double slowdown_base, double slowdown_new) {
  return (slowdown_base - slowdown_new) / std::min(slowdown_base, slowdown_new);
}

double percentile_sorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const std::size_t index = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(sorted.size()))) - 1;
  return sorted[index];
}

Stats statistics(std::vector<double> values) {
  Stats s;
  s.count = values.size();
  if (values.empty()) return s;
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  // Nearest ranks by selection (linear), not a full sort.
  auto rank = [&](double p) {
    const double r = std::ceil(p / 100.0 * static_cast<double>(values.size()));
    const auto k = static_cast<std::ptrdiff_t>(std::clamp(r, 1.0, static_cast<double>(values.size()))) - 1;
    std::nth_element(values.begin(), values.begin() + k, values.end());
    return values[static_cast<std::size_t>(k)];
  };
  s.max = *std::max_element(values.begin(), values.end());
  s.p95 = rank(95);
  s.median = rank(50);
  return s;
}

}  // namespace schedcheck
