// The summary of a run (jobs simulated and skipped by reason, makespan, utilisation, wait / response / bounded
// slowdown statistics, speed) and its per-job CSV rows. Our own. Warm-up trimming as in paper 002 sec. 5:
// metrics count the jobs submitted after the warm-up, and with stop-at-last-arrival the run ends at the last
// submission (jobs still waiting or running then are not measured).
#pragma once

#include "model/job_metrics.hpp"
#include "model/jobs_csv.hpp"
#include "model/workload.hpp"
#include "simulation/simulation.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace schedcheck::sim {

struct MetricsWindow {
  double warmup = 0;                 // seconds after the first submission whose jobs are not measured
  bool stop_at_last_arrival = false; // the run ends at the last submission (set RunOptions::stop_time with it)
};

struct RunSummary {
  std::size_t records = 0, simulated = 0, finished = 0, waiting = 0, running = 0;
  std::array<std::size_t, static_cast<std::size_t>(workload::Skip::kCount)> skipped{};
  std::size_t killed = 0;            // finished jobs cut at their estimate
  std::size_t rejected = 0;          // jobs a policy rejected (they never ran)
  std::size_t measured = 0;          // finished jobs inside the metrics window
  double window_from = 0, window_to = 0;
  double makespan = 0;               // last finish - first submission
  double utilisation = 0;            // busy processor-seconds / (processors x window), over the window
  Stats wait, response, slowdown;    // of the measured jobs; slowdown = bounded slowdown (bound 10 s)
  std::size_t events = 0, passes = 0, starts = 0, backfilled = 0, max_queue = 0, messages = 0;
  double wall_seconds = 0;
  bool stopped = false;
  bool interrupted = false;  // SIGINT/SIGTERM cut the run (support/stop.hpp): the metrics cover the jobs finished by then
};

RunSummary summarise(const workload::Workload& workload, const RunResult& result, int processors,
                     const MetricsWindow& window);
nlohmann::json to_json(const RunSummary& summary);

// The per-job row of job j (finished jobs only: the CSV lists the jobs that ran).
jobs_csv::Row job_row(const workload::Job& job, const JobRecord& record, const std::string& workload_name);

}  // namespace schedcheck::sim
