// Properties of a run of paper 000's system (see metascheduler_properties.hpp).
#include "properties/metascheduler_properties.hpp"

#include "model/profile.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace schedcheck::metascheduler {

namespace {

std::string name_of(const System& system, const Job& job) {
  return job.bot() ? fmt::format("BoT {}", job.trace_id)
                   : fmt::format("job {} of {}", job.trace_id, system.clusters[job.cluster].name);
}

struct Tally {
  std::vector<RunPropertyResult> results;
  void fail(std::size_t k, const std::string& message) {
    if (results[k].violations++ == 0) results[k].first = message;
  }
};

}  // namespace

const std::vector<PropertyInfo>& run_properties() {
  static const std::vector<PropertyInfo> all = {
      {"no-accepted-deadline-violation", "paper 000 sec. III-A (offers that do not violate accepted deadlines)",
       "every job a provider accepted, and every BoT part, finishes by the deadline it was accepted with (its own, or "
       "the FEEDBACK deadline or offer completion the system gave)"},
      {"tasks-conserved", "paper 000 sec. IV (a composition splits the BoT's n tasks)",
       "every local job runs once, whole, on its cluster; every task of every BoT runs exactly once, each cluster "
       "running exactly the tasks of the part it accepted"},
      {"capacity", "paper 000 sec. III-A (space-shared clusters)",
       "at every instant the jobs and tasks running on a cluster hold at most its processors"},
  };
  return all;
}

std::vector<RunPropertyResult> check_run(const System& system, const RunLog& run) {
  Tally tally;
  for (const auto& p : run_properties()) tally.results.push_back({p.name, 0, ""});
  enum { kDeadline, kConserved, kCapacity };
  // Processors each job (each part of a BoT) ran, from the executions.
  std::vector<std::vector<long long>> ran(run.jobs.size());
  std::vector<std::size_t> runs(run.jobs.size(), 0);
  for (std::size_t c = 0; c < run.executions.size(); ++c) {
    std::vector<std::pair<double, long long>> use;
    for (const Execution& x : run.executions[c]) {
      const Job& job = run.jobs.at(x.job);
      const JobLog& log = run.logs[x.job];
      double deadline = log.new_deadline;
      if (job.bot()) {
        if (x.part >= log.parts.size() || log.parts[x.part].cluster != c) {
          tally.fail(kConserved, fmt::format("{}: tasks ran on {} at t={}, which accepted no part of it",
                                             name_of(system, job), system.clusters[c].name, x.start));
          continue;
        }
        deadline = log.parts[x.part].deadline;
        if (ran[x.job].size() < log.parts.size()) ran[x.job].resize(log.parts.size(), 0);
        ran[x.job][x.part] += x.procs;
      } else {
        if (job.cluster != c || x.procs != job.procs)
          tally.fail(kConserved, fmt::format("{}: ran on {} with {} processors (it asked {} of {})", name_of(system, job),
                                             system.clusters[c].name, x.procs, job.procs,
                                             system.clusters[job.cluster].name));
        ++runs[x.job];
      }
      if (x.end > deadline + kTimeTolerance)
        tally.fail(kDeadline, fmt::format("{}: {} finishes at t={} after the deadline it was accepted with, {}",
                                          system.clusters[c].name, name_of(system, job), x.end, deadline));
      use.emplace_back(x.start, x.procs);
      use.emplace_back(x.end - kTimeTolerance, -x.procs);  // an end within the tolerance of a start comes first
    }
    std::sort(use.begin(), use.end());
    long long held = 0;
    for (const auto& [time, delta] : use) {
      held += delta;
      if (held > system.clusters[c].processors) {
        tally.fail(kCapacity, fmt::format("{}: {} processors held at t={}, of {}", system.clusters[c].name, held, time,
                                          system.clusters[c].processors));
        break;
      }
    }
  }
  for (std::size_t j = 0; j < run.jobs.size(); ++j) {
    const Job& job = run.jobs[j];
    const JobLog& log = run.logs[j];
    if (!job.bot()) {
      if (runs[j] != 1)
        tally.fail(kConserved, fmt::format("{} ran {} times", name_of(system, job), runs[j]));
      continue;
    }
    long long assigned = 0;
    for (std::size_t p = 0; p < log.parts.size(); ++p) {
      assigned += log.parts[p].tasks;
      const long long did = p < ran[j].size() ? ran[j][p] : 0;
      if (did != log.parts[p].tasks)
        tally.fail(kConserved, fmt::format("{}: {} accepted {} tasks and ran {}", name_of(system, job),
                                           system.clusters[log.parts[p].cluster].name, log.parts[p].tasks, did));
    }
    if (assigned != job.procs)
      tally.fail(kConserved, fmt::format("{} at t={}: {} tasks, {} given to clusters{}", name_of(system, job), job.submit,
                                         job.procs, assigned, assigned < job.procs ? " (the rest never run)" : ""));
  }
  return tally.results;
}

}  // namespace schedcheck::metascheduler
