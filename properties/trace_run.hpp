// One workload through cluster policies (one for all, or one per cluster), on one cluster or on several behind a
// router, with the run invariants (each cluster's policy's) and the exact queue-window checks attached as asked: what
// `schedcheck simulate`, the Python module's simulate and the backfilling experiment run, each from one request (a
// scenario file and the caller's overrides) made into the run's spec here. Our own. The caller keeps the workload
// alive as long as the TraceRun.
#pragma once

#include "model/scenario.hpp"
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
#include <string_view>
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

// What a run is asked, by a scenario file and the caller's own settings (the command line's flags, Python's keywords,
// an experiment's sweep point). `words` name those settings in errors.
struct RunRequest {
  struct Words {
    std::string policy = "--policy", model = "--model", clusters = "--clusters", processors = "--processors";
  } words;
  std::string scenario;                          // a scenario file ("": none); its workload, policy, model, clusters
  // Without a scenario: the workload for a machine of that many processors (0: the trace's own), the trace's name and
  // how its estimates were read.
  std::function<workload::Workload(long long processors)> load;
  std::string trace, estimates = "requested";
  long long processors = 0;                      // asked (0: none)
  std::string policy;                            // one for all clusters or one per cluster ("easy,fcfs"); "": the scenario's
  // Parameter assignments "NAME=VALUE", each with the setting that gave it (for errors); `lenient` ones (synonyms
  // such as --pivots, Python's pivots=) apply to the policies that declare the name and are ignored by the others,
  // the others must name a parameter of a policy of the run.
  struct Assignment {
    std::string from;
    std::string text;
    bool lenient = false;
  };
  std::vector<Assignment> params;
  std::string model = "count";                   // likewise one or one per cluster (without a scenario)
  // A policy outside C++ (its decisions checked): made for the workload; null for the built-in ones.
  std::function<cluster::ClusterPolicy(const workload::Workload&)> external;
  std::vector<int> clusters;                     // without a scenario: sizes behind a router
  std::string router = "least-loaded";
  double latency = 0, status_period = 600;
  TraceRunSpec run;                              // check, windows, metrics, ...: taken as they are
};

// The request made a run: the workload read, the spec, and what the outputs name.
struct RunPlan {
  workload::Workload workload;
  TraceRunSpec spec;
  std::optional<scenario::Scenario> scenario;
  std::string trace;                             // the trace file read
  std::string policy;                            // the policy names as asked (reproduce lines)
  std::string model, estimates;
  std::string processors_from;                   // "scenario", "--clusters", or the workload's own
};

// Reconciles a scenario with the caller's settings: a scenario that gives the policy (or the model, the clusters,
// the router) refuses another from the caller; a cluster's own policy and model replace the run's for that cluster;
// parameter values go to the policies that declare them. Throws InputError (one line: the file or setting, the
// field, what was expected).
RunPlan plan_run(const RunRequest& request);
// The built-in policies `names` (one a cluster), each with the assignments that apply to it, checked as plan_run
// checks them, for a command that names policies without running a trace (audit). Throws InputError.
std::vector<cluster::ClusterPolicy> configured_policies(const std::vector<std::string>& names,
                                                        const std::vector<RunRequest::Assignment>& params);

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
// The run's policy parameters as outputs write them: the first cluster whose policy declares `name` gives its value
// ("4", "inf"; "" when none does); the command-line flags of the first cluster whose policy has parameters.
std::string param_text(const std::vector<sim::ClusterSetup>& clusters, std::string_view name);
std::string param_flags(const std::vector<sim::ClusterSetup>& clusters);

// Runs it. Throws InputError for a cluster size or a router the workload cannot use, InternalError for a bug.
TraceRun run_trace(const workload::Workload& workload, const TraceRunSpec& spec, const Registry& registry);

// The run as `simulate --json` prints it (every field but the command line's own: the trace's reading options,
// files written, the exit code). `policy` and `model` are one name, or the clusters' names joined by commas when
// they differ; each entry of `clusters` names its own.
nlohmann::json to_json(const workload::Workload& workload, const TraceRun& run);

}  // namespace schedcheck::runcheck
