// What a cluster's scheduling policy sees and decides: the snapshot of one space-shared cluster (now, P, the
// waiting queue with its reservations, the running jobs, the availability profile) and the decision (jobs to
// start now, reservations to make or move, jobs to reject, a time to be called again, messages to send upstream).
// Our own value types; the policies are pure functions of them (reference/cluster_policies.hpp) and the simulation's
// cluster actor owns time and state (simulation/cluster_actor.hpp).
#pragma once

#include "model/processor_set.hpp"
#include "model/profile.hpp"
#include "support/payload.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <span>
#include <string>
#include <vector>

namespace schedcheck::cluster {

// `count`: a job needs any k free processors at every instant (pyss, Batsim's default, most papers).
// `processors`: a job gets k specific processors, free over its whole window (GridSim, papers 002 and 004).
enum class ResourceModel { kCount, kProcessors };
const char* to_string(ResourceModel model);
std::optional<ResourceModel> resource_model(std::string_view name);  // "count", "processors"; nullopt otherwise

struct Waiting {                 // a queued job, in queue (submit) order
  std::uint32_t job = 0;         // the engine's job index
  int procs = 1;
  double submit = 0;
  double estimate = 0;           // what the scheduler believes the job runs
  bool reserved = false;         // holds a reservation (an EASY pivot; every job under conservative)
  double reserved_start = 0;
  ProcessorSet reserved_on;      // `processors` model: the reserved processors
  // An advance reservation (paper 002: a request the gateway made and confirmed): `reserved_start` is fixed. The job
  // starts exactly then; its reservation is never moved (no compression) and is no pivot.
  bool advance = false;
  bool grid = false;             // it reached the cluster through its upstream actor (a gateway), not as a local job
};

struct Running {
  std::uint32_t job = 0;
  int procs = 1;
  double start = 0;
  double estimated_end = 0;      // start + estimate: when the scheduler expects the processors back
  ProcessorSet on;               // its processors (a job that ends as it starts holds them for no time)
  bool grid = false;             // Waiting::grid
};

// A policy's memory from one pass to the next: named numbers, in with the snapshot (Snapshot::state), out with the
// decision (Decision::state), kept by the cluster actor between passes, so that a decision stays a pure function of
// what it was given and a pass can be replayed and checked from its snapshot alone. Named numbers rather than a JSON
// value: cheap to copy at every pass, compared exactly, and written as one flat JSON object for policies outside C++.
struct StateValue {
  std::string name;
  double value = 0;
  bool operator==(const StateValue&) const = default;
};
using PolicyState = std::vector<StateValue>;

struct Snapshot {
  double now = 0;
  int processors = 0;
  ResourceModel model = ResourceModel::kCount;
  std::span<const Waiting> queue;
  std::span<const Running> running;
  // Running jobs until their estimated ends plus every reservation; with processor identity in `processors`.
  const AvailabilityProfile& profile;
  // Some job ended before its estimated end since the last pass: reservations may move earlier (compression).
  bool released_early = false;
  // The engine's own `profile`, lent to a policy that hands its profile on (Decision::profile) when the engine will
  // adopt that profile whatever it is: the policy may move its working copy out of it instead of copying it, and must
  // then hand it on. Null otherwise (sim::ClusterActor::pass).
  AvailabilityProfile* lent = nullptr;
  // The state the policy's previous decision left (empty before its first pass, and for a policy that keeps none).
  std::span<const StateValue> state = {};
  // How many jobs of the queue hold advance reservations (Waiting::advance): a pass must look past a full machine
  // for those that fall due.
  std::size_t advance = 0;
};

struct Placement {
  std::size_t index = 0;         // into Snapshot::queue
  double start = 0;
  ProcessorSet on;               // `processors` model: which processors (else empty)
};

// A message a policy sends to its cluster's upstream actor (a router, a gateway): a payload of a type the receiver
// knows (support/payload.hpp: a job index, a list of free time slots), delivered with the cluster's latency and
// counted by its kind.
using Outgoing = Payload;

struct Decision {
  std::vector<Placement> start;    // start now (start == now)
  std::vector<Placement> reserve;  // new reservations, and moved ones (never later than before under our policies)
  std::vector<std::size_t> reject; // queue indices of jobs refused: they leave the queue and never run here
  std::optional<double> wake_at;   // call me later: a pass at this time (> now) even if nothing else changes
  std::vector<Outgoing> send;      // messages to the upstream actor
  // Optional: the snapshot's profile with every start and reservation above applied and every rejected job's
  // reservation given back (a policy's working copy), so that the engine need not apply them again. Used only for
  // policies that promise it (ClusterPolicy::hands_on_profile): the engine adopts it when no observer checks the run;
  // otherwise it applies the decision to its own profile and stops with an error if the two differ
  // (sim::ClusterActor::pass).
  std::optional<AvailabilityProfile> profile;
  // The state the next pass sees (Snapshot::state); nullopt leaves it as it was.
  std::optional<PolicyState> state;
};

}  // namespace schedcheck::cluster
