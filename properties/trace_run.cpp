// One workload through one cluster policy, checked as asked (see trace_run.hpp). Our own.
#include "properties/trace_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace schedcheck::runcheck {

TraceRun run_trace(const workload::Workload& w, const TraceRunSpec& spec, const Registry& registry) {
  if (!(spec.metrics.warmup >= 0 && spec.metrics.warmup <= 1e12))
    throw InputError(fmt::format("warmup: expected 0 to 1e12 seconds, got {}", spec.metrics.warmup));
  TraceRun run;
  sim::RunOptions options = sim::single_cluster(w, spec.policy, spec.model);
  options.clusters.front().name = std::filesystem::path(w.name).filename().string();
  run.processors = w.processors;
  if (!spec.clusters.empty()) {
    const sim::ClusterSetup prototype = options.clusters.front();
    options.clusters.clear();
    run.processors = 0;
    for (std::size_t c = 0; c < spec.clusters.size(); ++c) {
      sim::ClusterSetup setup = prototype;
      setup.name = c < spec.cluster_names.size() ? spec.cluster_names[c] : fmt::format("c{}", c);
      setup.processors = spec.clusters[c];
      if (c < spec.cluster_policies.size()) setup.policy = spec.cluster_policies[c];
      if (c < spec.cluster_models.size()) setup.model = spec.cluster_models[c];
      options.clusters.push_back(setup);
      run.processors += spec.clusters[c];
    }
    options.broker = sim::router_setup(spec.router, spec.latency, spec.status_period);
  }
  options.record_allocations = spec.record_allocations;
  for (auto& setup : options.clusters) setup.pass_per_event = spec.pass_per_event;
  if (spec.metrics.stop_at_last_arrival && !w.jobs.empty()) options.stop_time = w.jobs.back().submit;
  run.clusters = options.clusters;
  run.router = options.broker;
  run.metrics = spec.metrics;

  sim::Simulation simulation(w.jobs, options);
  if (spec.check) {
    std::vector<std::vector<std::string>> promised;  // each cluster's policy's invariants
    for (const auto& setup : options.clusters) promised.push_back(applicable(setup.policy.name));
    run.invariants = std::make_unique<InvariantChecker>(w, std::move(promised));
    simulation.add_observer(*run.invariants);
  }
  if (spec.windows) {
    const auto& problem = registry.typed<window::Instance, window::Schedule>("queue-window");
    run.windows = std::make_unique<WindowChecker>(problem, *spec.windows);
    simulation.add_observer(*run.windows);
  }
  if (spec.progress)
    simulation.on_progress([&](const sim::Progress& p) { spec.progress(p, run.windows.get()); });
  run.result = simulation.run();
  run.summary = sim::summarise(w, run.result, run.processors, spec.metrics);
  return run;
}

namespace {
// The clusters' names for one thing (a policy, a model): one name when they agree, else all joined by commas.
template <class Name>
std::string joined(const std::vector<sim::ClusterSetup>& clusters, Name name) {
  std::string all;
  bool same = true;
  for (const auto& c : clusters) {
    if (!all.empty()) all += ',';
    all += name(c);
    same = same && name(c) == name(clusters.front());
  }
  return same && !clusters.empty() ? name(clusters.front()) : all;
}
nlohmann::json pivots_json(const cluster::ClusterPolicy& policy) {
  return policy.takes_pivots ? (policy.pivots == cluster::kEveryJob ? nlohmann::json("inf") : nlohmann::json(policy.pivots))
                             : nlohmann::json(nullptr);
}
}  // namespace

std::string policies_text(const std::vector<sim::ClusterSetup>& clusters, bool label) {
  return joined(clusters, [&](const sim::ClusterSetup& c) { return label ? cluster::label(c.policy) : c.policy.name; });
}

std::string models_text(const std::vector<sim::ClusterSetup>& clusters) {
  return joined(clusters, [](const sim::ClusterSetup& c) { return std::string(cluster::to_string(c.model)); });
}

nlohmann::json to_json(const workload::Workload& w, const TraceRun& run) {
  nlohmann::json out = sim::to_json(run.summary);
  out["trace"] = w.name;
  out["processors"] = run.processors;
  out["clusters"] = nlohmann::json::array();
  for (std::size_t c = 0; c < run.result.clusters.size(); ++c)
    out["clusters"].push_back({{"name", run.clusters[c].name},
                               {"processors", run.clusters[c].processors},
                               {"passes", run.result.clusters[c].passes},
                               {"starts", run.result.clusters[c].starts},
                               {"backfilled", run.result.clusters[c].backfilled},
                               {"max_queue", run.result.clusters[c].max_queue},
                               {"policy", run.clusters[c].policy.name},
                               {"pivots", pivots_json(run.clusters[c].policy)},
                               {"model", cluster::to_string(run.clusters[c].model)}});
  for (std::size_t c = 0; c < run.result.clusters.size(); ++c)
    if (run.result.clusters[c].rejected) out["clusters"][c]["rejected"] = run.result.clusters[c].rejected;
  out["broker"] = run.router ? nlohmann::json{{"policy", run.router->policy.name},
                                              {"latency", run.router->latency},
                                              {"status_period", run.router->status_period},
                                              {"job_messages", run.result.job_messages},
                                              {"status_messages", run.result.status_messages}}
                             : nlohmann::json(nullptr);
  out["policy"] = policies_text(run.clusters);
  const auto pivoted = std::find_if(run.clusters.begin(), run.clusters.end(),
                                    [](const sim::ClusterSetup& c) { return c.policy.takes_pivots; });
  out["pivots"] = pivoted == run.clusters.end() ? nlohmann::json(nullptr) : pivots_json(pivoted->policy);
  out["model"] = models_text(run.clusters);
  out["estimates_from_runtime"] = w.estimates_from_runtime;
  out["reordered_records"] = w.reordered;
  out["warmup"] = run.metrics.warmup;
  out["invariants"] = run.invariants ? run.invariants->to_json() : nlohmann::json(nullptr);
  out["windows"] = run.windows ? run.windows->to_json() : nlohmann::json(nullptr);
  return out;
}

}  // namespace schedcheck::runcheck
