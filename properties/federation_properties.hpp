// Named properties of a federation run (paper 004), recomputed from the run's log (model/federation.hpp), the scenario
// and the kernel's message counts with the model's formulas (Eq. 2 recomputed here), not with the actors' rules: what
// the contract net promises a user (deadlines, budgets) and a cluster (capacity), that bids are rejected and jobs
// dropped only for cause, and that the log is whole. Paper 004 sec. 3.1-3.3, Algorithms 1-2; the wording is ours.
// Limits: message latency is zero.
#pragma once

#include "model/federation.hpp"
#include "properties/run_property.hpp"

#include <string>
#include <vector>

namespace schedcheck::federation {

using PropertyInfo = RunPropertyInfo;
const std::vector<PropertyInfo>& run_properties();   // in report order

// Checks every property of run_properties() on a finished run.
std::vector<RunPropertyResult> check_run(const std::vector<Cluster>& clusters, const Settings& settings, const RunLog& run);

// Dropped jobs some cluster could still have run by their deadline, decided exactly on the clusters' profiles at the
// drop instant (the processors their accepted jobs held, nothing else reserved), whatever the job's SLA terms: a
// measure of what the protocol's drop rule loses, not a property (the asked clusters may have freed processors since
// they answered; a cluster too slow for de may still meet d).
std::size_t drops_with_room(const std::vector<Cluster>& clusters, const RunLog& run, bool asked_only);
// The same drops, each explained in one line: the job, when and why it was dropped, a cluster that had room, and
// whether the manager had asked it.
std::vector<std::string> drops_with_room_explained(const std::vector<Cluster>& clusters, const RunLog& run,
                                                   bool asked_only);

// A job's name in messages and corpus files: "CLUSTER:ID".
std::string job_name(const std::vector<Cluster>& clusters, const Job& job);

}  // namespace schedcheck::federation
