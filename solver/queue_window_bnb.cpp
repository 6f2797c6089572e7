// Queue windows by branch and bound over active schedules built in start order (see queue_window_exact.hpp). Our
// own (the search of solver/offers_bnb.cpp turned to a regular objective; active schedules: Kolisch 1996). Exact for
// every objective of the window, memory bounded; 10 jobs in milliseconds, 16 in seconds or not proven in 10 s.
#include "solver/queue_window_exact.hpp"
#include "support/stop.hpp"
#include "solver/serial_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>

namespace schedcheck::window {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);
constexpr std::size_t kMaxRememberedWords = std::size_t{1} << 22;  // states seen: 32 MiB a generation
constexpr unsigned kNodesPerClockRead = 256;
constexpr std::size_t kGroupsReadingClockAlways = 64;

// Depth-first search over the schedules that serial generation makes when jobs are taken in the order of their
// starts (ties: group index): each active schedule once, and an optimum among them (regular objective). A node
// (start t of the last placement) fails or is cut when
//  - a remaining job fits wholly before t on the profile (later jobs start at t or after and never block that
//    window, so it could never come next in start order: no active schedule below);
//  - its bound, the cost so far plus each remaining job's cost at its earliest start at or after t on the current
//    profile (its start can only be later), is no better than the incumbent;
//  - the same state (t, tie index, remaining copies, whole profile) was fully explored before at a cost so far no
//    greater (its completions cost the same).
// Jobs of one shape (processors, estimate) start in submit order: exchanging two such starts keeps the profile and
// the wait sum and the makespan, and does not increase the bounded-slowdown sum (convex in the wait).
class Search {
 public:
  // `effort`: the budget in effort units, kWindowNodesPerUnit nodes a unit (0: none).
  Search(const Instance& instance, const JobGroups& groups, Clock::time_point until, std::uint64_t effort)
      : instance_(instance), profile_(running_profile(instance)), now_(instance.now), groups_(groups.jobs),
        members_(groups.members), until_(until), effort_(effort, 1, kWindowNodesPerUnit), left_(groups_.size()), prev_(groups_.size(), kNone) {
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      left_[g] = groups_[g].copies;
      total_ += static_cast<std::size_t>(groups_[g].copies);
      for (std::size_t h = g; h-- > 0;)  // the nearest earlier group of the same shape (groups are in submit order)
        if (groups_[h].procs == groups_[g].procs && groups_[h].duration == groups_[g].duration) {
          prev_[g] = h;
          break;
        }
    }
    makespan_ = instance.objective == Objective::kMakespan;
    est_.resize(total_ + 1);
    order_.resize(total_ + 1);
    keys_.resize(total_ + 1);
    placed_.reserve(total_);
  }

  double combine(double total, double cost) const { return combine_costs(instance_, total, cost); }
  double cost(std::size_t g, double start) const { return job_cost(instance_, members_[g].front(), start); }

  // Runs from an incumbent cost; returns false when stopped by the clock or a signal. The depth-first search keeps
  // its path in a vector, not on the call stack: its depth is the number of jobs, which inputs do not bound.
  bool run(double fixed_cost, double incumbent) {
    best_cost_ = incumbent;
    std::vector<Frame> path;
    path.reserve(total_ + 1);
    path.push_back(Frame{now_, 0, fixed_cost});
    while (!path.empty() && !stopped_) {
      Frame& f = path.back();
      const std::size_t depth = path.size() - 1;
      if (!f.open && !enter(f, depth)) {  // a leaf, cut, seen before, or stopped: back to the parent
        leave(path);
        continue;
      }
      f.open = true;
      const std::vector<std::size_t>& order = order_[depth];
      if (f.next < order.size()) {  // the next child, cheapest first
        const std::size_t g = order[f.next++];
        const double start = est_[depth][g];
        const double so_far = combine(f.so_far, cost(g, start));
        place(g, start);
        path.push_back(Frame{start, g, so_far});  // `f` may move: not used after this
        continue;
      }
      remember(f.hash, keys_[depth], f.so_far);  // every child explored
      leave(path);
    }
    return !stopped_;
  }
  bool improved() const { return improved_; }
  const std::vector<std::pair<std::size_t, double>>& best() const { return best_; }
  std::size_t nodes() const { return nodes_; }
  const EffortMeter& effort() const { return effort_; }
  std::size_t memo_hits() const { return memo_hits_; }

 private:
  // A node of the search: the start t of the last placement (its group `last`), the cost so far, and once entered
  // its children (order_[depth], est_[depth]) and state key (keys_[depth], hash), `next` the next child to try.
  struct Frame {
    double t;
    std::size_t last;
    double so_far;
    std::size_t next = 0;
    std::uint64_t hash = 0;
    bool open = false;
  };

  double slack() const { return 1e-9 * std::max(1.0, std::abs(best_cost_)); }

  // Pops the node on top and takes back the placement that led to it (its parent's current child).
  void leave(std::vector<Frame>& path) {
    path.pop_back();
    if (path.empty()) return;
    const std::size_t depth = path.size() - 1;
    const std::size_t g = order_[depth][path.back().next - 1];
    unplace(g, est_[depth][g]);
  }

  // Enters node f at `depth`: false when it has no children to explore (a complete schedule, recorded if better; a
  // dead end; its bound no better than the incumbent; a state seen before; or the clock or a signal stopped the
  // search), else its children are in order_[depth], cheapest first.
  bool enter(Frame& f, std::size_t depth) {
    const double t = f.t, so_far = f.so_far;
    const std::size_t last = f.last;
    // A node costs O(groups) profile scans: with many job shapes, the clock is read at every node.
    if (effort_.spend() || ((++nodes_ % kNodesPerClockRead == 0 || groups_.size() > kGroupsReadingClockAlways) &&
                            (Clock::now() >= until_ || stop_requested()))) {
      stopped_ = true;
      return false;
    }
    if (depth == total_) {
      if (so_far < best_cost_ - slack()) {
        best_cost_ = so_far;
        best_ = placed_;
        improved_ = true;
      }
      return false;
    }
    std::vector<double>& est = est_[depth];
    std::vector<std::size_t>& order = order_[depth];
    est.assign(groups_.size(), 0);
    order.clear();
    double bound = so_far;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      if (left_[g] == 0) continue;
      const SerialJob& j = groups_[g];
      const double e = *profile_.earliest_start(j.procs, j.duration, now_);
      if (e < t - kTimeTolerance) {
        if (e + j.duration <= t + kTimeTolerance) return false;  // fits wholly before t: never next in start order
        est[g] = *profile_.earliest_start(j.procs, j.duration, t);
      } else {
        est[g] = e;
        const bool in_order = prev_[g] == kNone || left_[prev_[g]] == 0;
        if (in_order && (e > t + kTimeTolerance || g >= last)) order.push_back(g);
      }
      const double c = cost(g, est[g]);
      if (makespan_) {
        bound = std::max(bound, c);
      } else {
        bound += c * static_cast<double>(left_[g]);
      }
    }
    if (order.empty() || bound >= best_cost_ - slack()) return false;
    f.hash = state_key(t, last);
    if (seen_.any(f.hash, key_, [&](double seen_so_far) { return seen_so_far <= so_far + slack(); })) {
      ++memo_hits_;
      return false;
    }
    keys_[depth].swap(key_);
    // Cheapest first: the earliest start, then the job whose cost grows fastest (shortest estimate).
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (std::fabs(est[a] - est[b]) > kTimeTolerance) return est[a] < est[b];
      if (groups_[a].duration != groups_[b].duration) return groups_[a].duration < groups_[b].duration;
      return a < b;
    });
    return true;
  }

  void place(std::size_t g, double start) {
    profile_.reserve(start, start + groups_[g].duration, groups_[g].procs);
    --left_[g];
    placed_.emplace_back(g, start);
  }
  void unplace(std::size_t g, double start) {
    profile_.release(start, start + groups_[g].duration, groups_[g].procs);
    ++left_[g];
    placed_.pop_back();
  }

  // The state a node's subtree depends on: t and the tie index, the remaining copies, the profile from now on
  // (times in microseconds). Into key_; returns its hash.
  std::uint64_t state_key(double t, std::size_t last) {
    return active_state_key(profile_, now_, 1e6, now_, t, last, left_, key_);
  }
  // A fully explored state: every completion below it costs the same whatever led there, and each one cheaper than
  // the incumbent of that time was seen; so a later visit with no smaller cost so far cannot improve (the
  // incumbent only falls).
  void remember(std::uint64_t hash, const std::vector<std::int64_t>& key, double so_far) {
    seen_.remember(hash, key, so_far);
  }

  const Instance& instance_;
  AvailabilityProfile profile_;
  double now_;
  const std::vector<SerialJob>& groups_;
  const std::vector<std::vector<std::size_t>>& members_;
  Clock::time_point until_;
  EffortMeter effort_;
  std::vector<long long> left_;
  std::vector<std::size_t> prev_;
  bool makespan_ = false;
  std::size_t total_ = 0;
  std::vector<std::vector<double>> est_;
  std::vector<std::vector<std::size_t>> order_;
  std::vector<std::vector<std::int64_t>> keys_;
  std::vector<std::int64_t> key_;
  std::vector<std::pair<std::size_t, double>> placed_, best_;
  StateMemory seen_{kMaxRememberedWords};
  double best_cost_ = std::numeric_limits<double>::infinity();
  bool improved_ = false, stopped_ = false;
  std::size_t nodes_ = 0, memo_hits_ = 0;
};

// A serial schedule (each job at its earliest start after the ones before it) in the given order of waiting jobs;
// nullopt when `until` passes or a stop is requested first (tens of thousands of jobs take seconds).
std::optional<Schedule> serial_in_order(const Instance& instance, const std::vector<std::size_t>& order,
                                        Clock::time_point until) {
  AvailabilityProfile profile = running_profile(instance);
  FillCursor fill(instance.now);  // the same starts as from now, without rescanning the front of a long queue
  Schedule s;
  s.start.assign(instance.waiting.size(), instance.now);
  std::size_t placed = 0;
  for (std::size_t i : order) {
    if (++placed % kNodesPerClockRead == 0 && (Clock::now() >= until || stop_requested())) return std::nullopt;
    const WaitingJob& w = instance.waiting[i];
    if (w.estimate <= 0) continue;
    s.start[i] = *profile.earliest_start(w.procs, w.estimate, fill.not_before(profile, w.procs));
    profile.reserve(s.start[i], s.start[i] + w.estimate, w.procs);
  }
  return s;
}

}  // namespace

ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options,
                                const std::vector<Schedule>& incumbents) {
  const auto started = Clock::now();
  ExactResult<Schedule> result;
  for (const auto& w : instance.waiting)
    if (w.procs > instance.processors) {  // the reader refuses this; a total function all the same
      result.status = ExactStatus::kInfeasible;
      result.detail = fmt::format("job {} asks for {} processors, the cluster has {}", w.id, w.procs, instance.processors);
      return result;
    }
  const JobGroups groups = group_jobs(instance);

  // First incumbents: queue order, shortest estimate first, and the decisions at hand.
  std::vector<std::size_t> queue(instance.waiting.size());
  std::iota(queue.begin(), queue.end(), std::size_t{0});
  std::vector<std::size_t> shortest = queue;
  std::stable_sort(shortest.begin(), shortest.end(), [&](std::size_t a, std::size_t b) {
    return instance.waiting[a].estimate < instance.waiting[b].estimate;
  });
  const auto until = started + std::chrono::milliseconds(options.timeout_ms);
  std::optional<Schedule> best = serial_in_order(instance, queue, until);  // valid by construction
  double best_cost = best ? objective(instance, *best) : std::numeric_limits<double>::infinity();
  auto offer = [&](const Schedule& s) {
    if (!validate(instance, s).feasible) return;
    const double c = objective(instance, s);
    if (c < best_cost) {
      best = s;
      best_cost = c;
    }
  };
  if (auto s = serial_in_order(instance, shortest, until)) offer(*s);
  for (const Schedule& s : incumbents) offer(s);
  if (!best) {
    result.detail = stop_requested() ? stop_request_text() + " before a first schedule was built"
                                     : time_limit_reached(options.timeout_ms, " before a first schedule was built");
    result.seconds = seconds_since(started);
    return result;
  }

  double fixed = 0;
  for (std::size_t i : groups.zero) fixed = combine_costs(instance, fixed, job_cost(instance, i, instance.now));
  Search search(instance, groups, until, options.effort);
  const bool complete = search.run(fixed, best_cost);
  if (search.improved()) {
    Schedule s;
    s.start.assign(instance.waiting.size(), instance.now);
    std::vector<std::size_t> used(groups.jobs.size(), 0);
    for (const auto& [g, start] : search.best()) s.start[groups.members[g][used[g]++]] = start;
    best = s;
  }
  result.decision = best;
  result.objective = objective(instance, *best);
  result.status = complete ? ExactStatus::kOptimal : ExactStatus::kFeasible;
  result.detail = complete ? fmt::format("{} nodes, {} states cut as seen before", search.nodes(), search.memo_hits())
                           : search.effort().spent()
                               ? effort_budget_reached(options.effort, fmt::format(" after {} nodes: best schedule "
                                                                                   "found, not proven", search.nodes()))
                               : fmt::format("time limit after {} nodes: best schedule found, not proven", search.nodes());
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::window
