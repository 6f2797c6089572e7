// Branch-and-bound over active schedules for a provider (see offers_bnb.hpp). Our own.
#include "solver/offers_bnb.hpp"

#include "support/stop.hpp"
#include "solver/offers_machines.hpp"
#include "solver/offers_sat.hpp"
#include "solver/offers_z3.hpp"
#include "solver/serial_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <tuple>

namespace schedcheck::offers {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

enum class Outcome { kFound, kExhausted, kStopped, kBudget };  // kBudget: the probe's node budget ran out

// Depth-first search over active schedules. Tasks are placed in the order of their starts (ties: job index), each at
// its earliest start on the profile at or after its job's release time (now; in the mirror image of class Search,
// each job's own): every feasible schedule left-shifts to one such sequence (repeated serial
// generation in the order of its starts only moves starts earlier and ends at a fixed point that the order
// reproduces), so the search is complete while visiting each active schedule once. A node fails when
//  - a remaining job cannot start by its latest start at or after the current start t (all later starts are >= t);
//  - a remaining job fits wholly before t: later tasks (starting >= t) never block that window, so its earliest start
//    stays below t and it can never come next in start order (the schedule is not active);
//  - time-tabling (see time_table) leaves a job no start between its earliest and latest starts;
//  - energy: for a deadline D of a remaining job (its latest start from time-tabling + runtime), the remaining jobs'
//    work that must lie in [t, D] (a job due after D, started as late as it may, still runs min(runtime, D - latest
//    start) there) exceeds the free processor-time of [t, D] on the profile (t: no task starts before the current
//    start, nor before the first time any remaining task fits);
//  - widths: the same for the time in [t, D] with at least w processors free, against the work of the jobs at least
//    w wide when no two of them fit side by side (w > P / 2): they run one at a time.
// The machine relaxation: processors that only come free from now on are identical machines, each free from its own
// time, and any schedule of the jobs on them can be given processors (in start order, a job takes processors free at
// its start, which stay free), so a job w processors wide becomes w one-processor tasks of its runtime and deadline
// on w distinct machines. The tasks no longer start together: the machine search (solver/offers_machines.hpp) over
// those tasks is a relaxation, and when it finds no schedule, neither is there one. A probe whose search has not
// ended after kRelaxAfterNodes nodes takes turns with it: kRelaxNodes for the relaxation, as many for the search,
// then twice as many each (the relaxation keeps its failed states from turn to turn), until one decides (our own).
// Minimisation (a target job: the new tasks): the target's deadline is the bound; a schedule found lowers it to its
// finish - step, and the search unwinds to the last target task's placement (the tasks after it cannot lower the
// finish). The search ends when the bound drops below the lower bound or the space is exhausted.
class ActiveSearch {
 public:
  // `mirror`: the horizon H of the backward search (see class Search below), which runs on the image t -> now + H - t
  // of the instance: every job released at now + H - its deadline and due by H, the running jobs at the end.
  ActiveSearch(const Instance& instance, std::vector<SerialJob> jobs, std::size_t target, double scale,
               Clock::time_point until, std::optional<double> mirror = std::nullopt)
      : profile_(first_profile(instance, mirror)), tt_(profile_), now_(instance.now), jobs_(std::move(jobs)),
        target_(target), scale_(scale), until_(until), left_(jobs_.size()), mirror_(mirror),
        release_(jobs_.size(), instance.now) {
    for (std::size_t g = 0; g < jobs_.size(); ++g) {
      left_[g] = jobs_[g].copies;
      total_ += static_cast<std::size_t>(jobs_[g].copies);
      if (mirror_) {
        release_[g] = now_ + *mirror_ - std::min(jobs_[g].deadline, *mirror_);
        jobs_[g].deadline = *mirror_;
      }
    }
    processors_ = instance.processors;
    target_finish_.assign(total_ + 1, now_);
    est_.resize(total_ + 1);  // one scratch row a depth, sized once: deeper calls never move a caller's row
    order_.resize(total_ + 1);
    keys_.resize(total_ + 1);
    lst_.resize(total_ + 1);
    // Jobs of one shape (processors, runtime) start in deadline order: exchanging the starts of two such jobs keeps
    // the profile and, the earlier deadline going first, every deadline (and every release when the earlier one is
    // released no later: the mirror's jobs share a deadline and differ in release). Chained along (release, deadline,
    // index) where deadlines and indices agree (so the start-order tie rule agrees too); the target, whose deadline
    // (the mirror's: release) is the bound, stays out.
    prev_.assign(jobs_.size(), kNone);
    std::vector<std::size_t> by_shape(jobs_.size());
    std::iota(by_shape.begin(), by_shape.end(), std::size_t{0});
    std::sort(by_shape.begin(), by_shape.end(), [&](std::size_t a, std::size_t b) {
      const SerialJob &x = jobs_[a], &y = jobs_[b];
      return std::tie(x.procs, x.duration, release_[a], x.deadline, a) <
             std::tie(y.procs, y.duration, release_[b], y.deadline, b);
    });
    for (std::size_t k = 1; k < by_shape.size(); ++k) {
      const std::size_t a = by_shape[k - 1], b = by_shape[k];
      if (a == target_ || b == target_ || jobs_[a].procs != jobs_[b].procs || jobs_[a].duration != jobs_[b].duration ||
          jobs_[a].deadline > jobs_[b].deadline)
        continue;
      if (a < b) prev_[b] = a;
    }
    for (std::size_t g = 0; g < jobs_.size(); ++g)
      if (jobs_[g].procs > 1) wide_left_ += static_cast<std::size_t>(jobs_[g].copies);
    if (!mirror_ && MachineSearch::sizes_fit(instance, jobs_, scale_)) {
      machines_.emplace(instance, jobs_, target_, scale_, until_);
      machine_times(now_);  // the relaxation's machines and tasks (every job w processors wide as w tasks)
      root_free_from_ = free_from_;
      for (const SerialJob& j : jobs_) root_left_.push_back(j.copies * j.procs);
    }
  }

  // A schedule meeting every deadline, the target's (if any) being `bound`. A later probe may reuse what earlier
  // ones learnt (failed states are kept with the bound they failed under).
  // `node_budget`: at most this many nodes (0: no budget), then kBudget.
  // `turn_end`: stops there too, with kBudget.
  Outcome probe(double bound, std::size_t node_budget = 0, Clock::time_point turn_end = Clock::time_point::max()) {
    bound_ = bound;
    if (target_ != kNone && mirror_) release_[target_] = now_ + *mirror_ - std::min(bound, *mirror_);
    else if (target_ != kNone) jobs_[target_].deadline = bound;
    found_ = stopped_ = over_budget_ = false;
    node_limit_ = node_budget == 0 ? kNone : nodes_ + node_budget;
    turn_end_ = turn_end;
    // The relaxation's turns, unless it found a schedule under this bound or a lower one; a probe that comes back
    // (`auto`'s next turn) goes on with them where it stopped.
    if (const double b = this->bound(); b != relax_bound_) {  // b: 0 without a target
      relax_bound_ = b;
      relax_on_ = wide_left_ > 0 && machines_ && !(relaxed_found_under_ && b >= *relaxed_found_under_ - kTimeTolerance);
      relax_at_ = nodes_ + kRelaxAfterNodes;
      relax_budget_ = kRelaxNodes;
    }
    relaxed_refuted_ = false;
    node(now_, 0, now_);
    if (relaxed_refuted_) return Outcome::kExhausted;
    if (over_budget_) return Outcome::kBudget;
    if (stopped_) return Outcome::kStopped;
    return found_ ? Outcome::kFound : Outcome::kExhausted;
  }

  // Counts every node of this search (and the machine search's, as nodes_ does) against a budget shared with others.
  void set_effort(EffortMeter* effort) { effort_ = effort; }

  // The relaxation alone, without a node budget (machine_relaxation).
  MachineSearch::Outcome relaxation_alone(double bound) {
    if (!machines_) return MachineSearch::Outcome::kStopped;
    bound_ = bound;
    if (target_ != kNone) jobs_[target_].deadline = bound;
    relax_budget_ = 0;
    turn_end_ = Clock::time_point::max();
    return relaxed_root();
  }

  const std::vector<SerialPlacement>& found_schedule() const { return best_; }
  std::size_t nodes() const { return nodes_; }
  std::size_t tt_hits() const { return tt_hits_; }

 private:
  void place(std::size_t g, double start) {
    const std::size_t depth = placed_.size();
    profile_.reserve(start, start + jobs_[g].duration, jobs_[g].procs);
    placed_.push_back({g, start});
    --left_[g];
    if (jobs_[g].procs > 1) --wide_left_;
    target_finish_[depth + 1] = g == target_ ? std::max(target_finish_[depth], start + jobs_[g].duration)
                                             : target_finish_[depth];
  }
  void unplace(std::size_t g, double start) {
    profile_.release(start, start + jobs_[g].duration, jobs_[g].procs);
    placed_.pop_back();
    ++left_[g];
    if (jobs_[g].procs > 1) ++wide_left_;
  }

  void leaf() {
    found_ = true;
    best_ = placed_;
    if (mirror_)  // back from the image: [s, e) there is [now + H - e, now + H - s) here
      for (auto& p : best_) p.start = now_ + *mirror_ - (p.start + jobs_[p.job].duration);
  }

  static AvailabilityProfile first_profile(const Instance& instance, std::optional<double> mirror) {
    if (!mirror) return running_profile(instance);
    AvailabilityProfile profile(instance.processors);
    for (const auto& job : instance.running) profile.reserve(*mirror - job.remaining, *mirror, job.procs);
    return profile;
  }

  // A machine search's node budget (0: none) cut to what is left of the effort budget, `per_node` of its nodes a node.
  std::size_t within_effort(std::size_t budget, std::size_t per_node) const {
    if (!effort_ || !effort_->limited()) return budget;
    const std::size_t left = static_cast<std::size_t>(std::max<std::uint64_t>(1, effort_->left())) * per_node;
    return budget == 0 ? left : std::min(budget, left);
  }

  // The machine relaxation of this probe (see the top): kExhausted refutes it.
  MachineSearch::Outcome relaxed_root() {
    const std::size_t before = machines_->nodes();
    const auto outcome = machines_->probe(root_free_from_, root_left_, bound(), within_effort(relax_budget_, 1),
                                          turn_end_);
    const std::size_t spent = machines_->nodes() - before;
    nodes_ += spent;
    if (effort_) effort_->spend(spent);
    if (node_limit_ != kNone) node_limit_ += spent;  // not taken from the search's turn (`auto`)
    if (outcome == MachineSearch::Outcome::kFound) {
      relaxed_found_under_ = bound();
      relax_on_ = false;
    } else if (outcome == MachineSearch::Outcome::kBudget) {
      relax_budget_ *= 2;
      relax_at_ = nodes_ + relax_budget_;
    }
    return outcome;
  }

  // Every remaining task is one processor wide, and every placed one starts by t, where the remaining ones start: from
  // t on processors only come free, so the rest is one-processor tasks on machines free from given times, which the
  // machine search decides exactly (solver/offers_machines.hpp). It searches every completion with starts from t on,
  // a superset of this node's subtree (start order, activeness) whose members are all schedules: its answer is the
  // subtree's. The same search, from now, serves an instance whose tasks are all one processor wide.
  void rest_on_machines(double t) {
    machine_times(t);
    const std::size_t before = machines_->nodes();
    const std::size_t budget =
        node_limit_ == kNone ? 0 : std::max<std::size_t>(1, node_limit_ - nodes_) * kMachineNodesPerNode;
    const auto outcome =
        machines_->probe(free_from_, left_, bound(), within_effort(budget, kMachineNodesPerNode), turn_end_);
    machine_nodes_ += machines_->nodes() - before;  // counted as kMachineNodesPerNode a node: they cost less
    nodes_ += machine_nodes_ / kMachineNodesPerNode;
    if (effort_) effort_->spend(machine_nodes_ / kMachineNodesPerNode);
    machine_nodes_ %= kMachineNodesPerNode;
    switch (outcome) {
      case MachineSearch::Outcome::kFound:
        found_ = true;
        best_ = placed_;
        best_.insert(best_.end(), machines_->found_schedule().begin(), machines_->found_schedule().end());
        break;
      case MachineSearch::Outcome::kExhausted: break;
      case MachineSearch::Outcome::kStopped: stopped_ = true; break;
      case MachineSearch::Outcome::kBudget: stopped_ = over_budget_ = true; break;
    }
  }

  // Into free_from_: the time from which each processor is free for good, from t on (the profile only rises there).
  void machine_times(double t) {
    free_from_.clear();
    int free = std::max(0, profile_.free_at(t));
    free_from_.assign(static_cast<std::size_t>(free), t);
    for (const auto& step : profile_.steps())
      if (step.time > t + kTimeTolerance && step.free > free) {
        free_from_.insert(free_from_.end(), static_cast<std::size_t>(step.free - free), step.time);
        free = step.free;
      }
    // The profile's last step has every processor free (all jobs end); an over-used one (free < 0) is read as 0.
    free_from_.resize(static_cast<std::size_t>(processors_), profile_.steps().back().time);
  }

  // Free processor-time of the profile over [t, D] for each D of ds_ (ascending) into avail_, and the time with at
  // least `wide` processors free into wide_time_ (wide = 0: not computed).
  void free_over(double t, int wide) {
    const auto& steps = profile_.steps();
    std::size_t i = static_cast<std::size_t>(
        std::upper_bound(steps.begin(), steps.end(), t + kTimeTolerance,
                         [](double value, const AvailabilityProfile::Step& s) { return value < s.time; }) -
        steps.begin()) - 1;
    double pos = t, energy = 0, time = 0;
    avail_.clear();
    wide_time_.clear();
    for (double d : ds_) {
      while (pos < d) {
        const double next = i + 1 < steps.size() ? steps[i + 1].time : kForever;
        const double to = std::min(next, d);
        energy += static_cast<double>(std::max(0, steps[i].free)) * (to - pos);
        if (wide > 0 && steps[i].free >= wide) time += to - pos;
        pos = to;
        if (to >= next) ++i;
      }
      avail_.push_back(energy);
      wide_time_.push_back(time);
    }
  }

  bool bounds_hold(double t, const std::vector<double>& lst) {
    ds_.clear();
    int narrowest_wide = 0;
    for (std::size_t g = 0; g < jobs_.size(); ++g) {
      if (left_[g] == 0) continue;
      ds_.push_back(lst[g] + jobs_[g].duration);
      if (2 * jobs_[g].procs > processors_ && (narrowest_wide == 0 || jobs_[g].procs < narrowest_wide))
        narrowest_wide = jobs_[g].procs;
    }
    std::sort(ds_.begin(), ds_.end());
    ds_.erase(std::unique(ds_.begin(), ds_.end()), ds_.end());
    free_over(t, narrowest_wide);
    for (std::size_t k = 0; k < ds_.size(); ++k) {
      const double d = ds_[k];
      double energy = 0, wide_time = 0;
      for (std::size_t g = 0; g < jobs_.size(); ++g) {
        if (left_[g] == 0) continue;
        const SerialJob& j = jobs_[g];
        const double inside = std::clamp(d - lst[g], 0.0, j.duration);
        if (inside <= 0) continue;
        energy += static_cast<double>(left_[g]) * static_cast<double>(j.procs) * inside;
        if (2 * j.procs > processors_) wide_time += static_cast<double>(left_[g]) * inside;
      }
      if (energy > avail_[k] + 1e-7 * std::max(1.0, energy)) return false;
      if (wide_time > wide_time_[k] + 1e-7 * std::max(1.0, wide_time)) return false;
    }
    return true;
  }

  // `fits_from`: no remaining task fits anywhere before it (the parent's `first`; reservations only take processors
  // away), so the earliest starts are searched from there.
  void node(double t, std::size_t last, double fits_from) {
    const std::size_t depth = placed_.size();
    if (const NodeCheck check = check_node(++nodes_, node_limit_, until_, turn_end_); check != NodeCheck::kGo) {
      stopped_ = true;  // unwinds: nothing below is remembered as failed
      over_budget_ = check == NodeCheck::kBudget;
      return;
    }
    if (effort_ && effort_->spend()) {
      stopped_ = true;  // the effort budget: as the time limit
      return;
    }
    if (relax_on_ && nodes_ >= relax_at_) {
      const auto outcome = relaxed_root();
      if (outcome == MachineSearch::Outcome::kExhausted || outcome == MachineSearch::Outcome::kStopped) {
        relaxed_refuted_ = outcome == MachineSearch::Outcome::kExhausted;
        stopped_ = true;  // unwinds: nothing below is remembered as failed
        return;
      }
    }
    if (target_ != kNone && target_finish_[depth] > jobs_[target_].deadline + kTimeTolerance) return;
    if (depth == total_) {
      leaf();
      return;
    }
    if (wide_left_ == 0 && machines_) {
      rest_on_machines(t);
      return;
    }
    std::vector<double>& est = est_[depth];
    std::vector<std::size_t>& order = order_[depth];
    est.assign(jobs_.size(), 0);
    order.clear();
    double first = kForever;  // no remaining task fits anywhere before it
    for (std::size_t g = 0; g < jobs_.size(); ++g) {
      if (left_[g] == 0) continue;
      const SerialJob& j = jobs_[g];
      const double latest = j.deadline - j.duration;
      if (latest < t - kTimeTolerance) return;
      const auto e = profile_.earliest_start(j.procs, j.duration, std::max(fits_from, release_[g]), latest);
      if (!e) return;
      first = std::min(first, *e);
      if (*e < t - kTimeTolerance) {
        if (*e + j.duration <= t + kTimeTolerance) return;  // fits wholly before t: never next in start order
        const auto f = profile_.earliest_start(j.procs, j.duration, std::max(t, release_[g]), latest);
        if (!f) return;
        est[g] = *f;
      } else {
        est[g] = *e;
        const bool in_order = prev_[g] == kNone || left_[prev_[g]] == 0;
        if (in_order && (*e > t + kTimeTolerance || g >= last)) order.push_back(g);
      }
    }
    // Nothing starts before `first`, here or below (reservations only take processors away): the free time before
    // it is of no use, and the subtree depends on the profile from `first` on only. When first > t, neither t nor
    // the tie index matter either (every remaining task starts after t).
    const bool after = first > t + kTimeTolerance;
    std::vector<double>& lst = lst_[depth];
    lst.resize(jobs_.size());
    if (order.empty() || !time_table(est, lst, order) || order.empty() || !bounds_hold(std::max(t, first), lst))
      return;
    const std::uint64_t hash = state_key(first, after ? first : t, after ? 0 : last);
    if (failed_before(hash)) {
      ++tt_hits_;
      return;
    }
    std::vector<std::int64_t>& key = keys_[depth];
    key.swap(key_);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (std::fabs(est[a] - est[b]) > kTimeTolerance) return est[a] < est[b];
      const double la = jobs_[a].deadline - jobs_[a].duration, lb = jobs_[b].deadline - jobs_[b].duration;
      if (la != lb) return la < lb;
      return a < b;
    });
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t g = order[k];
      const double start = est[g];
      place(g, start);
      node(start, g, first);
      unplace(g, start);
      if (stopped_ || found_) return;
    }
    // Every extension fails under the bound (see remember).
    remember(hash, key);
  }

  double bound() const { return target_ == kNone ? 0 : bound_; }

  // Time-tabling: a remaining job whose latest start is before its earliest end runs in [latest start, earliest
  // end) whatever happens (its compulsory part). With every remaining job's compulsory part reserved, a job must
  // still fit (its own part counted as free) between its earliest and latest starts: the first and the last such
  // starts bound its start from both sides, so a candidate that cannot start at its profile start is dropped, and a
  // job with no such start fails the node. Bounds that move enlarge the compulsory parts: again, a few rounds.
  // The latest starts found go to lst (the energy bounds use them).
  bool time_table(std::vector<double>& est, std::vector<double>& lst, std::vector<std::size_t>& order) {
    for (std::size_t g = 0; g < jobs_.size(); ++g) lst[g] = jobs_[g].deadline - jobs_[g].duration;
    for (int round = 0; round < kTimeTablingRounds; ++round) {
      if (round == 0) {
        bool any = false;
        for (std::size_t g = 0; g < jobs_.size() && !any; ++g)
          any = left_[g] > 0 && lst[g] < est[g] + jobs_[g].duration - kTimeTolerance;
        if (!any) return true;  // no compulsory part: nothing to learn (and no profile to copy)
        tt_ = profile_;
        part_.assign(jobs_.size(), {0, 0});
      }
      // Each compulsory part reserved once, then only its growth (bounds only narrow: parts only grow).
      grown_.clear();
      auto reserve = [&](double from, double to, int procs) {
        tt_.reserve(from, to, procs);
        grown_.emplace_back(from, to);
      };
      for (std::size_t g = 0; g < jobs_.size(); ++g) {
        if (left_[g] == 0) continue;
        const SerialJob& j = jobs_[g];
        const double lo = lst[g], hi = est[g] + j.duration;
        if (!(lo < hi - kTimeTolerance)) continue;
        const int procs = static_cast<int>(j.procs * left_[g]);
        auto& [from, to] = part_[g];
        if (!(from < to)) {
          reserve(lo, hi, procs);
        } else {
          if (lo < from - kTimeTolerance) reserve(lo, from, procs);
          if (hi > to + kTimeTolerance) reserve(to, hi, procs);
        }
        from = lo;
        to = hi;
      }
      for (const auto& step : tt_.steps())
        if (step.free < 0) return false;
      bool moved = false;
      for (std::size_t g = 0; g < jobs_.size(); ++g) {
        if (left_[g] == 0) continue;
        const SerialJob& j = jobs_[g];
        // After the first round, a job whose window [earliest start, latest end) no part grew into would get the
        // same answers again (its bounds are the answers on the profile it was last asked on).
        if (round > 0 && std::none_of(grown_.begin(), grown_.end(), [&](const std::pair<double, double>& r) {
              return r.first < lst[g] + j.duration - kTimeTolerance && r.second > est[g] + kTimeTolerance;
            }))
          continue;
        // One copy's own compulsory part counted as free for the queries.
        AvailabilityProfile::Hold own;
        if (lst[g] < est[g] + j.duration - kTimeTolerance) own = {lst[g], est[g] + j.duration, j.procs};
        const auto e = tt_.earliest_count_start(j.procs, j.duration, est[g], lst[g], own);
        const auto l = e ? tt_.latest_count_start(j.procs, j.duration, *e, lst[g], own) : std::nullopt;
        if (!e || !l) return false;
        if (*e > est[g] + kTimeTolerance) {
          est[g] = *e;
          moved = true;
          order.erase(std::remove(order.begin(), order.end(), g), order.end());
        }
        if (*l < lst[g] - kTimeTolerance) {
          lst[g] = *l;
          moved = true;
        }
      }
      if (!moved) return true;
    }
    return true;
  }

  // The state a node's subtree depends on, besides the bound: its start t and tie index, the remaining copies and
  // the profile from `from` on (grid units). Into key_; returns its hash.
  std::uint64_t state_key(double from, double t, std::size_t last) {
    return active_state_key(profile_, now_, scale_, from, t, last, left_, key_);
  }
  // A fully explored node with no extension under the bound: the same state later, under the same or a lower
  // bound, fails too (its subtree depends only on the state: the placed target tasks finish by the bound).
  void remember(std::uint64_t hash, const std::vector<std::int64_t>& key) { failed_.remember(hash, key, bound()); }
  bool failed_before(std::uint64_t hash) const {  // this state (key_) failed under this bound or a higher one
    return failed_.any(hash, key_, [&](double failed_under) { return bound() <= failed_under + kTimeTolerance; });
  }

  static constexpr int kTimeTablingRounds = 8;
  // Failed states: at most 64 MiB a generation.
  static constexpr std::size_t kMaxRememberedWords = std::size_t{1} << 23;

  AvailabilityProfile profile_, tt_;
  double now_;
  std::vector<SerialJob> jobs_;
  std::size_t target_;
  double scale_;
  Clock::time_point until_, turn_end_ = Clock::time_point::max();
  std::vector<long long> left_;
  std::size_t total_ = 0;
  int processors_ = 0;
  std::vector<SerialPlacement> placed_, best_;
  std::vector<double> target_finish_;
  bool found_ = false, stopped_ = false, over_budget_ = false;
  std::size_t nodes_ = 0, node_limit_ = kNone;
  EffortMeter* effort_ = nullptr;  // null: no effort budget
  std::size_t machine_nodes_ = 0;  // the machine search's, not yet counted in nodes_
  std::vector<std::vector<double>> est_, lst_;
  std::vector<std::vector<std::size_t>> order_;
  std::vector<std::vector<std::int64_t>> keys_;
  std::vector<std::size_t> prev_;
  std::vector<double> ds_, avail_, wide_time_;
  std::vector<std::pair<double, double>> part_;   // time_table: each job's compulsory part reserved on tt_
  std::vector<std::pair<double, double>> grown_;  // time_table: what this round reserved
  std::vector<std::int64_t> key_;
  StateMemory failed_{kMaxRememberedWords};
  std::size_t tt_hits_ = 0;
  std::optional<MachineSearch> machines_;  // rest_on_machines
  std::size_t wide_left_ = 0;              // remaining copies of jobs more than one processor wide
  std::vector<double> free_from_;
  // The machine relaxation: its machines and tasks, the lowest bound it found a schedule under, the bound of its
  // turns, whether they go on, when the next begins (nodes_) and how long it is, and whether it refuted this probe.
  std::vector<double> root_free_from_;
  std::vector<long long> root_left_;
  std::optional<double> relaxed_found_under_;
  double relax_bound_ = std::numeric_limits<double>::quiet_NaN();
  bool relax_on_ = false, relaxed_refuted_ = false;
  std::size_t relax_at_ = 0, relax_budget_ = 0;
  std::optional<double> mirror_;  // the backward search's horizon H
  std::vector<double> release_;   // per job: no start before it (now, except in the mirror)
  double bound_ = 0;              // this probe's bound on the target
};

// The search over the mirror image of the instance and the search forward, taking turns (ours). The image
// t -> now + H - t of a schedule (H: a grid point by which every active schedule ends, so that no later deadline
// binds) is a schedule of the image instance: each job released at now + H - its deadline, all due by H, the running
// jobs' processors taken at the end. Active schedules with release times are again every schedule left-shifted, so
// the same search over them is exact there. Where little slack is left at the end of a schedule (after the last wide
// job, say), the forward search meets the conflict only once it has placed most of the schedule, over and over; the
// image's search meets it first. On the contested probes of seeds 11-13 of the offers search (1,000 trials each), the
// image decided 912 of 943, so it goes first: kMirrorTurnNodes nodes, then the forward search (which has the machine
// search for the one-processor rest) as many, then twice as many each, until one decides; each keeps its failed
// states from turn to turn.
class Search {
 public:
  // The instance with `new_tasks` new tasks (the target), or none (no target).
  // `effort`: the budget both searches' nodes count against (null: none).
  Search(const Instance& instance, long long new_tasks, double scale, Clock::time_point until,
         EffortMeter* effort = nullptr)
      : Search(instance, serial_jobs(instance, new_tasks), new_tasks > 0 ? instance.waiting.size() : kNone, scale,
               until, grid_point_at_or_after(instance, scale, instance.now + active_span(instance, all_jobs(instance),
                                                                                          new_tasks))) {
    effort_ = effort;
    mirror_.set_effort(effort);
    forward_.set_effort(effort);
  }
  EffortMeter* effort() const { return effort_; }

  Outcome probe(double bound, std::size_t node_budget = 0, Clock::time_point turn_end = Clock::time_point::max()) {
    const std::size_t start = nodes();
    for (std::size_t turn = kMirrorTurnNodes;; turn = std::min(turn * 2, std::size_t{1} << 40)) {
      for (ActiveSearch* search : {&mirror_, &forward_}) {
        std::size_t allowed = turn;
        if (node_budget != 0) {
          const std::size_t spent = nodes() - start;
          if (spent >= node_budget) return Outcome::kBudget;
          allowed = std::min(allowed, node_budget - spent);
        }
        const Outcome outcome = search->probe(bound, allowed, turn_end);
        if (outcome != Outcome::kBudget) {
          found_in_mirror_ = search == &mirror_;
          return outcome;
        }
        if (Clock::now() >= turn_end) return Outcome::kBudget;
      }
    }
  }
  // The image's search alone, without a node budget (mirror_probe).
  Outcome mirror_alone(double bound) {
    found_in_mirror_ = true;
    return mirror_.probe(bound);
  }
  const std::vector<SerialPlacement>& found_schedule() const {
    return found_in_mirror_ ? mirror_.found_schedule() : forward_.found_schedule();
  }
  std::size_t nodes() const { return forward_.nodes() + mirror_.nodes(); }
  std::size_t tt_hits() const { return forward_.tt_hits() + mirror_.tt_hits(); }

 private:
  Search(const Instance& instance, std::vector<SerialJob> jobs, std::size_t target, double scale,
         Clock::time_point until, double horizon)
      : mirror_(instance, jobs, target, scale, until, horizon),
        forward_(instance, std::move(jobs), target, scale, until) {}
  ActiveSearch mirror_, forward_;
  bool found_in_mirror_ = false;
  EffortMeter* effort_ = nullptr;
};

long long total_tasks(const Instance& instance, long long new_tasks) {
  long long total = new_tasks;
  for (const auto& job : instance.waiting) total += job.tasks;
  return total;
}

// `auto`: a probe the search left open after its node budget goes to the SAT solver (solver/offers_sat.hpp) when
// that applies; else (or when the solver fails for another reason than its turn's end) the search goes on
// unbudgeted. One solver serves every probe of the instance (every count; a core's subsets as kept lists), built at
// the first hand-over; it keeps what it learnt from turn to turn.
struct Handover {
  bool enabled = false;  // `auto` hands over; `bnb` searches on alone (an independent method in the tests)
  std::function<std::unique_ptr<SatSchedules>()> make;  // the solver, when first needed
  std::unique_ptr<SatSchedules> sat;
  int turns = 0;  // of the solver
  double seconds = 0;
  // Of the probes both took turns on ("contested"):
  bool sat_won_last = false;  // the solver decided the last one: the next starts with it
  bool sat_won_late = false;  // ... after its first turn there: the next gives both equal turns
  int bnb_streak = 0;         // how many in a row the search decided since the solver last did
  std::size_t bnb_won_nodes = 0;  // the nodes the search took on the last one, when it decided it
  double sat_won_seconds = 0;     // the seconds the solver took on the last one, when it decided it
  void won_by_search(std::size_t nodes) {
    sat_won_last = sat_won_late = false;
    ++bnb_streak;
    bnb_won_nodes = nodes;
    sat_won_seconds = 0;
  }
  void won_by_solver(double seconds_taken, bool late) {
    sat_won_last = true;
    sat_won_late = late;
    bnb_streak = 0;
    bnb_won_nodes = 0;
    sat_won_seconds = seconds_taken;
  }
  SatSchedules* solver() {
    if (!enabled) return nullptr;
    if (!sat) sat = make();
    return sat->why_not().empty() ? sat.get() : nullptr;
  }
};

// The probe "a schedule with `tasks` new tasks by `bound`" (of the `keep` jobs of the handover's instance when
// given): the search, then turns of the two methods, each kHandoverGrowth times longer than the last (the search
// keeps the states it exhausted, the solver its clauses). A schedule the solver found goes to `from_sat`.
Outcome probe_with_handover(Search& search, long long tasks, double bound, Clock::time_point until,
                            Handover& handover, std::optional<Schedule>* from_sat,
                            const std::vector<std::size_t>* keep = nullptr) {
  // The first turns (the probes of one instance tend to favour one method). When the search decided the last probe
  // that both took turns on (or none was), it goes first with a node budget (most probes end within it), doubled for
  // each such probe in a row and at least kWonGrowth times the nodes it took on the last; the solver's first turn is
  // then kSatFirstSeconds. When the solver decided the last such probe, it goes first, for kWonGrowth times what it
  // took there (at least kSatFirstSeconds). Later turns: each pair kHandoverGrowth times longer, the search's
  // kSearchTurnShare times the solver's last while that was at most kSearchShareUpTo seconds and the solver did not
  // decide the last contested probe after its first turn there, else kSearchLateShare times (a probe that outlasts
  // the solver's first turns is one the solver tends to decide: docs/policies.md, "Turns in `auto`").
  // With an effort budget the turns are counted, not timed (a second of a turn is kEffortUnitsPerSecond effort units:
  // search nodes, or conflicts at kSatUnitsPerConflict units each), and the solver's conflicts count against the same
  // budget.
  EffortMeter* const effort = search.effort() && search.effort()->limited() ? search.effort() : nullptr;
  const bool sat_first = handover.enabled && handover.sat_won_last;
  double seconds = sat_first ? std::max(kSatFirstSeconds, kWonGrowth * handover.sat_won_seconds) : kSatFirstSeconds;
  const std::size_t budget = std::max(kBnbProbeNodes << std::min(handover.bnb_streak, kBnbStreakDoublings),
                                      static_cast<std::size_t>(kWonGrowth) * handover.bnb_won_nodes);
  const std::size_t nodes_before = search.nodes();
  double sat_seconds = 0;  // the solver's, on this probe
  int sat_turns = 0;       // the solver's, on this probe
  Outcome outcome = sat_first ? Outcome::kBudget : search.probe(bound, handover.enabled ? budget : 0);
  bool contested = false;
  for (;;) {
    if (outcome != Outcome::kBudget) {
      if (contested) handover.won_by_search(search.nodes() - nodes_before);
      return outcome;
    }
    contested = true;
    const auto started = Clock::now();
    SatSchedules* sat = handover.solver();
    if (!sat) return search.probe(bound, 0);
    const auto cap = effort ? until
                            : std::min(until, started + std::chrono::microseconds(static_cast<long long>(seconds * 1e6)));
    std::uint64_t turn_conflicts = 0;  // with an effort budget: the turn's conflicts
    bool budget_binds = false;         // ... and whether what is left of the budget is less
    if (effort) {
      if (effort->spent()) return Outcome::kStopped;
      turn_conflicts =
          std::max<std::uint64_t>(1, static_cast<std::uint64_t>(seconds * kEffortUnitsPerSecond) / kSatUnitsPerConflict);
      const std::uint64_t left = std::max<std::uint64_t>(1, effort->left() / kSatUnitsPerConflict);
      budget_binds = left <= turn_conflicts;
      turn_conflicts = std::min(turn_conflicts, left);
    }
    const std::uint64_t conflicts_before = sat->conflicts();
    const SatOutcome answer = sat->probe(tasks, bound, cap, keep, turn_conflicts);
    const std::uint64_t conflicts = sat->conflicts() - conflicts_before;
    const double turn_seconds =
        effort ? static_cast<double>(conflicts * kSatUnitsPerConflict) / kEffortUnitsPerSecond : seconds_since(started);
    ++handover.turns;
    ++sat_turns;
    handover.seconds += seconds_since(started);
    sat_seconds += turn_seconds;
    if (effort) effort->spend(conflicts * kSatUnitsPerConflict);
    if (answer == SatOutcome::kFound || answer == SatOutcome::kInfeasible) {
      handover.won_by_solver(sat_seconds, sat_turns > 1);
      if (answer == SatOutcome::kInfeasible) return Outcome::kExhausted;
      *from_sat = sat->schedule();
      return Outcome::kFound;
    }
    if (Clock::now() >= until || stop_requested()) return Outcome::kStopped;
    if (effort && sat->conflict_limit_hit() && budget_binds) {
      effort->exhaust();
      return Outcome::kStopped;
    }
    // The solver failed otherwise than at its turn's end: the search alone.
    if (effort ? !sat->conflict_limit_hit() : Clock::now() < cap) return search.probe(bound, 0);
    const double share =
        seconds <= kSearchShareUpTo + 1e-9 && !handover.sat_won_late ? kSearchTurnShare : kSearchLateShare;
    const auto search_turn = std::chrono::microseconds(static_cast<long long>(share * seconds * 1e6));
    outcome = effort ? search.probe(bound, std::max<std::size_t>(
                                               1, static_cast<std::size_t>(share * seconds * kEffortUnitsPerSecond)))
                     : search.probe(bound, 0, Clock::now() + search_turn);
    seconds *= kHandoverGrowth;
  }
}

// A schedule of the listed waiting jobs meeting every deadline (in the subset's indices: ask for one with every
// job listed): deadline order first, then the search.
Outcome decide(const Instance& instance, const std::vector<std::size_t>& keep, Clock::time_point until,
               EffortMeter& effort, std::optional<Schedule>* schedule, Handover& handover) {
  const Instance subset = with_waiting(instance, keep);
  if (auto edf = deadline_order_schedule(subset, 0)) {
    if (schedule) *schedule = std::move(edf);
    return Outcome::kFound;
  }
  const long long scale = std::max(1LL, time_grid(subset, all_jobs(subset), 0));
  Search search(subset, 0, static_cast<double>(scale), until, &effort);
  std::optional<Schedule> from_sat;
  const bool all = keep.size() == instance.waiting.size();
  const Outcome outcome = probe_with_handover(search, 0, kForever, until, handover, &from_sat, all ? nullptr : &keep);
  if (outcome == Outcome::kFound && schedule)
    *schedule = from_sat ? std::move(from_sat) : schedule_from(subset, search.found_schedule());
  return outcome;
}

}  // namespace

std::string bnb_not_applicable(const Instance& instance, long long new_tasks) {
  if (time_grid(instance, all_jobs(instance), new_tasks) == 0)
    return "times off the 1 ms grid (now, runtimes, remaining times and binding deadlines)";
  if (const long long tasks = total_tasks(instance, new_tasks); tasks > kBnbMaxTasks)
    return fmt::format("{} tasks; the branch-and-bound is limited to {}", tasks, kBnbMaxTasks);
  return "";
}

ExactStatus machine_relaxation(const Instance& instance, long long new_tasks, double bound,
                               const SolveOptions& options) {
  if (!new_bot_missing(instance, new_tasks).empty() || !bnb_not_applicable(instance, new_tasks).empty())
    return ExactStatus::kUnknown;
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  const double scale = static_cast<double>(time_grid(instance, all_jobs(instance), new_tasks));
  ActiveSearch search(instance, serial_jobs(instance, new_tasks), new_tasks > 0 ? instance.waiting.size() : kNone,
                      scale, until);
  EffortMeter effort(options.effort);
  search.set_effort(&effort);
  switch (search.relaxation_alone(bound)) {
    case MachineSearch::Outcome::kFound: return ExactStatus::kFeasible;
    case MachineSearch::Outcome::kExhausted: return ExactStatus::kInfeasible;
    default: return ExactStatus::kUnknown;
  }
}

Completion mirror_probe(const Instance& instance, long long new_tasks, double bound, const SolveOptions& options) {
  const StackWatch stack;
  Completion result;
  result.detail = new_bot_missing(instance, new_tasks);
  if (result.detail.empty()) result.detail = bnb_not_applicable(instance, new_tasks);
  if (!result.detail.empty()) return result;
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  const double scale = static_cast<double>(time_grid(instance, all_jobs(instance), new_tasks));
  EffortMeter effort(options.effort);
  Search search(instance, new_tasks, scale, until, &effort);
  switch (search.mirror_alone(bound)) {
    case Outcome::kFound:
      result.status = ExactStatus::kFeasible;
      result.schedule = schedule_from(instance, search.found_schedule());
      result.finish = new_tasks_finish(instance, *result.schedule);
      break;
    case Outcome::kExhausted: result.status = ExactStatus::kInfeasible; break;
    default: result.detail = limit_reached(stack, effort, options.timeout_ms); break;
  }
  return result;
}

std::string bnb_applicable_why(const Instance& instance, long long new_tasks) {
  const long long scale = time_grid(instance, all_jobs(instance), new_tasks);
  const auto jobs = serial_jobs(instance, new_tasks);
  const char* machines = MachineSearch::applies(instance, jobs, static_cast<double>(scale))
                             ? "; every task one processor wide: forward, tasks assigned to machines in deadline order"
                         : MachineSearch::sizes_fit(instance, jobs, static_cast<double>(scale))
                             ? "; forward, once every wider job is placed, the one-processor rest assigned to machines "
                               "in deadline order"
                             : "";
  return fmt::format("times on a {:g} s grid, {} tasks (limit {}); each probe searched over the time-reversed "
                     "instance and forward, in turns{}",
                     1.0 / static_cast<double>(scale),
                     total_tasks(instance, new_tasks), kBnbMaxTasks, machines);
}

namespace {

// earliest_completion_bnb, counting the turns of the SAT solver (auto).
Completion earliest_completion_with(const Instance& instance, long long tasks, double lower_bound,
                                    const std::vector<Schedule>& incumbents, const SolveOptions& options,
                                    Handover& handover) {
  const StackWatch stack;
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  Completion result;
  result.detail = new_bot_missing(instance, tasks);
  if (!result.detail.empty()) return result;
  if (auto why = bnb_not_applicable(instance, tasks); !why.empty()) {
    result.detail = "bnb: " + why;
    return result;
  }
  const double scale = static_cast<double>(time_grid(instance, all_jobs(instance), tasks));
  const double step = 1.0 / scale;
  EarliestSchedule best_schedule(instance, result);
  auto consider = [&](std::optional<Schedule> schedule) { best_schedule.consider(std::move(schedule)); };
  consider(deadline_order_schedule(instance, tasks, until));
  for (const Schedule& s : incumbents)
    if (static_cast<long long>(s.new_tasks.size()) == tasks && schedule_violation(instance, s, tasks).empty())
      consider(s);
  // Completions lie on the grid from now; nothing finishes before now + one task.
  auto on_grid_up = [&](double x) { return grid_point_at_or_after(instance, scale, x); };
  // Proven: no schedule finishes the new tasks earlier.
  double lo = on_grid_up(std::max(lower_bound, instance.now + instance.bot->task_runtime));
  EffortMeter effort(options.effort);
  Search search(instance, tasks, scale, until, &effort);
  Outcome outcome = Outcome::kExhausted;
  auto probe = [&](double bound) {
    std::optional<Schedule> from_sat;
    outcome = probe_with_handover(search, tasks, bound, until, handover, &from_sat);
    if (outcome == Outcome::kFound)
      consider(from_sat ? std::move(from_sat) : schedule_from(instance, search.found_schedule()));
    return outcome;
  };
  if (!result.schedule) {
    // Without a first schedule: every active schedule ends by now + active_span.
    probe(on_grid_up(instance.now + active_span(instance, all_jobs(instance), tasks)));
  }
  // The lower bound first (enough when met; a failure there is usually quick), then descent: one grid step below
  // the best schedule until no schedule exists. Only the last probe is a failure near the optimum (the expensive
  // kind); bisection needed several. The bounds only fall, so every failed state stays valid for later probes.
  if (result.schedule && best_schedule.finish() > lo + kTimeTolerance && probe(lo) == Outcome::kExhausted) lo += step;
  while (result.schedule && outcome != Outcome::kStopped && best_schedule.finish() > lo + kTimeTolerance)
    if (probe(best_schedule.finish() - step) == Outcome::kExhausted) lo = best_schedule.finish();
  result.finish = best_schedule.finish();
  if (!result.schedule) {
    result.detail = outcome == Outcome::kStopped
                        ? limit_reached(stack, effort, options.timeout_ms)
                        : "no schedule keeps every accepted deadline (bnb: search space exhausted)";
    return result;
  }
  result.status = outcome == Outcome::kStopped ? ExactStatus::kFeasible : ExactStatus::kOptimal;
  if (outcome == Outcome::kStopped)
    result.detail = limit_reached(
        stack, effort, options.timeout_ms, fmt::format(" after {} nodes ({} repeated states); best found {:g}, none before {:g}",
                                        search.nodes(), search.tt_hits(), best_schedule.finish(), lo));
  return result;
}

ExactResult<OfferList> exact_offers_with(const Instance& instance, const SolveOptions& options,
                                         const std::vector<OfferList>& incumbents, Handover& handover) {
  return exact_offers_sharing(instance, options, incumbents,
                              [&](long long tasks, double lower, const std::vector<Schedule>& upper,
                                  const SolveOptions& left) {
                                return earliest_completion_with(instance, tasks, lower, upper, left, handover);
                              });
}

ExactResult<FeasibilityAnswer> feasibility_with(const Instance& instance, const SolveOptions& options,
                                                Handover& handover) {
  if (auto why = bnb_not_applicable(instance, 0); !why.empty()) {
    ExactResult<FeasibilityAnswer> result;
    result.detail = "bnb: " + why;
    return result;
  }
  const std::vector<std::size_t> jobs = all_jobs(instance);
  auto answer = [](Outcome o) {
    return o == Outcome::kExhausted ? CoreTest::kInfeasible
           : o == Outcome::kFound   ? CoreTest::kFeasible
                                    : CoreTest::kStopped;
  };
  return decide_then_core(
      instance, options, "bnb: search space exhausted",
      [&](Clock::time_point until, std::uint64_t units) {
        const StackWatch stack;
        EffortMeter effort(units);
        FeasibilityDecision d;
        d.outcome = answer(decide(instance, jobs, until, effort, &d.schedule, handover));
        if (d.outcome == CoreTest::kStopped) d.detail = limit_reached(stack, effort, options.timeout_ms);
        return d;
      },
      [&] { return jobs; },
      [&](const std::vector<std::size_t>& keep, Clock::time_point until, std::uint64_t units) {
        EffortMeter effort(units);
        return answer(decide(instance, keep, until, effort, nullptr, handover));
      });
}

// The step of a chooser's chain for the solver's turns (none: no step).
std::optional<MethodStep> handover_step(const Handover& handover, const std::string& status) {
  if (handover.turns == 0) return std::nullopt;
  return MethodStep{"sat",
                    fmt::format("{} turn{} on probes the bnb left open after {} nodes or more (time-indexed SAT "
                                "encoding, CaDiCaL, {}; each pair of turns {}x longer than the last, the bnb's "
                                "{}x the solver's up to a solver's turn of {} s, {}x after)",
                                handover.turns, handover.turns == 1 ? "" : "s", kBnbProbeNodes,
                                handover.sat ? handover.sat->size() : "", kHandoverGrowth, kSearchTurnShare,
                                kSearchShareUpTo, kSearchLateShare),
                    status, handover.seconds};
}

}  // namespace

Completion earliest_completion_bnb(const Instance& instance, long long tasks, double lower_bound,
                                   const std::vector<Schedule>& incumbents, const SolveOptions& options) {
  Handover handover;
  return earliest_completion_with(instance, tasks, lower_bound, incumbents, options, handover);
}

ExactResult<OfferList> exact_offers_bnb(const Instance& instance, const SolveOptions& options,
                                        const std::vector<OfferList>& incumbents) {
  Handover handover;
  return exact_offers_with(instance, options, incumbents, handover);
}

ExactResult<FeasibilityAnswer> feasibility_bnb(const Instance& instance, const SolveOptions& options) {
  Handover handover;
  return feasibility_with(instance, options, handover);
}

namespace {
template <class Decision>
MethodStep step_of(const std::string& method, const std::string& why, const ExactResult<Decision>& r) {
  return MethodStep{method, why, to_string(r.status), r.seconds};
}
}  // namespace

ExactResult<OfferList> exact_offers_auto(const Instance& instance, const SolveOptions& options,
                                         const std::vector<OfferList>& incumbents) {
  const auto started = Clock::now();
  const auto until = started + std::chrono::milliseconds(options.timeout_ms);
  const std::string not_applicable = bnb_not_applicable(instance, instance.bot->tasks);
  ExactResult<OfferList> result;
  if (not_applicable.empty()) {
    Handover handover;
    handover.enabled = true;
    handover.make = [&] {
      // Every count's optimum is at most the finish of a schedule of the most tasks (less its latest tasks).
      const long long most = delta_counts(instance.bot->tasks).back();
      const auto first = deadline_order_schedule(instance, most, until);
      return std::make_unique<SatSchedules>(instance, most, first ? new_tasks_finish(instance, *first) : kForever,
                                            false, until);
    };
    result = exact_offers_with(instance, options, incumbents, handover);
    result.chain.push_back(step_of("bnb", bnb_applicable_why(instance, instance.bot->tasks), result));
    if (auto step = handover_step(handover, to_string(result.status))) result.chain.push_back(*step);
  } else {
    result = exact_offers_within(instance, options, earliest_completion_z3);
    result.seconds = seconds_since(started);
    result.chain.push_back(step_of("z3", "bnb does not apply: " + not_applicable, result));
  }
  return result;
}

ExactResult<FeasibilityAnswer> feasibility_auto(const Instance& instance, const SolveOptions& options,
                                                const std::vector<FeasibilityAnswer>& incumbents) {
  const auto started = Clock::now();
  const auto until = started + std::chrono::milliseconds(options.timeout_ms);
  for (const FeasibilityAnswer& incumbent : incumbents)
    if (incumbent.answer == Feasibility::kSchedule && schedule_violation(instance, incumbent.schedule, 0).empty()) {
      ExactResult<FeasibilityAnswer> result;
      set_schedulable(result, incumbent.schedule);
      result.detail = "the policy's schedule meets every deadline";
      result.seconds = seconds_since(started);
      result.chain.push_back(step_of("policy", "its schedule meets every deadline: objective 1, the maximum", result));
      return result;
    }
  const std::string not_applicable = bnb_not_applicable(instance, 0);
  ExactResult<FeasibilityAnswer> result;
  if (not_applicable.empty()) {
    Handover handover;
    handover.enabled = true;
    handover.make = [&] { return std::make_unique<SatSchedules>(instance, 0, kForever, true, until); };
    result = feasibility_with(instance, options, handover);
    result.chain.push_back(step_of("bnb", bnb_applicable_why(instance, 0), result));
    if (auto step = handover_step(handover, to_string(result.status))) result.chain.push_back(*step);
  } else {
    result = feasibility_z3(instance, options);
    result.chain.push_back(step_of("z3", "bnb does not apply: " + not_applicable, result));
  }
  return result;
}

}  // namespace schedcheck::offers
