// The discrete-event engine (see engine.hpp). Our own. The loop stays small: an event goes in, the entity it
// names reacts, and a cluster that changed gets one scheduling pass at the end of the instant (its pass event
// sorts after every completion, arrival, message and timer of that instant).
#include "simulation/engine.hpp"

#include "model/stop.hpp"

#include "simulation/observer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace schedcheck::sim {

namespace {
constexpr std::uint32_t kStatusTimer = 0xffffffffu;  // a timer payload: the cluster's periodic status report

bool before(const Event& a, const Event& b) {  // a runs before b
  if (a.time != b.time) return a.time < b.time;
  return a.order < b.order;  // kind first, then insertion order
}
}  // namespace

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::kCompletion: return "completion";
    case EventKind::kArrival: return "arrival";
    case EventKind::kMessage: return "message";
    case EventKind::kTimer: return "timer";
    case EventKind::kPass: return "pass";
  }
  return "?";
}

const char* to_string(JobState state) {
  switch (state) {
    case JobState::kPending: return "not yet submitted";
    case JobState::kInTransit: return "in transit";
    case JobState::kWaiting: return "waiting";
    case JobState::kRunning: return "running";
    case JobState::kFinished: return "finished";
  }
  return "?";
}

// A 4-ary heap: half the depth of a binary heap, and the four children of a node share a cache line or two.
void EventQueue::push(double time, EventKind kind, std::uint32_t entity, std::uint32_t payload) {
  const Event e{time, (static_cast<std::uint64_t>(kind) << 56) | next_seq_++, entity, payload};
  std::size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

Event EventQueue::pop() {
  const Event top = heap_.front();
  const Event last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n > 0) {
    std::size_t i = 0;
    while (true) {
      const std::size_t first = 4 * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < first + 4 && c < n; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], last)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = last;
  }
  return top;
}

BrokerSetup broker(const std::string& policy, double latency, double status_period) {
  BrokerSetup setup;
  setup.policy = policy;
  setup.latency = latency;
  setup.status_period = status_period;
  if (policy == "round-robin") {
    setup.route = [](const BrokerSnapshot& s) {
      const auto n = static_cast<std::uint32_t>(s.clusters.size());
      const std::uint32_t first = s.last == BrokerSnapshot::kNone ? 0 : (s.last + 1) % n;
      for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t c = (first + k) % n;
        if (s.job.procs <= s.clusters[c].processors) return c;
      }
      return std::uint32_t{0};
    };
  } else if (policy == "least-loaded") {
    // Paper 002's gateway: the least loaded provider by the utilisation it last reported.
    setup.route = [](const BrokerSnapshot& s) {
      std::uint32_t best = 0;
      double best_load = kForever;
      for (std::uint32_t c = 0; c < s.clusters.size(); ++c) {
        const auto& st = s.clusters[c];
        if (s.job.procs > st.processors) continue;
        const double load = static_cast<double>(st.busy) / st.processors;
        if (load < best_load) {
          best_load = load;
          best = c;
        }
      }
      return best;
    };
    if (!(status_period > 0))
      throw std::invalid_argument("--broker least-loaded needs status reports (--status-period > 0): without them every "
                                  "cluster looks idle");
  } else {
    throw std::invalid_argument("unknown broker policy '" + policy + "' (known: round-robin, least-loaded)");
  }
  return setup;
}

RunOptions single_cluster(const workload::Workload& workload, cluster::ClusterPolicy policy, cluster::ResourceModel model) {
  RunOptions options;
  ClusterSetup setup;
  setup.name = workload.name;
  setup.processors = workload.processors;
  setup.model = model;
  setup.policy = std::move(policy);
  options.clusters.push_back(std::move(setup));
  return options;
}

ClusterState::ClusterState(ClusterSetup s)
    : setup(std::move(s)),
      profile(setup.processors, setup.model == cluster::ResourceModel::kProcessors),
      free_now(ProcessorSet::all(setup.processors)) {}

Simulation::Simulation(const std::vector<workload::Job>& jobs, RunOptions options)
    : jobs_(jobs), options_(std::move(options)) {
  if (options_.clusters.empty()) throw std::invalid_argument("a simulation needs at least one cluster");
  if (options_.clusters.size() > 1 && !options_.broker)
    throw std::invalid_argument("several clusters need a broker to route jobs");
  int widest = 0;
  for (const auto& setup : options_.clusters) {
    if (setup.processors < 1) throw std::invalid_argument("cluster " + setup.name + " has no processors");
    if (!setup.policy.decide) throw std::invalid_argument("cluster " + setup.name + " has no policy");
    widest = std::max(widest, setup.processors);
    clusters_.emplace_back(setup);
  }
  for (const auto& job : jobs_)
    if (job.procs > widest || job.procs < 1)
      throw std::invalid_argument("job " + std::to_string(job.id) + " asks " + std::to_string(job.procs) +
                                  " processors: no cluster has that many");
  if (options_.script && (options_.script->start.size() != jobs_.size() || options_.script->end.size() != jobs_.size() ||
                          options_.script->on.size() != jobs_.size()))
    throw std::invalid_argument("a replay script needs a start, an end and processors (maybe none) for every job");
  if (options_.script && options_.clusters.size() != 1)
    throw std::invalid_argument("a replay script drives one cluster");
  result_.records.resize(jobs_.size());
  result_.clusters.resize(clusters_.size());
  running_slot_.assign(jobs_.size(), 0);
  for (std::size_t c = 0; c < clusters_.size(); ++c) {
    ClusterStatus status;
    status.processors = clusters_[c].setup.processors;
    broker_view_.push_back(status);
  }
}

void Simulation::on_progress(std::function<void(const Progress&)> callback, double every_seconds) {
  progress_ = std::move(callback);
  progress_every_ = every_seconds;
}

double Simulation::runtime_of(std::uint32_t job) const { return jobs_[job].runtime(); }

void Simulation::mark_dirty(std::uint32_t c) {
  ClusterState& st = clusters_[c];
  if (st.pass_pending) return;
  st.pass_pending = true;
  dirty_.push_back(c);  // its pass runs when the instant ends (after every event at now)
}

void Simulation::arrive(std::uint32_t c, std::uint32_t job) {
  JobRecord& record = result_.records[job];
  record.cluster = c;
  record.arrival = now_;
  record.state = JobState::kWaiting;
  ClusterState& st = clusters_[c];
  cluster::Waiting waiting;
  waiting.job = job;
  waiting.procs = jobs_[job].procs;
  waiting.submit = jobs_[job].submit;
  waiting.estimate = jobs_[job].estimate;
  st.queue.push_back(std::move(waiting));
  st.counters.max_queue = std::max(st.counters.max_queue, st.queue.size());
  for (Observer* o : observers_) o->on_arrival(ArrivalView{now_, c, job, *this});
  mark_dirty(c);
}

void Simulation::route(std::uint32_t job) {
  const BrokerSetup& b = *options_.broker;
  const std::uint32_t c = b.route(BrokerSnapshot{now_, jobs_[job], broker_view_, last_routed_});
  if (c >= clusters_.size() || jobs_[job].procs > clusters_[c].setup.processors)
    throw std::logic_error("broker " + b.policy + " routed job " + std::to_string(jobs_[job].id) + " to cluster " +
                           std::to_string(c) + " where it does not fit");
  ++broker_view_[c].sent;
  last_routed_ = c;
  result_.records[job].cluster = c;
  result_.records[job].state = JobState::kInTransit;
  ++result_.job_messages;
  events_.push(now_ + b.latency, EventKind::kMessage, c, job);
}

void Simulation::send_status(std::uint32_t c) {
  // A status report travels to the broker with the latency; the broker sees it on delivery (kMessage to kBroker,
  // payload = slot in the mailbox).
  const ClusterState& st = clusters_[c];
  ClusterStatus status = broker_view_[c];
  status.as_of = now_;
  status.busy = st.busy;
  status.waiting = st.queue.size();
  mailbox_.emplace_back(c, status);
  ++result_.status_messages;
  events_.push(now_ + options_.broker->latency, EventKind::kMessage, kBroker,
               static_cast<std::uint32_t>(mailbox_.size() - 1));
}

void Simulation::complete(std::uint32_t job) {
  JobRecord& record = result_.records[job];
  const std::uint32_t c = record.cluster;
  ClusterState& st = clusters_[c];
  const std::uint32_t slot = running_slot_[job];
  const cluster::Running running = std::move(st.running[slot]);
  if (slot + 1 != st.running.size()) {
    st.running[slot] = std::move(st.running.back());
    running_slot_[st.running[slot].job] = slot;
  }
  st.running.pop_back();
  if (now_ > running.start) {  // it held its processors (a job of length 0 held none)
    st.busy -= running.on.count();
    st.free_now |= running.on;
  }
  const bool early = now_ < running.estimated_end - kTimeTolerance;
  if (early) {
    st.profile.release(now_, running.estimated_end, running.procs, running.on);
    st.released_early = true;
  }
  record.end = now_;
  record.state = JobState::kFinished;
  ++finished_;
  for (Observer* o : observers_) o->on_completion(CompletionView{now_, c, job, early, *this});
  mark_dirty(c);
}

cluster::Decision Simulation::replay_decision(std::uint32_t c, const cluster::Snapshot& snapshot) const {
  const Script& script = *options_.script;
  std::vector<cluster::Placement> forced;
  std::vector<std::size_t> ending_now;  // forced jobs of length 0: their end makes another pass at this instant
  for (std::size_t i = 0; i < snapshot.queue.size(); ++i) {
    const std::uint32_t job = snapshot.queue[i].job;
    if (script.start[job] < 0 || script.start[job] > now_ + kTimeTolerance) continue;
    cluster::Placement p{i, now_, {}};
    if (clusters_[c].setup.model == cluster::ResourceModel::kProcessors) p.on = script.on[job];
    forced.push_back(std::move(p));
    if (script.end[job] <= now_ + kTimeTolerance) ending_now.push_back(i);
  }
  // Another pass follows at this instant when a job started now ends now (its completion comes before the next
  // pass): the replayed scheduler may have started some jobs only then, on the processors that job gave back.
  return cluster::backfill_around(snapshot, clusters_[c].setup.policy.pivots, forced, ending_now);
}

void Simulation::pass(std::uint32_t c) {
  ClusterState& st = clusters_[c];
  st.pass_pending = false;
  ++st.counters.passes;
  const cluster::Snapshot snapshot{now_, st.setup.processors, st.setup.model, st.queue, st.running, st.profile,
                                   st.released_early};
  const cluster::Decision d = options_.script ? replay_decision(c, snapshot) : st.setup.policy.decide(snapshot);
  st.released_early = false;
  if (d.start.empty() && d.reserve.empty()) {
    if (!observers_.empty())
      for (Observer* o : observers_) o->on_pass(PassView{now_, c, st, d, *this});
    st.profile.forget_before(now_);
    return;
  }

  // The final placement of every job the decision touches (a job moved, then started, in one pass: the start).
  std::vector<Touch>& touched = touched_;  // buffers kept across passes
  touched.clear();
  const bool identity = st.setup.model == cluster::ResourceModel::kProcessors;
  auto check = [&](const cluster::Placement& p, bool start) {
    auto who = [&] { return "policy " + st.setup.policy.name + " at t=" + std::to_string(now_) + ": "; };
    if (p.index >= st.queue.size()) throw std::logic_error(who() + "a decision names queue index " + std::to_string(p.index));
    const cluster::Waiting& q = st.queue[p.index];
    if (start && std::abs(p.start - now_) > kTimeTolerance) throw std::logic_error(who() + "a start not at now");
    if (!start && p.start < now_ - kTimeTolerance) throw std::logic_error(who() + "a reservation in the past");
    if (identity && p.on.count() != q.procs)
      throw std::logic_error(who() + "job " + std::to_string(jobs_[q.job].id) + " needs " + std::to_string(q.procs) +
                             " processors, the decision names " + std::to_string(p.on.count()));
    touched.push_back(Touch{p.index, &p, start});
  };
  for (const auto& p : d.reserve) check(p, false);
  for (const auto& p : d.start) check(p, true);
  std::stable_sort(touched.begin(), touched.end(), [](const Touch& a, const Touch& b) { return a.index < b.index; });
  for (std::size_t k = 0; k + 1 < touched.size(); ++k)  // keep the last placement of an index
    if (touched[k].index == touched[k + 1].index) {
      if (touched[k].start) throw std::logic_error("policy " + st.setup.policy.name + " starts a job twice");
      touched[k].placement = nullptr;
    }

  // Releases first, then reservations: with processor identity a set given back here may be taken there.
  for (Touch& t : touched) {
    if (!t.placement) continue;
    const cluster::Waiting& q = st.queue[t.index];
    t.changed = !(q.reserved && std::abs(q.reserved_start - t.placement->start) <= kTimeTolerance &&
                  (!identity || q.reserved_on == t.placement->on));
    if (q.reserved && t.changed) st.profile.release(q.reserved_start, q.reserved_start + q.estimate, q.procs, q.reserved_on);
  }
  for (const Touch& t : touched)
    if (t.placement && t.changed) {
      const cluster::Waiting& q = st.queue[t.index];
      st.profile.reserve(t.placement->start, t.placement->start + q.estimate, q.procs, t.placement->on);
    }

  std::vector<std::size_t>& started = started_;  // queue indices, ascending
  started.clear();
  for (const Touch& t : touched)
    if (t.placement && t.start) started.push_back(t.index);
  std::size_t first_left = 0;  // the first queue index this pass leaves waiting: starts after it are backfills
  while (first_left < started.size() && started[first_left] == first_left) ++first_left;
  for (const Touch& t : touched) {
    if (!t.placement) continue;
    cluster::Waiting& q = st.queue[t.index];
    JobRecord& record = result_.records[q.job];
    if (!t.start) {
      q.reserved = true;
      q.reserved_start = t.placement->start;
      q.reserved_on = t.placement->on;
      record.reservation = q.reserved_start;
      if (q.reserved_start > now_ + kTimeTolerance) events_.push(q.reserved_start, EventKind::kTimer, c, q.job);
      continue;
    }
    ProcessorSet on = identity ? t.placement->on : st.free_now.lowest(q.procs);
    if (options_.record_allocations) record.allocated = on.to_intervals();
    const double end = options_.script ? std::max(now_, options_.script->end[q.job]) : now_ + runtime_of(q.job);
    // A job holds its processors over [start, end): a job that ends as it starts holds none (its window is empty),
    // so jobs started at the same instant may use them. The profile still holds them until it ends (that instant).
    if (end > now_) {
      st.free_now.subtract(on);
      st.busy += on.count();
    }
    record.start = now_;
    record.state = JobState::kRunning;
    running_slot_[q.job] = static_cast<std::uint32_t>(st.running.size());
    st.running.push_back(cluster::Running{q.job, q.procs, now_, now_ + q.estimate, std::move(on)});
    events_.push(end, EventKind::kCompletion, c, q.job);
    ++st.counters.starts;
    if (t.index > first_left) ++st.counters.backfilled;
  }
  for (Observer* o : observers_) o->on_pass(PassView{now_, c, st, d, *this});

  // The started jobs leave the queue (one compaction from the first of them, order kept).
  std::size_t out = started.empty() ? st.queue.size() : started.front();
  for (std::size_t i = out, k = 0; i < st.queue.size(); ++i) {
    if (k < started.size() && started[k] == i) {
      ++k;
      continue;
    }
    st.queue[out++] = std::move(st.queue[i]);
  }
  st.queue.resize(out);
  st.profile.forget_before(now_);
}

RunResult Simulation::run() {
  const auto wall_start = std::chrono::steady_clock::now();
  auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(); };
  const std::uint32_t entry = options_.broker ? kBroker : 0;
  if (!jobs_.empty()) {
    events_.push(jobs_[0].submit, EventKind::kArrival, entry, 0);
    next_arrival_ = 1;
  }
  if (options_.script)
    for (std::uint32_t j = 0; j < jobs_.size(); ++j)
      if (options_.script->start[j] >= 0) events_.push(options_.script->start[j], EventKind::kTimer, 0, j);
  if (options_.broker && options_.broker->status_period > 0 && !jobs_.empty())
    for (std::uint32_t c = 0; c < clusters_.size(); ++c) events_.push(jobs_[0].submit, EventKind::kTimer, c, kStatusTimer);

  double last_report = 0;
  std::vector<std::uint32_t> passing;
  while (true) {
    // The end of an instant: one pass for each cluster that changed, in the order they changed (the passes go after
    // every completion, arrival, message and timer of the instant; a pass's own events at now come back here).
    if (!dirty_.empty() && (events_.empty() || events_.top().time > now_)) {
      passing.swap(dirty_);
      try {
        for (std::uint32_t c : passing) pass(c);
      } catch (const StopRequested&) {  // a policy process stopped waiting for its answer: the run ends here
        result_.stopped = result_.interrupted = true;
        break;
      }
      passing.clear();
      continue;
    }
    if (events_.empty()) break;
    if (events_.top().time > options_.stop_time) {
      result_.stopped = true;
      break;
    }
    if (options_.stops_on_request && stop_requested()) {  // SIGINT/SIGTERM (model/stop.hpp): cut the run here
      result_.stopped = result_.interrupted = true;
      break;
    }
    const Event e = events_.pop();
    now_ = e.time;
    ++result_.events;
    switch (e.kind()) {
      case EventKind::kArrival:
        if (next_arrival_ < jobs_.size()) {  // one arrival in the queue at a time: trace order among equal times
          events_.push(jobs_[next_arrival_].submit, EventKind::kArrival, entry, static_cast<std::uint32_t>(next_arrival_));
          ++next_arrival_;
        }
        if (options_.broker) route(e.payload);
        else arrive(0, e.payload);
        break;
      case EventKind::kMessage:
        ++result_.messages;
        if (e.entity == kBroker) {  // a status report: what the cluster said when it sent it (`sent` is the broker's own)
          const auto& [c, report] = mailbox_[e.payload];
          broker_view_[c].as_of = report.as_of;
          broker_view_[c].busy = report.busy;
          broker_view_[c].waiting = report.waiting;
        }
        else arrive(e.entity, e.payload);
        break;
      case EventKind::kTimer:
        if (e.payload == kStatusTimer) {
          send_status(e.entity);
          if (finished_ < jobs_.size()) events_.push(now_ + options_.broker->status_period, EventKind::kTimer, e.entity, kStatusTimer);
        } else {
          // A reservation falls due (a stale timer of a reservation that moved is skipped), or a scripted start.
          const JobRecord& r = result_.records[e.payload];
          const bool due = std::abs(r.reservation - now_) <= kTimeTolerance ||
                           (options_.script && std::abs(options_.script->start[e.payload] - now_) <= kTimeTolerance);
          if (r.state == JobState::kWaiting && r.cluster == e.entity && due) mark_dirty(e.entity);
        }
        break;
      case EventKind::kCompletion: complete(e.payload); break;
      case EventKind::kPass: break;  // passes are not queued events (above)
    }
    if (progress_ && (result_.events & 0xffff) == 0) {
      const double w = wall();
      if (w - last_report >= progress_every_) {
        last_report = w;
        progress_(Progress{finished_, jobs_.size(), now_, w});
      }
    }
  }
  result_.end_time = now_;
  for (std::size_t c = 0; c < clusters_.size(); ++c) result_.clusters[c] = clusters_[c].counters;
  result_.wall_seconds = wall();
  if (progress_) progress_(Progress{finished_, jobs_.size(), now_, result_.wall_seconds});
  for (Observer* o : observers_) o->on_end(EndView{*this, result_});
  return std::move(result_);
}

}  // namespace schedcheck::sim
