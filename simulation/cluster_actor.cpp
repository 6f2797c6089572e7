// A space-shared cluster as an actor (see cluster_actor.hpp). Our own.
#include "simulation/cluster_actor.hpp"

#include "reference/load_forecast.hpp"

#include "simulation/observer.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace schedcheck::sim {

const char* to_string(JobState state) {
  switch (state) {
    case JobState::kPending: return "not yet submitted";
    case JobState::kInTransit: return "in transit";
    case JobState::kWaiting: return "waiting";
    case JobState::kRunning: return "running";
    case JobState::kFinished: return "finished";
    case JobState::kRejected: return "rejected";
  }
  return "?";
}

ClusterState::ClusterState(ClusterSetup s)
    : setup(std::move(s)),
      profile(setup.processors, setup.model == cluster::ResourceModel::kProcessors),
      resource(setup.processors,
               setup.model == cluster::ResourceModel::kProcessors ? Holding::kNamed : Holding::kLowest) {}

std::vector<slots::Hold> commitments(const ClusterState& state, double after) {
  const bool identity = state.setup.model == cluster::ResourceModel::kProcessors;
  std::vector<slots::Hold> holds;
  auto hold = [&](double start, double end, int procs, const ProcessorSet& on) {
    if (end > after + kTimeTolerance && end > start + kTimeTolerance)
      holds.push_back(slots::Hold{start, end, procs, identity ? on : ProcessorSet()});
  };
  for (const auto& r : state.resource.running()) hold(r.start, r.estimated_end, r.procs, r.on);
  for (const auto& w : state.queue)
    if (w.reserved) hold(w.reserved_start, w.reserved_start + w.estimate, w.procs, w.reserved_on);
  for (const auto& h : state.holds) hold(h.start, h.end, h.procs, h.on);
  return holds;
}

ClusterActor::ClusterActor(JobBook& book, std::uint32_t index, ClusterSetup setup, const std::vector<Observer*>& observers)
    : book_(book), index_(index), st_(std::move(setup)), observers_(observers) {
  if (st_.setup.processors < 1) throw std::invalid_argument("cluster " + st_.setup.name + " has no processors");
  if (!st_.setup.policy.decide) throw std::invalid_argument("cluster " + st_.setup.name + " has no policy");
}

void ClusterActor::take_arrivals() {
  arrivals_ = JobSource(book_.jobs.size(), [this](std::size_t j) { return book_.jobs[j].submit; },
                        Timer::of(Tag::kArrival, 0));
}

void ClusterActor::take_arrivals(std::vector<std::uint32_t> jobs) {
  arrivals_ = JobSource(std::move(jobs), [this](std::size_t j) { return book_.jobs[j].submit; },
                        Timer::of(Tag::kArrival, 0));
}

void ClusterActor::on_start(Context& context) {
  context.kind<JobArrives>();  // the kinds it knows, counted from the start (zero if never sent)
  context.kind<StatusReport>();
  arrivals_.start(context);
  if (links_.upstream != kNoActor && links_.status_period > 0 && !book_.jobs.empty())
    context.wake_at(links_.status_from, Timer::of(Tag::kStatus, 0));
  if (links_.upstream != kNoActor && links_.slots_period > 0 && !book_.jobs.empty())
    context.wake_at(links_.slots_from, Timer::of(Tag::kSlots, 0));
}

void ClusterActor::on_message(Context& context, const Message& message) {
  if (const auto* job = message.as<JobArrives>()) return arrive(context, job->job, nullptr, true);
  if (const auto* r = message.as<ReservationRequest>()) return request_reservation(context, message.from, *r);
  if (const auto* c = message.as<ReservationConfirm>()) return confirm_reservation(context, message.from, c->job);
  if (const auto* r = message.as<ReservationRelease>()) return release_hold(context, r->job, false);
  if (message.as<SlotAsk>()) return publish(context, message.from);
  throw std::logic_error("cluster " + st_.setup.name + " got a message of kind " + std::string(message.payload.kind()) +
                         " it does not know");
}

void ClusterActor::request_reservation(Context& context, ActorId gateway, const ReservationRequest& r) {
  const double now = context.now();
  if (r.job >= book_.jobs.size()) throw std::logic_error("a reservation request for job index " + std::to_string(r.job));
  const workload::Job& job = book_.jobs[r.job];
  std::optional<ProcessorSet> on;
  if (st_.setup.policy.keeps_reservations)
    on = cluster::admit_reservation(st_.profile, job.procs, r.start, job.estimate, now);
  if (!on) {  // refused; the provider updates its availability information at the gateway (paper 002 sec. 4)
    ++st_.counters.reservations_refused;
    context.send(gateway, ReservationRefused{r.job, r.start}, links_.latency);
    if (st_.setup.policy.keeps_reservations) publish(context, gateway);
    return;
  }
  st_.profile.reserve(r.start, r.start + job.estimate, job.procs, *on);
  const TimerHandle expiry = context.wake_at(now + st_.setup.hold_seconds, Timer::of(Tag::kHoldExpires, r.job));
  st_.holds.push_back(ReservationHold{r.job, r.start, r.start + job.estimate, job.procs, *on, gateway, expiry});
  ++st_.counters.reservations_held;
  context.send(gateway, ReservationHeld{r.job, r.start, *on}, links_.latency);
}

void ClusterActor::confirm_reservation(Context& context, ActorId gateway, std::uint32_t job) {
  const auto it = std::find_if(st_.holds.begin(), st_.holds.end(), [&](const ReservationHold& h) { return h.job == job; });
  if (it != st_.holds.end() && it->start < context.now() - kTimeTolerance) {  // confirmed after its start
    context.cancel(it->expiry);
    release_hold(context, job, true);
    return;
  }
  if (it == st_.holds.end()) {  // expired (the gateway is told, or will be), or never held
    context.send(gateway, ReservationExpired{job}, links_.latency);
    return;
  }
  const ReservationHold hold = *it;
  context.cancel(hold.expiry);
  st_.holds.erase(it);
  ++st_.counters.reservations_confirmed;
  arrive(context, job, &hold, true);
}

void ClusterActor::release_hold(Context& context, std::uint32_t job, bool expired) {
  const auto it = std::find_if(st_.holds.begin(), st_.holds.end(), [&](const ReservationHold& h) { return h.job == job; });
  if (it == st_.holds.end()) return;  // confirmed, or released already
  st_.profile.release(it->start, it->end, it->procs, it->on);
  const ActorId gateway = it->gateway;
  if (!expired) context.cancel(it->expiry);
  st_.holds.erase(it);
  if (expired) {
    ++st_.counters.reservations_expired;
    context.send(gateway, ReservationExpired{job}, links_.latency);
  } else {
    ++st_.counters.reservations_released;
  }
  event_happened(context);  // processors came back: waiting jobs may start
}

void ClusterActor::on_timer(Context& context, std::uint64_t t) {
  const auto job = static_cast<std::uint32_t>(Timer::index(t));  // kWake: the call-back's number
  switch (Timer::due(t)) {
    case Tag::kArrival: arrive(context, static_cast<std::uint32_t>(arrivals_.arrived(context, t))); break;
    case Tag::kCompletion: complete(context, job); break;
    case Tag::kReservationDue: {  // the earliest reservation may fall due (it may have moved since: then nothing)
      std::pop_heap(due_.begin(), due_.end(), std::greater<>());
      due_.pop_back();
      const double now = context.now();
      double next = kForever;
      for (const cluster::Waiting& q : st_.queue) {
        if (!q.reserved) continue;
        if (std::abs(q.reserved_start - now) <= kTimeTolerance) context.end_of_instant();
        else if (q.reserved_start > now) next = std::min(next, q.reserved_start);
      }
      arm_due(context, next);  // the reservations this instant's pass makes arm their own
      break;
    }
    case Tag::kStatus:
      send_status(context);
      if (!book_.all_settled()) context.wake_at(context.now() + links_.status_period, Timer::of(Tag::kStatus, 0));
      break;
    case Tag::kHoldExpires: release_hold(context, job, true); break;
    case Tag::kSlots:
      publish(context, links_.upstream);
      if (!book_.all_settled()) context.wake_at(context.now() + links_.slots_period, Timer::of(Tag::kSlots, 0));
      break;
    case Tag::kWake:  // the policy asked to be called again now
      wakes_pending_.erase(std::find_if(wakes_pending_.begin(), wakes_pending_.end(),
                                        [&](const Wake& w) { return w.number == Timer::index(t); }));
      context.end_of_instant();
      break;
    default: throw std::logic_error("cluster " + st_.setup.name + ": a timer it did not set");
  }
}

double ClusterActor::end_of(double now, std::uint32_t job) const { return now + book_.jobs[job].runtime(); }

void ClusterActor::arm_due(Context& context, double time) {
  if (time == kForever || (!due_.empty() && due_.front() <= time + kTimeTolerance)) return;  // an earlier one covers it
  context.wake_at(time, Timer::of(Tag::kReservationDue, 0));
  due_.push_back(time);
  std::push_heap(due_.begin(), due_.end(), std::greater<>());
}

void ClusterActor::settle(Context& context) {
  if (wakes_pending_.empty() || !book_.all_settled()) return;
  for (const Wake& wake : wakes_pending_) context.cancel(wake.handle);  // nothing is left to decide: the run may end now
  wakes_pending_.clear();
}

cluster::Decision ClusterActor::decide(const cluster::Snapshot& snapshot) { return st_.setup.policy.decide(snapshot); }

std::vector<TimeSlot> ClusterActor::free_slots(double now) const {
  const auto& parts = st_.setup.policy.partitions;
  if (parts && parts->by_origin) {  // Fig. 2b: the Grid partition publishes its own (Mf's shares are in its state)
    const bool resized = std::any_of(st_.policy_state.begin(), st_.policy_state.end(),
                                     [](const cluster::StateValue& v) { return v.name == "grid_share"; });
    const cluster::Partitions now_parts =
        resized ? cluster::forecast_partitions(st_.policy_state, st_.setup.processors) : *parts;
    return partition_slots(st_.profile, now, now + st_.setup.slot_horizon, now_parts, 1, st_.setup.processors);
  }
  return free_time_slots(st_.profile, now, now + st_.setup.slot_horizon);
}

void ClusterActor::publish(Context& context, ActorId to) {
  const double now = context.now();
  FreeSlots report{now, free_slots(now)};
  ++st_.counters.slot_reports;
  for (Observer* o : observers_) o->on_publish(PublishView{now, index_, report.slots, st_, book_});
  context.send(to, std::move(report), links_.latency);
}

void ClusterActor::send_status(Context& context) {
  // What the cluster says of itself now, as the upstream actor will read it when the message arrives.
  long long queued = 0;
  for (const auto& w : st_.queue) queued += w.procs;
  context.send(links_.upstream, StatusReport{context.now(), st_.resource.busy(), st_.queue.size(), queued}, links_.latency);
}

void ClusterActor::arrive(Context& context, std::uint32_t job, const ReservationHold* reserved, bool grid) {
  const double now = context.now();
  JobRecord& record = book_.records[job];
  record.cluster = index_;
  if (!admits(job)) {  // it never reaches the queue (a replay's job the schedule never starts)
    record.state = JobState::kRejected;
    ++book_.rejected;
    ++st_.counters.rejected;
    settle(context);
    return;
  }
  record.arrival = now;
  record.state = JobState::kWaiting;
  cluster::Waiting waiting;
  waiting.job = job;
  waiting.procs = book_.jobs[job].procs;
  waiting.submit = book_.jobs[job].submit;
  waiting.estimate = book_.jobs[job].estimate;
  waiting.grid = grid;
  if (reserved) {
    waiting.reserved = waiting.advance = true;
    waiting.reserved_start = reserved->start;
    waiting.reserved_on = reserved->on;
    record.reservation = reserved->start;
    ++st_.advance;
    if (reserved->start > now + kTimeTolerance) arm_due(context, reserved->start);
  }
  st_.queue.push_back(std::move(waiting));
  st_.counters.max_queue = std::max(st_.counters.max_queue, st_.queue.size());
  for (Observer* o : observers_) o->on_arrival(ArrivalView{now, index_, job, book_});
  event_happened(context);
}

void ClusterActor::event_happened(Context& context) {
  if (!st_.setup.pass_per_event) return context.end_of_instant();
  in_event_pass_ = true;
  pass(context);
  in_event_pass_ = false;
}

void ClusterActor::complete(Context& context, std::uint32_t job) {
  if (book_.records[job].state == JobState::kFinished) return;  // finished with an earlier completion of this instant
  finish(context, job);
  if (st_.setup.pass_per_event) {
    // The jobs that end now at their estimate are free in the scheduler's profile already (their holds end now), as
    // in pyss's CPU snapshot: they finish with this event, so that its pass may use their processors.
    const double now = context.now();
    for (std::size_t i = 0; i < st_.resource.running().size();) {
      const cluster::Running& r = st_.resource.running()[i];
      if (r.estimated_end <= now + kTimeTolerance && end_of(r.start, r.job) <= now + kTimeTolerance) {
        finish(context, r.job);  // moves the last running job into slot i
        continue;
      }
      ++i;
    }
  }
  event_happened(context);
  settle(context);
}

void ClusterActor::finish(Context& context, std::uint32_t job) {
  const double now = context.now();
  JobRecord& record = book_.records[job];
  const bool early = st_.resource.finish(now, job, &st_.profile).early;  // an early end gives the profile its rest
  if (early) st_.released_early = true;
  record.end = now;
  record.state = JobState::kFinished;
  ++book_.finished;
  for (Observer* o : observers_) o->on_completion(CompletionView{now, index_, job, early, book_});
}

// Applies a pass's decision to the cluster's profile: releases first, then reservations and starts (with processor
// identity a set given back here may be taken there). `rejected`: queue indices of the jobs it rejects.
void ClusterActor::apply(std::vector<Touch>& touched, const std::vector<std::size_t>& rejected) {
  ClusterState& st = st_;
  const bool identity = st.setup.model == cluster::ResourceModel::kProcessors;
  for (Touch& t : touched) {
    if (!t.placement) continue;
    const cluster::Waiting& q = st.queue[t.index];
    t.changed = !(q.reserved && std::abs(q.reserved_start - t.placement->start) <= kTimeTolerance &&
                  (!identity || q.reserved_on == t.placement->on));
    if (!(q.reserved && t.changed)) continue;
    if (identity) {
      st.profile.release(q.reserved_start, q.reserved_start + q.estimate, q.procs, q.reserved_on);
    } else {  // on counts a moved hold changes only where its two windows differ
      st.profile.move(q.reserved_start, t.placement->start, q.estimate, q.procs);
      t.moved = true;
    }
  }
  for (const std::size_t i : rejected) {  // a rejected job gives its reservation back
    const cluster::Waiting& q = st.queue[i];
    if (q.reserved) st.profile.release(q.reserved_start, q.reserved_start + q.estimate, q.procs, q.reserved_on);
  }
  for (const Touch& t : touched)
    if (t.placement && t.changed && !t.moved) {
      const cluster::Waiting& q = st.queue[t.index];
      st.profile.reserve(t.placement->start, t.placement->start + q.estimate, q.procs, t.placement->on);
    }
}

void ClusterActor::pass(Context& context) {
  const double now = context.now();
  ClusterState& st = st_;
  ++st.counters.passes;
  // The profile after the decision: the policy's own copy when it promises one and no observer checks the run (the
  // same profile, without applying every move a second time; the policy may then take this one over as its copy:
  // Snapshot::lent); else the decision applied here, then compared with the policy's copy (a difference is a bug of
  // the policy: the run stops).
  const bool adopt = st.setup.policy.hands_on_profile && observers_.empty();
  const cluster::Snapshot snapshot{now, st.setup.processors, st.setup.model, st.queue, st.resource.running(), st.profile,
                                   st.released_early, adopt ? &st.profile : nullptr, st.policy_state, st.advance};
  cluster::Decision d = decide(snapshot);
  st.released_early = false;
  if (d.state) st.policy_state = *d.state;  // what the next pass sees (the decision keeps its own, for observers)
  const bool adopted = adopt && d.profile;
  if (adopted) st.profile = std::move(*d.profile);
  auto who = [&] { return "policy " + st.setup.policy.name + " at t=" + std::to_string(now) + ": "; };
  // What the decision asks beyond placing jobs: a call at a later time (none once every job has settled: nothing is
  // left to decide, and the run must end), messages upstream.
  auto follow_up = [&] {
    if (d.wake_at) {
      if (!(*d.wake_at > now + kTimeTolerance)) throw std::logic_error(who() + "a call back that is not later than now");
      const bool pending = std::any_of(wakes_pending_.begin(), wakes_pending_.end(),
                                       [&](const Wake& w) { return w.at == *d.wake_at; });
      if (!book_.all_settled() && !pending) {
        wakes_pending_.push_back(Wake{wakes_set_, context.wake_at(*d.wake_at, Timer::of(Tag::kWake, wakes_set_)), *d.wake_at});
        ++wakes_set_;
      }
    }
    for (Payload& m : d.send) {
      if (const auto* report = m.as<FreeSlots>()) {  // the policy publishes: observed and counted as the cluster's own
        ++st.counters.slot_reports;
        for (Observer* o : observers_) o->on_publish(PublishView{now, index_, report->slots, st, book_});
        if (links_.upstream == kNoActor) continue;  // nobody to tell (a cluster run alone)
      }
      if (links_.upstream == kNoActor)
        throw std::logic_error(who() + "a message (" + std::string(m.kind()) + ") from cluster " + st.setup.name +
                               ", which has no upstream actor");
      context.send(links_.upstream, std::move(m), links_.latency);
    }
  };
  if (d.start.empty() && d.reserve.empty() && d.reject.empty()) {
    for (Observer* o : observers_) o->on_pass(PassView{now, index_, st, d, book_});
    st.profile.forget_before(now);
    follow_up();
    return;
  }

  // The final placement of every job the decision touches (a job moved, then started, in one pass: the start).
  std::vector<Touch>& touched = touched_;  // buffers kept across passes
  touched.clear();
  const bool identity = st.setup.model == cluster::ResourceModel::kProcessors;
  auto check = [&](const cluster::Placement& p, bool start) {
    if (p.index >= st.queue.size()) throw std::logic_error(who() + "a decision names queue index " + std::to_string(p.index));
    const cluster::Waiting& q = st.queue[p.index];
    if (start && std::abs(p.start - now) > kTimeTolerance) throw std::logic_error(who() + "a start not at now");
    if (!start && p.start < now - kTimeTolerance) throw std::logic_error(who() + "a reservation in the past");
    if (identity && p.on.count() != q.procs)
      throw std::logic_error(who() + "job " + std::to_string(book_.jobs[q.job].id) + " needs " + std::to_string(q.procs) +
                             " processors, the decision names " + std::to_string(p.on.count()));
    touched.push_back(Touch{p.index, &p, start});
  };
  for (const auto& p : d.reserve) check(p, false);
  for (const auto& p : d.start) check(p, true);
  std::stable_sort(touched.begin(), touched.end(), [](const Touch& a, const Touch& b) { return a.index < b.index; });
  for (std::size_t k = 0; k + 1 < touched.size(); ++k)  // keep the last placement of an index
    if (touched[k].index == touched[k + 1].index) {
      if (touched[k].start) throw std::logic_error(who() + "starts a job twice");
      touched[k].placement = nullptr;
    }
  std::vector<std::size_t>& leaving = leaving_;  // queue indices that leave the queue (started or rejected), ascending
  leaving.clear();
  for (const std::size_t i : d.reject) {
    if (i >= st.queue.size()) throw std::logic_error(who() + "a rejection names queue index " + std::to_string(i));
    const bool placed = std::any_of(touched.begin(), touched.end(), [&](const Touch& t) { return t.index == i; });
    if (placed) throw std::logic_error(who() + "rejects a job it also starts or reserves");
    if (std::find(leaving.begin(), leaving.end(), i) != leaving.end()) throw std::logic_error(who() + "rejects a job twice");
    leaving.push_back(i);
  }

  if (!adopted) {
    apply(touched, leaving);
    if (d.profile && st.setup.policy.hands_on_profile && !st.profile.same_from(*d.profile, now))
      throw std::logic_error(who() + "its decision, applied to the cluster's profile, gives another profile than its own");
  }

  // The first queue index this pass leaves waiting (neither started nor rejected): starts after it are backfills.
  std::size_t first_left = 0;
  if (d.reject.empty()) {
    for (const Touch& t : touched)
      if (t.placement && t.start) {
        if (t.index != first_left) break;
        ++first_left;
      }
  } else {
    std::vector<std::size_t> gone(d.reject.begin(), d.reject.end());
    for (const Touch& t : touched)
      if (t.placement && t.start) gone.push_back(t.index);
    std::sort(gone.begin(), gone.end());
    while (first_left < gone.size() && gone[first_left] == first_left) ++first_left;
  }
  for (const Touch& t : touched) {
    if (!t.placement) continue;
    cluster::Waiting& q = st.queue[t.index];
    JobRecord& record = book_.records[q.job];
    if (!t.start) {
      q.reserved = true;
      q.reserved_start = t.placement->start;
      q.reserved_on = t.placement->on;
      record.reservation = q.reserved_start;
      if (q.reserved_start > now + kTimeTolerance) arm_due(context, q.reserved_start);
      continue;
    }
    // A job holds its processors over [start, end) (SpaceSharedResource::start); the profile holds them until its
    // estimated end.
    const cluster::Running& started = st.resource.start(context, q.job, q.procs, now + q.estimate, end_of(now, q.job),
                                                        Timer::of(Tag::kCompletion, q.job),
                                                        identity ? t.placement->on : ProcessorSet(), q.grid);
    if (st.setup.record_allocations) record.allocated = started.on.to_intervals();
    record.start = now;
    record.state = JobState::kRunning;
    ++st.counters.starts;
    if (t.index > first_left) ++st.counters.backfilled;
    leaving.push_back(t.index);
  }
  for (const std::size_t i : d.reject) {
    book_.records[st.queue[i].job].state = JobState::kRejected;
    ++book_.rejected;
    ++st.counters.rejected;
  }
  if (!d.reject.empty()) settle(context);
  for (Observer* o : observers_) o->on_pass(PassView{now, index_, st, d, book_});

  // The jobs that started or were rejected leave the queue (one compaction from the first of them, order kept).
  if (!leaving.empty()) {
    if (!d.reject.empty()) std::sort(leaving.begin(), leaving.end());  // starts alone come in queue order
    std::size_t out = leaving.front();
    for (std::size_t i = out, k = 0; i < st.queue.size(); ++i) {
      if (k < leaving.size() && leaving[k] == i) {
        if (st.queue[i].advance) --st.advance;
        ++k;
        continue;
      }
      st.queue[out++] = std::move(st.queue[i]);
    }
    st.queue.resize(out);
  }
  st.profile.forget_before(now);
  follow_up();
}

}  // namespace schedcheck::sim
