// The scenario reader (see scenario.hpp). Our own.
#include "model/scenario.hpp"

#include "model/input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace schedcheck::scenario {

namespace {

namespace fs = std::filesystem;

// One of `names`, or a failure listing them.
std::string one_of(const Field& field, const std::vector<std::string>& names) {
  const std::string value = field.as_string();
  if (std::find(names.begin(), names.end(), value) != names.end()) return value;
  field.fail("one of " + joined(names));
}

WorkloadSpec read_workload(const Field& f, const fs::path& folder) {
  f.only_keys({"name", "trace", "processors", "estimates", "processor_field", "max_records", "lenient"});
  WorkloadSpec w;
  const std::string trace = f.at("trace").as_string();
  w.trace = fs::path(trace).is_absolute() ? trace : (folder / trace).lexically_normal().string();
  w.name = f.has("name") ? f.at("name").as_string() : fs::path(trace).filename().string();
  if (f.has("processors")) w.read.processors = f.at("processors").as_int(1, workload::kMaxProcessors);
  if (f.has("estimates")) {
    w.estimates_given = true;
    w.read.estimates = *workload::estimate_source(one_of(f.at("estimates"), {"requested", "runtime"}));
  }
  if (f.has("processor_field"))
    w.read.processor_field = *workload::processor_field(one_of(f.at("processor_field"), {"allocated", "requested"}));
  if (f.has("max_records")) w.read.max_records = static_cast<std::size_t>(f.at("max_records").as_int(1, 1'000'000'000));
  if (f.has("lenient")) w.read.lenient = f.at("lenient").as_bool();
  return w;
}

// {"name": ..., "params": {NAME: VALUE, ...}}: a policy of the catalogue and values of parameters it declares; a
// parameter may also be a key of its own ("pivots": 2).
PolicySpec read_policy(const Field& p, const Names& known) {
  PolicySpec spec{one_of(p.at("name"), known.policies), {}};
  const std::vector<cluster::ParamSpec> declared = known.params ? known.params(spec.name) : std::vector<cluster::ParamSpec>{};
  auto assign = [&](const std::string& key, const Field& value) {
    try {
      const cluster::ParamSpec& s = cluster::spec_of(declared, key, spec.name);
      spec.params.push_back(cluster::ParamValue{s.name, cluster::read_json_value(s, value.raw())});
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("{}: {}: {}", value.file(), value.path(), e.what()));
    }
  };
  for (const auto& [key, value] : p.members()) {
    if (key == "name") continue;
    if (key != "params") {
      assign(key, value);
      continue;
    }
    for (const auto& [name, given] : value.members()) assign(name, given);
  }
  return spec;
}

cluster::ResourceModel read_model(const Field& m) { return *cluster::resource_model(one_of(m, {"count", "processors"})); }

}  // namespace

Scenario read(const nlohmann::json& document, const std::string& file, const Names& known) {
  const Field root(document, file);
  // Paper 003's auction system has scenario files of its own kind, which its experiment runs.
  if (root.has("kind") && root.at("kind").raw() == "auction-scenario")
    root.at("kind").fail("\"scenario\" (an \"auction-scenario\" is paper 003's auction system: `schedcheck experiment "
                         "auction --scenario FILE`, --seeds 1 for one run)");
  root.only_keys({"kind", "name", "comment", "workloads", "policy", "model", "clusters", "router", "sweep"});
  Scenario s;
  s.file = file;
  s.name = read_instance_header(root, kInstanceKind, "scenario files (examples/scenarios/, docs/experiments.md)", file);
  if (root.has("comment")) s.comment = root.at("comment").as_string();
  const fs::path folder = fs::path(file).parent_path();
  for (const Field& w : root.at("workloads").items()) s.workloads.push_back(read_workload(w, folder));
  if (s.workloads.empty()) root.at("workloads").fail("at least one workload");
  if (root.has("policy")) s.policy = read_policy(root.at("policy"), known);
  if (root.has("model")) s.model = read_model(root.at("model"));
  if (root.has("clusters")) {
    std::set<std::string> names;
    for (const Field& c : root.at("clusters").items()) {
      if (known.per_cluster_policies) c.only_keys({"name", "processors", "parameters", "policy", "model"});
      else c.only_keys({"name", "processors", "parameters"});
      ClusterSpec spec;
      spec.name = c.has("name") ? c.at("name").as_string() : fmt::format("c{}", s.clusters.size());
      if (!names.insert(spec.name).second) {
        if (c.has("name")) c.at("name").fail("a name no other cluster has");
        c.fail(fmt::format("a \"name\": its default, {}, is another cluster's", spec.name));
      }
      spec.processors = static_cast<int>(c.at("processors").as_int(1, workload::kMaxProcessors));
      if (c.has("policy")) spec.policy = read_policy(c.at("policy"), known);
      if (c.has("model")) spec.model = read_model(c.at("model"));
      if (c.has("parameters")) {
        if (!c.at("parameters").raw().is_object()) c.at("parameters").fail("an object");
        spec.parameters = c.at("parameters").raw();
      }
      s.clusters.push_back(std::move(spec));
    }
    if (s.clusters.empty()) root.at("clusters").fail("at least one cluster (or no \"clusters\": one of the workload's size)");
  }
  if (root.has("router")) {
    const Field r = root.at("router");
    r.only_keys({"policy", "latency", "status_period"});
    s.router = RouterSpec{one_of(r.at("policy"), known.routers), 0, 600};
    if (r.has("latency")) s.router->latency = r.at("latency").as_number(0, 1e9);
    if (r.has("status_period")) s.router->status_period = r.at("status_period").as_number(0, 1e12);
  }
  if (s.clusters.size() > 1 && !s.router && known.router_needed)
    root.at("clusters").fail("one cluster, or a \"router\" to send jobs to the several");
  if (root.has("sweep")) {
    if (!root.at("sweep").raw().is_object()) root.at("sweep").fail("an object (the experiment's settings)");
    s.sweep = root.at("sweep").raw();
  }
  return s;
}

Scenario read_file(const std::string& file, const Names& known) { return read(read_json_file(file), file, known); }

}  // namespace schedcheck::scenario
