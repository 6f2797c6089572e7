// Exact 0-1 knapsack with Z3 (see knapsack_z3.hpp). Our own; encoding choices measured in docs/performance.md.
#include "solver/knapsack_z3.hpp"

#include "solver/z3_support.hpp"
#include "support/stop.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedcheck::knapsack {

namespace {

// Improvement passes of the incumbent's exchange search: O(taken x left out) pairs each; the start need only be
// good, not optimal, so the passes stop after kExchangePairs pairs (about 0.1 s; 1,000 items never reach it, one
// pass over 100,000 would take minutes).
constexpr int kExchangePasses = 50;
constexpr double kExchangePairs = 5e7;
// Fixing margin, relative to the total value: far above double rounding (~n 1e-16 sum), so an item is fixed
// only when the exact inequality is strict.
constexpr double kFixingMargin = 1e-9;
// Probe the midpoint to the LP bound while the gap is above this share of the best value.
constexpr double kProbeGap = 1e-6;
// Items that solve_optimize builds, solves and tears down: 10,000 took 2.2 s for a 2 s limit (flat sums; 32 s with
// chained ones), 20,000 took 10.9 s for 10 s; docs/performance.md.
constexpr double kOptimizeMaxItems = 10'000;

double total(const std::vector<Item>& items, const std::vector<bool>& take) {
  double sum = 0;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (take[i]) sum += items[i].value;
  return sum;
}

std::vector<std::size_t> by_ratio(const std::vector<Item>& items) {
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return items[a].value * items[b].weight > items[b].value * items[a].weight;
  });
  return order;
}

// Dantzig bounds (the LP relaxation: items in decreasing value/weight, the first that does not fit taken in part),
// leaving out one item or none, in O(log n) each from prefix sums over the ratio order. Leaving an item out
// subtracts its value from a prefix sum, which rounds differently from summing without it: far below the fixing
// margin.
class LpBounds {
public:
  LpBounds(const std::vector<Item>& items, std::vector<std::size_t> order) : items_(items), order_(std::move(order)) {
    rank_.resize(items.size());
    weight_.assign(items.size() + 1, 0);
    value_.assign(items.size() + 1, 0.0);
    for (std::size_t k = 0; k < order_.size(); ++k) {
      rank_[order_[k]] = k;
      weight_[k + 1] = weight_[k] + items[order_[k]].weight;
      value_[k + 1] = value_[k] + items[order_[k]].value;
    }
  }
  // The bound with `capacity` (>= 0) left, without item `skip` (none when skip >= items.size()).
  double operator()(long long capacity, std::size_t skip) const {
    const std::size_t n = order_.size();
    const std::size_t skip_rank = skip < n ? rank_[skip] : n;
    const long long skip_weight = skip < n ? items_[skip].weight : 0;
    auto weight = [&](std::size_t k) { return weight_[k] - (skip_rank < k ? skip_weight : 0); };
    // The most leading positions whose items (but `skip`) all fit: weight() never decreases in k.
    std::size_t low = 0, high = n;
    while (low < high) {
      const std::size_t middle = low + (high - low + 1) / 2;
      if (weight(middle) <= capacity) low = middle;
      else high = middle - 1;
    }
    double bound = value_[low] - (skip_rank < low ? items_[skip].value : 0.0);
    if (low < n) {  // the break item (never `skip`: it weighs nothing once left out, so it would have fitted)
      const Item& next = items_[order_[low]];
      bound += next.value * static_cast<double>(capacity - weight(low)) / next.weight;
    }
    return bound;
  }

private:
  const std::vector<Item>& items_;
  std::vector<std::size_t> order_;
  std::vector<std::size_t> rank_;
  std::vector<long long> weight_;
  std::vector<double> value_;
};

Solution finish(const std::vector<Item>& items, std::vector<bool> take, ExactStatus status, std::string detail) {
  Solution s;
  s.status = status;
  s.value = total(items, take);
  s.take = std::move(take);
  s.detail = std::move(detail);
  return s;
}

// The items left free by fixing, and the capacity they share.
struct FreeCore {
  std::vector<std::size_t> index;  // into the original items
  std::vector<Item> items;
  long long capacity = 0;
};
FreeCore core_of(const std::vector<Item>& items, long long capacity, const std::vector<int>& fix) {
  FreeCore core;
  core.capacity = capacity;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (fix[i] == 1) core.capacity -= items[i].weight;
    if (fix[i] == -1) {
      core.index.push_back(i);
      core.items.push_back(items[i]);
    }
  }
  return core;
}

// The better of incumbent() and a feasible `start`. Any feasible solution satisfies every LP fixing made against its
// own value (a solution violating one would be worth less than itself).
std::vector<bool> first_incumbent(const std::vector<Item>& items, long long capacity, const std::vector<bool>* start) {
  std::vector<bool> take = incumbent(items, capacity);
  if (!start || start->size() != items.size()) return take;
  long long used = 0;
  for (std::size_t i = 0; i < items.size(); ++i)
    if ((*start)[i]) used += items[i].weight;
  return used <= capacity && total(items, *start) > total(items, take) ? *start : take;
}

std::string limit_detail(const z3support::Deadline& deadline) { return deadline.limit_text("; best found kept"); }

// The incumbent, unproven, when the limit or a stop request came before Z3 was asked anything.
Solution stopped_early(const std::vector<Item>& items, const std::vector<bool>& take,
                       const z3support::Deadline& deadline) {
  Solution s = finish(items, take, ExactStatus::kFeasible,
                      stop_requested() ? stop_request_text() + "; best found kept" : limit_detail(deadline));
  s.interrupted = deadline.interrupted();
  return s;
}

}  // namespace

std::vector<bool> incumbent(const std::vector<Item>& items, long long capacity) {
  std::vector<bool> take(items.size(), false);
  for (std::size_t i : by_ratio(items))
    if (items[i].weight <= capacity) {
      take[i] = true;
      capacity -= items[i].weight;
    }
  double pairs = 0;
  for (int pass = 0; pass < kExchangePasses; ++pass) {
    std::size_t taken = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!take[i] && items[i].weight <= capacity) {
        take[i] = true;
        capacity -= items[i].weight;
      }
      taken += take[i] ? 1 : 0;
    }
    pairs += static_cast<double>(taken) * static_cast<double>(items.size() - taken);
    if (pairs > kExchangePairs) break;
    double best_gain = 0;
    std::size_t out = items.size(), in = items.size();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!take[i]) continue;
      for (std::size_t j = 0; j < items.size(); ++j)
        if (!take[j] && items[j].weight - items[i].weight <= capacity && items[j].value - items[i].value > best_gain) {
          best_gain = items[j].value - items[i].value;
          out = i;
          in = j;
        }
    }
    if (out == items.size()) break;
    take[out] = false;
    take[in] = true;
    capacity += items[out].weight - items[in].weight;
  }
  return take;
}

std::vector<int> lp_fixings(const std::vector<Item>& items, long long capacity, double known) {
  std::vector<int> fix(items.size(), -1);
  const LpBounds bound(items, by_ratio(items));
  double sum = 0;
  for (const auto& item : items) sum += item.value;
  const double margin = kFixingMargin * (sum + 1.0);
  for (std::size_t j = 0; j < items.size(); ++j) {
    if (items[j].weight > capacity || items[j].value + bound(capacity - items[j].weight, j) + margin < known)
      fix[j] = 0;  // every solution with j is worth less than a known one
    else if (bound(capacity, j) + margin < known)
      fix[j] = 1;  // every solution without j is worth less than a known one
  }
  return fix;
}

Solution solve_lia(const std::vector<Item>& items, long long capacity, const SolveOptions& options,
                   const std::vector<bool>* start) {
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);  // from the start: the preprocessing counts too
  std::vector<bool> take = first_incumbent(items, capacity, start);  // feasible, and satisfies every fixing below
  const FreeCore core = core_of(items, capacity, lp_fixings(items, capacity, total(items, take)));
  if (core.items.empty()) return finish(items, take, ExactStatus::kOptimal, "all items fixed by the LP bound");
  if (deadline.passed()) return stopped_early(items, take, deadline);

  const std::size_t m = core.items.size();
  std::vector<bool> core_take(m);
  for (std::size_t k = 0; k < m; ++k) core_take[k] = take[core.index[k]];
  ExactStatus status = ExactStatus::kFeasible;
  std::string detail;  // why not optimal: the limit that stopped the loop (set after it), or Z3's error
  try {  // from the first Z3 call: the deadline may interrupt the encoding too
    z3::solver solver(ctx, "QF_LIA");
    z3::params params(ctx);
    params.set("arith.solver", 2u);  // the older arithmetic core: 1.5-3x faster on these instances
    solver.set(params);
    z3::expr_vector x(ctx), values(ctx), weights(ctx);
    for (std::size_t k = 0; k < m; ++k) {
      const z3::expr xk = ctx.int_const(("accept_" + core.items[k].name).c_str());
      solver.add(xk >= 0 && xk <= 1);
      x.push_back(xk);
      values.push_back(z3support::exact_real(ctx, core.items[k].value) * z3::to_real(xk));
      weights.push_back(ctx.int_val(core.items[k].weight) * xk);
    }
    const z3::expr objective = z3support::flat_sum(values, ctx.real_val(0));
    const z3::expr weight = z3support::flat_sum(weights, ctx.int_val(0));
    solver.add(weight <= ctx.int_val(static_cast<int64_t>(core.capacity)));
    z3::expr_vector taken(ctx);
    for (std::size_t k = 0; k < m; ++k)
      if (core_take[k]) taken.push_back(z3support::exact_real(ctx, core.items[k].value));
    z3::expr best = z3support::flat_sum(taken, ctx.real_val(0)).simplify();
    double best_value = total(core.items, core_take);
    double upper = LpBounds(core.items, by_ratio(core.items))(core.capacity, m);
    for (int probe = 0; !deadline.passed();) {
      // While the gap to the LP bound is large, ask for more than the midpoint under an assumption literal
      // (unsat proves objective <= midpoint); the final question is always the exact "objective > best".
      const bool probing = upper - best_value > kProbeGap * (std::fabs(best_value) + 1);
      const double middle = best_value + 0.5 * (upper - best_value);
      z3::check_result answer;
      if (probing) {
        const z3::expr literal = ctx.bool_const(("probe_" + std::to_string(probe++)).c_str());
        solver.add(z3::implies(literal, objective > z3support::exact_real(ctx, middle)));
        z3::expr_vector assumptions(ctx);
        assumptions.push_back(literal);
        answer = deadline.check(solver, assumptions);
      } else {
        solver.add(objective > best);
        answer = deadline.check(solver);
      }
      if (answer == z3::unknown) break;  // interrupted at the deadline: best found, not proven
      if (answer == z3::unsat) {
        if (!probing) {
          status = ExactStatus::kOptimal;
          detail.clear();
          break;
        }
        solver.add(objective <= z3support::exact_real(ctx, middle));
        upper = middle;
        continue;
      }
      const z3::model model = solver.get_model();
      std::vector<bool> found(m);  // read whole before it replaces the best (a read may be interrupted)
      for (std::size_t k = 0; k < m; ++k)
        found[k] = z3support::numeral_value(model, x[static_cast<int>(k)]).get_numeral_int() == 1;
      best = z3support::numeral_value(model, objective);
      core_take = std::move(found);
      best_value = total(core.items, core_take);
      // Re-fix against the better solution: removes only solutions worth less than it.
      const auto refix = lp_fixings(core.items, core.capacity, best_value);
      for (std::size_t k = 0; k < m; ++k)
        if (refix[k] >= 0) solver.add(x[static_cast<int>(k)] == refix[k]);
    }
  } catch (const z3::exception& e) {
    detail = deadline.stop_reason(e) + "; best found kept";
  }
  if (status != ExactStatus::kOptimal && detail.empty()) detail = limit_detail(deadline);
  for (std::size_t k = 0; k < m; ++k) take[core.index[k]] = core_take[k];
  Solution s = finish(items, take, status, detail);
  s.interrupted = deadline.interrupted();
  return s;
}

Solution solve_wmax(const std::vector<Item>& items, long long capacity, const SolveOptions& options,
                    const std::vector<bool>* start) {
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);  // from the start: the preprocessing counts too
  std::vector<bool> take = first_incumbent(items, capacity, start);
  const std::vector<int> fix = lp_fixings(items, capacity, total(items, take));
  const FreeCore core = core_of(items, capacity, fix);
  if (core.items.empty()) return finish(items, take, ExactStatus::kOptimal, "all items fixed by the LP bound");
  if (deadline.passed()) return stopped_early(items, take, deadline);
  Solution s = finish(items, take, ExactStatus::kFeasible, "");
  try {  // from the first Z3 call: the deadline may interrupt the encoding too
    z3::optimize opt(ctx);
    z3::params params(ctx);
    params.set("maxsat_engine", "wmax");
    opt.set(params);
    z3::expr_vector x(ctx);
    std::vector<int> weights;
    for (const auto& item : core.items) {
      x.push_back(ctx.bool_const(("accept_" + item.name).c_str()));
      weights.push_back(item.weight);
    }
    opt.add(z3::pble(x, weights.data(), static_cast<int>(core.capacity)));
    for (std::size_t k = 0; k < core.items.size(); ++k)
      opt.add_soft(x[static_cast<int>(k)], z3support::exact_rational_string(core.items[k].value).c_str());
    const z3::check_result answer = deadline.check(opt);
    if (answer != z3::unsat) {
      const z3::model model = opt.get_model();  // on interruption: the best model so far
      std::vector<bool> found(items.size(), false);
      for (std::size_t i = 0; i < items.size(); ++i) found[i] = fix[i] == 1;
      for (std::size_t k = 0; k < core.items.size(); ++k)
        found[core.index[k]] = z3support::bool_value(model, x[static_cast<int>(k)]);
      if (answer == z3::sat) s = finish(items, found, ExactStatus::kOptimal, "");
      else if (total(items, found) > total(items, take)) s = finish(items, found, ExactStatus::kFeasible, "");
    }
    if (s.status != ExactStatus::kOptimal) s.detail = limit_detail(deadline);
  } catch (const z3::exception& e) {
    s = finish(items, take, ExactStatus::kFeasible, deadline.stop_reason(e) + "; best found kept");
  }
  s.interrupted = deadline.interrupted();
  return s;
}

Solution solve_optimize(const std::vector<Item>& items, long long capacity, const SolveOptions& options) {
  Solution s;
  s.take.assign(items.size(), false);
  s.detail = z3support::over_size_limit(std::to_string(items.size()) + " items", static_cast<double>(items.size()),
                                        kOptimizeMaxItems);
  if (!s.detail.empty()) return s;
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);
  try {  // from the first Z3 call: the deadline may interrupt the encoding too
    z3::optimize opt(ctx);
    z3::expr_vector x(ctx);
    std::vector<int> weights;
    z3::expr_vector values(ctx);
    for (const auto& item : items) {
      x.push_back(ctx.bool_const(("accept_" + item.name).c_str()));
      weights.push_back(item.weight);
      values.push_back(z3::ite(x.back(), z3support::exact_real(ctx, item.value), ctx.real_val(0)));
    }
    const z3::expr objective = z3support::flat_sum(values, ctx.real_val(0));
    if (!items.empty()) opt.add(z3::pble(x, weights.data(), static_cast<int>(std::min<long long>(capacity, INT32_MAX))));
    opt.maximize(objective);
    const z3::check_result answer = deadline.check(opt);
    if (answer == z3::unsat) {
      s.detail = "z3 reported unsat for a knapsack (encoding error)";
      return s;
    }
    try {
      const z3::model model = opt.get_model();
      long long used = 0;
      for (std::size_t i = 0; i < items.size(); ++i) {
        s.take[i] = z3support::bool_value(model, x[static_cast<int>(i)]);
        if (s.take[i]) used += items[i].weight;
      }
      s.status = answer == z3::sat ? ExactStatus::kOptimal : ExactStatus::kFeasible;
      if (used > capacity) {  // an interrupted optimiser may leave a model of the soft part only
        s.take.assign(items.size(), false);
        s.status = ExactStatus::kUnknown;
      }
    } catch (const z3::exception&) {
      s.status = ExactStatus::kUnknown;
    }
    if (answer != z3::sat) s.detail = limit_detail(deadline);
  } catch (const z3::exception& e) {
    s.detail = deadline.stop_reason(e);
  }
  s.interrupted = deadline.interrupted();
  s.value = total(items, s.take);
  return s;
}

}  // namespace schedcheck::knapsack
