// Playing a policy forward on a queue window, and cutting windows from a run (see window.hpp). Our own.
#include "simulation/window.hpp"

#include "simulation/replay.hpp"
#include "simulation/summary.hpp"

#include <cmath>
#include <set>
#include <stdexcept>

namespace schedcheck::sim {

namespace {
// The window as a workload that reaches the cluster at now: its running jobs, then its waiting jobs in queue order,
// each running exactly its estimate (ids 0, 1, ... in that order).
workload::Workload at_now(const window::Instance& instance) {
  workload::Workload w;
  w.name = instance.name;
  w.processors = instance.processors;
  std::int64_t id = 0;
  for (const auto& r : instance.running)
    w.jobs.push_back(workload::Job{id++, instance.now, r.remaining, r.remaining, r.procs});
  for (const auto& q : instance.waiting)
    w.jobs.push_back(workload::Job{id++, instance.now, q.estimate, q.estimate, q.procs});
  return w;
}
}  // namespace

window::Schedule play_forward(const window::Instance& instance, const cluster::ClusterPolicy& policy) {
  const workload::Workload w = at_now(instance);
  RunOptions options = single_cluster(w, policy);
  options.stops_on_request = false;  // a window (no arrivals) always ends; cut short, its jobs would never start
  Simulation simulation(w.jobs, options);
  const RunResult result = simulation.run();
  for (std::size_t r = 0; r < instance.running.size(); ++r)
    if (result.records[r].start != instance.now)
      throw std::logic_error("play_forward: a running job of the window did not start at now");
  window::Schedule schedule;
  for (std::size_t q = 0; q < instance.waiting.size(); ++q)
    schedule.start.push_back(result.records[instance.running.size() + q].start);
  return schedule;
}

std::vector<jobs_csv::Row> window_rows(const window::Instance& instance, const window::Schedule& schedule) {
  const workload::Workload w = at_now(instance);
  Script script;
  script.start.assign(instance.running.size(), instance.now);
  script.start.insert(script.start.end(), schedule.start.begin(), schedule.start.end());
  script.start.resize(w.jobs.size(), instance.now);
  for (std::size_t j = 0; j < w.jobs.size(); ++j) script.end.push_back(script.start[j] + w.jobs[j].estimate);
  script.on.resize(w.jobs.size());
  ClusterSetup setup = single_cluster(w, cluster::cluster_policy("fcfs")).clusters.front();  // fcfs: no reservations
  const RunResult result = replay(w.jobs, std::move(setup), script, {}, RunLimits{kForever, false});
  std::vector<jobs_csv::Row> rows;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    const bool running = j < instance.running.size();
    workload::Job job = w.jobs[j];
    job.submit = running ? instance.now : instance.waiting[j - instance.running.size()].submit;
    jobs_csv::Row row = job_row(job, result.records[j], instance.name);
    row.job_id = running ? instance.running[j].id : instance.waiting[j - instance.running.size()].id;
    rows.push_back(std::move(row));
  }
  return rows;
}

window::Instance cut_window(const ClusterState& state, const std::vector<workload::Job>& jobs, double now,
                            std::size_t first_k, window::Objective objective) {
  window::Instance w;
  std::set<std::string> ids;
  auto id_of = [&](std::uint32_t job) {  // trace ids are not always unique: a repeated one gets a suffix
    std::string id = std::to_string(jobs[job].id);
    for (int k = 2; !ids.insert(id).second; ++k) id = std::to_string(jobs[job].id) + "-" + std::to_string(k);
    return id;
  };
  w.now = now;
  w.processors = state.setup.processors;
  w.objective = objective;
  for (const auto& r : state.resource.running()) {
    if (r.start >= now - kTimeTolerance) continue;  // started by this pass: waiting when the pass began
    const double remaining = r.estimated_end - now;
    if (remaining <= 0) continue;                   // holds nothing from now on (an estimate of 0)
    w.running.push_back(window::RunningJob{id_of(r.job), r.procs, remaining});
  }
  for (std::size_t i = 0; i < state.queue.size() && w.waiting.size() < first_k; ++i) {
    const auto& q = state.queue[i];
    w.waiting.push_back(window::WaitingJob{id_of(q.job), q.submit, q.procs, q.estimate});
  }
  return w;
}

}  // namespace schedcheck::sim
