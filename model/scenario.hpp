// Scenario files (JSON, kind "scenario", examples/scenarios/): the system a run or an experiment composes, as data a
// user copies and changes. Our own format: the workloads (traces and how each is read), the cluster policy and
// resource model, the clusters and a router above them, and an experiment's own `sweep` block (which the experiment
// reads). One reader, strict (unknown keys and bad values are one-line errors naming the file and field); trace
// paths are relative to the scenario file. A cluster may name its own policy and model where the caller allows it
// (`simulate`); policy and router names are checked against the catalogues the caller passes.
#pragma once

#include "model/cluster.hpp"
#include "model/policy_params.hpp"
#include "model/workload.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::scenario {

inline constexpr const char* kInstanceKind = "scenario";

struct WorkloadSpec {
  std::string name;                          // default: the trace's file name
  std::string trace;                         // resolved against the scenario file's folder
  workload::ReadOptions read;                // processors, estimates, processor field, max records, lenient
  bool estimates_given = false;              // the file chose `estimates` (an experiment that sweeps them refuses it)
};

struct PolicySpec {
  std::string name;                          // a cluster policy of the catalogue
  cluster::ParamValues params;               // values of parameters it declares (reference/cluster_policies.hpp)
};

struct ClusterSpec {
  std::string name;
  int processors = 0;
  std::optional<PolicySpec> policy;          // its own policy (else the scenario's); only where Names allows it
  std::optional<cluster::ResourceModel> model;
  nlohmann::json parameters = nlohmann::json::object();  // what a paper's actor reads (MIPS, price, ...), unchecked here
};

struct RouterSpec {
  std::string policy;
  double latency = 0;                        // seconds a message takes, either way
  double status_period = 600;                // seconds between the clusters' status reports (0: none)
};

struct Scenario {
  std::string file;
  std::string name;
  std::string comment;
  std::vector<WorkloadSpec> workloads;
  std::optional<PolicySpec> policy;
  std::optional<cluster::ResourceModel> model;
  std::vector<ClusterSpec> clusters;         // empty: one cluster of the workload's size
  std::optional<RouterSpec> router;          // required with two or more clusters
  nlohmann::json sweep;                      // the experiment's block (an object), or null
};

// The names a scenario may use.
struct Names {
  std::vector<std::string> policies;
  std::vector<std::string> routers;
  // The parameters a policy declares (cluster::policy_params); null: none.
  std::function<std::vector<cluster::ParamSpec>(const std::string& policy)> params;
  bool router_needed = true;                 // several clusters need a "router" (false: the experiment connects them)
  bool per_cluster_policies = false;         // a cluster may give its own "policy" and "model" (simulate)
};

// Reads a scenario document (`file` names it in errors and anchors relative trace paths). Throws InputError.
Scenario read(const nlohmann::json& document, const std::string& file, const Names& known);
Scenario read_file(const std::string& file, const Names& known);

}  // namespace schedcheck::scenario
