// Seeded DBC broker instances, Table 1 and the load split, shrinking (see dbc_generator.hpp). Our own.
#include "counterexamples/dbc_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"

#include <fmt/format.h>

#include <cmath>

namespace schedcheck::dbc {

namespace {
double round_to(double value, double unit) { return std::round(value / unit) * unit; }
constexpr double kCosts[] = {50, 60, 70, 150, 200, 300, 400};
}  // namespace

Instance generate_instance(std::uint64_t seed, std::size_t jobs) {
  SplitMix64 rng(seed);
  Instance instance;
  instance.name = fmt::format("random-seed-{}-n{}", seed, jobs);
  const auto m = rng.integer(2, 4);
  for (long long r = 0; r < m; ++r) {
    Resource res;
    res.id = fmt::format("R{}", r + 1);
    res.pes = static_cast<int>(rng.integer(1, 3));
    res.mips = static_cast<double>(rng.integer(10, 20));
    res.cost = (r > 0 && rng.chance(0.3)) ? instance.resources.back().cost : kCosts[rng.integer(0, 6)];
    instance.resources.push_back(res);
  }
  for (std::size_t j = 0; j < jobs; ++j) {
    Job job;
    job.id = fmt::format("J{}", j + 1);
    job.length = round_to(rng.uniform(20, 300), 0.01);
    job.origin = rng.chance(0.5) ? Origin::kLocal : Origin::kGrid;
    instance.jobs.push_back(job);
  }
  instance.dfactor = round_to(rng.uniform(0.02, 0.5), 0.001);
  instance.bfactor = round_to(rng.uniform(0, 1), 0.001);
  if (rng.chance(0.2)) {
    instance.broker.max_proc = static_cast<int>(rng.integer(1, 2));
    instance.broker.max_pending_requests = static_cast<int>(rng.integer(1, 2));
  }
  instance.deadline = absolute_deadline(instance, *instance.dfactor);
  instance.budget = absolute_budget(instance, *instance.bfactor);
  if (rng.chance(0.3))  // requests shorter than the deadline: a PE runs several (paper 001, maxTr per request)
    instance.broker.max_tr = std::max(0.01, round_to(instance.deadline * rng.uniform(0.25, 1.0), 0.01));
  return instance;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  ShrinkCandidates<Instance> candidates(instance, [](Instance& c) {
    if (c.dfactor) c.deadline = absolute_deadline(c, *c.dfactor);
    if (c.bfactor) c.budget = absolute_budget(c, *c.bfactor);
    return true;
  });
  auto variant = [&](auto&& change) { candidates.add(change); };
  candidates.drop_each(&Instance::jobs);
  if (instance.resources.size() > 1)
    for (std::size_t r = 0; r < instance.resources.size(); ++r)
      variant([&](Instance& c) { c.resources.erase(c.resources.begin() + static_cast<std::ptrdiff_t>(r)); });
  if (instance.dfactor) variant([](Instance& c) { c.dfactor.reset(); c.deadline = std::ceil(c.deadline * 100) / 100; });
  if (instance.bfactor) variant([](Instance& c) { c.bfactor.reset(); c.budget = std::ceil(c.budget); });
  const Broker defaults;
  if (instance.broker.max_proc != defaults.max_proc || instance.broker.max_pending_requests != defaults.max_pending_requests)
    variant([&](Instance& c) {
      c.broker.max_proc = defaults.max_proc;
      c.broker.max_pending_requests = defaults.max_pending_requests;
    });
  if (std::isfinite(instance.broker.max_tr)) {
    variant([&](Instance& c) { c.broker.max_tr = defaults.max_tr; });
    const double rounded = std::ceil(instance.broker.max_tr);
    if (rounded != instance.broker.max_tr) variant([&](Instance& c) { c.broker.max_tr = rounded; });
  }
  for (std::size_t r = 0; r < instance.resources.size(); ++r) {
    if (instance.resources[r].pes > 1) variant([&](Instance& c) { c.resources[r].pes -= 1; });
    const double mips = std::max(1.0, std::round(instance.resources[r].mips));
    if (mips != instance.resources[r].mips) variant([&](Instance& c) { c.resources[r].mips = mips; });
  }
  for (std::size_t j = 0; j < instance.jobs.size(); ++j) {
    for (double unit : {10.0, 1.0}) {
      const double rounded = std::max(unit, round_to(instance.jobs[j].length, unit));
      if (rounded != instance.jobs[j].length) variant([&](Instance& c) { c.jobs[j].length = rounded; });
    }
    if (instance.jobs[j].origin == Origin::kLocal) variant([&](Instance& c) { c.jobs[j].origin = Origin::kGrid; });
  }
  return candidates.take();
}

std::vector<Resource> paper_table1_resources() {
  const int pes[] = {1, 2, 3, 3, 2, 1, 2, 5, 3, 3};
  const double mips[] = {12, 13, 15, 20, 12, 11, 10, 10, 20, 12};
  const double cost[] = {200, 300, 210, 400, 50, 60, 70, 150, 400, 50};
  std::vector<Resource> out;
  for (int r = 0; r < 10; ++r) out.push_back(Resource{fmt::format("R{}", r + 1), pes[r], mips[r], cost[r]});
  return out;
}

std::vector<double> split_load(double total, std::size_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<double> weights(n), lengths(n);
  double sum = 0;
  for (auto& w : weights) sum += (w = rng.uniform(0.5, 1.5));
  double used = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) used += (lengths[i] = round_to(total * weights[i] / sum, 0.01));
  if (n > 0) lengths[n - 1] = round_to(total - used, 0.01);
  return lengths;
}

}  // namespace schedcheck::dbc
