// One space-shared cluster as an actor of the kernel: its queue, running jobs and availability profile; jobs reach
// it from the workload or by message; at the end of every instant in which it changed it calls its policy (a pure
// function, reference/cluster_policies.hpp) once and applies the decision: start, reserve, reject, call me later,
// messages upstream. Our own. Observers (simulation/observer.hpp) see every arrival, pass and completion.
// Subclasses change where decisions and ends come from (ReplayCluster: another scheduler's schedule).
#pragma once

#include "model/cluster.hpp"
#include "model/slot_report.hpp"
#include "model/time_slots.hpp"
#include "model/workload.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/job_source.hpp"
#include "simulation/jobs.hpp"
#include "simulation/kernel.hpp"
#include "simulation/space_shared.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedcheck::sim {

class Observer;

struct ClusterSetup {
  std::string name = "cluster";
  int processors = 0;
  cluster::ResourceModel model = cluster::ResourceModel::kCount;
  cluster::ClusterPolicy policy;
  bool record_allocations = true;   // fill JobRecord::allocated
  // A pass after every arrival and every completion, as pyss and Alea decide, instead of one pass at the end of each
  // instant after all of its events (the default; the documented order of the kernel). docs/simulation.md.
  bool pass_per_event = false;
  // How long an advance reservation the cluster holds for its gateway waits for a confirmation or a release before
  // the cluster releases it (paper 002's two-phase commit), seconds.
  double hold_seconds = 60;
  // The planning horizon of the free time slots it publishes: slots up to now + this (kForever: every slot).
  double slot_horizon = kForever;
};

struct ClusterCounters {
  std::size_t passes = 0, starts = 0, backfilled = 0, max_queue = 0, rejected = 0;
  // Advance reservations: requests held, refused, then confirmed, released or expired.
  std::size_t reservations_held = 0, reservations_refused = 0, reservations_confirmed = 0, reservations_released = 0,
              reservations_expired = 0;
  std::size_t slot_reports = 0;  // free-time-slot reports sent (asked for, or periodic)
};

// An advance reservation held for a gateway and not yet confirmed or released: its processors are in the profile.
struct ReservationHold {
  std::uint32_t job = 0;
  double start = 0, end = 0;
  int procs = 0;
  ProcessorSet on;       // with processor identity
  ActorId gateway = kNoActor;
  TimerHandle expiry;
};

// One cluster as the actor holds it; observers read it.
struct ClusterState {
  ClusterSetup setup;
  AvailabilityProfile profile;
  std::vector<cluster::Waiting> queue;
  // Its processors and running jobs (processor identity: each job holds those its start names; counts: the lowest
  // free ones, its allocation); the last running job takes the place of one that ends.
  SpaceSharedResource resource;
  bool released_early = false;     // since the last pass
  cluster::PolicyState policy_state;  // what the policy's last decision left for its next pass (Decision::state)
  std::vector<ReservationHold> holds;  // held for a gateway, not yet confirmed or released
  std::size_t advance = 0;             // jobs of the queue with advance reservations (Waiting::advance)
  ClusterCounters counters;
  explicit ClusterState(ClusterSetup s);
};

// The messages between a cluster and its upstream actor (a router, a gateway), each kind named here once; its
// policy's own messages are the payloads of Decision::send.
struct JobArrives {             // a job travels to the cluster
  static constexpr std::string_view kind = "job";
  std::uint32_t job = 0;
};
struct StatusReport {           // what the cluster says of itself, every status period
  static constexpr std::string_view kind = "status";
  double as_of = 0;
  int busy = 0;
  std::size_t waiting = 0;
  long long queued_processors = 0;   // processors the waiting jobs ask, together
};

// What a cluster has promised from `after` on, read off its lists (not its profile): its running jobs until their
// estimated ends, its queue's reservations and its held advance reservations, each ending after `after`; with
// processor identity, on their processors. The true profile a check of published information compares with.
std::vector<slots::Hold> commitments(const ClusterState& state, double after);

// Paper 002's advance reservations, a two-phase commit: the gateway asks for the job's processors from `start` for
// its estimate; the cluster holds them (its policy must keep reservations, and the profile must have room then) or
// refuses; the gateway confirms (the job joins the queue, its reservation fixed: it starts exactly then) or releases;
// a hold neither confirmed nor released within ClusterSetup::hold_seconds is released, and the gateway told.
struct ReservationRequest {
  static constexpr std::string_view kind = "reservation-request";
  std::uint32_t job = 0;
  double start = 0;
};
struct ReservationHeld {
  static constexpr std::string_view kind = "reservation-held";
  std::uint32_t job = 0;
  double start = 0;
  ProcessorSet on;
};
struct ReservationRefused {
  static constexpr std::string_view kind = "reservation-refused";
  std::uint32_t job = 0;
  double start = 0;
};
struct ReservationConfirm {
  static constexpr std::string_view kind = "reservation-confirm";
  std::uint32_t job = 0;
};
struct ReservationRelease {
  static constexpr std::string_view kind = "reservation-release";
  std::uint32_t job = 0;
};
struct ReservationExpired {  // a hold released for want of a confirmation (or confirmed after its start)
  static constexpr std::string_view kind = "reservation-expired";
  std::uint32_t job = 0;
};

// Paper 002's availability information: the free time slots of the cluster's profile (model/time_slots.hpp), sent
// to whoever asks, and to the upstream actor every Links::slots_period.
struct SlotAsk {
  static constexpr std::string_view kind = "slot-ask";
};
using schedcheck::FreeSlots;  // model/time_slots.hpp: a policy may send one too (Decision::send)

class ClusterActor : public Actor {
public:
  // Who it talks to: its upstream actor (a router, a gateway) gets its status reports every `status_period` seconds
  // from `status_from` (0: never) and the messages its policy sends, each after `latency` seconds.
  struct Links {
    ActorId upstream = kNoActor;
    double latency = 0;
    double status_period = 0;
    double status_from = 0;
    double slots_period = 0;  // free time slots to the upstream actor every this many seconds (0: only when asked)
    double slots_from = 0;
  };

  // `index`: the cluster's number among the run's clusters (JobRecord::cluster, the observers' views). The book and
  // the observers' list are the run's (sim::Simulation's): they outlive the actor.
  ClusterActor(JobBook& book, std::uint32_t index, ClusterSetup setup, const std::vector<Observer*>& observers);
  ClusterActor(JobBook&, std::uint32_t, ClusterSetup, std::vector<Observer*>&&) = delete;

  void link(const Links& links) { links_ = links; }
  // The workload's jobs (every job of the book, in submit order) arrive here directly, not by message.
  void take_arrivals();
  // Only these jobs of the book (indices, in submit order) arrive here directly: its local jobs, beside those an
  // upstream actor sends.
  void take_arrivals(std::vector<std::uint32_t> jobs);

  const ClusterState& state() const { return st_; }
  std::uint32_t index() const { return index_; }

  void on_start(Context& context) override;
  void on_message(Context& context, const Message& message) override;
  void on_timer(Context& context, std::uint64_t tag) override;
  void on_instant_end(Context& context) override { pass(context); }

protected:
  // What a timer falls due for, with a job index (or 0): subclasses number theirs from kOwn.
  enum class Tag : std::uint64_t {
    kArrival = 1, kCompletion = 2, kReservationDue = 3, kStatus = 4, kWake = 5, kHoldExpires = 6, kSlots = 7,
    kOwn = 16
  };
  using Timer = TimerTag<Tag>;

  // The decision of a pass (the policy's; a replay's is the schedule's).
  virtual cluster::Decision decide(const cluster::Snapshot& snapshot);
  // When a job that starts now ends (the policy's run: now + min(run, estimate)).
  virtual double end_of(double now, std::uint32_t job) const;
  // Whether a job that reaches the cluster joins its queue (else it is rejected at once; a replay's unscheduled job).
  virtual bool admits(std::uint32_t /*job*/) const { return true; }
  // The free time slots it publishes now: its profile scanned up to the horizon (paper 002 Fig. 2a); with partitions
  // by origin, the Grid partition's (Fig. 2b, model/time_slots.hpp's partition_slots).
  virtual std::vector<TimeSlot> free_slots(double now) const;

  // A job reaches the queue; with `reserved`, at its confirmed advance reservation (which the profile holds);
  // `grid`: sent by the upstream actor (Waiting::grid), not one of the cluster's own arrivals.
  void arrive(Context& context, std::uint32_t job, const ReservationHold* reserved = nullptr, bool grid = false);
  void complete(Context& context, std::uint32_t job);  // a completion event: finish(), then a pass
  void finish(Context& context, std::uint32_t job);    // the job gives its processors back
  void pass(Context& context);
  // After an arrival or a completion: a pass now (pass_per_event), else one at the end of the instant.
  void event_happened(Context& context);
  bool in_event_pass_ = false;  // the pass running follows one event, and more of this instant may follow it

  JobBook& book_;
  const std::uint32_t index_;
  ClusterState st_;

private:
  void send_status(Context& context);
  void publish(Context& context, ActorId to);
  void request_reservation(Context& context, ActorId gateway, const ReservationRequest& request);
  void confirm_reservation(Context& context, ActorId gateway, std::uint32_t job);
  // Gives a hold's processors back; `expired`: for want of a confirmation (the gateway is told).
  void release_hold(Context& context, std::uint32_t job, bool expired);

  const std::vector<Observer*>& observers_;
  Links links_;
  JobSource arrivals_;  // the book's jobs in submit order, with take_arrivals()
  // Call-backs its policy asked for that have not come yet: their number (the timer's index) and handle.
  // A call-back at a time one already pending has is not set again (a policy that asks at every pass for the same
  // time, Mf's next interval, gets one).
  struct Wake {
    std::uint64_t number;
    TimerHandle handle;
    double at;
  };
  std::vector<Wake> wakes_pending_;
  std::uint64_t wakes_set_ = 0;
  // Reservation-due timers: one pending at the earliest reservation, not one a reservation (compression moves
  // every reservation of a conservative queue at each early end). When it fires, the queue says what is due now
  // and where the next one is. Pending times as a min-heap (an earlier reservation arms another).
  std::vector<double> due_;
  void arm_due(Context& context, double time);
  void settle(Context& context);              // a job of the book settled: withdraw call-backs once all have
  struct Touch {                              // a job a pass decision places (pass(): reused buffers)
    std::size_t index;
    const cluster::Placement* placement;
    bool start;
    bool changed = false;
    bool moved = false;   // its hold was moved in the profile (counts): nothing left to reserve
  };
  std::vector<Touch> touched_;
  void apply(std::vector<Touch>& touched, const std::vector<std::size_t>& rejected);
  std::vector<std::size_t> leaving_;          // queue indices a pass starts or rejects, ascending
};

}  // namespace schedcheck::sim
