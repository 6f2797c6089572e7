// The branch and bound of auction-bid (solver/auction_bid_bnb.hpp). Our own.
//
// The bound. At a node the free tasks 0..d-1 (longest first) are placed: resource r holds L_r, the tasks d..n-1 of
// total W are left. Any completion adds w_r >= 0 to each resource with sum w_r = W, and w_r <= U_r: the tasks it
// adds fit in r's slack max_load_r - L_r, so there are at most k_r of them (k_r: the most of the shortest remaining
// tasks that fit) and they weigh at most the k_r longest remaining, U_r = min(slack, that weight). Its cost
// sum_r f_r(L_r + w_r) is at least the continuous minimum over that box, which by weak duality is at least, for
// every lambda >= 0, LB(lambda) = lambda W + sum_r min_{0 <= w <= U_r} [f_r(L_r + w) - lambda w]. f_r is convex
// (docs/auction-bid.md), so each inner minimum is at the clip of CostCurve::minimiser(lambda) to [L_r, L_r + U_r].
// Any lambda gives a valid bound; a bisection on the sign of LB's supergradient W - sum w_r(lambda) finds a good one.
#include "solver/auction_bid_bnb.hpp"

#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

namespace schedcheck::auction_bid {

namespace {

constexpr double kBnbInfinity = std::numeric_limits<double>::infinity();
constexpr std::size_t kBnbNodesPerClockRead = 4096;
constexpr int kBnbLambdaSteps = 40;              // bisection steps of the Lagrangian multiplier per bound
constexpr double kBnbLoadRounding = 1e-12;       // relative: a load this close above max_load still fits
constexpr std::size_t kBnbUnplaced = static_cast<std::size_t>(-1);

// What the search keeps of a resource: its cost curve, its most work, its class of identical resources.
struct BnbResource {
  CostCurve curve;
  double cap = 0;
  std::size_t same_as = 0;  // the first resource with the same f_r and max_load (itself when none before it)
};

bool same_cost_function(const CostCurve& a, const CostCurve& b) {
  const bool linear_a = a.knee >= a.end, linear_b = b.knee >= b.end;
  if (linear_a != linear_b || a.k != b.k || a.min_bid != b.min_bid || a.min_share != b.min_share || a.end != b.end)
    return false;
  return linear_a || (a.others == b.others && a.ctot == b.ctot && a.knee == b.knee);
}

class BidSearch {
public:
  BidSearch(const Instance& instance, const SolveOptions& options)
      : instance_(instance), until_(std::chrono::steady_clock::now() + std::chrono::milliseconds(options.timeout_ms)) {
    const std::size_t nr = instance.resources.size();
    for (std::size_t r = 0; r < nr; ++r) {
      BnbResource res{cost_curve(instance, r), max_load(instance, r), r};
      for (std::size_t q = 0; q < r; ++q)
        if (same_cost_function(resources_[q].curve, res.curve)) {
          res.same_as = resources_[q].same_as;
          break;
        }
      resources_.push_back(res);
    }
    base_.assign(nr, 0.0);
    for (std::size_t t = 0; t < instance.tasks.size(); ++t) {
      if (instance.tasks[t].running_on != kNoResource) base_[instance.tasks[t].running_on] += instance.tasks[t].length;
      else free_.push_back(t);
    }
    std::stable_sort(free_.begin(), free_.end(),
                     [&](std::size_t a, std::size_t b) { return instance.tasks[a].length > instance.tasks[b].length; });
    rest_.assign(free_.size() + 1, 0.0);
    for (std::size_t i = free_.size(); i-- > 0;) rest_[i] = rest_[i + 1] + length(i);
  }

  // The best plan at hand: re-bid by the closed form (never dearer).
  void offer(const Plan& plan) {
    const Plan rebid = cheapest_bids_plan(instance_, plan.assign);
    const Verdict v = validate(instance_, rebid);
    if (v.feasible && v.objective < best_cost_) {
      best_cost_ = v.objective;
      best_ = rebid.assign;
    }
  }

  // Runs the search; false when stopped (time, budget, stop request) before it was exhausted.
  bool run() {
    const std::size_t n = free_.size();
    std::vector<double> load = base_, cost(load.size(), 0.0);
    for (std::size_t r = 0; r < load.size(); ++r) {
      cost[r] = cheapest_cost(instance_, r, load[r]);
      if (!std::isfinite(cost[r])) return true;  // the running task alone misses the deadline: no plan
    }
    if (n == 0) {
      record(cost, {});
      return true;
    }
    std::vector<std::size_t> placed(n, kBnbUnplaced), next(n, 0);
    std::vector<std::vector<std::size_t>> children(n);
    std::vector<double> saved_load(n, 0.0), saved_cost(n, 0.0);
    auto undo = [&](std::size_t d) {
      if (placed[d] == kBnbUnplaced) return;
      load[placed[d]] = saved_load[d];
      cost[placed[d]] = saved_cost[d];
      placed[d] = kBnbUnplaced;
    };
    expand(0, load, cost, children[0]);
    std::size_t d = 0;
    for (;;) {
      undo(d);
      if (next[d] == children[d].size()) {
        if (d == 0) return true;
        --d;
        continue;
      }
      const std::size_t r = children[d][next[d]++];
      saved_load[d] = load[r];
      saved_cost[d] = cost[r];
      placed[d] = r;
      load[r] += length(d);
      cost[r] = cheapest_cost(instance_, r, load[r]);
      if (++nodes_ % kBnbNodesPerClockRead == 0 &&
          (nodes_ >= kMaxBnbNodes || std::chrono::steady_clock::now() >= until_ || stop_requested())) {
        budget_spent_ = nodes_ >= kMaxBnbNodes;
        return false;
      }
      if (d + 1 == n) {
        record(cost, placed);
        continue;
      }
      if (bound(d + 1, load, cost) >= best_cost_ - kBnbPruneSlack * std::abs(best_cost_)) {
        ++pruned_;
        continue;
      }
      ++d;
      next[d] = 0;
      expand(d, load, cost, children[d]);
    }
  }

  bool found() const { return std::isfinite(best_cost_); }
  double best_cost() const { return best_cost_; }
  Plan best_plan() const { return cheapest_bids_plan(instance_, best_); }
  std::size_t nodes() const { return nodes_; }
  std::size_t pruned() const { return pruned_; }
  std::size_t mirrored() const { return mirrored_; }
  bool budget_spent() const { return budget_spent_; }

private:
  double length(std::size_t i) const { return instance_.tasks[free_[i]].length; }

  void record(const std::vector<double>& cost, const std::vector<std::size_t>& placed) {
    const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
    if (!(total < best_cost_)) return;
    best_cost_ = total;
    best_.assign(instance_.tasks.size(), kNoResource);
    for (std::size_t i = 0; i < placed.size(); ++i) best_[free_[i]] = placed[i];
  }

  // The resources free task d may go to, cheapest marginal charge first; of identical resources with equal loads
  // only the first (the others give the same subtrees with the resources' contents swapped).
  void expand(std::size_t d, const std::vector<double>& load, const std::vector<double>& cost,
              std::vector<std::size_t>& out) {
    out.clear();
    marginal_.assign(load.size(), kBnbInfinity);
    for (std::size_t r = 0; r < load.size(); ++r) {
      const double after = load[r] + length(d);
      if (after > resources_[r].cap * (1 + kBnbLoadRounding)) continue;
      bool mirror = false;
      for (std::size_t q = resources_[r].same_as; q < r && !mirror; ++q)
        mirror = resources_[q].same_as == resources_[r].same_as && load[q] == load[r];
      if (mirror) {
        ++mirrored_;
        continue;
      }
      const double f = cheapest_cost(instance_, r, after);
      if (!std::isfinite(f)) continue;
      marginal_[r] = f - cost[r];
      out.push_back(r);
    }
    std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return marginal_[a] < marginal_[b]; });
  }

  // The Lagrangian bound of the node whose tasks d.. are left (see the file's opening comment); +infinity when the
  // remaining work cannot fit.
  double bound(std::size_t d, const std::vector<double>& load, const std::vector<double>& cost) {
    const std::size_t n = free_.size(), left = n - d;
    const double work = rest_[d];
    const double placed = std::accumulate(cost.begin(), cost.end(), 0.0);
    if (placed >= best_cost_) return placed;
    lo_.resize(load.size());
    hi_.resize(load.size());
    double room = 0, lambda_hi = 0;
    for (std::size_t r = 0; r < load.size(); ++r) {
      const double slack = std::max(0.0, resources_[r].cap * (1 + kBnbLoadRounding) - load[r]);
      // k: the most remaining tasks that fit, the shortest ones (the last `k`, weighing rest_[n - k]).
      std::size_t k_lo = 0, k_hi = left;
      while (k_lo < k_hi) {
        const std::size_t mid = (k_lo + k_hi + 1) / 2;
        if (rest_[n - mid] <= slack) k_lo = mid;
        else k_hi = mid - 1;
      }
      const double most = std::min(slack, rest_[d] - rest_[d + k_lo]);
      lo_[r] = load[r];
      hi_[r] = std::min(load[r] + most, resources_[r].curve.end);
      if (hi_[r] < lo_[r]) hi_[r] = lo_[r];
      room += hi_[r] - lo_[r];
      if (hi_[r] > lo_[r]) lambda_hi = std::max(lambda_hi, resources_[r].curve.slope(std::nextafter(hi_[r], 0.0)));
    }
    if (room < work * (1 - kBnbLoadRounding)) return kBnbInfinity;
    auto lagrangian = [&](double lambda, double& taken) {
      double value = lambda * work;
      taken = 0;
      for (std::size_t r = 0; r < load.size(); ++r) {
        const CostCurve& c = resources_[r].curve;
        const double y = std::clamp(c.minimiser(lambda), lo_[r], hi_[r]);
        taken += y - lo_[r];
        value += c.value(y) - lambda * (y - lo_[r]);
      }
      return value;
    };
    double best = placed, lo = 0, hi = std::isfinite(lambda_hi) ? lambda_hi * 2 : 1e30;
    for (int step = 0; step < kBnbLambdaSteps; ++step) {
      const double lambda = (lo + hi) / 2;
      double taken = 0;
      best = std::max(best, lagrangian(lambda, taken));
      if (best >= best_cost_) break;
      (taken < work ? lo : hi) = lambda;
    }
    return best;
  }

  const Instance& instance_;
  std::chrono::steady_clock::time_point until_;
  std::vector<BnbResource> resources_;
  std::vector<double> base_;
  std::vector<std::size_t> free_;
  std::vector<double> rest_;  // rest_[i]: the length of free tasks i.. (longest first)
  std::vector<double> marginal_, lo_, hi_;
  double best_cost_ = kBnbInfinity;
  std::vector<std::size_t> best_;
  std::size_t nodes_ = 0, pruned_ = 0, mirrored_ = 0;
  bool budget_spent_ = false;
};

}  // namespace

ExactResult<Plan> solve_bnb(const Instance& instance, const SolveOptions& options, const std::vector<Plan>& incumbents) {
  const auto started = std::chrono::steady_clock::now();
  BidSearch search(instance, options);
  for (const Plan& plan : incumbents) search.offer(plan);
  const bool exhausted = search.run();
  ExactResult<Plan> result;
  const std::string effort = fmt::format("{} nodes, {} pruned by the bound, {} skipped as identical resources",
                                         search.nodes(), search.pruned(), search.mirrored());
  if (search.found()) {
    result.decision = search.best_plan();
    result.objective = validate(instance, *result.decision).objective;
  }
  if (exhausted) {
    result.status = search.found() ? ExactStatus::kOptimal : ExactStatus::kInfeasible;
    result.detail = search.found() ? "exhausted: " + effort
                                   : "no placement finishes every resource's work by the deadline (exhausted: " +
                                         effort + ")";
  } else {
    result.status = search.found() ? ExactStatus::kFeasible : ExactStatus::kUnknown;
    const std::string then = fmt::format(" after {}{}", effort,
                                         search.found() ? fmt::format("; best found {:.9g}", search.best_cost()) : "");
    result.detail = search.budget_spent() ? fmt::format("node budget of {} reached{}", kMaxBnbNodes, then)
                    : stop_requested()    ? stop_request_text() + then
                                          : time_limit_reached(options.timeout_ms, then);
  }
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::auction_bid
