// Named properties of a federation run (paper 004), each recomputed from the run's log (model/federation.hpp) and the
// scenario, not from the actors' own bookkeeping: what the contract net promises a user (deadlines, budgets), what it
// promises a cluster (capacity), and that the log is whole (jobs conserved, every message accounted for). Paper 004
// sec. 3.1-3.3 and Algorithms 1-2; the wording of each property is ours. Limits: message latency is zero.
#pragma once

#include "model/federation.hpp"

#include <string>
#include <vector>

namespace schedcheck::federation {

struct PropertyInfo {
  std::string name;
  std::string source;
  std::string summary;
};
const std::vector<PropertyInfo>& run_properties();   // in report order

struct RunPropertyResult {
  std::string name;
  std::size_t violations = 0;
  std::string first;                // the first violation, one sentence naming the job and the instant
};

// Checks every property of run_properties() on a finished run.
std::vector<RunPropertyResult> check_run(const std::vector<Cluster>& clusters, const Settings& settings, const RunLog& run);

// Dropped jobs some cluster could still have run by their deadline, decided exactly on the clusters' profiles at the
// drop instant (the processors their accepted jobs held, nothing else reserved): a measure of what the protocol's drop
// rule loses, not a property (the asked clusters may have freed processors since they answered).
std::size_t drops_with_room(const std::vector<Cluster>& clusters, const RunLog& run, bool asked_only);

// A job's name in messages and corpus files: "CLUSTER:ID".
std::string job_name(const std::vector<Cluster>& clusters, const Job& job);

}  // namespace schedcheck::federation
