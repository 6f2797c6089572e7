// One workload through cluster policies (one for all, or one per cluster), on one cluster or on several behind a
// router, with the run invariants (each cluster's policy's) and the exact queue-window checks attached as asked: what `schedcheck simulate`, the Python module's simulate and
// the backfilling experiment run. Our own. The caller keeps the workload alive as long as the TraceRun.
#pragma once

#include "model/workload.hpp"
#include "properties/registry.hpp"
#include "properties/run_invariants.hpp"
#include "properties/window_check.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/simulation.hpp"
#include "simulation/summary.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::runcheck {

struct TraceRunSpec {
  cluster::ClusterPolicy policy;                 // cluster::cluster_policy(name), or one outside C++
  cluster::ResourceModel model = cluster::ResourceModel::kCount;
  std::vector<int> clusters;                     // sizes of clusters behind a router; empty: one cluster of P
  std::vector<std::string> cluster_names;        // their names (default c0, c1, ...)
  // Clusters with policies or models of their own: one entry per cluster (empty: `policy` and `model` for all).
  std::vector<cluster::ClusterPolicy> cluster_policies;
  std::vector<cluster::ResourceModel> cluster_models;
  std::string router = "least-loaded";           // with clusters: reference/router_policies.hpp
  double latency = 0;                            // seconds a router message takes
  double status_period = 600;                    // seconds between the clusters' status reports (0: none)
  bool check = false;                            // the invariants the policy promises, on every decision
  std::optional<WindowSettings> windows;         // queue windows checked against their exact optimum
  sim::MetricsWindow metrics;                    // warm-up, stop at the last arrival
  bool record_allocations = true;                // each job's processors (the per-job CSV's allocated_resources)
  bool pass_per_event = false;                   // sim::ClusterSetup::pass_per_event on every cluster
  // Called about once a second of wall time with the run's progress and the windows checked so far (null if none).
  std::function<void(const sim::Progress&, const WindowChecker*)> progress;
};

struct TraceRun {
  std::vector<sim::ClusterSetup> clusters;       // as run (names, sizes)
  std::optional<sim::RouterSetup> router;
  int processors = 0;                            // in all
  sim::MetricsWindow metrics;                    // as asked
  sim::RunResult result;
  sim::RunSummary summary;
  std::unique_ptr<InvariantChecker> invariants;  // with spec.check
  std::unique_ptr<WindowChecker> windows;        // with spec.windows
  std::size_t violations() const { return invariants ? invariants->total() : 0; }
};

// "easy" when every cluster runs easy, else "easy,conservative,fcfs,easy"; "easy (pivots 2)"-style labels with
// `label` (cluster::label); likewise the resource models.
std::string policies_text(const std::vector<sim::ClusterSetup>& clusters, bool label = false);
std::string models_text(const std::vector<sim::ClusterSetup>& clusters);

// Runs it. Throws InputError for a cluster size or a router the workload cannot use, InternalError for a bug.
TraceRun run_trace(const workload::Workload& workload, const TraceRunSpec& spec, const Registry& registry);

// The run as `simulate --json` prints it (every field but the command line's own: the trace's reading options,
// files written, the exit code). `policy` and `model` are one name, or the clusters' names joined by commas when
// they differ; each entry of `clusters` names its own.
nlohmann::json to_json(const workload::Workload& workload, const TraceRun& run);

}  // namespace schedcheck::runcheck
