// Batch scheduling policies of one space-shared cluster, as pure functions of a snapshot: FCFS, EASY backfilling
// with k pivots (Lifka 1995; Mu'alem & Feitelson 2001; the MAUI reservation depth of paper 002 sec. 3) and
// conservative backfilling (Mu'alem & Feitelson 2001), which is EASY with every job a pivot. Readings we chose
// are named in docs/policies.md ("Cluster policies"). Cost: linear in the queue times the profile steps crossed.
#pragma once

#include "model/cluster.hpp"

#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace schedcheck::cluster {

inline constexpr std::size_t kEveryJob = std::numeric_limits<std::size_t>::max();  // pivots = infinity

// FCFS: start jobs in queue order while the head fits; the first that does not fit stops the pass.
Decision fcfs(const Snapshot& snapshot);

// EASY backfilling with `pivots` pivots (paper 002: "EASY backfilling with configurable maximum number of pivots,
// similarly to MAUI"; pivots = kEveryJob is conservative backfilling). The first `pivots` waiting jobs hold
// reservations at their earliest start; any other job starts now only if it fits without touching a reservation.
// Reservations persist between passes; when capacity comes back early they are compressed in queue order.
Decision backfill(const Snapshot& snapshot, std::size_t pivots);

inline Decision easy(const Snapshot& snapshot) { return backfill(snapshot, 1); }
inline Decision conservative(const Snapshot& snapshot) { return backfill(snapshot, kEveryJob); }

// For replaying another scheduler's schedule (schedcheck audit): the jobs `forced` (queue indices, ascending)
// start now on the given processors whatever the rule says, nothing else starts, and the reservations the rule
// would hold around them are made, compressed, or remade when they fell into the past. A reservation may then
// be at `now` (a pivot that could start but was not started: what `easy-maximal` reports).
// A forced job that does not fit now (on counts, and with processor identity on its processors) is left waiting
// when another pass follows at this instant, that is when one of `ending_now` (forced jobs of length 0) starts in
// this pass: the replayed scheduler may have started it only then, on the processors that job gave back.
// `more_follow`: another pass follows at this instant whatever this one starts (a pass after one event of several):
// every forced job that does not fit yet waits for it.
Decision backfill_around(const Snapshot& snapshot, std::size_t pivots, std::span<const Placement> forced,
                         std::span<const std::size_t> ending_now = {}, bool more_follow = false);

// The catalogue: every cluster policy named once, with what it promises, so that the CLI's choices, the run
// invariants that apply (properties/run_invariants.hpp) and the docs' lists derive from it.
struct ClusterPolicy {
  std::string name;
  std::string source;
  std::string summary;
  std::size_t pivots = 0;            // backfilling: the pivots; fcfs: 0
  std::function<Decision(const Snapshot&)> decide;
  bool takes_pivots = false;         // `--pivots` sets `pivots` (easy)
  // The run invariants it promises beyond those every run keeps (names of properties/run_invariants.hpp): what
  // `simulate --check` checks on its decisions and `audit` on a schedule that claims to follow it.
  std::vector<std::string> promises;
  // decide() fills Decision::profile with the profile its decision leaves: the engine may adopt it instead of
  // applying the decision again. A policy that edits the decision of one of these (a wrapper) sets it false.
  bool hands_on_profile = false;
};
// `pivots`: the number of pivots of a policy that takes them (ignored by the others).
ClusterPolicy cluster_policy(const std::string& name, std::size_t pivots = 1);  // throws std::invalid_argument
std::vector<ClusterPolicy> cluster_policies();
std::vector<std::string> cluster_policy_names();
std::vector<std::string> pivoted_policy_names();  // the policies that take pivots
// "easy (2 pivots)", "easy (pivots inf)", "conservative", ...
std::string label(const ClusterPolicy& policy);

}  // namespace schedcheck::cluster
