// Queue windows and the simulation: a cluster policy played forward on a window (no further arrivals, estimates
// taken as exact, the count model), and the window cut from a cluster at one of its scheduling passes (the first
// K waiting jobs, the running jobs with their remaining estimated time). Our own.
#pragma once

#include "model/jobs_csv.hpp"
#include "model/queue_window.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/simulation.hpp"

namespace schedcheck::sim {

// The schedule `policy` gives the window's waiting jobs: the running jobs and then the waiting jobs, in queue
// order, all reach the cluster at `now`; the running jobs start at once (they fit and come first).
window::Schedule play_forward(const window::Instance& instance, const cluster::ClusterPolicy& policy);

// The window as the cluster was when the pass at view time began: the jobs the pass started count as waiting.
// `state` and `jobs` as an observer sees them in on_pass (simulation/observer.hpp).
window::Instance cut_window(const ClusterState& state, const std::vector<workload::Job>& jobs, double now,
                            std::size_t first_k, window::Objective objective);

// A window's schedule as a run: its running jobs from now and its waiting jobs when `schedule` starts them, each
// on the lowest free processors at its start (the engine replays it); one per-job CSV row each, running jobs first.
std::vector<jobs_csv::Row> window_rows(const window::Instance& instance, const window::Schedule& schedule);

}  // namespace schedcheck::sim
