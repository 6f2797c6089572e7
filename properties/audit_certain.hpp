// Certain verdicts on another simulator's schedule: violations of a policy's definition whatever legal choices the
// scheduler made (one pass per instant or per event, the order of an instant's completions and of compression, which
// reservations it kept; an instant's submissions in trace order), decided
// from the schedule's rows alone by bounding every reservation the policy could have given. Our own, after the
// definitions of FCFS, EASY (Lifka 1995) and conservative backfilling (Mu'alem & Feitelson 2001). Covered: fcfs;
// easy with one pivot; conservative (and easy --pivots inf) on the count model. The rest is left to the replay,
// whose verdicts are differences from schedcheck's own reservations (properties/audit.hpp).
#pragma once

#include "model/processor_set.hpp"
#include "model/workload.hpp"
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace schedcheck::runcheck {

struct CertainInput {
  const workload::Workload* workload = nullptr;  // jobs in queue order (submit, then trace order); estimates believed
  const std::vector<double>* start = nullptr;    // per job: the schedule's start, < 0 when no row names it
  const std::vector<double>* end = nullptr;      // per job: the schedule's end
  const std::vector<ProcessorSet>* on = nullptr; // per job (processors model): the processors of its row
  cluster::ClusterPolicy policy;
  cluster::ResourceModel model = cluster::ResourceModel::kCount;
  std::size_t keep = 1000;                       // violations kept in full (all are counted)
};

struct CertainResult {
  std::map<std::string, std::size_t> counts;     // per policy invariant with a certain check
  std::vector<Violation> violations;             // the first `keep`, and the first of every invariant; by time
  // The ids of every job a certain verdict names (the job blamed and the job delayed): the replay's verdicts on them
  // are the same incident, seen through schedcheck's own reservations, and are not printed again.
  std::set<std::int64_t> named;
  // What has no certain check under this policy and model, and why (said beside the differences).
  std::vector<std::string> unchecked;
};

// Assumes the rows passed the direct checks that make a sweep meaningful (no capacity or processor violation: the
// caller leaves the policy's verdicts to the replay otherwise). Jobs without a row are left out, as if never submitted.
CertainResult certain_verdicts(const CertainInput& input);

}  // namespace schedcheck::runcheck
