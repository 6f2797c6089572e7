// The branch and bound of auction-bid (solver/auction_bid_bnb.hpp). Our own.
// Limits: the node and time budgets of the header. The proof of the bounds is the comment above box_bound.
#include "solver/auction_bid_bnb.hpp"

#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

namespace schedcheck::auction_bid {

namespace {

constexpr double kBnbInfinity = std::numeric_limits<double>::infinity();
constexpr std::size_t kBnbNodesPerClockRead = 4096;
constexpr double kBnbLambdaCeiling = 1e30;        // the multiplier's range when no slope bounds it
constexpr int kBnbLambdaSteps = 40;              // bisection steps of the Lagrangian multiplier per bound
constexpr double kBnbLoadRounding = 1e-12;       // relative: a load this close above max_load still fits
constexpr std::size_t kBnbUnplaced = static_cast<std::size_t>(-1);
constexpr int kBnbExactLambdaSteps = 100;        // bisection steps of one count vector's convex problem
constexpr std::size_t kBnbMaxCountVectors = 200'000;  // count vectors of counts_relaxation at most
constexpr int kBnbPolishPasses = 100;            // passes of moves and swaps over a new best placement
constexpr double kBnbPolishGain = 1e-12;         // relative: a move or swap must save more than this

// The largest value found of a concave dual function of lambda >= 0, at least `floor`, by bisection on the sign of
// its supergradient (work - taken(lambda)) over [0, 2 lambda_hi], `steps` steps; stops once it reaches `enough`.
// `dual(lambda, taken)` returns the dual value and sets the work its minimiser places.
template <class Dual>
double maximise_dual(double lambda_hi, double floor, double enough, int steps, double work, Dual dual) {
  double best = floor, lo = 0, hi = std::isfinite(lambda_hi) && lambda_hi > 0 ? lambda_hi * 2 : kBnbLambdaCeiling;
  for (int step = 0; step < steps; ++step) {
    const double lambda = (lo + hi) / 2;
    double taken = 0;
    best = std::max(best, dual(lambda, taken));
    if (best >= enough) break;
    (taken < work ? lo : hi) = lambda;
  }
  return best;
}

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
      : instance_(instance), until_(std::chrono::steady_clock::now() + std::chrono::milliseconds(options.timeout_ms)),
        effort_(options.effort) {
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
    if (!validate(instance_, rebid).feasible) return;
    std::vector<std::size_t> placed(free_.size());
    for (std::size_t i = 0; i < free_.size(); ++i) placed[i] = rebid.assign[free_[i]];
    record(placed);
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
      record({});
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
    root_bound_ = counts_relaxation(0, load);
    if (!targets_.empty()) toward_targets(load);
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
      if (effort_.spend()) return false;
      if (++nodes_ % kBnbNodesPerClockRead == 0 &&
          (nodes_ >= kMaxBnbNodes || std::chrono::steady_clock::now() >= until_ || stop_requested())) {
        budget_spent_ = nodes_ >= kMaxBnbNodes;
        return false;
      }
      if (d + 1 == n) {
        if (std::accumulate(cost.begin(), cost.end(), 0.0) < best_cost_) record(placed);
        continue;
      }
      const double prune_at = best_cost_ - kBnbPruneSlack * std::abs(best_cost_);
      if (box_bound(d + 1, load, cost) >= prune_at || count_bound(d + 1, load) >= prune_at) {
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
  bool effort_spent() const { return effort_.spent(); }
  double root_bound() const { return root_bound_; }

private:
  double length(std::size_t i) const { return instance_.tasks[free_[i]].length; }

  // A placement built toward the root relaxation's loads: each free task, longest first, to the resource furthest
  // below its target that still has room (else the one whose charge rises least), then polished and kept if cheaper.
  void toward_targets(const std::vector<double>& base) {
    std::vector<double> load = base;
    std::vector<std::size_t> placed(free_.size(), kBnbUnplaced);
    for (std::size_t i = 0; i < free_.size(); ++i) {
      std::size_t pick = kBnbUnplaced;
      double most_below = -kBnbInfinity, least_rise = kBnbInfinity;
      std::size_t cheapest = kBnbUnplaced;
      for (std::size_t r = 0; r < load.size(); ++r) {
        const double after = load[r] + length(i);
        if (after > resources_[r].cap * (1 + kBnbLoadRounding)) continue;
        const double rise = cheapest_cost(instance_, r, after) - cheapest_cost(instance_, r, load[r]);
        if (!std::isfinite(rise)) continue;
        if (targets_[r] - load[r] > most_below) {
          most_below = targets_[r] - load[r];
          pick = r;
        }
        if (rise < least_rise) {
          least_rise = rise;
          cheapest = r;
        }
      }
      if (pick == kBnbUnplaced || most_below <= 0) pick = cheapest;
      if (pick == kBnbUnplaced) return;  // no resource takes it: no placement from here
      placed[i] = pick;
      load[pick] += length(i);
    }
    record(placed);
  }

  // A complete placement of the free tasks (by free index): polished by moves and swaps, kept when cheaper.
  void record(std::vector<std::size_t> placed) {
    std::vector<double> load = base_;
    for (std::size_t i = 0; i < placed.size(); ++i) load[placed[i]] += length(i);
    std::vector<double> cost(load.size());
    for (std::size_t r = 0; r < load.size(); ++r) cost[r] = cheapest_cost(instance_, r, load[r]);
    polish(placed, load, cost);
    const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
    if (!(total < best_cost_)) return;
    best_cost_ = total;
    best_.assign(instance_.tasks.size(), kNoResource);
    for (std::size_t t = 0; t < instance_.tasks.size(); ++t)
      if (instance_.tasks[t].running_on != kNoResource) best_[t] = instance_.tasks[t].running_on;
    for (std::size_t i = 0; i < placed.size(); ++i) best_[free_[i]] = placed[i];
  }

  // Local descent: up to two tasks of one resource exchanged with up to two of another (a move, a swap, two for
  // one, two for two), the best exchange of each pair of resources applied while it lowers the total by more than
  // rounding (at most kBnbPolishPasses passes).
  void polish(std::vector<std::size_t>& placed, std::vector<double>& load, std::vector<double>& cost) const {
    struct Group {
      double sum = 0;
      std::size_t a = kBnbUnplaced, b = kBnbUnplaced;  // free indices, kBnbUnplaced for none
    };
    auto groups_on = [&](std::size_t r) {
      std::vector<std::size_t> on;
      for (std::size_t i = 0; i < placed.size(); ++i)
        if (placed[i] == r) on.push_back(i);
      std::vector<Group> out{Group{}};
      for (std::size_t x = 0; x < on.size(); ++x) {
        out.push_back(Group{length(on[x]), on[x], kBnbUnplaced});
        for (std::size_t y = x + 1; y < on.size(); ++y)
          out.push_back(Group{length(on[x]) + length(on[y]), on[x], on[y]});
      }
      return out;
    };
    const std::size_t nr = load.size();
    for (int pass = 0; pass < kBnbPolishPasses; ++pass) {
      bool improved = false;
      for (std::size_t p = 0; p < nr; ++p)
        for (std::size_t q = p + 1; q < nr; ++q) {
          const std::vector<Group> from_p = groups_on(p), from_q = groups_on(q);
          const double both = cost[p] + cost[q];
          double best_gain = kBnbPolishGain * best_scale(cost), best_p = 0, best_q = 0;
          const Group* take_p = nullptr;
          const Group* take_q = nullptr;
          for (const Group& gp : from_p)
            for (const Group& gq : from_q) {
              const double delta = gp.sum - gq.sum;  // work that moves from p to q
              if (delta == 0) continue;
              const double cp = cheapest_cost(instance_, p, load[p] - delta);
              if (!std::isfinite(cp)) continue;
              const double cq = cheapest_cost(instance_, q, load[q] + delta);
              if (both - cp - cq > best_gain) {
                best_gain = both - cp - cq;
                best_p = cp;
                best_q = cq;
                take_p = &gp;
                take_q = &gq;
              }
            }
          if (take_p == nullptr) continue;
          const double delta = take_p->sum - take_q->sum;
          for (std::size_t i : {take_p->a, take_p->b})
            if (i != kBnbUnplaced) placed[i] = q;
          for (std::size_t i : {take_q->a, take_q->b})
            if (i != kBnbUnplaced) placed[i] = p;
          load[p] -= delta;
          load[q] += delta;
          cost[p] = best_p;
          cost[q] = best_q;
          improved = true;
        }
      if (!improved) break;
    }
  }
  static double best_scale(const std::vector<double>& cost) {
    return std::max(1.0, std::accumulate(cost.begin(), cost.end(), 0.0));
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

  // The bound. At a node the free tasks 0..d-1 (longest first) are placed: resource r holds L_r, the tasks d..n-1 of
  // total W are left. Any completion adds w_r >= 0 to each resource with sum w_r = W, and w_r <= U_r: the tasks it
  // adds fit in r's slack max_load_r - L_r, so there are at most k_r of them (k_r: the most of the shortest remaining
  // tasks that fit) and they weigh at most the k_r longest remaining, U_r = min(slack, that weight). Its cost
  // sum_r f_r(L_r + w_r) is at least the continuous minimum over that box, which by weak duality is at least, for
  // every lambda >= 0, LB(lambda) = lambda W + sum_r min_{0 <= w <= U_r} [f_r(L_r + w) - lambda w]. f_r is convex
  // (docs/auction-bid.md), so each inner minimum is at the clip of CostCurve::minimiser(lambda) to [L_r, L_r + U_r].
  // Any lambda gives a valid bound; a bisection on the sign of LB's supergradient W - sum w_r(lambda) finds a good one.
  //
  // box_bound: that bound on the box of the remaining work alone; +infinity when the remaining work cannot fit.
  double box_bound(std::size_t d, const std::vector<double>& load, const std::vector<double>& cost) {
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
    return maximise_dual(lambda_hi, placed, best_cost_, kBnbLambdaSteps, work, lagrangian);
  }

  // The Lagrangian bound with the count of tasks each resource takes kept integral: a completion gives r k_r of the
  // remaining tasks (sum k_r = left), which add between the k_r shortest and the k_r longest remaining lengths (and
  // at most r's slack). For each lambda, min over the counts of sum_r g_r(k_r), g_r(k) = min over that range of
  // f_r(L_r + w) - lambda w, is a dynamic program over resources and tasks used; lambda W plus it is a bound.
  double count_bound(std::size_t d, const std::vector<double>& load) {
    const std::size_t n = free_.size(), left = n - d, nr = load.size(), width = left + 1;
    const double work = rest_[d];
    kmax_.assign(nr, 0);
    span_lo_.assign(nr * width, 0.0);
    span_hi_.assign(nr * width, 0.0);
    std::size_t counts = 0;
    double lambda_hi = 0;
    for (std::size_t r = 0; r < nr; ++r) {
      const double slack = std::max(0.0, std::min(resources_[r].cap * (1 + kBnbLoadRounding), resources_[r].curve.end) -
                                             load[r]);
      std::size_t k = 0;
      while (k < left && rest_[n - k - 1] <= slack) ++k;
      kmax_[r] = k;
      counts += k;
      for (std::size_t j = 0; j <= k; ++j) {
        span_lo_[r * width + j] = load[r] + rest_[n - j];
        span_hi_[r * width + j] = load[r] + std::min(slack, rest_[d] - rest_[d + j]);
      }
      if (k > 0)
        lambda_hi = std::max(lambda_hi, resources_[r].curve.slope(std::nextafter(span_hi_[r * width + k], 0.0)));
    }
    if (counts < left) return kBnbInfinity;
    table_.assign((nr + 1) * width, kBnbInfinity);
    choice_.assign(nr * width, 0);
    auto lagrangian = [&](double lambda, double& taken) {
      std::fill(table_.begin(), table_.end(), kBnbInfinity);
      table_[0] = 0;
      for (std::size_t r = 0; r < nr; ++r) {
        const CostCurve& c = resources_[r].curve;
        const double y_free = c.minimiser(lambda);
        gain_.assign(kmax_[r] + 1, 0.0);
        for (std::size_t k = 0; k <= kmax_[r]; ++k) {
          const double y = std::clamp(y_free, span_lo_[r * width + k], span_hi_[r * width + k]);
          gain_[k] = c.value(y) - lambda * (y - load[r]);
        }
        const double* before = &table_[r * width];
        double* after = &table_[(r + 1) * width];
        for (std::size_t j = 0; j <= left; ++j)
          for (std::size_t k = 0; k <= kmax_[r] && k <= j; ++k)
            if (before[j - k] + gain_[k] < after[j]) {
              after[j] = before[j - k] + gain_[k];
              choice_[r * width + j] = k;
            }
      }
      taken = 0;
      for (std::size_t r = nr, j = left; r-- > 0;) {
        const std::size_t k = choice_[r * width + j];
        taken += std::clamp(resources_[r].curve.minimiser(lambda), span_lo_[r * width + k], span_hi_[r * width + k]) -
                 load[r];
        j -= k;
      }
      return lambda * work + table_[nr * width + left];
    };
    return maximise_dual(lambda_hi, 0.0, best_cost_, kBnbLambdaSteps, work, lagrangian);
  }

  // The same relaxation solved exactly for every vector of counts (k_r, sum k_r = left; at most
  // kBnbMaxCountVectors of them, else the Lagrangian count_bound): for fixed counts the continuous problem is convex,
  // and its Lagrangian dual, maximised by bisection, has no gap. The least over the vectors bounds every completion.
  double counts_relaxation(std::size_t d, const std::vector<double>& load) {
    const double lagrangian = count_bound(d, load);  // also fills kmax_, span_lo_, span_hi_
    if (!std::isfinite(lagrangian)) return lagrangian;
    const std::size_t nr = load.size(), left = free_.size() - d, width = left + 1;
    const double work = rest_[d];
    std::vector<std::size_t> k(nr, 0);
    std::vector<std::size_t> most_after(nr + 1, 0);  // the most tasks resources r.. can take
    for (std::size_t r = nr; r-- > 0;) most_after[r] = most_after[r + 1] + kmax_[r];
    double least = kBnbInfinity;
    std::size_t vectors = 0;
    std::vector<double> ys(nr, 0.0);
    auto convex_min = [&]() {
      double lo_total = 0, hi_total = 0, lambda_hi = 0;
      for (std::size_t r = 0; r < nr; ++r) {
        lo_total += span_lo_[r * width + k[r]] - load[r];
        hi_total += span_hi_[r * width + k[r]] - load[r];
        if (span_hi_[r * width + k[r]] > span_lo_[r * width + k[r]])
          lambda_hi = std::max(lambda_hi, resources_[r].curve.slope(std::nextafter(span_hi_[r * width + k[r]], 0.0)));
      }
      if (hi_total < work * (1 - kBnbLoadRounding) || lo_total > work * (1 + kBnbLoadRounding)) return kBnbInfinity;
      // Stops once this vector cannot lower the least.
      auto dual = [&](double lambda, double& taken) {
        double value = lambda * work;
        for (std::size_t r = 0; r < nr; ++r) {
          const CostCurve& c = resources_[r].curve;
          const double y = std::clamp(c.minimiser(lambda), span_lo_[r * width + k[r]], span_hi_[r * width + k[r]]);
          ys[r] = y;
          taken += y - load[r];
          value += c.value(y) - lambda * (y - load[r]);
        }
        return value;
      };
      return maximise_dual(lambda_hi, -kBnbInfinity, least, kBnbExactLambdaSteps, work, dual);
    };
    // Every vector of counts, resource by resource.
    std::function<bool(std::size_t, std::size_t)> visit = [&](std::size_t r, std::size_t used) {
      if (r == nr) {
        if (used != left) return true;
        if (++vectors > kBnbMaxCountVectors) return false;
        const double value = convex_min();
        if (value < least) {
          least = value;
          targets_ = ys;
        }
        return true;
      }
      for (std::size_t j = 0; j <= kmax_[r] && used + j <= left; ++j) {
        if (used + j + most_after[r + 1] < left) continue;
        k[r] = j;
        if (!visit(r + 1, used + j)) return false;
      }
      return true;
    };
    if (!visit(0, 0)) {
      targets_.clear();
      return lagrangian;
    }
    return std::max(lagrangian, least);
  }

  const Instance& instance_;
  std::chrono::steady_clock::time_point until_;
  EffortMeter effort_;  // a node a unit
  std::vector<BnbResource> resources_;
  std::vector<double> base_;
  std::vector<std::size_t> free_;
  std::vector<double> rest_;  // rest_[i]: the length of free tasks i.. (longest first)
  std::vector<double> marginal_, lo_, hi_;
  std::vector<std::size_t> kmax_, choice_;
  std::vector<double> span_lo_, span_hi_, table_, gain_;
  std::vector<double> targets_;  // the loads of the root relaxation's least count vector (empty: not solved)
  double best_cost_ = kBnbInfinity;
  std::vector<std::size_t> best_;
  std::size_t nodes_ = 0, pruned_ = 0, mirrored_ = 0;
  bool budget_spent_ = false;
  double root_bound_ = 0;
};

}  // namespace

ExactResult<Plan> solve_bnb(const Instance& instance, const SolveOptions& options,
                            const std::vector<Plan>& incumbents) {
  const auto started = std::chrono::steady_clock::now();
  BidSearch search(instance, options);
  for (const Plan& plan : incumbents) search.offer(plan);
  const bool exhausted = search.run();
  ExactResult<Plan> result;
  const std::string effort =
      fmt::format("{} nodes, {} pruned by the bound, {} skipped as identical resources; root bound {:.9g}",
                  search.nodes(), search.pruned(), search.mirrored(), search.root_bound());
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
    result.detail = search.effort_spent()   ? effort_budget_reached(options.effort, then)
                    : search.budget_spent() ? fmt::format("node budget of {} reached{}", kMaxBnbNodes, then)
                    : stop_requested()      ? stop_request_text() + then
                                          : time_limit_reached(options.timeout_ms, then);
  }
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::auction_bid
