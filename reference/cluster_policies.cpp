// FCFS, EASY with k pivots and conservative backfilling as pure functions (see cluster_policies.hpp).
// Lifka 1995 (EASY); Mu'alem & Feitelson, IEEE TPDS 12(6) 2001 (EASY, conservative, compression); paper 002
// sec. 3 (pivots, MAUI reservation depth, pivots = infinity is conservative). Our readings: docs/policies.md.
#include "reference/cluster_policies.hpp"

#include "reference/load_forecast.hpp"

#include "model/input.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <stdexcept>

namespace schedcheck::cluster {

namespace {

// The profile a pass works on: the snapshot's, copied on the first change only (most passes change nothing, and
// a conservative profile holds one reservation per waiting job), or taken over when the engine lent it
// (Snapshot::lent: the decision then hands it on).
class Working {
public:
  explicit Working(const AvailabilityProfile& base, AvailabilityProfile* lent = nullptr) : base_(&base), lent_(lent) {}
  const AvailabilityProfile& view() const { return own_ ? *own_ : *base_; }
  AvailabilityProfile& edit() {
    if (!own_ && lent_) own_.emplace(std::move(*lent_));
    if (!own_) own_.emplace(*base_);
    edited_ = true;
    return *own_;
  }
  // Whether edit() was called since the last call of this (a cache of a profile value is then stale).
  bool edited_since_read() { return std::exchange(edited_, false); }
  bool owned() const { return own_.has_value(); }
  // The edited copy (nullopt when nothing was edited), for Decision::profile.
  std::optional<AvailabilityProfile> take() { return std::exchange(own_, std::nullopt); }

private:
  const AvailabilityProfile* base_;
  AvailabilityProfile* lent_;
  std::optional<AvailabilityProfile> own_;
  bool edited_ = false;
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

// Replaying a schedule (backfill_around): the forced starts, and whether one that does not fit now may wait for the
// next pass at this instant.
struct Replay {
  std::span<const Placement> forced;
  bool defer_misfits = false;
  const Placement* at(std::size_t i) const {
    const auto it = std::lower_bound(forced.begin(), forced.end(), i,
                                     [](const Placement& p, std::size_t index) { return p.index < index; });
    return it != forced.end() && it->index == i ? &*it : nullptr;
  }
};

// Whether queue job i fits now for its estimate, its own hold (if any) counted as free: on counts, and with
// processor identity on the processors `on` it is to start on.
bool fits_now(const Snapshot& s, const Working& w, const Reservations& r, std::size_t i, const ProcessorSet& on) {
  const Waiting& job = s.queue[i];
  const bool held = job.reserved || r.has(i);
  const AvailabilityProfile::Hold own = held ? AvailabilityProfile::Hold{r.start(i), r.start(i) + job.estimate, job.procs}
                                             : AvailabilityProfile::Hold{};
  if (!w.view().earliest_count_start(job.procs, job.estimate, s.now, s.now, own)) return false;
  if (!w.view().tracks_processors() || on.words().empty()) return true;
  return w.view().free_on(on, s.now, s.now + job.estimate, own, held ? r.on(i) : ProcessorSet());
}

// Replay with processor identity: the processors a replayed job starts on — those the schedule gives when they are
// free over its window, else (the schedule double-books them: the audit reports that on the rows) the lowest free
// ones, so the profile stays consistent and later verdicts stay sound; with too few free, the schedule's own.
ProcessorSet replay_on(const AvailabilityProfile& profile, const Waiting& job, const ProcessorSet& given, double now) {
  if (!profile.tracks_processors() || given.words().empty()) return given;
  const ProcessorSet free = profile.free_over(now, now + job.estimate);
  if (free.contains(given)) return given;
  return free.count() >= job.procs ? free.lowest(job.procs) : given;
}

// Replay: job i starts now on (about) `given`, its own hold, if any, given back first.
ProcessorSet start_replayed(const Snapshot& s, Working& w, const Reservations& r, std::size_t i, const ProcessorSet& given) {
  const Waiting& job = s.queue[i];
  const bool held = job.reserved || r.has(i);
  if (held && std::abs(r.start(i) - s.now) <= kTimeTolerance && r.on(i) == given) return given;  // in place
  AvailabilityProfile& profile = w.edit();
  if (held) profile.release(r.start(i), r.start(i) + job.estimate, job.procs, r.on(i));
  const ProcessorSet on = replay_on(profile, job, given, s.now);
  profile.reserve(s.now, s.now + job.estimate, job.procs, on);
  return on;
}

// Compression (Mu'alem & Feitelson): when capacity came back early, each reserved job in queue order moves to its
// earliest start, never later than the reservation it holds. One pass. Whether a job can move is asked with its own
// hold seen as free, without touching the profile (first on the counts, then with processor identity on the sets):
// most jobs cannot.
void compress(const Snapshot& s, Working& w, Decision& d, Reservations& r, const Replay& replay) {
  // The first instant from now with enough free processors for a job of p, per p seen since the profile last
  // changed: a job cannot start before it, and most reserved jobs are passed over on it alone.
  std::vector<std::pair<int, double>> first_free;
  auto first_free_for = [&](int procs) {
    if (w.edited_since_read()) first_free.clear();
    for (const auto& [p, t] : first_free)
      if (p == procs) return t;
    const double t = w.view().first_free(s.now, procs);
    if (first_free.size() < 64) first_free.emplace_back(procs, t);
    return t;
  };
  for (std::size_t i = 0; i < s.queue.size(); ++i) {
    const Waiting& job = s.queue[i];
    const Placement* forced = replay.at(i);
    if (forced && !(replay.defer_misfits && !fits_now(s, w, r, i, forced->on))) {  // replay: it starts now here
      if (job.reserved) {
        const ProcessorSet on = start_replayed(s, w, r, i, forced->on);
        if (!(std::abs(job.reserved_start - s.now) <= kTimeTolerance && job.reserved_on == on))
          r.record(i, d, Placement{i, s.now, on});
      }
      continue;
    }
    if (!job.reserved || job.advance || job.reserved_start <= s.now + kTimeTolerance) continue;
    // Not enough processors free at any instant before its reservation: it stays.
    const double from = first_free_for(job.procs);
    if (!(from < job.reserved_start - kTimeTolerance)) continue;
    // Where could it go with its own hold counted as free (from `from` on: its hold starts later)? On counts alone,
    // without touching the profile: the answer for the count model, a necessary condition with processor identity.
    const AvailabilityProfile::Hold own{job.reserved_start, job.reserved_start + job.estimate, job.procs};
    const auto earlier = w.view().earliest_count_start(job.procs, job.estimate, from,
                                                       job.reserved_start - 2 * kTimeTolerance, own);
    if (!earlier) continue;
    if (!w.view().tracks_processors()) {  // on counts the earlier start is the answer
      w.edit().move(job.reserved_start, *earlier, job.estimate, job.procs);
      r.record(i, d, Placement{i, *earlier, {}});
      continue;
    }
    // With processor identity, a window on a common set of processors, its own counted as free.
    const auto slot = w.view().earliest_slot(job.procs, job.estimate, *earlier, job.reserved_start, own, job.reserved_on);
    if (!slot) continue;
    AvailabilityProfile& p = w.edit();
    p.release(job.reserved_start, job.reserved_start + job.estimate, job.procs, job.reserved_on);
    p.reserve(slot->start, slot->start + job.estimate, job.procs, slot->processors);
    r.record(i, d, Placement{i, slot->start, slot->processors});
  }
}

// With partitions and processor identity, the processors a job of partition q takes among those free over its window
// (`chosen` the profile's lowest-numbered ones): its own partition's first, then borrowed ones. Otherwise `chosen`.
ProcessorSet partition_choice(const Snapshot& s, const Working& w, const Partitions* parts, const Waiting& job,
                              double start, ProcessorSet chosen) {
  if (!parts || !w.view().tracks_processors()) return chosen;
  const std::size_t q = parts->of(job.estimate, job.grid);
  return prefer_owned(w.view().free_over(start, start + job.estimate), parts->owned(q, s.processors), job.procs);
}

// The queue walk shared by backfill (may_start) and backfill_around (reservations only). With `parts`, each
// partition has its own `pivots` (Lawson & Smirni): the first waiting jobs of each partition hold reservations.
void walk(const Snapshot& s, std::size_t pivots, Working& w, Decision& d, Reservations& r, bool may_start,
          const Replay& replay, const Partitions* parts = nullptr) {
  // Reservations kept by jobs ahead in the queue: the pivots so far (per partition with `parts`).
  std::size_t held = 0;
  std::vector<std::size_t> held_of(parts ? parts->count() : 0, 0);
  auto held_for = [&](const Waiting& job) -> std::size_t& { return parts ? held_of[parts->of(job.estimate, job.grid)] : held; };
  int free_now = -1;     // free processors at now, -1 when the profile changed since it was read
  bool deferred = false; // replay: a forced job was left for the next pass at this instant
  for (std::size_t i = 0; i < s.queue.size(); ++i) {
    if (w.edited_since_read()) free_now = -1;
    const Waiting& job = s.queue[i];
    const Placement* forced = replay.at(i);
    const bool held_now = job.reserved || r.has(i);
    const bool at_now = held_now && std::abs(r.start(i) - s.now) <= kTimeTolerance;
    // Replay: a job that does not fit now and may wait for the next pass at this instant is, in this pass, a
    // waiting job like any other (it may become a pivot); the others start now here, on the given processors.
    // Without backfilling (pivots 0: FCFS) the jobs queued behind it wait for that pass too, as FCFS would.
    if (forced && (at_now || !replay.defer_misfits ||
                   (!(deferred && pivots == 0) && fits_now(s, w, r, i, forced->on)))) {
      d.start.push_back(Placement{i, s.now, start_replayed(s, w, r, i, forced->on)});
      continue;
    }
    if (forced) deferred = true;
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
      if (!job.advance) ++held_for(job);  // an advance reservation is no pivot
      continue;
    }
    // The working profile is read again only by the jobs behind this one: the last one need not edit it when
    // nothing else did (a conservative pass with one arrival then copies nothing); an edited copy is kept whole,
    // since the decision hands it on (Decision::profile).
    const bool last = i + 1 == s.queue.size() && !w.owned();
    if (held_for(job) < pivots) {  // becomes a pivot: a reservation at its earliest start (now: it starts)
      const auto slot = w.view().earliest_slot(job.procs, job.estimate, s.now);
      if (!slot) continue;  // wider than the machine: never (the engine refuses such jobs)
      const ProcessorSet on = partition_choice(s, w, parts, job, slot->start, slot->processors);
      if (!last) w.edit().reserve(slot->start, slot->start + job.estimate, job.procs, on);
      if (may_start && slot->start <= s.now + kTimeTolerance) {
        d.start.push_back(Placement{i, s.now, on});
      } else {
        r.record(i, d, Placement{i, slot->start, on});
        ++held_for(job);
      }
      continue;
    }
    if (!may_start) continue;
    // Backfilling: start now only if it fits now for its whole estimate without touching any reservation.
    if (free_now < 0) free_now = w.view().free_at(s.now);
    // Nothing free: no job behind can start either, and none behind holds a reservation (the reserved jobs are the
    // first waiting ones: a job becomes a pivot only when every job ahead of it started or holds one). With
    // partitions a job behind may still become its partition's pivot.
    if (free_now <= 0 && replay.forced.empty() && !parts && s.advance == 0) break;
    if (free_now < job.procs) continue;
    const auto slot = w.view().slot_at(job.procs, s.now, job.estimate);
    if (!slot) continue;
    const ProcessorSet on = partition_choice(s, w, parts, job, s.now, slot->processors);
    if (!last) w.edit().reserve(s.now, s.now + job.estimate, job.procs, on);
    d.start.push_back(Placement{i, s.now, on});
  }
}

}  // namespace

std::optional<ProcessorSet> admit_reservation(const AvailabilityProfile& profile, int procs, double start,
                                              double duration, double now) {
  if (start < now - kTimeTolerance || procs < 1 || procs > profile.capacity()) return std::nullopt;
  const auto slot = profile.slot_at(procs, start, duration);
  if (!slot) return std::nullopt;
  return slot->processors;
}

Decision fcfs(const Snapshot& s) {
  Decision d;
  Working w(s.profile, s.lent);
  for (std::size_t i = 0; i < s.queue.size(); ++i) {
    const Waiting& job = s.queue[i];
    if (w.view().free_at(s.now) < job.procs) break;  // the head does not fit: nobody behind it starts
    const auto slot = w.view().slot_at(job.procs, s.now, job.estimate);
    if (!slot) break;
    w.edit().reserve(s.now, s.now + job.estimate, job.procs, slot->processors);
    d.start.push_back(Placement{i, s.now, slot->processors});
  }
  d.profile = w.take();
  return d;
}

Decision backfill(const Snapshot& s, std::size_t pivots, const Partitions* parts) {
  Decision d;
  Working w(s.profile, s.lent);
  Reservations r{s, d, {}};
  if (s.released_early) compress(s, w, d, r, Replay{});
  walk(s, pivots, w, d, r, true, Replay{}, parts);
  d.profile = w.take();  // every start and reservation of d is in it (walk reserves the last job's once edited)
  return d;
}

Decision backfill_around(const Snapshot& s, std::size_t pivots, std::span<const Placement> forced,
                         std::span<const std::size_t> ending_now, bool more_follow, const Partitions* parts) {
  // The order of backfill(): compression, then the walk in queue order; a replayed job takes its place where the
  // rule would have started it (a reserved one in the compression, the others in the walk).
  auto attempt = [&](bool defer) {
    Decision d;
    Working w(s.profile);
    Reservations r{s, d, {}};
    const Replay replay{forced, defer};
    if (s.released_early) compress(s, w, d, r, replay);
    walk(s, pivots, w, d, r, false, replay, parts);
    return d;
  };
  if (more_follow) return attempt(true);
  if (ending_now.empty()) return attempt(false);
  Decision d = attempt(true);
  const bool another_pass = std::any_of(d.start.begin(), d.start.end(), [&](const Placement& p) {
                              return std::find(ending_now.begin(), ending_now.end(), p.index) != ending_now.end();
                            });
  return another_pass ? d : attempt(false);  // nothing ends now after all: every replayed start happens in this pass
}

std::vector<ClusterPolicy> cluster_policies() {
  ClusterPolicy fcfs_policy{"fcfs", "first come first served (the baseline of papers 002 and 004)",
                            "start jobs in submit order while the head fits; no backfilling", 0, fcfs, {}, {},
                            {"fcfs-order"}, true, nullptr, std::nullopt};
  ClusterPolicy easy_policy{"easy", "Lifka 1995; Mu'alem & Feitelson 2001; paper 002 sec. 3 (pivots, as MAUI)",
                            "EASY backfilling: the first k waiting jobs (--pivots, default 1) hold reservations; "
                            "others start now if they delay none",
                            1, easy, {}, {}, {"easy-pivot-not-delayed", "easy-maximal"}, true, nullptr, std::nullopt};
  easy_policy.params.push_back(ParamSpec{"pivots", 1, 1'000'000'000, true, 1,
                                         "jobs holding reservations (MAUI's reservation depth; `inf` = conservative)",
                                         "pivot", "--pivots"});
  easy_policy.configure = [](ClusterPolicy& p) {
    const std::size_t pivots = *param(p, "pivots");
    p.pivots = pivots;
    p.decide = [pivots](const Snapshot& s) { return backfill(s, pivots); };
  };
  ClusterPolicy conservative_policy{"conservative", "Mu'alem & Feitelson 2001; paper 002 sec. 3 (pivots = infinity)",
                                    "every job gets a reservation at arrival and starts earlier only if it delays "
                                    "nobody; compression on early ends",
                                    kEveryJob, conservative, {}, {}, {"easy-maximal", "conservative-guarantee"}, true,
                                    nullptr, std::nullopt};
  // Paper 002's EbM and CbM: the runtime partitions of Eq. 1, each with its own pivots, borrowing allowed.
  const Partitions runtime = runtime_partitions();
  ClusterPolicy ebm{"easy-partitions",
                    "paper 002 sec. 4 (EbM: multiple resource partitions, Eq. 1), after Lawson & Smirni 2002",
                    "EASY backfilling over the three runtime partitions of Eq. 1: the first k waiting jobs of each "
                    "partition (--pivots, default 1) hold reservations; a job takes its partition's processors first "
                    "and borrows others' free ones without delaying any pivot",
                    1, [runtime](const Snapshot& s) { return backfill(s, 1, &runtime); }, {}, {},
                    {"partition-pivot-not-delayed", "easy-maximal", "borrowing-delays-no-pivot"},
                    true, nullptr, runtime};
  ebm.params.push_back(ParamSpec{"pivots", 1, 1'000'000'000, true, 1,
                                 "jobs of each partition holding reservations (`inf` = conservative: CbM)", "pivot",
                                 "--pivots"});
  ebm.configure = [](ClusterPolicy& p) {
    const std::size_t pivots = *param(p, "pivots");
    p.pivots = pivots;
    p.decide = [pivots, parts = *p.partitions](const Snapshot& s) { return backfill(s, pivots, &parts); };
  };
  ClusterPolicy cbm{"conservative-partitions",
                    "paper 002 sec. 4 (CbM: multiple resource partitions based on conservative backfilling, Eq. 1)",
                    "conservative backfilling over the three runtime partitions of Eq. 1: every job holds a "
                    "reservation, taking its partition's processors first and borrowing others' free ones",
                    kEveryJob, [runtime](const Snapshot& s) { return backfill(s, kEveryJob, &runtime); }, {}, {},
                    {"partition-pivot-not-delayed", "easy-maximal", "conservative-guarantee", "borrowing-delays-no-pivot"},
                    true, nullptr, runtime};
  // Paper 002's local and Grid partitions for provisioning (Fig. 2b): the Grid partition `grid_percent` of the
  // processors, with EASY (k pivots) or conservative backfilling; the cluster publishes the Grid partition's slots.
  auto local_grid = [&](bool easy) {
    ClusterPolicy p{easy ? "easy-local-grid" : "conservative-local-grid",
                    easy ? "paper 002 sec. 4, Fig. 2b (EbM over the local and Grid partitions used for provisioning)"
                         : "paper 002 sec. 4, Fig. 2b (CbM over the local and Grid partitions used for provisioning)",
                    std::string(easy ? "EASY" : "conservative") +
                        " backfilling over a local and a Grid partition (jobs sent by the gateway; --policy-param "
                        "grid_percent, default 50): a job takes its partition's processors first and borrows the "
                        "other's free ones without delaying any pivot; the free time slots it publishes are the Grid "
                        "partition's",
                    easy ? 1 : kEveryJob, nullptr, {}, {},
                    easy ? std::vector<std::string>{"partition-pivot-not-delayed", "easy-maximal", "borrowing-delays-no-pivot"}
                         : std::vector<std::string>{"partition-pivot-not-delayed", "easy-maximal",
                                                    "conservative-guarantee", "borrowing-delays-no-pivot"},
                    true, nullptr, origin_partitions(50.0)};
    if (easy)
      p.params.push_back(ParamSpec{"pivots", 1, 1'000'000'000, true, 1,
                                   "jobs of each partition holding reservations (`inf` = conservative)", "pivot",
                                   "--pivots"});
    p.params.push_back(ParamSpec{"grid_percent", 0, 100, false, 50, "the Grid partition's share of the processors, %",
                                 "", ""});
    p.decide = [easy, parts = *p.partitions](const Snapshot& s) { return backfill(s, easy ? 1 : kEveryJob, &parts); };
    p.configure = [easy](ClusterPolicy& c) {
      const std::size_t pivots = easy ? *param(c, "pivots") : kEveryJob;
      c.pivots = pivots;
      c.partitions = origin_partitions(static_cast<double>(*param(c, "grid_percent")));
      c.decide = [pivots, parts = *c.partitions](const Snapshot& s) { return backfill(s, pivots, &parts); };
    };
    return p;
  };
  ClusterPolicy ebm_lg = local_grid(true), cbm_lg = local_grid(false);
  // Paper 002's Mf (Algorithm 1): the local and Grid partitions of Fig. 2b resized by a load forecast; as printed
  // (line 8's min) and corrected (max). The shares change from pass to pass: the run invariants read them off the
  // policy's state (forecast_partitions).
  Partitions origin;
  origin.name = "local and grid (Fig. 2b)";
  origin.by_origin = true;
  auto forecast = [&](bool literal) {
    ClusterPolicy p{literal ? "easy-forecast" : "easy-forecast-fixed",
                    literal ? "paper 002 sec. 4, Algorithm 1 as printed (Mf: line 8 percToProvide = min{0, 1 - load})"
                            : "paper 002 sec. 4, Algorithm 1 with line 8 corrected (max{0, 1 - load}); our correction",
                    literal ? "EASY backfilling over local and Grid partitions resized every interval by the load "
                              "(Algorithm 1 as printed: the Grid partition never gets a processor and the gateway is "
                              "never informed); conservative after an underestimated local load"
                            : "EASY backfilling over local and Grid partitions resized every interval by the load; the "
                              "Grid partition's free time slots go to the gateway, and an underestimated local load "
                              "makes it conservative until the next interval",
                    1, nullptr, {}, {}, {"partition-pivot-not-delayed", "easy-maximal", "borrowing-delays-no-pivot"},
                    true, nullptr, origin};
    p.params.push_back(ParamSpec{"interval", 1, 1'000'000'000, false, 7200,
                                 "seconds between two getFreeTimeSlots (the availability information's interval)", "",
                                 ""});
    p.params.push_back(ParamSpec{"window", 1, 1'000'000, false, 25, "intervals the moving average of the load weighs",
                                 "", ""});
    p.params.push_back(ParamSpec{"train_from", 0, 1'000'000'000'000, false, 0,
                                 "seconds: the forecast keeps the local loads from then on (its training period)", "",
                                 ""});
    p.params.push_back(ParamSpec{"share_from_forecast", 0, 1, false, 0,
                                 "1: line 8 reads the forecast local load instead of actualLoad (the other reading)", "",
                                 ""});
    p.configure = [literal](ClusterPolicy& c) {
      ForecastSettings f;
      f.interval = static_cast<double>(*param(c, "interval"));
      f.window = *param(c, "window");
      f.literal = literal;
      f.share_from_forecast = *param(c, "share_from_forecast") == 1;
      f.train_from = static_cast<double>(*param(c, "train_from"));
      c.decide = [f](const Snapshot& s) { return load_forecast(s, f); };
    };
    ForecastSettings defaults;
    defaults.literal = literal;
    p.decide = [defaults](const Snapshot& s) { return load_forecast(s, defaults); };
    return p;
  };
  ClusterPolicy mf = forecast(true), mf_fixed = forecast(false);
  for (ClusterPolicy* p : {&easy_policy, &conservative_policy, &ebm, &cbm, &ebm_lg, &cbm_lg, &mf, &mf_fixed})
    p->keeps_reservations = true;
  return {fcfs_policy, easy_policy, conservative_policy, ebm, cbm, ebm_lg, cbm_lg, mf, mf_fixed};
}

std::vector<std::string> cluster_policy_names() {
  std::vector<std::string> names;
  for (const auto& p : cluster_policies()) names.push_back(p.name);
  return names;
}

std::vector<ParamSpec> policy_params(const std::string& name) {
  for (const auto& p : cluster_policies())
    if (p.name == name) return p.params;
  return {};
}

std::optional<ParamSpec> catalogue_param(std::string_view name) {
  for (const auto& p : cluster_policies())
    for (const ParamSpec& spec : p.params)
      if (spec.name == name) return spec;
  return std::nullopt;
}

std::optional<std::size_t> param(const ClusterPolicy& policy, std::string_view name) {
  for (const ParamValue& v : policy.values)
    if (v.name == name) return v.value;
  return std::nullopt;
}

ClusterPolicy cluster_policy(const std::string& name, const ParamValues& values) {
  for (ClusterPolicy policy : cluster_policies()) {
    if (policy.name != name) continue;
    for (const ParamSpec& spec : policy.params) policy.values.push_back(ParamValue{spec.name, spec.fallback});
    for (const ParamValue& given : values) {
      const ParamSpec& spec = spec_of(policy.params, given.name, policy.name);
      std::size_t value = 0;
      try {
        value = checked_value(spec, given.value);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(spec.name + ": " + e.what());
      }
      for (ParamValue& v : policy.values)
        if (v.name == spec.name) v.value = value;
    }
    if (policy.configure) policy.configure(policy);
    return policy;
  }
  throw std::invalid_argument("unknown cluster policy '" + name + "' (known: " + joined(cluster_policy_names()) + ")");
}

ClusterPolicy cluster_policy(const std::string& name, std::size_t pivots) {
  ParamValues values;
  for (const ParamSpec& spec : policy_params(name))
    if (spec.name == "pivots") values.push_back(ParamValue{spec.name, pivots});
  return cluster_policy(name, values);
}

std::string label(const ClusterPolicy& policy) {
  std::string parts;
  for (std::size_t k = 0; k < policy.params.size() && k < policy.values.size(); ++k) {
    const ParamSpec& spec = policy.params[k];
    const std::size_t v = policy.values[k].value;
    const std::string part = spec.one.empty()  ? spec.name + "=" + value_text(v)
                             : v == kInfinite ? spec.name + " inf"
                             : v == 1         ? "1 " + spec.one
                                              : std::to_string(v) + " " + spec.name;
    parts += (parts.empty() ? "" : ", ") + part;
  }
  return parts.empty() ? policy.name : policy.name + " (" + parts + ")";
}

std::string param_flags(const ClusterPolicy& policy) {
  std::string out;
  for (std::size_t k = 0; k < policy.params.size() && k < policy.values.size(); ++k) {
    const ParamSpec& spec = policy.params[k];
    const std::string value = value_text(policy.values[k].value);
    out += spec.flag.empty() ? " --policy-param " + spec.name + "=" + value : " " + spec.flag + " " + value;
  }
  return out;
}

std::string param_text(const ClusterPolicy& policy, std::string_view name) {
  const auto v = param(policy, name);
  return v ? value_text(*v) : "";
}

nlohmann::json param_json(const ClusterPolicy& policy, std::string_view name) {
  const auto v = param(policy, name);
  return v ? value_json(*v) : nlohmann::json(nullptr);
}

std::string params_help() {
  std::string out;
  for (const auto& p : cluster_policies())
    for (const ParamSpec& spec : p.params) out += (out.empty() ? "" : "\n") + p.name + ": " + describe(spec);
  return out;
}

}  // namespace schedcheck::cluster
