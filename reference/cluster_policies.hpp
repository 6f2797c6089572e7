// Batch scheduling policies of one space-shared cluster, as pure functions of a snapshot: FCFS, EASY backfilling
// with k pivots (Lifka 1995; Mu'alem & Feitelson 2001; the MAUI reservation depth of paper 002 sec. 3) and
// conservative backfilling (Mu'alem & Feitelson 2001), which is EASY with every job a pivot. Readings we chose
// are named in docs/policies.md ("Cluster policies"). Cost: linear in the queue times the profile steps crossed.
#pragma once

#include "model/cluster.hpp"
#include "model/partitions.hpp"
#include "model/policy_params.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace schedcheck::cluster {

inline constexpr std::size_t kEveryJob = kInfinite;  // pivots = infinity

// FCFS: start jobs in queue order while the head fits; the first that does not fit stops the pass.
Decision fcfs(const Snapshot& snapshot);

// EASY backfilling with `pivots` pivots (paper 002: "EASY backfilling with configurable maximum number of pivots,
// similarly to MAUI"; pivots = kEveryJob is conservative backfilling). The first `pivots` waiting jobs hold
// reservations at their earliest start; any other job starts now only if it fits without touching a reservation.
// Reservations persist between passes; when capacity comes back early they are compressed in queue order.
// With `partitions` (paper 002's EbM and CbM, after Lawson & Smirni 2002): each partition has its own `pivots`, the
// first waiting jobs of that partition; with processor identity a job takes its partition's free processors first and
// borrows the others' (free over its window, so no pivot of theirs is delayed). Without identity, the pivots alone.
Decision backfill(const Snapshot& snapshot, std::size_t pivots, const Partitions* partitions = nullptr);

// Paper 002's advance reservations: a request for `procs` processors over [start, start + duration) is accepted
// only if the profile (running jobs, every reservation and hold) has room then; the processors it would hold (the
// lowest-numbered free ones with identity, else an empty set), or nullopt: refused (also a start before now).
std::optional<ProcessorSet> admit_reservation(const AvailabilityProfile& profile, int procs, double start,
                                              double duration, double now);

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
                         std::span<const std::size_t> ending_now = {}, bool more_follow = false,
                         const Partitions* partitions = nullptr);

// The catalogue: every cluster policy named once, with what it promises and the parameters it declares, so that the
// CLI's choices and --help, the scenario reader, the run invariants that apply (properties/run_invariants.hpp) and the
// docs' lists derive from it.
struct ClusterPolicy {
  std::string name;
  std::string source;
  std::string summary;
  // The reservation depth its decisions use (what replays and audits rebuild): fcfs 0, easy its `pivots`,
  // conservative kEveryJob.
  std::size_t pivots = 0;
  std::function<Decision(const Snapshot&)> decide;
  std::vector<ParamSpec> params;     // the parameters it declares (easy: pivots)
  ParamValues values;                // their values, one per declared parameter, in that order
  // The run invariants it promises beyond those every run keeps (names of properties/run_invariants.hpp): what
  // `simulate --check` checks on its decisions and `audit` on a schedule that claims to follow it.
  std::vector<std::string> promises;
  // decide() fills Decision::profile with the profile its decision leaves: the engine may adopt it instead of
  // applying the decision again. A policy that edits the decision of one of these (a wrapper) sets it false.
  bool hands_on_profile = false;
  // Sets `decide` (and `pivots`) from `values` (cluster_policy calls it); null for a policy without parameters.
  std::function<void(ClusterPolicy&)> configure;
  // Its resource partitions (easy-partitions, conservative-partitions), which replays and the run invariants read.
  std::optional<Partitions> partitions = std::nullopt;
  // It keeps advance reservations (Waiting::advance) where they are and starts them when due: a cluster running it
  // accepts reservation requests (sim::ClusterActor), one running another refuses them all.
  bool keeps_reservations = false;
};
// The policy of that name with the declared defaults, overridden by `values` (each a parameter it declares, in
// range): throws std::invalid_argument naming the policy, the parameter and what was expected.
ClusterPolicy cluster_policy(const std::string& name, const ParamValues& values);
// `pivots`: the number of pivots of a policy that takes them (ignored by the others).
ClusterPolicy cluster_policy(const std::string& name, std::size_t pivots = 1);  // throws std::invalid_argument
std::vector<ClusterPolicy> cluster_policies();
std::vector<std::string> cluster_policy_names();
// The parameters `name` declares (none for an unknown name).
std::vector<ParamSpec> policy_params(const std::string& name);
// The declaration of a parameter `name` by the first policy of the catalogue that declares one (nullopt: none does).
std::optional<ParamSpec> catalogue_param(std::string_view name);
// The value of one of its parameters, or nullopt when it declares none of that name.
std::optional<std::size_t> param(const ClusterPolicy& policy, std::string_view name);

// The one writer of a policy's parameter values, for every output. The label: "easy (2 pivots)", "easy (1 pivot)",
// "easy (pivots inf)", "conservative"; a parameter without a unit as "name=value".
std::string label(const ClusterPolicy& policy);
// The command line that sets them: " --pivots 4" (a declared synonym), else " --policy-param NAME=VALUE"; "" if none.
std::string param_flags(const ClusterPolicy& policy);
// One of them as a CSV cell or JSON value: "4" / 4, "inf"; "" / null when it declares none of that name.
std::string param_text(const ClusterPolicy& policy, std::string_view name);
nlohmann::json param_json(const ClusterPolicy& policy, std::string_view name);
// Every policy's parameters, one line each ("easy: pivots (...; default 1): HELP"), for --help and listings.
std::string params_help();

}  // namespace schedcheck::cluster
