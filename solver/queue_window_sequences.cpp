// Queue windows by serial schedule generation over every job sequence, with branch and bound (see
// queue_window_exact.hpp). Our own. Bound: the cost so far plus, for every job not yet placed, its cost at the
// earliest start it could ever have (on the running jobs alone). Incumbent: the serial schedule of queue order.
#include "solver/queue_window_exact.hpp"
#include "support/stop.hpp"

#include "solver/serial_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace schedcheck::window {

JobGroups group_jobs(const Instance& instance) {
  JobGroups g;
  std::vector<std::size_t> by_submit(instance.waiting.size());
  std::iota(by_submit.begin(), by_submit.end(), std::size_t{0});
  std::stable_sort(by_submit.begin(), by_submit.end(),
                   [&](std::size_t a, std::size_t b) { return instance.waiting[a].submit < instance.waiting[b].submit; });
  std::map<std::tuple<int, double, double>, std::size_t> index;
  for (std::size_t i : by_submit) {
    const WaitingJob& w = instance.waiting[i];
    if (w.estimate <= 0) {
      g.zero.push_back(i);
      continue;
    }
    auto [it, fresh] = index.emplace(std::make_tuple(w.procs, w.estimate, w.submit), g.jobs.size());
    if (fresh) {
      g.jobs.push_back(SerialJob{w.procs, w.estimate, kForever, 0});
      g.members.emplace_back();
    }
    ++g.jobs[it->second].copies;
    g.members[it->second].push_back(i);
  }
  return g;
}

ExactResult<Schedule> solve_sequences(const Instance& instance, const SolveOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  const auto deadline = started + std::chrono::milliseconds(options.timeout_ms);
  ExactResult<Schedule> result;
  const JobGroups g = group_jobs(instance);
  std::size_t positive = 0;
  for (const auto& job : g.jobs) positive += static_cast<std::size_t>(job.copies);
  if (positive > kMaxSequenceJobs) {
    result.detail = fmt::format("sequences: {} jobs to order, the limit is {} (use gecode)", positive, kMaxSequenceJobs);
    result.seconds = seconds_since(started);
    return result;
  }
  auto combine = [&](double total, double cost) { return combine_costs(instance, total, cost); };
  const AvailabilityProfile base = running_profile(instance);

  // Costs of the zero-length jobs (at now), and each group's cheapest cost ever (its earliest possible start).
  double fixed = 0;
  for (std::size_t i : g.zero) fixed = combine(fixed, job_cost(instance, i, instance.now));
  std::vector<double> least(g.jobs.size());
  for (std::size_t k = 0; k < g.jobs.size(); ++k)
    least[k] = job_cost(instance, g.members[k].front(),
                        *base.earliest_start(g.jobs[k].procs, g.jobs[k].duration, instance.now));

  auto to_schedule = [&](const std::vector<SerialPlacement>& placed) {
    Schedule s;
    s.start.assign(instance.waiting.size(), instance.now);
    std::vector<std::size_t> used(g.jobs.size(), 0);
    for (const auto& p : placed) s.start[g.members[p.job][used[p.job]++]] = p.start;
    return s;
  };
  // The incumbent: queue order.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < instance.waiting.size(); ++i)
    for (std::size_t k = 0; k < g.jobs.size(); ++k)
      if (g.members[k].front() == i)
        for (long long c = 0; c < g.jobs[k].copies; ++c) order.push_back(k);
  Schedule best = to_schedule(*serial_schedule(base, instance.now, g.jobs, order));
  double best_cost = objective(instance, best);

  std::size_t nodes = 0, leaves = 0;
  EffortMeter effort(options.effort, 1, kWindowSequenceNodesPerUnit);
  bool stopped = false;
  search_serial_schedules(base, instance.now, g.jobs, [&](const std::vector<SerialPlacement>& placed) {
    if (effort.spend() || ((++nodes & 1023) == 0 && (Clock::now() >= deadline || stop_requested()))) {
      stopped = true;
      return Visit::kStop;
    }
    double cost = fixed;
    std::vector<long long> left(g.jobs.size());
    for (std::size_t k = 0; k < g.jobs.size(); ++k) left[k] = g.jobs[k].copies;
    for (const auto& p : placed) {
      cost = combine(cost, job_cost(instance, g.members[p.job].front(), p.start));
      --left[p.job];
    }
    double bound = cost;
    for (std::size_t k = 0; k < g.jobs.size(); ++k)
      for (long long c = 0; c < left[k]; ++c) bound = combine(bound, least[k]);
    const double slack = 1e-9 * std::max(1.0, std::abs(best_cost));
    if (placed.size() == positive) {
      ++leaves;
      if (cost < best_cost - slack) {
        best = to_schedule(placed);
        best_cost = cost;
      }
      return Visit::kPrune;
    }
    return bound >= best_cost - slack ? Visit::kPrune : Visit::kDescend;
  });
  result.decision = best;
  result.objective = objective(instance, best);
  result.status = stopped ? ExactStatus::kFeasible : ExactStatus::kOptimal;
  result.detail = stopped && effort.spent()
                      ? effort_budget_reached(options.effort,
                                              fmt::format(" after {} nodes: best schedule found, not proven", nodes))
                  : stopped ? fmt::format("time limit after {} nodes: best schedule found, not proven", nodes)
                          : fmt::format("{} nodes, {} complete sequences", nodes, leaves);
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::window
