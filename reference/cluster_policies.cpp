// FCFS, EASY with k pivots and conservative backfilling as pure functions (see cluster_policies.hpp).
// Lifka 1995 (EASY); Mu'alem & Feitelson, IEEE TPDS 12(6) 2001 (EASY, conservative, compression); paper 002
// sec. 3 (pivots, MAUI reservation depth, pivots = infinity is conservative). Our readings: docs/policies.md.
#include "reference/cluster_policies.hpp"

#include <optional>
#include <stdexcept>

namespace schedcheck::cluster {

const char* to_string(ResourceModel model) { return model == ResourceModel::kCount ? "count" : "processors"; }

namespace {

// The profile a pass works on: the snapshot's, copied on the first change only (most passes change nothing, and
// a conservative profile holds one reservation per waiting job).
class Working {
public:
  explicit Working(const AvailabilityProfile& base) : base_(&base) {}
  const AvailabilityProfile& view() const { return own_ ? *own_ : *base_; }
  AvailabilityProfile& edit() {
    if (!own_) own_ = *base_;
    return *own_;
  }

private:
  const AvailabilityProfile* base_;
  std::optional<AvailabilityProfile> own_;
};

// Where each queued job's reservation stands during a pass: moved ones point into Decision::reserve.
struct Reservations {
  const Snapshot& s;
  const Decision& d;
  std::vector<long> moved;  // queue index -> index in d.reserve, or -1 (sized lazily)
  bool has(std::size_t i) const { return !moved.empty() && moved[i] >= 0; }
  double start(std::size_t i) const { return has(i) ? d.reserve[static_cast<std::size_t>(moved[i])].start : s.queue[i].reserved_start; }
  const ProcessorSet& on(std::size_t i) const {
    return has(i) ? d.reserve[static_cast<std::size_t>(moved[i])].on : s.queue[i].reserved_on;
  }
  void record(std::size_t i, Decision& decision, Placement placement) {
    if (moved.empty()) moved.assign(s.queue.size(), -1);
    if (moved[i] >= 0) {
      decision.reserve[static_cast<std::size_t>(moved[i])] = std::move(placement);
    } else {
      moved[i] = static_cast<long>(decision.reserve.size());
      decision.reserve.push_back(std::move(placement));
    }
  }
};

// Compression (Mu'alem & Feitelson): when capacity came back early, each reserved job in queue order moves to its
// earliest start, never later than the reservation it holds. One pass. Whether a job can move is asked first on
// the counts with its own hold seen as free, without touching the profile: most jobs cannot.
void compress(const Snapshot& s, Working& w, Decision& d, Reservations& r, std::span<const Placement> forced) {
  std::size_t f = 0;
  for (std::size_t i = 0; i < s.queue.size(); ++i) {
    while (f < forced.size() && forced[f].index < i) ++f;
    if (f < forced.size() && forced[f].index == i) continue;
    const Waiting& job = s.queue[i];
    if (!job.reserved || job.reserved_start <= s.now + kTimeTolerance) continue;
    if (w.view().max_free(s.now, job.reserved_start) < job.procs) continue;
    // Where could it go with its own hold counted as free? On counts alone, without touching the profile: the
    // answer for the count model, a necessary condition with processor identity.
    const AvailabilityProfile::Hold own{job.reserved_start, job.reserved_start + job.estimate, job.procs};
    const auto earlier = w.view().earliest_count_start(job.procs, job.estimate, s.now,
                                                       job.reserved_start - 2 * kTimeTolerance, own);
    if (!earlier) continue;
    AvailabilityProfile& p = w.edit();
    p.release(job.reserved_start, job.reserved_start + job.estimate, job.procs, job.reserved_on);
    const auto slot = p.tracks_processors() ? p.earliest_slot(job.procs, job.estimate, *earlier, job.reserved_start)
                                            : std::optional<AvailabilityProfile::Slot>(AvailabilityProfile::Slot{*earlier, {}});
    if (slot && slot->start < job.reserved_start - kTimeTolerance) {
      p.reserve(slot->start, slot->start + job.estimate, job.procs, slot->processors);
      r.record(i, d, Placement{i, slot->start, slot->processors});
    } else {
      p.reserve(job.reserved_start, job.reserved_start + job.estimate, job.procs, job.reserved_on);
    }
  }
}

// The queue walk shared by backfill (may_start) and backfill_around (reservations only).
void walk(const Snapshot& s, std::size_t pivots, Working& w, Decision& d, Reservations& r, bool may_start,
          std::span<const Placement> forced) {
  std::size_t held = 0;  // reservations kept by jobs ahead in the queue: the pivots so far
  std::size_t f = 0;
  for (std::size_t i = 0; i < s.queue.size(); ++i) {
    while (f < forced.size() && forced[f].index < i) ++f;
    if (f < forced.size() && forced[f].index == i) continue;
    const Waiting& job = s.queue[i];
    if (job.reserved) {
      const double start = r.start(i);
      if (may_start && start <= s.now + kTimeTolerance) {  // its reservation is due: it starts (already in the profile)
        d.start.push_back(Placement{i, s.now, r.on(i)});
        continue;
      }
      if (!may_start && start < s.now - kTimeTolerance) {  // replay: the reservation passed unused; remake it
        AvailabilityProfile& p = w.edit();
        p.release(start, start + job.estimate, job.procs, r.on(i));
        if (const auto slot = p.earliest_slot(job.procs, job.estimate, s.now)) {
          p.reserve(slot->start, slot->start + job.estimate, job.procs, slot->processors);
          r.record(i, d, Placement{i, slot->start, slot->processors});
        }
      }
      ++held;
      continue;
    }
    if (held < pivots) {  // becomes a pivot: a reservation at its earliest start (now: it starts)
      const auto slot = w.view().earliest_slot(job.procs, job.estimate, s.now);
      if (!slot) continue;  // wider than the machine: never (the engine refuses such jobs)
      w.edit().reserve(slot->start, slot->start + job.estimate, job.procs, slot->processors);
      if (may_start && slot->start <= s.now + kTimeTolerance) {
        d.start.push_back(Placement{i, s.now, slot->processors});
      } else {
        r.record(i, d, Placement{i, slot->start, slot->processors});
        ++held;
      }
      continue;
    }
    if (!may_start) continue;
    // Backfilling: start now only if it fits now for its whole estimate without touching any reservation.
    if (w.view().free_at(s.now) < job.procs) continue;
    const auto slot = w.view().slot_at(job.procs, s.now, job.estimate);
    if (!slot) continue;
    w.edit().reserve(s.now, s.now + job.estimate, job.procs, slot->processors);
    d.start.push_back(Placement{i, s.now, slot->processors});
  }
}

}  // namespace

Decision fcfs(const Snapshot& s) {
  Decision d;
  Working w(s.profile);
  for (std::size_t i = 0; i < s.queue.size(); ++i) {
    const Waiting& job = s.queue[i];
    if (w.view().free_at(s.now) < job.procs) break;  // the head does not fit: nobody behind it starts
    const auto slot = w.view().slot_at(job.procs, s.now, job.estimate);
    if (!slot) break;
    w.edit().reserve(s.now, s.now + job.estimate, job.procs, slot->processors);
    d.start.push_back(Placement{i, s.now, slot->processors});
  }
  return d;
}

Decision backfill(const Snapshot& s, std::size_t pivots) {
  Decision d;
  Working w(s.profile);
  Reservations r{s, d, {}};
  if (s.released_early) compress(s, w, d, r, {});
  walk(s, pivots, w, d, r, true, {});
  return d;
}

Decision backfill_around(const Snapshot& s, std::size_t pivots, std::span<const Placement> forced) {
  Decision d;
  Working w(s.profile);
  Reservations r{s, d, {}};
  for (const Placement& p : forced) {  // the replayed starts first, on the profile the rule sees
    const Waiting& job = s.queue[p.index];
    const bool in_place = job.reserved && std::abs(job.reserved_start - s.now) <= kTimeTolerance && job.reserved_on == p.on;
    if (!in_place) {
      AvailabilityProfile& profile = w.edit();
      if (job.reserved) profile.release(job.reserved_start, job.reserved_start + job.estimate, job.procs, job.reserved_on);
      profile.reserve(s.now, s.now + job.estimate, job.procs, p.on);
    }
    d.start.push_back(p);
  }
  if (s.released_early) compress(s, w, d, r, forced);
  walk(s, pivots, w, d, r, false, forced);
  return d;
}

std::vector<ClusterPolicy> cluster_policies() {
  return {
      {"fcfs", "first come first served (the baseline of papers 002 and 004)",
       "start jobs in submit order while the head fits; no backfilling", 0, fcfs},
      {"easy", "Lifka 1995; Mu'alem & Feitelson 2001; paper 002 sec. 3 (pivots, as MAUI)",
       "EASY backfilling: the first k waiting jobs (--pivots, default 1) hold reservations; others start now if "
       "they delay none",
       1, easy},
      {"conservative", "Mu'alem & Feitelson 2001; paper 002 sec. 3 (pivots = infinity)",
       "every job gets a reservation at arrival and starts earlier only if it delays nobody; compression on early ends",
       kEveryJob, conservative},
  };
}

ClusterPolicy cluster_policy(const std::string& name, std::size_t pivots) {
  for (ClusterPolicy policy : cluster_policies()) {
    if (policy.name != name) continue;
    if (name == "easy") {
      if (pivots == 0) throw std::invalid_argument("--pivots: expected 1 or more (or 'inf': conservative backfilling)");
      policy.pivots = pivots;
      policy.decide = [pivots](const Snapshot& s) { return backfill(s, pivots); };
    }
    return policy;
  }
  throw std::invalid_argument("unknown cluster policy '" + name + "' (known: fcfs, easy, conservative)");
}

}  // namespace schedcheck::cluster
