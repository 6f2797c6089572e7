// Exact timed SLA admission by conflicts (see sla_bnb.hpp). Our own.
//
// Selection. The refused set R is chosen as the cheapest (least incentive) that refuses a job of every known conflict
// (a set of jobs proven unable to run together) and keeps every energy row (an interval that cannot hold all jobs: the
// processor-time the accepted jobs must spend in it is at most its free processor-time). Branch and bound: branch on
// an unmet conflict, else on the violated row whose excess costs most to remove (refuse one of its members); bound: the
// larger of a packing of pairwise disjoint unmet conflicts and a row's fractional cover. The cheapest R whose
// complement S can be scheduled is optimal, because every decision refuses a job of every conflict and keeps every row
// (implicit hitting set, as in logic-based Benders decomposition). An S that cannot be scheduled yields a new conflict
// inside S, so each round cuts off the last answer, and the rounds end. The first incumbents: the decisions at hand
// and serial generation in three priority orders (misfits refused).
//
// Scheduling a set S (all jobs released now, deadlines, the profile left by the running jobs), in this order:
// - serial schedule generation in a few priority orders: a schedule proves S feasible;
// - energetic reasoning: an interval [t1, t2] holds less free processor-time than the jobs must spend in it (a job
//   overlaps it for at least min(t2 - t1, D, earliest + D - t1, t2 - latest)) proves S infeasible (the conflict: that
//   interval's jobs, the cheapest left out while the overload remains);
// - timetable reasoning: a job whose start lies in [earliest, latest] runs over [latest, earliest + D) whatever its
//   start (its compulsory part); on the profile plus the others' compulsory parts a job's window shrinks to the starts
//   where it still fits; no start left, or overloaded compulsory parts, prove S infeasible (the conflict: S shrunk
//   while timetable reasoning alone still fails); energetic reasoning again on the narrowed windows (no conflict: the
//   narrowing used all of S);
// - serial generation by the narrowed latest starts, and the squeaky-wheel heuristic;
// - a depth-first search over active schedules. Every feasible schedule left-shifts to an active one (a left shift
//   moves starts earlier only, so deadlines stay met), and serial generation over an active schedule's jobs in start
//   order reproduces it (Kolisch 1996: a job that could start earlier could be left-shifted), so the search extends a
//   list by one job at its earliest feasible start, keeps lists whose starts do not decrease (equal starts in job
//   order), and fails a node when timetable or energetic reasoning on the jobs left does. A conflict where none came
//   from reasoning: S shrunk by deletion (a job stays when S without it is not proven infeasible within a node budget).
#include "solver/sla_bnb.hpp"

#include "model/profile.hpp"
#include "support/stack.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <optional>

namespace schedcheck::sla {

namespace {

using Clock = std::chrono::steady_clock;

// Calls of out_of_time() between two reads of the clock and the stop request.
constexpr unsigned kTicksPerClockRead = 64;
// Passes of timetable reasoning per check or node (each narrows windows, which grows compulsory parts).
constexpr int kTimetablePasses = 3;
// Energetic reasoning from every latest start (not only from the last start) while at most this many jobs are left in
// a search node, and at the root of a check.
constexpr std::size_t kAllIntervalsMaxJobs = 12;
constexpr std::size_t kRootAllIntervalsMaxJobs = 60;
// Sets larger than this are decided by the heuristics alone (else unknown): reasoning is quadratic to cubic in it.
constexpr std::size_t kReasoningMaxJobs = 2000;
// Rounds of the squeaky-wheel heuristic: this many per job of the set, at most kSqueakyMaxRounds; a tenth of that in
// the checks that shrink a conflict (whose sets are mostly infeasible).
constexpr std::size_t kSqueakyRoundsPerJob = 20;
constexpr std::size_t kSqueakyMaxRounds = 2000;
// Least search nodes a check that shrinks a conflict may spend.
constexpr std::size_t kDeletionMinNodes = 200;
// Energetic constraints the selection keeps (the overloaded intervals whose excess costs most to remove).
constexpr std::size_t kMaxRows = 16;

struct Job {
  std::size_t bid = 0;
  int procs = 0;
  double duration = 0;
  double latest = 0;    // latest start: deadline - duration
  double value = 0;
  double earliest = 0;  // earliest feasible start on the profile of the running jobs alone
  double deadline() const { return latest + duration; }
};

// The start of a job lies in [earliest, latest].
struct Window {
  std::size_t job;
  double earliest, latest;
};

// A constraint every feasible accepted set satisfies: its members' weights sum to at most `capacity`.
struct Row {
  std::vector<std::pair<std::size_t, double>> members;  // (job, weight)
  double capacity = 0;
};

enum class Fit { kYes, kNo, kUnknown };

// Free processor-time of a profile from time 0 on, as a function of time (steps below zero count as zero).
class FreeEnergy {
public:
  explicit FreeEnergy(const AvailabilityProfile& profile) {
    const auto& steps = profile.steps();
    times_.push_back(0.0);
    free_.push_back(std::max(0, profile.free_at(0.0)));
    for (const auto& step : steps)
      if (step.time > 0) {
        times_.push_back(step.time);
        free_.push_back(std::max(0, step.free));
      }
    cumulative_.assign(times_.size(), 0.0);
    for (std::size_t i = 1; i < times_.size(); ++i)
      cumulative_[i] = cumulative_[i - 1] + (times_[i] - times_[i - 1]) * free_[i - 1];
  }
  double over(double from, double to) const { return at(to) - at(from); }

private:
  double at(double t) const {  // free processor-time over [0, t)
    if (t <= 0) return 0;
    const auto k = static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin()) - 1;
    return cumulative_[k] + (t - times_[k]) * free_[k];
  }
  std::vector<double> times_, free_, cumulative_;
};

// The latest start in [from, to] at which `procs` processors are free for `duration` (`from` is known to fit): one
// backward pass over the steps.
double latest_start(const AvailabilityProfile& profile, int procs, double duration, double from, double to) {
  const auto& steps = profile.steps();
  auto last_before = [&](double t) {  // the last step that begins before t (step 0 begins at -infinity)
    return static_cast<std::size_t>(std::partition_point(steps.begin(), steps.end(),
                                                         [&](const auto& s) { return s.time < t - kTimeTolerance; }) -
                                    steps.begin()) - 1;
  };
  double start = to;
  std::size_t i = last_before(start + duration);
  for (;;) {
    if (steps[i].free < procs) {  // the window must end where this step begins
      start = steps[i].time - duration;
      if (start < from) return from;
      i = last_before(start + duration);
    } else if (steps[i].time <= start + kTimeTolerance) {
      return start;
    } else {
      --i;
    }
  }
}

class Timed {
public:
  // `effort`: the budget in calls of out_of_time() (search nodes, master steps; 0: none).
  Timed(const Instance& instance, Clock::time_point until, std::uint64_t effort)
      : instance_(instance), until_(until), effort_(effort), base_(instance.site.processors) {
    for (const auto& job : instance.running) base_.reserve(0, job.remaining, job.procs);
    for (std::size_t i = 0; i < instance.bids.size(); ++i) {
      const Bid& bid = instance.bids[i];
      Job job{i, bid.procs, response_time(instance.site, bid), 0, incentive(instance.site, bid), 0};
      job.latest = bid.deadline - job.duration;
      if (!eligible(instance.site, bid) || !(job.value > 0) || job.latest < 0) continue;
      const auto start = base_.earliest_start(job.procs, job.duration, 0, job.latest);
      if (!start) continue;  // fits nowhere, even alone: never accepted
      job.earliest = *start;
      jobs_.push_back(job);
    }
    // Job order (between equal starts in the search, and the order children are tried in): latest start first.
    std::stable_sort(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) { return a.latest < b.latest; });
    in_set_.assign(jobs_.size(), false);
    placed_.assign(jobs_.size(), false);
    start_.assign(jobs_.size(), 0.0);
    best_ = empty();
  }

  std::size_t size() const { return jobs_.size(); }
  const Job& job(std::size_t j) const { return jobs_[j]; }
  const Admission& best() const { return best_; }
  double best_value() const { return best_value_; }
  std::size_t best_count() const { return best_count_; }
  std::size_t nodes() const { return nodes_; }
  bool stopped() const { return stopped_; }
  bool out_of_time() {
    if (!stopped_ && (stack_nearly_full() || effort_.spend() ||
                      (++ticks_ % kTicksPerClockRead == 0 && (Clock::now() >= until_ || stop_requested()))))
      stopped_ = true;
    return stopped_;
  }
  const EffortMeter& effort() const { return effort_; }

  // A valid decision at hand: kept when it beats the best so far (ties: more accepted jobs).
  void offer(const Admission& decision) {
    const double value = total_incentive(instance_, decision);
    std::size_t count = 0;
    for (const Job& job : jobs_) count += decision.accepted[job.bid] ? 1 : 0;
    if (value > best_value_ || (value == best_value_ && count > best_count_)) {
      best_value_ = value;
      best_count_ = count;
      best_ = decision;
    }
  }

  // First incumbents: serial generation of every job in a few priority orders, each job that misses its deadline
  // left out (Greedy-Backfilling's order among them), so that even a solve cut short at once returns a good decision.
  void seed_incumbents() {
    std::vector<Window> list;
    for (std::size_t j = 0; j < jobs_.size(); ++j) list.push_back({j, jobs_[j].earliest, jobs_[j].latest});
    std::vector<std::size_t> missed;
    for (const Rule rule : {kByLatest, kByValue, kByDeadline}) {
      sort_by(rule, list);
      Admission partial;
      if (auto decision = serial(list, &missed, &partial)) return offer(*decision);  // all placed
      offer(partial);
    }
  }

  // Whether the jobs of `set` (indices into the job list) can all be scheduled; on kYes the decision accepting
  // exactly them is offered. On kNo, `conflict` receives a subset infeasible on its own when reasoning on the running
  // jobs' profile found one, else it is left empty. `node_budget`: search nodes this check may spend
  // (kUnknown beyond; 0: no budget). kUnknown also at the time limit and above kReasoningMaxJobs.
  Fit feasible(const std::vector<std::size_t>& set, std::vector<std::size_t>* conflict, std::size_t node_budget = 0) {
    if (conflict) conflict->clear();
    budget_end_ = node_budget ? nodes_ + node_budget : 0;
    std::vector<Window> windows;
    for (std::size_t j : set) windows.push_back({j, jobs_[j].earliest, jobs_[j].latest});
    if (serial_places_any({kByLatest, kByDeadline, kByEnergy, kBySlack}, windows)) return Fit::kYes;
    if (set.size() > kReasoningMaxJobs || out_of_time()) return Fit::kUnknown;
    // A conflict must be infeasible on its own: energetic reasoning on the windows of the running jobs' profile yields
    // one; on windows narrowed by timetable reasoning over all of S it proves S infeasible only.
    const FreeEnergy free(base_);
    const bool all = windows.size() <= kRootAllIntervalsMaxJobs;
    if (overloaded(free, 0.0, windows, all, conflict)) return Fit::kNo;
    if (!timetable(base_, windows)) {
      if (conflict) *conflict = timetable_core(set);
      return Fit::kNo;
    }
    if (overloaded(free, 0.0, windows, all, nullptr)) return Fit::kNo;
    // The latest starts narrowed by reasoning make better priorities.
    const std::size_t rounds = std::min(kSqueakyMaxRounds, kSqueakyRoundsPerJob * set.size()) / (node_budget ? 10 : 1);
    if (serial_places_any({kByLatest, kBySlack}, windows) || squeaky_wheel(windows, rounds)) return Fit::kYes;
    for (std::size_t j : set) in_set_[j] = true;
    AvailabilityProfile profile = base_;
    const Fit fit = place_all(profile, 0.0, jobs_.size(), set.size());
    for (std::size_t j : set) in_set_[j] = false;
    if (fit == Fit::kYes) {
      Admission decision = empty();
      for (std::size_t j : set) {
        decision.accepted[jobs_[j].bid] = true;
        decision.start[jobs_[j].bid] = start_[j];
      }
      offer(decision);
    }
    return fit;
  }

  // Energetic constraints on any accepted set, on the windows of the running jobs' profile: in an overloaded
  // interval, the accepted jobs spend at most its free processor-time (plus the margin of overloaded()). The
  // kMaxRows intervals whose excess costs most to remove (a fractional cover) are kept.
  std::vector<Row> energy_rows() const {
    if (jobs_.size() > kReasoningMaxJobs) return {};
    std::vector<Window> windows;
    for (std::size_t j = 0; j < jobs_.size(); ++j) windows.push_back({j, jobs_[j].earliest, jobs_[j].latest});
    std::vector<double> from{0.0}, to;
    for (const Window& w : windows) {
      to.push_back(w.latest + jobs_[w.job].duration);
      to.push_back(w.earliest + jobs_[w.job].duration);
      if (windows.size() <= kRootAllIntervalsMaxJobs) from.push_back(w.latest);
    }
    for (auto* times : {&from, &to}) {
      std::sort(times->begin(), times->end());
      times->erase(std::unique(times->begin(), times->end()), times->end());
    }
    const FreeEnergy free(base_);
    std::vector<std::pair<double, Row>> rows;  // (cover cost, row)
    for (double t1 : from)
      for (double t2 : to) {
        if (t2 <= t1) continue;
        Row row;
        double demand = 0;
        for (const Window& w : windows)
          if (const double e = jobs_[w.job].procs * overlap(w, t1, t2); e > 0) {
            row.members.emplace_back(w.job, e);
            demand += e;
          }
        row.capacity = margin(free.over(t1, t2), windows.size());
        if (demand <= row.capacity) continue;
        rows.emplace_back(cover_cost(row, demand - row.capacity), std::move(row));
      }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<Row> out;
    for (std::size_t r = 0; r < rows.size() && r < kMaxRows; ++r) out.push_back(std::move(rows[r].second));
    return out;
  }

private:
  Admission empty() const {
    return Admission{std::vector<bool>(instance_.bids.size(), false), std::vector<double>(instance_.bids.size(), 0.0)};
  }

  // ---------------------------------------------------------------- reasoning

  // Timetable reasoning (see the file comment), at most kTimetablePasses passes. False: no schedule exists.
  bool timetable(const AvailabilityProfile& profile, std::vector<Window>& windows) const {
    for (int pass = 0; pass < kTimetablePasses; ++pass) {
      AvailabilityProfile table = profile;
      for (const Window& w : windows) compulsory(table, w, true);
      for (const auto& step : table.steps())
        if (step.free < 0) return false;
      bool changed = false;
      for (Window& w : windows) {
        const Job& job = jobs_[w.job];
        compulsory(table, w, false);
        const auto earliest = table.earliest_start(job.procs, job.duration, w.earliest, w.latest);
        if (!earliest) return false;
        const double latest = latest_start(table, job.procs, job.duration, *earliest, w.latest);
        changed = changed || *earliest > w.earliest + kTimeTolerance || latest < w.latest - kTimeTolerance;
        w.earliest = *earliest;
        w.latest = latest;
        compulsory(table, w, true);
      }
      if (!changed) break;
    }
    return true;
  }
  void compulsory(AvailabilityProfile& table, const Window& w, bool reserve) const {
    const Job& job = jobs_[w.job];
    if (w.latest >= w.earliest + job.duration - kTimeTolerance) return;  // none
    if (reserve) table.reserve(w.latest, w.earliest + job.duration, job.procs);
    else table.release(w.latest, w.earliest + job.duration, job.procs);
  }
  // A subset of `set` that timetable reasoning alone proves infeasible: the cheapest jobs left out first, each for
  // good when the rest still fails.
  std::vector<std::size_t> timetable_core(std::vector<std::size_t> core) const {
    std::vector<std::size_t> order = core;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return jobs_[a].value < jobs_[b].value; });
    for (std::size_t j : order) {
      std::vector<std::size_t> without;
      std::vector<Window> windows;
      for (std::size_t k : core)
        if (k != j) {
          without.push_back(k);
          windows.push_back({k, jobs_[k].earliest, jobs_[k].latest});
        }
      if (!timetable(base_, windows)) core = std::move(without);
    }
    return core;
  }

  // Energetic reasoning over the intervals [t1, t2]: t1 the last start (and every latest start when `all`), t2 a
  // latest or an earliest finish. Declares an overload only beyond a margin far above rounding and the time tolerance.
  bool overloaded(const FreeEnergy& free, double t_last, const std::vector<Window>& windows, bool all,
                  std::vector<std::size_t>* conflict) const {
    std::vector<double> from{t_last}, to;
    for (const Window& w : windows) {
      to.push_back(w.latest + jobs_[w.job].duration);
      to.push_back(w.earliest + jobs_[w.job].duration);
      if (all) from.push_back(w.latest);
    }
    for (auto* times : {&from, &to}) {
      std::sort(times->begin(), times->end());
      times->erase(std::unique(times->begin(), times->end()), times->end());
    }
    for (double t1 : from) {
      for (double t2 : to) {
        if (t2 <= t1) continue;
        double demand = 0;
        for (const Window& w : windows) demand += jobs_[w.job].procs * overlap(w, t1, t2);
        const double room = margin(free.over(t1, t2), windows.size());
        if (demand <= room) continue;
        if (conflict) {  // the interval's jobs; the cheapest left out while the overload remains
          std::vector<std::pair<std::size_t, double>> members;
          for (const Window& w : windows)
            if (const double e = jobs_[w.job].procs * overlap(w, t1, t2); e > 0) members.emplace_back(w.job, e);
          std::stable_sort(members.begin(), members.end(),
                           [&](const auto& a, const auto& b) { return jobs_[a.first].value < jobs_[b.first].value; });
          conflict->clear();
          for (const auto& [j, e] : members) {
            if (demand - e > room) demand -= e;
            else conflict->push_back(j);
          }
        }
        return true;
      }
    }
    return false;
  }
  double overlap(const Window& w, double t1, double t2) const {
    const double d = jobs_[w.job].duration;
    return std::max(0.0, std::min({t2 - t1, w.earliest + d - t1, t2 - w.latest, d}));
  }
  // Free processor-time with the margin energetic reasoning allows: far above rounding and the time tolerance.
  double margin(double room, std::size_t jobs) const {
    return room * (1 + 1e-9) + kTimeTolerance * instance_.site.processors * static_cast<double>(jobs + 1);
  }
  // The least incentive whose removal takes `excess` weight out of a row, jobs taken fractionally.
  double cover_cost(const Row& row, double excess) const {
    auto members = row.members;
    std::stable_sort(members.begin(), members.end(), [&](const auto& a, const auto& b) {
      return jobs_[a.first].value * b.second < jobs_[b.first].value * a.second;
    });
    double cost = 0;
    for (const auto& [j, w] : members) {
      if (w >= excess) return cost + jobs_[j].value * excess / w;
      cost += jobs_[j].value;
      excess -= w;
    }
    return cost;
  }

  // ---------------------------------------------------------------- heuristics

  // Serial generation of a list, each job at its earliest start from now: the decision when it places every job;
  // else nullopt, `missed` (when given) lists the positions of the jobs it left out and `partial` (when given)
  // receives the jobs it placed (up to the time limit, when that strikes).
  std::optional<Admission> serial(const std::vector<Window>& list, std::vector<std::size_t>* missed,
                                  Admission* partial = nullptr) {
    AvailabilityProfile profile = base_;
    Admission decision = empty();
    if (missed) missed->clear();
    bool all = true;
    for (std::size_t k = 0; k < list.size(); ++k) {
      if (out_of_time()) {
        all = false;
        break;
      }
      const Job& job = jobs_[list[k].job];
      const auto start = profile.earliest_start(job.procs, job.duration, 0, job.latest);
      if (!start) {
        all = false;
        if (!missed) break;
        missed->push_back(k);
        continue;
      }
      profile.reserve(*start, *start + job.duration, job.procs);
      decision.accepted[job.bid] = true;
      decision.start[job.bid] = *start;
    }
    if (all) return decision;
    if (partial) *partial = std::move(decision);
    return std::nullopt;
  }

  // Priority orders: by (narrowed) latest start, deadline, decreasing processor-time, latest start minus duration,
  // decreasing incentive.
  enum Rule { kByLatest, kByDeadline, kByEnergy, kBySlack, kByValue };
  void sort_by(Rule rule, std::vector<Window>& list) const {
    auto key = [&](const Window& w) {
      const Job& job = jobs_[w.job];
      switch (rule) {
        case kByLatest: return w.latest;
        case kByDeadline: return job.deadline();
        case kByEnergy: return -job.procs * job.duration;
        case kBySlack: return w.latest - job.duration;
        case kByValue: return -job.value;
      }
      return 0.0;
    };
    std::stable_sort(list.begin(), list.end(), [&](const Window& a, const Window& b) { return key(a) < key(b); });
  }
  bool serial_places_any(std::initializer_list<Rule> rules, const std::vector<Window>& windows) {
    std::vector<Window> list = windows;
    for (const Rule rule : rules) {
      sort_by(rule, list);
      if (const auto decision = serial(list, nullptr)) {
        offer(*decision);
        return true;
      }
    }
    return false;
  }

  // Squeaky wheel (Joslin & Clements 1999): the jobs a list leaves out move halfway to its front; a few rounds.
  bool squeaky_wheel(const std::vector<Window>& windows, std::size_t rounds) {
    std::vector<Window> list = windows;
    std::stable_sort(list.begin(), list.end(), [](const Window& a, const Window& b) { return a.latest < b.latest; });
    std::vector<std::size_t> missed;
    for (std::size_t round = 0; round < rounds && !stopped_; ++round) {
      if (const auto decision = serial(list, &missed)) {
        offer(*decision);
        return true;
      }
      for (std::size_t k : missed) {  // in list order, so earlier moves do not shift later positions
        const Window w = list[k];
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(k));
        list.insert(list.begin() + static_cast<std::ptrdiff_t>(k / 2), w);
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- search

  // Depth-first search over start-ordered active schedules of the jobs in the set (see the file comment).
  Fit place_all(AvailabilityProfile& profile, double t_last, std::size_t last, std::size_t remaining) {
    if (remaining == 0) return Fit::kYes;
    if (out_of_time() || (budget_end_ && nodes_ >= budget_end_)) return Fit::kUnknown;
    ++nodes_;
    std::vector<Window> windows;  // of the jobs left: they start at or after t_last
    for (std::size_t j = 0; j < jobs_.size(); ++j) {
      if (!in_set_[j] || placed_[j]) continue;
      const Job& job = jobs_[j];
      const auto start = job.latest < t_last - kTimeTolerance
                             ? std::nullopt
                             : profile.earliest_start(job.procs, job.duration, t_last, job.latest);
      if (!start) return Fit::kNo;
      windows.push_back({j, *start, job.latest});
    }
    if (!timetable(profile, windows) ||
        overloaded(FreeEnergy(profile), t_last, windows, windows.size() <= kAllIntervalsMaxJobs, nullptr))
      return Fit::kNo;
    for (const Window& w : windows) {
      const Job& job = jobs_[w.job];
      const auto found = profile.earliest_start(job.procs, job.duration, 0, job.latest);
      if (!found) continue;
      const double start = *found;
      // Only at its earliest start (serial generation), not before the last start (equal: later in job order), and
      // where reasoning still allows it.
      if (start < t_last - kTimeTolerance || start < w.earliest - kTimeTolerance || start > w.latest + kTimeTolerance)
        continue;
      if (start <= t_last + kTimeTolerance && w.job < last && last < jobs_.size()) continue;
      profile.reserve(start, start + job.duration, job.procs);
      placed_[w.job] = true;
      start_[w.job] = start;
      const Fit fit = place_all(profile, std::max(t_last, start), w.job, remaining - 1);
      placed_[w.job] = false;
      profile.release(start, start + job.duration, job.procs);
      if (fit != Fit::kNo) return fit;
    }
    return Fit::kNo;
  }

  const Instance& instance_;
  Clock::time_point until_;
  EffortMeter effort_;
  AvailabilityProfile base_;
  std::vector<Job> jobs_;           // the jobs worth considering, by latest start
  std::vector<bool> in_set_, placed_;
  std::vector<double> start_;
  Admission best_;
  double best_value_ = 0;
  std::size_t best_count_ = 0;      // candidate jobs the best accepts
  std::size_t nodes_ = 0, budget_end_ = 0;
  unsigned ticks_ = 0;
  bool stopped_ = false;
};

// The selection: the cheapest refused set R, strictly cheaper than a limit, that meets every conflict (refuses one of
// its jobs) and leaves every row within its capacity (nullopt: none). Branch and bound: an unmet conflict, else the
// row whose excess costs most to remove, is branched on: refuse one of its free members (the others of the branch
// before it are accepted from then on, so no R is visited twice). Bound: the larger of a packing of pairwise disjoint
// unmet conflicts (each needs one more refused job: its cheapest free member) and the fractional cover of a row.
class Selection {
public:
  Selection(const std::vector<double>& cost, const std::vector<std::vector<std::size_t>>& conflicts,
            const std::vector<Row>& rows, Timed& timed)
      : cost_(cost), conflicts_(conflicts), rows_(rows), timed_(timed), in_(cost.size(), false),
        banned_(cost.size(), false) {}

  std::optional<std::vector<bool>> solve(double limit) {
    best_cost_ = limit;
    best_.reset();
    search(0.0);
    return best_;
  }

private:
  bool met(const std::vector<std::size_t>& conflict) const {
    return std::any_of(conflict.begin(), conflict.end(), [&](std::size_t j) { return in_[j]; });
  }
  double cheapest_free(const std::vector<std::size_t>& conflict) const {
    double cheapest = kForever;
    for (std::size_t j : conflict)
      if (!banned_[j]) cheapest = std::min(cheapest, cost_[j]);
    return cheapest;
  }
  // The free members of a violated row, cheapest per weight first, and the fractional cost of its excess
  // (infinite when refusing all of them is not enough); nullopt when the row holds.
  std::optional<double> row_cover(const Row& row, std::vector<std::pair<std::size_t, double>>& free) const {
    double load = 0;
    for (const auto& [j, w] : row.members)
      if (!in_[j]) load += w;
    if (load <= row.capacity) return std::nullopt;
    free.clear();
    for (const auto& m : row.members)
      if (!in_[m.first] && !banned_[m.first]) free.push_back(m);
    std::stable_sort(free.begin(), free.end(),
                     [&](const auto& a, const auto& b) { return cost_[a.first] * b.second < cost_[b.first] * a.second; });
    double excess = load - row.capacity, cover = 0;
    for (const auto& [j, w] : free) {
      if (w >= excess) return cover + cost_[j] * excess / w;
      cover += cost_[j];
      excess -= w;
    }
    return kForever;
  }

  void search(double cost) {
    if (timed_.out_of_time()) return;
    // The unmet conflicts; the one with the fewest free members (not banned from R) is the first choice to branch on.
    std::vector<std::size_t> unmet;
    std::size_t conflict_branch = 0, fewest = cost_.size() + 1;
    for (std::size_t c = 0; c < conflicts_.size(); ++c) {
      if (met(conflicts_[c])) continue;
      std::size_t free = 0;
      for (std::size_t j : conflicts_[c]) free += banned_[j] ? 0 : 1;
      if (free == 0) return;  // can no longer be met
      unmet.push_back(c);
      if (free < fewest) {
        fewest = free;
        conflict_branch = c;
      }
    }
    double row_bound = 0;
    std::vector<std::pair<std::size_t, double>> free, row_branch;
    for (const Row& row : rows_) {
      const auto cover = row_cover(row, free);
      if (!cover) continue;
      if (*cover == kForever) return;
      if (*cover >= row_bound) {
        row_bound = *cover;
        row_branch = free;
      }
    }
    if (unmet.empty() && row_branch.empty()) {
      if (cost < best_cost_) {
        best_cost_ = cost;
        best_ = in_;
      }
      return;
    }
    std::stable_sort(unmet.begin(), unmet.end(), [&](std::size_t a, std::size_t b) {
      return cheapest_free(conflicts_[a]) > cheapest_free(conflicts_[b]);
    });
    std::vector<bool> used(cost_.size(), false);
    double packing = 0;
    for (std::size_t c : unmet) {
      const auto& conflict = conflicts_[c];
      if (std::any_of(conflict.begin(), conflict.end(), [&](std::size_t j) { return used[j]; })) continue;
      for (std::size_t j : conflict) used[j] = true;
      packing += cheapest_free(conflict);
    }
    if (!(cost + std::max(packing, row_bound) < best_cost_)) return;
    std::vector<std::size_t> members;
    if (!unmet.empty()) {
      for (std::size_t j : conflicts_[conflict_branch])
        if (!banned_[j]) members.push_back(j);
      std::stable_sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) { return cost_[a] < cost_[b]; });
    } else {
      for (const auto& m : row_branch) members.push_back(m.first);  // cheapest per weight first
    }
    for (std::size_t j : members) {  // refuse j; the later branches accept it
      in_[j] = true;
      search(cost + cost_[j]);
      in_[j] = false;
      banned_[j] = true;
    }
    for (std::size_t j : members) banned_[j] = false;
  }

  const std::vector<double>& cost_;
  const std::vector<std::vector<std::size_t>>& conflicts_;
  const std::vector<Row>& rows_;
  Timed& timed_;
  std::vector<bool> in_, banned_;
  double best_cost_ = 0;
  std::optional<std::vector<bool>> best_;
};

// A conflict inside `set` (known infeasible, proven by the search): the cheapest jobs left out first, each for good
// when the rest is still proven infeasible within `budget` nodes.
std::vector<std::size_t> shrink_by_deletion(Timed& timed, const std::vector<std::size_t>& set,
                                            const std::vector<double>& cost, std::size_t budget) {
  std::vector<std::size_t> conflict = set, order = set;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost[a] < cost[b]; });
  for (std::size_t j : order) {
    if (timed.stopped()) break;
    if (std::find(conflict.begin(), conflict.end(), j) == conflict.end()) continue;  // left out with another
    std::vector<std::size_t> without, sub;
    for (std::size_t k : conflict)
      if (k != j) without.push_back(k);
    if (timed.feasible(without, &sub, budget) == Fit::kNo) conflict = sub.empty() ? without : sub;
  }
  return conflict;
}

}  // namespace

ExactResult<Admission> solve_timed_bnb(const Instance& instance, const SolveOptions& options,
                                       const std::vector<Admission>& incumbents) {
  const StackWatch stack;
  const auto started = Clock::now();
  Timed timed(instance, started + std::chrono::milliseconds(options.timeout_ms), options.effort);
  for (const Admission& a : incumbents) timed.offer(a);
  timed.seed_incumbents();
  const std::size_t n = timed.size();
  std::vector<double> cost(n);
  double total = 0;
  for (std::size_t j = 0; j < n; ++j) total += cost[j] = timed.job(j).value;

  std::vector<std::vector<std::size_t>> conflicts;
  std::vector<Row> rows;
  Selection master(cost, conflicts, rows, timed);
  double master_seconds = 0, check_seconds = 0;
  std::size_t rounds = 0;
  bool proven = false;
  while (!proven) {
    if (timed.best_count() == n) {  // every job that fits alone is accepted: nothing can be better
      proven = true;
      break;
    }
    const auto master_started = Clock::now();
    // The best decision refuses jobs worth total - best; only a cheaper refusal can improve on it.
    const auto refused = master.solve(total - timed.best_value());
    master_seconds += seconds_since(master_started);
    if (timed.stopped()) break;
    if (!refused) {  // no refusal cheaper than the best decision's meets every conflict
      proven = true;
      break;
    }
    ++rounds;
    const auto check_started = Clock::now();
    std::vector<std::size_t> set;
    for (std::size_t j = 0; j < n; ++j)
      if (!(*refused)[j]) set.push_back(j);
    std::vector<std::size_t> conflict;
    const std::size_t nodes_before = timed.nodes();
    const Fit fit = timed.feasible(set, &conflict);
    // Each deletion check may spend as many nodes as the check it refines (at least kDeletionMinNodes).
    if (fit == Fit::kNo && conflict.empty())
      conflict = shrink_by_deletion(timed, set, cost, std::max(kDeletionMinNodes, timed.nodes() - nodes_before));
    check_seconds += seconds_since(check_started);
    if (fit == Fit::kYes) proven = true;  // the cheapest refusal that meets every conflict can be scheduled
    if (fit != Fit::kNo || timed.stopped()) break;
    if (rounds == 1) rows = timed.energy_rows();  // not needed when the first answer (refuse nothing) fits
    std::sort(conflict.begin(), conflict.end());
    conflicts.push_back(std::move(conflict));
  }
  ExactResult<Admission> result;
  result.phase_seconds = {{"selection", master_seconds}, {"scheduling checks", check_seconds}};
  const std::string effort = fmt::format("{} rounds, {} conflicts, {} energy rows, {} search nodes", rounds,
                                         conflicts.size(), rows.size(), timed.nodes());
  result.status = proven ? ExactStatus::kOptimal : ExactStatus::kFeasible;
  if (proven && rounds == 0)
    result.detail = fmt::format("a schedule accepts all {} bids that fit alone: the upper bound", n);
  else if (proven)
    result.detail = effort;
  else if (timed.stopped())
    result.detail = fmt::format("{} ({}); best found kept",
                                stop_requested() ? stop_request_text()
                                                 : limit_reached(stack, timed.effort(), options.timeout_ms),
                                effort);
  else
    result.detail = fmt::format("a set of more than {} jobs the heuristics could not schedule ({}); best found kept",
                                kReasoningMaxJobs, effort);
  result.decision = timed.best();
  result.objective = total_incentive(instance, timed.best());
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::sla
