// The discrete-event engine: it owns the clock, the event queue, clusters (queue, running jobs, availability
// profile), an optional broker above them with counted messages, and per-job records; it calls the clusters'
// policies (pure functions, reference/cluster_policies.hpp) at scheduling passes. Our own. Deterministic: events
// at equal times go completions, arrivals, messages, timers, passes, and in insertion order within a kind; no
// global state. Observers (simulation/observer.hpp) see every arrival, pass and completion; none costs nothing.
#pragma once

#include "model/cluster.hpp"
#include "model/workload.hpp"
#include "reference/cluster_policies.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::sim {

class Observer;

// The documented order of events that happen at the same instant; scheduling passes (kPass) come last, when the
// instant's events are done (they are not queued: the engine keeps the clusters that changed).
enum class EventKind : std::uint8_t { kCompletion = 0, kArrival = 1, kMessage = 2, kTimer = 3, kPass = 4 };
const char* to_string(EventKind kind);

struct Event {
  double time = 0;
  std::uint64_t order = 0;    // kind in the top 8 bits, then the insertion order (the tie-break within a kind)
  std::uint32_t entity = 0;   // a cluster index, or the broker (kBroker)
  std::uint32_t payload = 0;  // a job index (or a message slot)
  EventKind kind() const { return static_cast<EventKind>(order >> 56); }
};
inline constexpr std::uint32_t kBroker = 0xffffffffu;

// A binary heap of events by (time, kind, seq).
class EventQueue {
public:
  void push(double time, EventKind kind, std::uint32_t entity, std::uint32_t payload);
  Event pop();
  const Event& top() const { return heap_.front(); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }

private:
  std::vector<Event> heap_;
  std::uint64_t next_seq_ = 0;
};

enum class JobState : std::uint8_t { kPending, kInTransit, kWaiting, kRunning, kFinished };
const char* to_string(JobState state);

struct JobRecord {
  std::uint32_t cluster = 0;
  JobState state = JobState::kPending;
  double arrival = -1;                   // reached its cluster's queue
  double start = -1;
  double end = -1;
  double reservation = -1;               // the reservation it holds (or held last); timers of older ones are stale
  std::string allocated;                 // its processors, Batsim interval syntax (when recorded)
};

struct ClusterSetup {
  std::string name = "cluster";
  int processors = 0;
  cluster::ResourceModel model = cluster::ResourceModel::kCount;
  cluster::ClusterPolicy policy;
};

// What the broker last heard from a cluster (status messages) and what it decided to send there.
struct ClusterStatus {
  double as_of = 0;
  int processors = 0;
  int busy = 0;               // processors in use
  std::size_t waiting = 0;    // queued jobs
  std::size_t sent = 0;       // jobs the broker routed there so far
};
struct BrokerSnapshot {
  double now = 0;
  const workload::Job& job;
  const std::vector<ClusterStatus>& clusters;
  std::uint32_t last = kNone;   // the cluster the previous job went to (kNone before the first)
  static constexpr std::uint32_t kNone = 0xffffffffu;
};
struct BrokerSetup {
  std::string policy = "round-robin";
  std::function<std::uint32_t(const BrokerSnapshot&)> route;  // a cluster index; the job must fit there
  double latency = 0;          // seconds a message takes, either way
  double status_period = 0;    // clusters report their status every this many seconds (0: never)
};
// Built-in routing: round-robin (the next cluster after the last one used on which the job fits), and
// least-loaded (paper 002's gateway: the lowest share of busy processors in the clusters' last status reports; ties
// to the lower index; needs status reports). Pure functions of the snapshot. Throws std::invalid_argument.
BrokerSetup broker(const std::string& policy, double latency, double status_period);

// Replaying a schedule another scheduler produced (schedcheck audit): each job starts when the script says,
// ends when it says, on the processors it says (if given); the clusters' policies then only make reservations
// (cluster::backfill_around). Jobs the script does not start stay waiting.
struct Script {
  std::vector<double> start;           // per job; < 0: never started
  std::vector<double> end;
  std::vector<ProcessorSet> on;        // per job; empty sets: processors not given
};

struct RunOptions {
  std::vector<ClusterSetup> clusters;  // one or more
  std::optional<BrokerSetup> broker;   // required with several clusters; without, every job goes to cluster 0
  double stop_time = kForever;         // events after this time are not processed (paper 002: the last arrival)
  bool record_allocations = true;      // fill JobRecord::allocated
  const Script* script = nullptr;      // replay mode (audit)
  // false: a nested run that must finish (a queue window played forward inside a check); a stop request
  // (SIGINT/SIGTERM) then ends the run around it instead of leaving this one's jobs unstarted.
  bool stops_on_request = true;
};

// One cluster of the workload's processors running `policy`: the common case (simulate, tests, the run search).
RunOptions single_cluster(const workload::Workload& workload, cluster::ClusterPolicy policy,
                          cluster::ResourceModel model = cluster::ResourceModel::kCount);

struct ClusterCounters {
  std::size_t passes = 0, starts = 0, backfilled = 0, max_queue = 0;
};

struct RunResult {
  std::vector<JobRecord> records;      // one per job, in the workload's order
  std::vector<ClusterCounters> clusters;
  std::size_t events = 0;
  std::size_t messages = 0;            // broker <-> cluster messages delivered
  std::size_t job_messages = 0, status_messages = 0;
  double end_time = 0;                 // time of the last processed event
  bool stopped = false;                // stop_time cut the run, or a stop request (then `interrupted` too)
  bool interrupted = false;            // a stop request (SIGINT/SIGTERM, model/stop.hpp) cut the run
  double wall_seconds = 0;
};

struct Progress {
  std::size_t finished = 0, total = 0;
  double now = 0;
  double wall_seconds = 0;
};

// One cluster as the engine holds it; observers read it.
struct ClusterState {
  ClusterSetup setup;
  AvailabilityProfile profile;
  std::vector<cluster::Waiting> queue;
  std::vector<cluster::Running> running;
  ProcessorSet free_now;           // processors no running job holds
  int busy = 0;                    // processors running jobs hold
  bool released_early = false;     // since the last pass
  bool pass_pending = false;
  ClusterCounters counters;
  explicit ClusterState(ClusterSetup s);
};

class Simulation {
public:
  // `jobs` in submit order (workload::Workload::jobs); every job must fit on the clusters it can be sent to.
  Simulation(const std::vector<workload::Job>& jobs, RunOptions options);

  void add_observer(Observer& observer) { observers_.push_back(&observer); }
  // Called about every `every_seconds` of wall time, and once at the end.
  void on_progress(std::function<void(const Progress&)> callback, double every_seconds = 1.0);

  RunResult run();

  const std::vector<workload::Job>& jobs() const { return jobs_; }
  const std::vector<JobRecord>& records() const { return result_.records; }
  const std::vector<ClusterState>& clusters() const { return clusters_; }
  double now() const { return now_; }

private:
  void arrive(std::uint32_t cluster, std::uint32_t job);
  void route(std::uint32_t job);
  void complete(std::uint32_t job);
  void pass(std::uint32_t cluster);
  void mark_dirty(std::uint32_t cluster);
  void send_status(std::uint32_t cluster);
  cluster::Decision replay_decision(std::uint32_t cluster, const cluster::Snapshot& snapshot) const;
  double runtime_of(std::uint32_t job) const;

  const std::vector<workload::Job>& jobs_;
  RunOptions options_;
  std::vector<ClusterState> clusters_;
  std::vector<ClusterStatus> broker_view_;
  std::vector<std::pair<std::uint32_t, ClusterStatus>> mailbox_;  // status reports in flight (cluster, content)
  std::vector<std::uint32_t> running_slot_;   // job -> index in its cluster's running vector
  std::vector<std::uint32_t> dirty_;          // clusters that changed in this instant, in that order: passes due
  struct Touch {                              // a job a pass decision places (pass(): reused buffers)
    std::size_t index;
    const cluster::Placement* placement;
    bool start;
    bool changed = false;
  };
  std::vector<Touch> touched_;
  std::vector<std::size_t> started_;
  EventQueue events_;
  std::vector<Observer*> observers_;
  std::function<void(const Progress&)> progress_;
  double progress_every_ = 1.0;
  RunResult result_;
  double now_ = 0;
  std::size_t next_arrival_ = 0, finished_ = 0;
  std::uint32_t last_routed_ = BrokerSnapshot::kNone;
};

}  // namespace schedcheck::sim
