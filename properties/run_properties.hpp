// Properties over whole runs of a small trace on one cluster (the `cluster-run` problem): each run invariant of
// run_invariants.hpp as a property, and comparisons of two policies on the same trace. Our own; the comparisons
// are folklore claims that are known to fail (Mu'alem & Feitelson 2001 show EASY and conservative can lose to
// FCFS on single jobs): `easy-no-worse-than-fcfs` (mean bounded slowdown) and `conservative-no-worse-than-fcfs`
// (maximum wait).
#pragma once

#include "model/run_schedule.hpp"
#include "model/workload.hpp"
#include "properties/registry.hpp"
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"

#include <map>
#include <string>
#include <vector>

namespace schedcheck::runcheck {

// A run as a decision: the schedule, and what the invariant checker saw while the engine made it.
struct RunDecision {
  std::string policy;
  RunSchedule schedule;
  std::vector<std::string> checked;               // invariants the policy promises
  std::map<std::string, std::size_t> counts;      // violations per checked invariant
  std::vector<Violation> violations;              // the first ones, in full
};

// Runs `policy` over the workload on one cluster (count model) with its invariants checked.
RunDecision simulate_checked(const workload::Workload& workload, const cluster::ClusterPolicy& policy);

// A cluster policy outside C++ (`simulate --policy-cmd`, cluster-run with an external policy): at every pass it
// sends {"problem": "cluster-run", "snapshot": ...} to `policy` and reads the decision (model/cluster_json.hpp).
cluster::ClusterPolicy external_cluster_policy(const workload::Workload& workload, JsonPolicy policy, std::string name);

nlohmann::json describe(const workload::Workload& workload, const RunDecision& decision);
std::vector<PropertySpec<workload::Workload, RunDecision>> run_properties();

}  // namespace schedcheck::runcheck
