// The synthetic grid workload (see grid_trace_generator.hpp). Our own.
#include "counterexamples/grid_trace_generator.hpp"

#include "counterexamples/rng.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace schedcheck::workload {

namespace {

// LPC-EGEE-2004-1.2-cln: quantiles of the run times of its 214,322 jobs with a run time (probability, seconds).
constexpr std::array<std::pair<double, double>, 8> kRunQuantiles{{
    {0.0, 1}, {0.10, 4}, {0.25, 6}, {0.50, 14}, {0.75, 246}, {0.90, 3006}, {0.99, 82033}, {1.0, 259200}}};
constexpr std::array<double, 6> kQueueLimits{900, 3600, 7200, 86400, 129600, 259200};

double draw_run(SplitMix64& rng) {
  const double u = rng.uniform(0, 1);
  std::size_t k = 1;
  while (k + 1 < kRunQuantiles.size() && u >= kRunQuantiles[k].first) ++k;
  const auto [p0, lo] = kRunQuantiles[k - 1];
  const auto [p1, hi] = kRunQuantiles[k];
  const double within = (u - p0) / (p1 - p0);  // log-uniform between the two quantiles
  return std::clamp(std::round(lo * std::pow(hi / lo, within)), 1.0, kRunQuantiles.back().second);
}

}  // namespace

Workload generate_grid_trace(const GridTraceSettings& s) {
  if (s.jobs < 1 || s.jobs > 10000000) throw std::invalid_argument("jobs: expected 1 to 10,000,000");
  if (s.processors < 1 || s.processors > 10000000) throw std::invalid_argument("processors: expected 1 to 10,000,000");
  if (!(s.load > 0 && s.load <= 100)) throw std::invalid_argument("load: expected a number in (0, 100]");
  if (!(s.bag_mean >= 1 && s.bag_mean <= static_cast<double>(s.jobs)))
    throw std::invalid_argument("bag mean: expected 1 to the number of jobs");
  SplitMix64 rng(s.seed);
  Workload w;
  w.name = "grid-seed" + std::to_string(s.seed);
  w.processors = s.processors;
  w.processors_from = "instance";
  w.jobs.reserve(s.jobs);
  // Bursts first on an arbitrary clock (exponential gaps of mean 1, geometric sizes), then one scale so that the
  // total run time is `load` x processors x the span of submissions.
  double clock = 0, work = 0;
  std::vector<double> at;
  at.reserve(s.jobs);
  while (w.jobs.size() < s.jobs) {
    if (!w.jobs.empty()) clock += -std::log(1 - rng.uniform(0, 1));
    std::size_t bag = 1;
    while (rng.uniform(0, 1) >= 1 / s.bag_mean) ++bag;
    for (std::size_t k = 0; k < bag && w.jobs.size() < s.jobs; ++k) {
      Job job;
      job.id = static_cast<std::int64_t>(w.jobs.size() + 1);
      job.procs = 1;
      job.run = draw_run(rng);
      job.estimate = *std::lower_bound(kQueueLimits.begin(), kQueueLimits.end(), job.run);
      work += job.run;
      at.push_back(clock);
      w.jobs.push_back(job);
    }
  }
  const double span = work / (s.load * s.processors);
  const double scale = clock > 0 ? span / clock : 0;
  for (std::size_t i = 0; i < w.jobs.size(); ++i) w.jobs[i].submit = std::floor(at[i] * scale);
  w.records = w.jobs.size();
  return w;
}

}  // namespace schedcheck::workload
