// The run validator and run metrics (see run_schedule.hpp). Our own: a sweep over start/end events, and one pass
// over the holding intervals in start order with the last holder of each processor.
#include "model/run_schedule.hpp"

#include "model/job_metrics.hpp"
#include "model/processor_set.hpp"
#include "model/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
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
    if (s.end[j] < s.start[j]) return fail(fmt::format("job {} ends at {} before it starts at {}", job.id, s.end[j], s.start[j]));
    if (s.start[j] < job.submit - kTimeTolerance)
      return fail(fmt::format("job {} starts at {}, before its submit time {}", job.id, s.start[j], job.submit));
    const double ran = s.end[j] - s.start[j];
    if (durations && std::abs(ran - job.runtime()) > kTimeTolerance * std::max(1.0, ran))
      return fail(fmt::format("job {} runs {} s ({} to {}); it should run min(run {}, estimate {}) = {}", job.id,
                              ran, s.start[j], s.end[j], job.run, job.estimate, job.runtime()));
  }
  if (std::string why = capacity_violation(w, s); !why.empty()) return fail(why);
  if (std::string why = processor_violation(w, s); !why.empty()) return fail(why);
  v.objective = run_metrics(w, s).mean_slowdown;
  return v;
}

std::string capacity_violation(const workload::Workload& w, const RunSchedule& s, double* at, std::int64_t* job) {
  // (time, 0 = end / 1 = start, job): at equal times ends first, and an end within kTimeTolerance of a start counts as
  // before it (times written by another program may differ in their last digits).
  std::vector<std::tuple<double, int, std::size_t>> events;
  for (std::size_t j = 0; j < w.jobs.size() && j < s.start.size(); ++j) {
    if (s.start[j] < 0 || !(s.end[j] > s.start[j])) continue;  // not started, or length 0: holds nothing
    events.emplace_back(s.end[j] - kTimeTolerance, 0, j);
    events.emplace_back(s.start[j], 1, j);
  }
  std::sort(events.begin(), events.end());
  int used = 0;
  std::set<std::size_t> running;  // job indices, in queue order
  for (const auto& [time, kind, j] : events) {
    if (kind == 0) {
      used -= w.jobs[j].procs;
      running.erase(j);
      continue;
    }
    used += w.jobs[j].procs;
    if (used <= w.processors) {
      running.insert(j);
      continue;
    }
    // The start that overfills the machine, and every job holding processors then.
    if (at) *at = time;
    if (job) *job = w.jobs[j].id;
    std::string holders;
    std::size_t named = 0;
    for (const std::size_t k : running) {
      if (named == 10) break;
      holders += fmt::format("{}job {} ({})", named++ ? ", " : "", w.jobs[k].id, w.jobs[k].procs);
    }
    if (running.size() > named) holders += fmt::format(" and {} more", running.size() - named);
    return fmt::format("at t = {}, {} processors are in use on a machine of {}: job {} ({} processors) starts while "
                       "{} {} the rest", time, used, w.processors, w.jobs[j].id, w.jobs[j].procs, holders,
                       running.size() == 1 ? "holds" : "hold");
  }
  return "";
}

std::string processor_violation(const workload::Workload& w, const RunSchedule& s, double* at, std::int64_t* job) {
  if (s.allocated.empty()) return "";
  // Pass 1, in job order: every set parses and has the job's size; the members kept flat (job j: [first[j],
  // first[j + 1])).
  const std::size_t n = std::min(w.jobs.size(), s.allocated.size());
  std::vector<int> members;
  std::vector<std::size_t> first(n + 1, 0), held;
  for (std::size_t j = 0; j < n; ++j) {
    first[j] = members.size();
    if (!s.allocated[j] || s.start[j] < 0) continue;
    std::string error;
    const auto set = ProcessorSet::parse_intervals(*s.allocated[j], w.processors, &error);
    if (at) *at = s.start[j];
    if (job) *job = w.jobs[j].id;
    if (!set) return fmt::format("job {}: processors \"{}\": {}", w.jobs[j].id, *s.allocated[j], error);
    if (!(s.end[j] > s.start[j])) continue;
    if (set->count() != w.jobs[j].procs)
      return fmt::format("job {} holds {} processors ({}), it asked {}", w.jobs[j].id, set->count(), *s.allocated[j],
                         w.jobs[j].procs);
    for (int p : set->members()) members.push_back(p);
    held.push_back(j);
  }
  first[n] = members.size();
  // Pass 2: the holding intervals in (start, end) order; on each processor an interval overlapping the one before it
  // there is a double booking. Reported: the lowest processor with one, its first such pair in that order.
  std::stable_sort(held.begin(), held.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(s.start[a], s.end[a]) < std::pair(s.start[b], s.end[b]);
  });
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> last(static_cast<std::size_t>(w.processors), none);
  std::vector<std::pair<std::size_t, std::size_t>> clash(static_cast<std::size_t>(w.processors), {none, none});
  for (std::size_t j : held)
    for (std::size_t k = first[j]; k < first[j + 1]; ++k) {
      const auto p = static_cast<std::size_t>(members[k]);
      if (last[p] != none && clash[p].first == none && s.start[j] < s.end[last[p]] - kTimeTolerance)
        clash[p] = {last[p], j};
      last[p] = j;
    }
  for (std::size_t p = 0; p < clash.size(); ++p) {
    if (clash[p].first == none) continue;
    const auto [a, b] = clash[p];
    if (at) *at = s.start[b];
    if (job) *job = w.jobs[b].id;
    return fmt::format("processor {} is held by job {} over [{}, {}) and by job {} from {}", p, w.jobs[a].id,
                       s.start[a], s.end[a], w.jobs[b].id, s.start[b]);
  }
  return "";
}

}  // namespace schedcheck
