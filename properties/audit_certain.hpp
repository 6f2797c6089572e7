// Certain verdicts on another simulator's schedule: violations of a policy's definition whatever legal choices the
// scheduler made (one pass per instant or per event, the order of an instant's completions and of compression, which
// reservations it kept; an instant's submissions in trace order), decided
// from the schedule's rows alone by bounding every reservation the policy could have given. Our own, after the
// definitions of FCFS, EASY (Lifka 1995) and conservative backfilling (Mu'alem & Feitelson 2001). Covered: fcfs;
// easy with one pivot (the pivot's bound, and EASY's backfilling rule at the instant of each start, under the
// estimates the audit reads); conservative (and easy --pivots inf) on the count model. The rest is left to the
// replay, whose verdicts are differences from schedcheck's own reservations (properties/audit.hpp).
#pragma once

#include "model/processor_set.hpp"
#include "model/profile.hpp"
#include "model/workload.hpp"
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace schedcheck::runcheck {

// A job the schedule may have run that the audit does not see (no row names it; its record was skipped; it ran on a
// cluster too narrow for it; a row of no job): from `from` to `to` it may have waited first in the queue or held
// processors, so no certain verdict rests on an instant of [from, to).
struct Unseen {
  double from = 0, to = kForever;
  std::string job;  // its id, as the trace or the schedule names it
  std::string why;  // what makes it unseen: "has no row", ...
};

struct CertainInput {
  const workload::Workload* workload = nullptr;  // jobs in queue order (submit, then trace order); estimates believed
  const std::vector<double>* start = nullptr;    // per job: the schedule's start, < 0 when no row names it
  const std::vector<double>* end = nullptr;      // per job: the schedule's end
  const std::vector<ProcessorSet>* on = nullptr; // per job (processors model): the processors of its row
  cluster::ClusterPolicy policy;
  cluster::ResourceModel model = cluster::ResourceModel::kCount;
  std::size_t keep = 1000;                       // violations kept in full (all are counted)
  std::vector<Unseen> unseen;
};

struct CertainResult {
  std::map<std::string, std::size_t> counts;     // per policy invariant with a certain check
  std::vector<Violation> violations;             // the first `keep`, and the first of every invariant; by time
  // The ids of every job a certain verdict names (the job blamed and the job delayed): the replay's verdicts on them
  // are the same incident, seen through schedcheck's own reservations, and are not printed again.
  std::set<std::int64_t> named;
  // What has no certain check under this policy and model, and why (said beside the differences).
  std::vector<std::string> unchecked;
  // The verdicts that rest on an instant when an unseen job may have waited or run: not certain, counted apart.
  std::map<std::string, std::size_t> withheld_counts;
  std::vector<Violation> withheld;               // the first `keep`, and the first of every invariant; by time
};

// Assumes the rows passed the direct checks that make a sweep meaningful (no capacity or processor violation: the
// caller leaves the policy's verdicts to the replay otherwise). Jobs without a row are left out of the sweep; the
// caller names them (and every other job it cannot see) in `unseen`. A verdict rests on the instant of the decision
// it judges (a pivot's: when it became first in the queue; conservative's: the job's arrival; easy-maximal's and
// fcfs-order's head: the instant it could have started); fcfs-order's "a job starts while one submitted before it
// waits" rests on the two rows alone.
CertainResult certain_verdicts(const CertainInput& input);

}  // namespace schedcheck::runcheck
