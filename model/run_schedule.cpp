// The run validator and run metrics (see run_schedule.hpp). Our own: a sweep over start/end events, and per
// processor a sort of its holding intervals.
#include "model/run_schedule.hpp"

#include "model/job_metrics.hpp"
#include "model/processor_set.hpp"
#include "model/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace schedcheck {

RunMetrics run_metrics(const workload::Workload& w, const RunSchedule& s) {
  RunMetrics m;
  double slowdown = 0, wait = 0;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    if (s.start[j] < 0 || s.end[j] < 0) continue;
    ++m.finished;
    const double waited = s.start[j] - w.jobs[j].submit;
    slowdown += bounded_slowdown(waited, s.end[j] - s.start[j]);
    wait += waited;
    m.max_wait = std::max(m.max_wait, waited);
  }
  if (m.finished) {
    m.mean_slowdown = slowdown / static_cast<double>(m.finished);
    m.mean_wait = wait / static_cast<double>(m.finished);
  }
  return m;
}

Verdict validate_run(const workload::Workload& w, const RunSchedule& s, bool durations) {
  Verdict v;
  auto fail = [&](std::string why) {
    v.feasible = false;
    v.reason = std::move(why);
    return v;
  };
  const std::size_t n = w.jobs.size();
  if (s.start.size() != n || s.end.size() != n || (!s.allocated.empty() && s.allocated.size() != n))
    return fail(fmt::format("the schedule lists {} jobs, the workload has {}", s.start.size(), n));
  for (std::size_t j = 0; j < n; ++j) {
    const auto& job = w.jobs[j];
    if (s.start[j] < 0) return fail(fmt::format("job {} never starts", job.id));
    if (s.end[j] < s.start[j]) return fail(fmt::format("job {} ends at {:g} before it starts at {:g}", job.id, s.end[j], s.start[j]));
    if (s.start[j] < job.submit - kTimeTolerance)
      return fail(fmt::format("job {} starts at {:g}, before its submit time {:g}", job.id, s.start[j], job.submit));
    const double ran = s.end[j] - s.start[j];
    if (durations && std::abs(ran - job.runtime()) > kTimeTolerance * std::max(1.0, ran))
      return fail(fmt::format("job {} runs {:g} s ({:g} to {:g}); it should run min(run {:g}, estimate {:g}) = {:g}", job.id,
                              ran, s.start[j], s.end[j], job.run, job.estimate, job.runtime()));
  }
  if (std::string why = capacity_violation(w, s); !why.empty()) return fail(why);
  if (std::string why = processor_violation(w, s); !why.empty()) return fail(why);
  v.objective = run_metrics(w, s).mean_slowdown;
  return v;
}

std::string capacity_violation(const workload::Workload& w, const RunSchedule& s) {
  // (time, 0 = end / 1 = start, processors): at equal times ends first, and an end within kTimeTolerance of a start
  // counts as before it (times written by another program may differ in their last digits).
  std::vector<std::tuple<double, int, int>> events;
  for (std::size_t j = 0; j < w.jobs.size() && j < s.start.size(); ++j) {
    if (s.start[j] < 0 || !(s.end[j] > s.start[j])) continue;  // not started, or length 0: holds nothing
    events.emplace_back(s.end[j] - kTimeTolerance, 0, -w.jobs[j].procs);
    events.emplace_back(s.start[j], 1, w.jobs[j].procs);
  }
  std::sort(events.begin(), events.end());
  int used = 0;
  for (const auto& [time, kind, delta] : events) {
    used += delta;
    if (used > w.processors)
      return fmt::format("at t = {:g}, {} processors are in use on a machine of {}", time, used, w.processors);
  }
  return "";
}

std::string processor_violation(const workload::Workload& w, const RunSchedule& s) {
  if (s.allocated.empty()) return "";
  std::vector<std::vector<std::pair<double, double>>> held(static_cast<std::size_t>(w.processors));
  std::vector<std::vector<std::int64_t>> holder(static_cast<std::size_t>(w.processors));
  for (std::size_t j = 0; j < w.jobs.size() && j < s.allocated.size(); ++j) {
    if (!s.allocated[j] || s.start[j] < 0) continue;
    std::string error;
    const auto set = ProcessorSet::parse_intervals(*s.allocated[j], w.processors, &error);
    if (!set) return fmt::format("job {}: processors \"{}\": {}", w.jobs[j].id, *s.allocated[j], error);
    if (!(s.end[j] > s.start[j])) continue;
    if (set->count() != w.jobs[j].procs)
      return fmt::format("job {} holds {} processors ({}), it asked {}", w.jobs[j].id, set->count(), *s.allocated[j],
                         w.jobs[j].procs);
    for (int p : set->members()) {
      held[static_cast<std::size_t>(p)].emplace_back(s.start[j], s.end[j]);
      holder[static_cast<std::size_t>(p)].push_back(w.jobs[j].id);
    }
  }
  for (std::size_t p = 0; p < held.size(); ++p) {
    std::vector<std::size_t> order(held[p].size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return held[p][a] < held[p][b]; });
    for (std::size_t k = 1; k < order.size(); ++k) {
      const auto& a = held[p][order[k - 1]];
      const auto& b = held[p][order[k]];
      if (b.first < a.second - kTimeTolerance)
        return fmt::format("processor {} is held by job {} over [{:g}, {:g}) and by job {} from {:g}", p,
                           holder[p][order[k - 1]], a.first, a.second, holder[p][order[k]], b.first);
    }
  }
  return "";
}

}  // namespace schedcheck
