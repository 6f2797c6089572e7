// Run invariants (see run_invariants.hpp). Our own.
#include "properties/run_invariants.hpp"

#include "reference/load_forecast.hpp"

#include "model/slot_report.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::runcheck {

std::string time_text(double x) { return fmt::format("{}", x); }

namespace {
using namespace invariant;
std::string t(double x) { return time_text(x); }
}  // namespace

const std::vector<InvariantInfo>& invariants() {
  static const std::vector<InvariantInfo> all = {
      {kCapacity, "our own (space-shared machine)",
       "never more processors in use than the cluster has, no processor held by two jobs at once, no start on "
       "processors already promised to running jobs, and the scheduler's free processors at now are what the running "
       "jobs and due reservations leave"},
      {kSubmit, "our own", "no job starts before it is submitted (or before it reaches its cluster)"},
      {kConserved, "our own",
       "at the end every job is finished (or, in a run cut at the last arrival, still waiting or running): none is lost"},
      {kRuntime, "our own (the kill-at-estimate convention, docs/simulation.md)",
       "every finished job ran exactly min(run time, estimate)"},
      {kFcfs, "FCFS",
       "jobs start in submit order (none while an earlier-submitted job waits), and the head starts whenever it fits"},
      {kPivot, "EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001)",
       "no pivot starts later than the reservation it got as a pivot, no reservation moves later, and no backfilled "
       "job takes processors a pivot's reservation holds"},
      {kMaximal, "EASY backfilling (Lifka 1995)",
       "after every pass, no waiting job without a reservation could have started without delaying a reservation, "
       "and no reservation is due while its job waits (compression is not checked: docs/simulation.md)"},
      {kGuarantee, "conservative backfilling (Mu'alem & Feitelson 2001)",
       "every job gets a reservation at arrival (or starts) and never starts later than it; reservations only move "
       "earlier"},
      {kReservation, "paper 002 sec. 4 (advance reservations)",
       "a job that arrives with an advance reservation starts exactly at its reserved time: its reservation never "
       "moves, and it neither starts earlier or later nor still waits after it"},
      {kSlots, "paper 002 sec. 4 (free time slots from the availability profile)",
       "every free time slot a cluster publishes is free when it publishes it: no running job (until its estimated "
       "end), reservation or held advance reservation uses its processors then, and no two slots share a "
       "processor-second"},
      {kPartitionPivot, "paper 002 sec. 4 (multiple resource partitions), after Lawson & Smirni 2002",
       "after every pass the first k waiting jobs of each partition (k the policy's pivots) hold reservations, no "
       "reservation moves later and no pivot starts later than its first reservation"},
      {kBorrowing, "paper 002 sec. 4 (borrowing \"without delaying their pivots\")",
       "a job that starts on processors of another partition takes none that a reservation of that partition's jobs "
       "holds during its window (count model: a start while its partition holds more than its share leaves no "
       "reservation short)"},
  };
  return all;
}

std::vector<std::string> applicable(const std::string& policy) {
  std::vector<std::string> names = {kCapacity, kSubmit, kConserved, kRuntime};
  for (const auto& p : cluster::cluster_policies())
    if (p.name == policy) names.insert(names.end(), p.promises.begin(), p.promises.end());
  return names;
}

InvariantChecker::InvariantChecker(const workload::Workload& workload, std::vector<std::string> names, std::size_t keep)
    : InvariantChecker(workload, std::vector<std::vector<std::string>>{std::move(names)}, keep) {}

InvariantChecker::InvariantChecker(const workload::Workload& workload, std::vector<std::vector<std::string>> per_cluster,
                                   std::size_t keep)
    : workload_(workload), keep_(keep) {
  if (per_cluster.empty()) per_cluster.emplace_back();
  for (const auto& names : per_cluster)
    for (const auto& n : names) {
      const bool known = std::any_of(invariants().begin(), invariants().end(), [&](const InvariantInfo& i) { return i.name == n; });
      if (!known) throw std::invalid_argument("unknown run invariant '" + n + "'");
      if (counts_.emplace(n, 0).second) names_.push_back(n);
    }
  capacity_ = on(kCapacity);
  submit_ = on(kSubmit);
  conserved_ = on(kConserved);
  runtime_ = on(kRuntime);
  for (const auto& names : per_cluster) {
    const auto has = [&](const char* name) { return std::find(names.begin(), names.end(), name) != names.end(); };
    promises_.push_back(
        Promises{has(kFcfs), has(kPivot), has(kMaximal), has(kGuarantee), has(kPartitionPivot), has(kBorrowing)});
  }
  held_.resize(workload.jobs.size());
  first_reservation_.assign(workload.jobs.size(), -1);
  last_reservation_.assign(workload.jobs.size(), -1);
  arrived_at_.assign(workload.jobs.size(), -1);
  advance_at_.assign(workload.jobs.size(), -1);
}

bool InvariantChecker::on(const char* name) const { return std::find(names_.begin(), names_.end(), name) != names_.end(); }

void InvariantChecker::report(const char* invariant, double time, const char* event, std::int64_t job, std::string detail) {
  if (job >= 0 && !skip_.empty() && skip_.count(job)) return;
  if (once_ && job >= 0 && !seen_.emplace(invariant, job).second) return;
  ++total_;
  if (++counts_[invariant] == 1 || violations_.size() < keep_)  // the first of every invariant, whatever came before
    violations_.push_back(Violation{invariant, time, event, job, std::move(detail)});
}

void InvariantChecker::size_for(std::uint32_t cluster, int processors) {
  if (cluster < sized_.size() && sized_[cluster]) return;
  if (cluster >= sized_.size()) {
    sized_.resize(cluster + 1, false);
    used_.resize(cluster + 1, 0);
    busy_.resize(cluster + 1);
  }
  sized_[cluster] = true;
  busy_[cluster] = ProcessorSet(processors);
}

void InvariantChecker::on_arrival(const sim::ArrivalView& v) {
  arrived_at_[v.job] = v.now;
  const double reserved = v.book.records[v.job].reservation;
  if (reserved < 0) return;  // a job reaches its queue with a reservation only when it is an advance reservation
  advance_at_[v.job] = reserved;
  if (!advance_seen_ && counts_.emplace(kReservation, 0).second) names_.push_back(kReservation);
  advance_seen_ = true;
}

// A hold placed on the profile must not promise processors twice: free never below 0 over its window, and with
// processor identity every step's set as large as its count.
void InvariantChecker::check_over_commit(const sim::PassView& v, std::size_t index, double start) {
  const auto& job = v.state.queue[index];
  const double end = start + job.estimate;
  const auto& profile = v.state.profile;
  const int lowest = profile.min_free(start, end);
  if (lowest >= 0 && profile.consistent(start, end)) return;
  // Report the placement that made the window short, not every later one that crosses a window already short.
  if (lowest < 0 && lowest + job.procs < 0) return;
  std::string holders;
  int named = 0;
  for (std::size_t i = 0; i < v.state.queue.size() && named < 3; ++i) {
    const auto& other = v.state.queue[i];
    if (i == index || !other.reserved || other.reserved_start >= end || other.reserved_start + other.estimate <= start) continue;
    holders += fmt::format("{}job {} (reserved at {})", named ? ", " : "", v.book.jobs[other.job].id, t(other.reserved_start));
    ++named;
  }
  const Promises& p = promises(v.cluster);
  const char* name = holders.empty() ? kCapacity : p.pivot ? kPivot : p.guarantee ? kGuarantee : kCapacity;
  if (!on(name) && !capacity_) return;
  report(on(name) ? name : kCapacity, v.now, "pass", v.book.jobs[job.job].id,
         fmt::format("job {} placed over [{}, {}) takes processors already promised{}", v.book.jobs[job.job].id,
                     t(start), t(end), holders.empty() ? " to running jobs" : " to " + holders));
}

void InvariantChecker::on_pass(const sim::PassView& v) {
  size_for(v.cluster, v.state.setup.processors);
  ++decisions_;
  const auto& jobs = v.book.jobs;
  const auto& queue = v.state.queue;
  const std::uint32_t c = v.cluster;
  const double now = v.now;
  const int processors = v.state.setup.processors;
  const Promises& promised = promises(c);
  const bool pivot = promised.pivot, guarantee = promised.guarantee, fcfs = promised.fcfs, maximal = promised.maximal;
  // Partitions by origin are resized as the policy goes (Mf): this pass's shares are in its state.
  std::optional<cluster::Partitions> resized;
  if (v.state.setup.policy.partitions && v.state.setup.policy.partitions->by_origin)
    resized = cluster::forecast_partitions(v.state.policy_state, v.state.setup.processors);
  const auto& partitions = resized ? resized : v.state.setup.policy.partitions;
  const bool partition = promised.partition && partitions, borrowing = promised.borrowing && partitions;
  // Where a pivot's reservation moved later, or a pivot started after it, is reported.
  const bool pivots_kept = pivot || guarantee || partition;
  const char* pivot_name = guarantee ? kGuarantee : pivot ? kPivot : kPartitionPivot;

  std::vector<std::size_t> checked_now;  // jobs whose hold at now the reservations below already checked
  for (const auto& p : v.decision.reserve) {
    const std::uint32_t job = queue[p.index].job;
    if (advance_seen_ && advance_at_[job] >= 0 && std::abs(p.start - advance_at_[job]) > kTimeTolerance)
      report(kReservation, now, "pass", jobs[job].id,
             fmt::format("the advance reservation of job {} at {} moved to {}", jobs[job].id, t(advance_at_[job]),
                         t(p.start)));
    double& first = first_reservation_[job];
    double& last = last_reservation_[job];
    if (first < 0) {
      first = p.start;
    } else if (p.start > last + kTimeTolerance && pivots_kept) {
      report(pivot_name, now, "pass", jobs[job].id,
             fmt::format("the reservation of job {} moved later, from {} to {} (its first: {})", jobs[job].id, t(last),
                         t(p.start), t(first)));
    }
    last = p.start;
    if (pivot || guarantee || capacity_) check_over_commit(v, p.index, p.start);
    if (std::abs(p.start - now) <= kTimeTolerance) checked_now.push_back(p.index);
  }

  std::vector<std::size_t> started;
  started.reserve(v.decision.start.size());
  for (const auto& p : v.decision.start) started.push_back(p.index);
  std::sort(started.begin(), started.end());
  // The engine appends the jobs a pass starts to the running list in queue order (observer.hpp).
  const std::size_t first_new = v.state.resource.running().size() - started.size();
  for (std::size_t k = 0; k < started.size(); ++k) {
    const std::size_t index = started[k];
    const std::uint32_t job = queue[index].job;
    const auto& j = jobs[job];
    if (submit_ && (now < j.submit - kTimeTolerance || now < arrived_at_[job] - kTimeTolerance))
      report(kSubmit, now, "pass", j.id,
             fmt::format("job {} starts at {} but is submitted at {} (reached its queue at {})", j.id, t(now), t(j.submit),
                         t(arrived_at_[job])));
    if (advance_seen_ && advance_at_[job] >= 0 && std::abs(now - advance_at_[job]) > kTimeTolerance)
      report(kReservation, now, "pass", j.id,
             fmt::format("job {} starts at {}, its advance reservation is at {}", j.id, t(now), t(advance_at_[job])));
    const ProcessorSet& on = v.state.resource.running()[first_new + k].on;
    // A job of run time 0 (or within kTimeTolerance of it) holds no processors: its window is empty, as in the profile.
    if (capacity_ && j.runtime() > kTimeTolerance) {
      used_[c] += j.procs;
      if (used_[c] > processors)
        report(kCapacity, now, "pass", j.id,
               fmt::format("after job {} starts at {}, {} processors are in use on a cluster of {}", j.id, t(now), used_[c],
                           processors));
      if (on.count() != j.procs || on.intersects(busy_[c]))
        report(kCapacity, now, "pass", j.id,
               fmt::format("job {} starts at {} on processors {} that a running job holds (or not {} of them)", j.id,
                           t(now), on.to_intervals(), j.procs));
      busy_[c] |= on;
      held_[job] = on;
    }
    if ((capacity_ || pivot || guarantee) &&
        std::find(checked_now.begin(), checked_now.end(), index) == checked_now.end())  // one report per incident
      check_over_commit(v, index, now);
    const double first = first_reservation_[job];
    if (pivots_kept && first >= 0 && now > first + kTimeTolerance)
      report(pivot_name, now, "pass", j.id,
             fmt::format("job {} starts at {}, later than the reservation {} it was given{}", j.id, t(now), t(first),
                         guarantee ? " at arrival" : " as a pivot"));
  }

  // The jobs that leave the queue in this pass (started, or rejected), ascending: the others still wait.
  std::vector<std::size_t> leaving;
  if (!v.decision.reject.empty()) {
    leaving = started;
    leaving.insert(leaving.end(), v.decision.reject.begin(), v.decision.reject.end());
    std::sort(leaving.begin(), leaving.end());
  }
  const std::vector<std::size_t>& gone = v.decision.reject.empty() ? started : leaving;
  // Calls visit(i) for each queue index still waiting after the pass, in queue order, while it returns true.
  auto each_waiting = [&](auto&& visit) {
    for (std::size_t i = 0, g = 0; i < queue.size(); ++i) {
      if (g < gone.size() && gone[g] == i) {
        ++g;
        continue;
      }
      if (!visit(i)) return;
    }
  };

  if (capacity_) {
    // What the scheduler sees must be what is real: the profile's free processors at now are the cluster's minus
    // the running jobs' and the reservations due now (a hold the engine forgot, or one it never made, shows here).
    int expected = processors;
    for (const auto& r : v.state.resource.running())
      if (r.estimated_end > now + kTimeTolerance) expected -= r.procs;  // an estimate of 0 holds nothing
    each_waiting([&](std::size_t i) {
      const auto& w = queue[i];
      if (w.reserved && w.reserved_start <= now + kTimeTolerance && now < w.reserved_start + w.estimate - kTimeTolerance)
        expected -= w.procs;
      return true;
    });
    for (const auto& h : v.state.holds)  // held for a gateway, not yet confirmed
      if (h.start <= now + kTimeTolerance && now < h.end - kTimeTolerance) expected -= h.procs;
    const int seen = v.state.profile.free_at(now);
    if (seen != expected)
      report(kCapacity, now, "pass", -1,
             fmt::format("at {} the scheduler sees {} processors free but the running jobs and the reservations due "
                         "now leave {}", t(now), seen, expected));
  }

  if (fcfs) {
    // The head that waits after the pass must not fit now (FCFS starts the head whenever it fits).
    std::size_t head = 0;  // the first job still waiting after the pass
    while (head < gone.size() && gone[head] == head) ++head;
    if (head < queue.size()) {
      const auto& w = queue[head];
      if (v.state.profile.free_at(now) >= w.procs && v.state.profile.slot_at(w.procs, now, w.estimate))
        report(kFcfs, now, "pass", jobs[w.job].id,
               fmt::format("job {}, first in the queue, fits at {} ({} processors free) but waits", jobs[w.job].id, t(now),
                           v.state.profile.free_at(now)));
      const auto later = std::upper_bound(started.begin(), started.end(), head);
      if (later != started.end()) {  // queue index `head` waits while a later one starts
        const auto& waits = jobs[w.job];
        const auto& goes = jobs[queue[*later].job];
        report(kFcfs, now, "pass", goes.id,
               fmt::format("job {} (submitted {}) starts at {} while job {} (submitted {}) still waits", goes.id,
                           t(goes.submit), t(now), waits.id, t(waits.submit)));
      }
    }
  }

  if (guarantee) {  // every job that reached the queue now holds a reservation, unless it started (or was rejected)
    for (std::size_t i = queue.size(), k = gone.size(); i-- > 0;) {
      const std::uint32_t job = queue[i].job;
      if (arrived_at_[job] < now - kTimeTolerance) break;  // arrivals are at the end of the queue
      while (k > 0 && gone[k - 1] > i) --k;
      const bool went = k > 0 && gone[k - 1] == i;
      if (!went && !queue[i].reserved)
        report(kGuarantee, now, "pass", jobs[job].id,
               fmt::format("job {} reached the queue at {} and got no reservation", jobs[job].id, t(now)));
    }
  }

  if (advance_seen_ && v.state.advance > 0) {  // an advance reservation that passed while its job waits
    each_waiting([&](std::size_t i) {
      const std::uint32_t job = queue[i].job;
      if (!(advance_at_[job] >= 0 && advance_at_[job] < now - kTimeTolerance)) return true;
      report(kReservation, now, "pass", jobs[job].id,
             fmt::format("job {} still waits at {}, after its advance reservation at {}", jobs[job].id, t(now),
                         t(advance_at_[job])));
      advance_at_[job] = -2;
      return true;
    });
  }

  if (partition) {  // each partition's first k waiting jobs hold reservations
    const std::size_t k = v.state.setup.policy.pivots;
    std::vector<std::size_t> seen(partitions->count(), 0);
    each_waiting([&](std::size_t i) {
      const auto& w = queue[i];
      if (w.advance) return true;  // no pivot
      const std::size_t q = partitions->of(w.estimate, w.grid);
      if (seen[q]++ >= k || w.reserved) return true;
      report(kPartitionPivot, now, "pass", jobs[w.job].id,
             fmt::format("job {} is waiting job {} of partition {} (estimates {}), which keeps {} pivot{}, and holds no "
                         "reservation after the pass at {}",
                         jobs[w.job].id, seen[q], q + 1, partitions->range_text(q), cluster::value_text(k),
                         k == 1 ? "" : "s", t(now)));
      return true;
    });
  }

  // A job that starts at its own reservation was in the profile before this pass: it takes nothing new.
  auto at_own_reservation = [&](const cluster::Waiting& job) {
    return job.reserved && std::abs(job.reserved_start - now) <= kTimeTolerance;
  };
  if (borrowing && !v.state.profile.tracks_processors() && !started.empty()) {
    // On counts a partition borrows when its running jobs hold more than its share; a borrowing start must leave the
    // profile (every reservation in it) short nowhere over its window.
    std::vector<int> in_use(partitions->count(), 0);
    for (const auto& r : v.state.resource.running()) in_use[partitions->of(r.estimated_end - r.start, r.grid)] += r.procs;
    for (std::size_t k = 0; k < started.size(); ++k) {
      const auto& job = queue[started[k]];
      const std::size_t q = partitions->of(job.estimate, job.grid);
      const double end = now + job.estimate;
      if (in_use[q] <= partitions->size(q, processors) || !(job.estimate > kTimeTolerance) || at_own_reservation(job))
        continue;
      const int lowest = v.state.profile.min_free(now, end);
      if (lowest >= 0) continue;
      report(kBorrowing, now, "pass", jobs[job.job].id,
             fmt::format("job {} (partition {}, whose running jobs then hold {} processors of its {}) starts at {} "
                         "until {} on borrowed processors, and {} processors the reservations hold are missing then",
                         jobs[job.job].id, q + 1, in_use[q], partitions->size(q, processors), t(now), t(end), -lowest));
    }
  }

  if (borrowing && v.state.profile.tracks_processors()) {
    for (std::size_t k = 0; k < started.size(); ++k) {
      const auto& job = queue[started[k]];
      const std::size_t q = partitions->of(job.estimate, job.grid);
      if (at_own_reservation(job)) continue;
      ProcessorSet borrowed = v.state.resource.running()[first_new + k].on;
      borrowed.subtract(partitions->owned(q, processors));
      if (borrowed.empty()) continue;
      const double end = now + job.estimate;
      each_waiting([&](std::size_t i) {  // the first reservation of another partition it takes processors of
        const auto& w = queue[i];
        const std::size_t r = partitions->of(w.estimate, w.grid);
        // A reservation of length 0 holds no processor at any time: nothing of it can be taken.
        if (!w.reserved || r == q || !(w.estimate > kTimeTolerance) || w.reserved_start >= end - kTimeTolerance ||
            w.reserved_start + w.estimate <= now + kTimeTolerance || !w.reserved_on.intersects(borrowed))
          return true;
        ProcessorSet taken = w.reserved_on;
        taken &= borrowed;
        report(kBorrowing, now, "pass", jobs[job.job].id,
               fmt::format("job {} (partition {}) starts at {} until {} on processors {} of other partitions, and "
                           "{} of them are held by the reservation of job {} (partition {}) from {}",
                           jobs[job.job].id, q + 1, t(now), t(end), borrowed.to_intervals(), taken.to_intervals(),
                           jobs[w.job].id, r + 1, t(w.reserved_start)));
        return false;
      });
    }
  }

  if (maximal) {
    const int free_now = v.state.profile.free_at(now);
    each_waiting([&](std::size_t i) {
      const auto& w = queue[i];
      const auto& j = jobs[w.job];
      if (w.reserved) {
        if (w.reserved_start <= now + kTimeTolerance)
          report(kMaximal, now, "pass", j.id,
                 fmt::format("job {} holds a reservation at {} but still waits at {}", j.id, t(w.reserved_start), t(now)));
        return true;
      }
      if (free_now < w.procs) return true;
      if (v.state.profile.slot_at(w.procs, now, w.estimate))
        report(kMaximal, now, "pass", j.id,
               fmt::format("job {} ({} processors, estimate {}) fits at {} without touching any reservation, but waits",
                           j.id, w.procs, t(w.estimate), t(now)));
      return true;
    });
  }
}

void InvariantChecker::on_publish(const sim::PublishView& v) {
  if (!published_ && counts_.emplace(kSlots, 0).second) names_.push_back(kSlots);
  published_ = true;
  // The cluster's commitments rebuilt from its running jobs, its queue's reservations and its holds, not read off its
  // profile; then the slot-report validator on them.
  slots::Instance commitments;
  commitments.processors = v.state.setup.processors;
  commitments.identity = v.state.setup.model == cluster::ResourceModel::kProcessors;
  commitments.now = v.now;
  commitments.holds = sim::commitments(v.state, v.now);
  const Verdict sound = slots::validate(commitments, slots::SlotReport{v.slots});
  if (!sound.feasible)
    report(kSlots, v.now, "publication", -1,
           fmt::format("cluster {} publishes at {}: {}", v.state.setup.name, t(v.now), sound.reason));
}

void InvariantChecker::on_completion(const sim::CompletionView& v) {
  if (!capacity_ || !(v.book.jobs[v.job].runtime() > kTimeTolerance)) return;
  used_[v.cluster] -= v.book.jobs[v.job].procs;
  busy_[v.cluster].subtract(held_[v.job]);
  held_[v.job] = ProcessorSet();
}

void InvariantChecker::on_end(const sim::EndView& v) {
  const auto& jobs = v.jobs;
  const auto& records = v.result.records;
  if (conserved_) {
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const auto state = records[j].state;
      const bool accounted = state == sim::JobState::kFinished || state == sim::JobState::kRejected ||
                             (v.result.stopped && state != sim::JobState::kFinished);  // a cut run leaves the rest
      if (!accounted)
        report(kConserved, v.result.end_time, "end of run", jobs[j].id,
               fmt::format("job {} is {} when the run ends with no event left: it was lost", jobs[j].id,
                           sim::to_string(state)));
    }
  }
  if (runtime_)
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (records[j].state != sim::JobState::kFinished) continue;
      const double ran = records[j].end - records[j].start;
      if (std::abs(ran - jobs[j].runtime()) > kTimeTolerance * std::max(1.0, ran))
        report(kRuntime, records[j].end, "completion", jobs[j].id,
               fmt::format("job {} ran {} s ({} to {}); its run time is {} and its estimate {}: it should run {}", jobs[j].id,
                           t(ran), t(records[j].start), t(records[j].end), t(jobs[j].run), t(jobs[j].estimate),
                           t(jobs[j].runtime())));
    }
}

nlohmann::json InvariantChecker::to_json() const {
  nlohmann::json out;
  out["checked"] = names_;
  out["decisions"] = decisions_;
  out["violations_total"] = total_;
  out["violations_by_invariant"] = counts_;
  out["violations"] = nlohmann::json::array();
  for (const auto& v : violations_)
    out["violations"].push_back({{"invariant", v.invariant},
                                 {"time", v.time},
                                 {"event", v.event},
                                 {"job", v.job},
                                 {"detail", v.detail}});
  return out;
}

}  // namespace schedcheck::runcheck
