// The schedule of a whole run on one cluster (when each job started and ended, on which processors) and the one
// validator of such schedules, independent of any simulator: it recomputes capacity by a sweep over the starts and
// ends, processor exclusivity per processor, durations and submit times, and the run's metrics. Used by the
// cluster-run problem (our runs) and by `schedcheck audit` (other simulators' runs). Our own.
#pragma once

#include "model/verdict.hpp"
#include "model/workload.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck {

struct RunSchedule {
  std::vector<double> start;                           // per job of the workload; < 0: never started
  std::vector<double> end;                             // per job; < 0: never ended
  std::vector<std::optional<std::string>> allocated;   // per job: processors in Batsim's interval syntax, if known
};

struct RunMetrics {
  std::size_t finished = 0;
  double mean_slowdown = 0;  // bounded slowdown (bound 10 s) over the finished jobs
  double max_wait = 0;
  double mean_wait = 0;
};
RunMetrics run_metrics(const workload::Workload& workload, const RunSchedule& schedule);

// Every job started once at or after its submit time and ended exactly min(run, estimate) later (`durations`:
// check that), at most P processors in use at any instant (a job of length 0 uses none), and with allocations
// every job on as many distinct processors as it asked, no processor held by two jobs at once. The objective is
// the mean bounded slowdown. The first violation found, in that order, is the reason.
Verdict validate_run(const workload::Workload& workload, const RunSchedule& schedule, bool durations = true);

// The parts of validate_run that also make sense for a partial schedule (jobs with start < 0 are left out):
// "" or the first instant with more than P processors in use; "" or the first processor held twice (or a job on
// a wrong number of processors, or an allocation that does not parse). `at`: the instant of the violation (the start
// that overfills the machine, the second job's start on a processor held twice, the job's start); `job`: the id of the
// job whose start breaks it. An overfull machine's reason names that job and the jobs holding processors then (the
// first ten in queue order, and how many more).
std::string capacity_violation(const workload::Workload& workload, const RunSchedule& schedule, double* at = nullptr,
                               std::int64_t* job = nullptr);
std::string processor_violation(const workload::Workload& workload, const RunSchedule& schedule, double* at = nullptr,
                                std::int64_t* job = nullptr);

}  // namespace schedcheck
