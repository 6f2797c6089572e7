// One workload through cluster policies, checked as asked, and the request that makes its spec (see trace_run.hpp).
// Our own.
#include "properties/trace_run.hpp"

#include "model/input.hpp"
#include "reference/router_policies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace schedcheck::runcheck {

namespace {

// The policy `name` with the request's parameter values that apply to it (`own`: a scenario's, which replace them).
cluster::ClusterPolicy configured(const std::string& name, const std::vector<RunRequest::Assignment>& params,
                                  const cluster::ParamValues* own) {
  cluster::ParamValues values;
  if (own) values = *own;
  const std::vector<cluster::ParamSpec> declared = cluster::policy_params(name);
  for (std::size_t k = 0; !own && k < params.size(); ++k) {
    const auto& a = params[k];
    const std::string key = a.text.substr(0, a.text.find('='));
    const bool declares = std::any_of(declared.begin(), declared.end(), [&](const auto& s) { return s.name == key; });
    if (!declares) continue;
    try {
      values.push_back(cluster::read_assignment(declared, a.text, name));
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("{}: {}", a.from, e.what()));
    }
  }
  try {
    return cluster::cluster_policy(name, values);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
}

// Every assignment is well formed and, unless lenient, names a parameter of one of `policies`; a lenient one's value
// is checked against the catalogue's declaration of its name.
void check_assignments(const std::vector<RunRequest::Assignment>& params, const std::vector<std::string>& policies) {
  for (const auto& a : params) {
    const std::string key = a.text.substr(0, a.text.find('='));
    try {
      if (a.lenient) {  // a synonym: its own setting names the parameter
        if (const auto spec = cluster::catalogue_param(key)) (void)cluster::read_value(*spec, a.text.substr(key.size() + 1));
        continue;
      }
      std::vector<cluster::ParamSpec> specs;
      for (const std::string& name : policies)
        for (const auto& spec : cluster::policy_params(name)) specs.push_back(spec);
      (void)cluster::read_assignment(specs, a.text, choices(policies));
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("{}: {}", a.from, e.what()));
    }
  }
}

}  // namespace

std::vector<cluster::ClusterPolicy> configured_policies(const std::vector<std::string>& names,
                                                        const std::vector<RunRequest::Assignment>& params) {
  check_assignments(params, names);
  std::vector<cluster::ClusterPolicy> out;
  for (const std::string& name : names) out.push_back(configured(name, params, nullptr));
  return out;
}

RunPlan plan_run(const RunRequest& r) {
  RunPlan plan;
  TraceRunSpec& spec = plan.spec;
  spec = r.run;
  const auto& words = r.words;
  std::string policy_name = r.policy, model_name = r.model;
  const cluster::ParamValues* chosen_params = nullptr;  // the scenario's policy's values, which replace the request's
  std::optional<scenario::Scenario>& sc = plan.scenario;
  workload::Workload& w = plan.workload;
  plan.estimates = r.estimates;
  if (!r.scenario.empty()) {
    scenario::Names names{cluster::cluster_policy_names(), router::router_policy_names(), cluster::policy_params};
    names.per_cluster_policies = true;
    sc = scenario::read_file(r.scenario, names);
    if (sc->workloads.size() != 1)
      throw InputError(fmt::format("{}: workloads: simulate replays one workload, the scenario gives {}", r.scenario,
                                   sc->workloads.size()));
    if (sc->policy && (!r.policy.empty() || r.external))
      throw InputError(fmt::format("{}: the scenario {} gives the policy ({}); give it in one place", words.policy,
                                   r.scenario, sc->policy->name));
    if (sc->policy && !r.params.empty())
      throw InputError(fmt::format("{}: the scenario {} gives the policy and its parameters; give them in one place",
                                   r.params.front().from, r.scenario));
    const scenario::PolicySpec* chosen = sc->policy ? &*sc->policy : nullptr;
    const auto own = [](const scenario::ClusterSpec& c) { return c.policy.has_value(); };
    if (r.external && std::any_of(sc->clusters.begin(), sc->clusters.end(), own))
      throw InputError(fmt::format("--policy-cmd: the clusters of the scenario {} name their own policies", r.scenario));
    if (!chosen && policy_name.empty() && !r.external && !sc->clusters.empty() &&
        std::all_of(sc->clusters.begin(), sc->clusters.end(), own))  // every cluster names its own: no policy needed
      chosen = &*sc->clusters.front().policy;
    if (chosen) {
      policy_name = chosen->name;
      chosen_params = &chosen->params;
    }
    workload::ReadOptions read = sc->workloads.front().read;
    for (const auto& c : sc->clusters) spec.clusters.push_back(c.processors);
    for (const auto& c : sc->clusters) spec.cluster_names.push_back(c.name);
    if (sc->clusters.size() > 1 || (sc->clusters.size() == 1 && sc->router)) {
      if (read.processors) throw InputError(fmt::format("{}: give the cluster sizes or the workload's processors, not both", r.scenario));
      read.processors = *std::max_element(spec.clusters.begin(), spec.clusters.end());
      plan.processors_from = "scenario clusters";
    } else if (sc->clusters.size() == 1) {  // one cluster, no router: the machine the workload runs on
      read.processors = sc->clusters.front().processors;
      spec.clusters.clear();
      plan.processors_from = "scenario";
    }
    plan.trace = sc->workloads.front().trace;
    w = workload::load(plan.trace, read);
    if (plan.processors_from.empty()) plan.processors_from = w.processors_from;
    model_name = cluster::to_string(sc->model.value_or(cluster::ResourceModel::kCount));
    plan.estimates = workload::to_string(read.estimates);
    if (sc->router) {
      spec.router = sc->router->policy;
      spec.latency = sc->router->latency;
      spec.status_period = sc->router->status_period;
      try {  // what the router needs, said of the file's field (the options say the same of themselves)
        (void)sim::router_setup(spec.router, spec.latency, spec.status_period);
      } catch (const std::invalid_argument& e) {
        throw InputError(fmt::format("{}: router: {}", r.scenario, e.what()));
      }
    }
  } else {
    if (!r.load) throw InputError("simulate: give --trace FILE (or --scenario FILE)");
    spec.clusters = r.clusters;
    long long processors = r.processors;
    if (!spec.clusters.empty()) {  // several clusters: a job is "too wide" when it fits none of them
      if (processors > 0)
        throw InputError(fmt::format("{}: give the cluster sizes or {}, not both", words.clusters, words.processors));
      processors = *std::max_element(spec.clusters.begin(), spec.clusters.end());
    }
    w = r.load(processors);
    plan.trace = r.trace;
    plan.processors_from = spec.clusters.empty() ? w.processors_from : words.clusters;
    spec.router = r.router;
    spec.latency = r.latency;
    spec.status_period = r.status_period;
  }
  if (!r.external && policy_name.empty())
    throw InputError(fmt::format("simulate: expected {} {} or --policy-cmd COMMAND", words.policy,
                                 choices(cluster::cluster_policy_names())));
  // The policy and the model: one for all clusters, or one per cluster (a scenario gives one of each).
  const std::size_t n = spec.clusters.size();
  const std::vector<std::string> model_names = per_cluster(words.model, model_name, n, {"count", "processors"});
  spec.model = *cluster::resource_model(model_names.front());
  if (r.external) {
    spec.policy = r.external(w);
  } else {
    const std::vector<std::string> policies = per_cluster(words.policy, policy_name, n, cluster::cluster_policy_names());
    if (!chosen_params) check_assignments(r.params, policies);
    spec.policy = configured(policies.front(), r.params, chosen_params);
    for (std::size_t c = 0; n > 1 && c < n; ++c)
      spec.cluster_policies.push_back(configured(policies[c], r.params, chosen_params));
  }
  for (std::size_t c = 0; n > 1 && c < n; ++c) spec.cluster_models.push_back(*cluster::resource_model(model_names[c]));
  for (std::size_t c = 0; sc && !r.external && c < sc->clusters.size(); ++c) {  // a cluster's own policy and model
    const scenario::ClusterSpec& own = sc->clusters[c];
    if (own.policy) (n > 1 ? spec.cluster_policies[c] : spec.policy) = configured(own.policy->name, {}, &own.policy->params);
    if (own.model) (n > 1 ? spec.cluster_models[c] : spec.model) = *own.model;
  }
  if (r.external) spec.check = true;
  plan.policy = policy_name;
  plan.model = model_name;
  return plan;
}

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
// The first cluster whose policy declares `name` (or has parameters at all, for an empty name).
const sim::ClusterSetup* declaring(const std::vector<sim::ClusterSetup>& clusters, std::string_view name) {
  const auto it = std::find_if(clusters.begin(), clusters.end(), [&](const sim::ClusterSetup& c) {
    return name.empty() ? !c.policy.values.empty() : cluster::param(c.policy, name).has_value();
  });
  return it == clusters.end() ? nullptr : &*it;
}
}  // namespace

std::string param_text(const std::vector<sim::ClusterSetup>& clusters, std::string_view name) {
  const sim::ClusterSetup* c = declaring(clusters, name);
  return c ? cluster::param_text(c->policy, name) : "";
}

std::string param_flags(const std::vector<sim::ClusterSetup>& clusters) {
  const sim::ClusterSetup* c = declaring(clusters, "");
  return c ? cluster::param_flags(c->policy) : "";
}

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
                               {"pivots", cluster::param_json(run.clusters[c].policy, "pivots")},
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
  const sim::ClusterSetup* pivoted = declaring(run.clusters, "pivots");
  out["pivots"] = pivoted ? cluster::param_json(pivoted->policy, "pivots") : nlohmann::json(nullptr);
  out["model"] = models_text(run.clusters);
  out["estimates_from_runtime"] = w.estimates_from_runtime;
  out["reordered_records"] = w.reordered;
  out["warmup"] = run.metrics.warmup;
  out["invariants"] = run.invariants ? run.invariants->to_json() : nlohmann::json(nullptr);
  out["windows"] = run.windows ? run.windows->to_json() : nlohmann::json(nullptr);
  return out;
}

}  // namespace schedcheck::runcheck
