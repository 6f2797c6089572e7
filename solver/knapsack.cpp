// Exact 0-1 knapsack by the expanding core (see knapsack.hpp): Pisinger 1997's minimal algorithm, our implementation.
// Items sorted by value/weight; the break solution (the longest prefix that fits) is the root state. The core grows
// one item at a time on each side of the break item: an item below the break may be added, one above may be removed.
// A state is (weight, value, trail of flips); dominated states and states whose LP bound cannot beat the incumbent
// are dropped; an item whose Dembo-Hammer bound cannot beat the incumbent never enters the core (fixed).
#include "solver/knapsack.hpp"

#include "support/stop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

namespace schedcheck::knapsack {

namespace {

using Clock = std::chrono::steady_clock;

// Iterations of the expansion between two reads of the clock and the stop request (an iteration merges at most two
// items into the state list: microseconds while the list is short).
constexpr unsigned kIterationsPerClockRead = 8;

struct State {
  long long weight;
  double value;
  int trail;  // the last flip that made this state (index into the trail), -1 for the break solution itself
};
struct Flip {
  int parent;  // the flip before it, -1 at the break solution
  int item;    // position in ratio order: added when at or after the break item, removed when before it
};

double total_value(const std::vector<Item>& items, const std::vector<bool>& take) {
  double sum = 0;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (take[i]) sum += items[i].value;
  return sum;
}
bool fits(const std::vector<Item>& items, const std::vector<bool>& take, long long capacity) {
  long long used = 0;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (take[i]) used += items[i].weight;
  return used <= capacity;
}

class Core {
public:
  Core(const std::vector<Item>& items, long long capacity) : items_(items), capacity_(capacity) {
    for (std::size_t i = 0; i < items.size(); ++i)
      if (items[i].weight > 0 && items[i].weight <= capacity && items[i].value > 0) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      return items[a].value * items[b].weight > items[b].value * items[a].weight;
    });
    m_ = order_.size();
    while (break_ < m_ && weight_ + weight(break_) <= capacity) {
      weight_ += weight(break_);
      value_ += value(break_);
      ++break_;
    }
  }

  // Solves; `z` and `best_take` hold a feasible start (at least as good as the greedy one) on entry.
  // `effort`: the budget in states, each state a merge makes counting one step.
  ExactStatus solve(double& z, std::vector<bool>& best_take, Clock::time_point until, EffortMeter& effort,
                    const CoreLimits& limits, std::size_t& core_items, std::string& detail) {
    if (break_ == m_) {  // everything worth taking fits
      std::vector<bool> all(items_.size(), false);
      for (std::size_t i : order_) all[i] = true;
      best_take = std::move(all);
      z = total_value(items_, best_take);
      return ExactStatus::kOptimal;
    }
    const double lambda = ratio(break_);  // an optimal LP dual: the break item's ratio
    const double upper = value_ + static_cast<double>(capacity_ - weight_) * lambda;
    std::vector<State> states{State{weight_, value_, -1}}, next;
    std::vector<Flip> trail;
    int best_trail = -2;  // -2: the best is `best_take`, not a state
    long long s = static_cast<long long>(break_) - 1;  // next item to consider removing
    std::size_t t = break_;                             // next item to consider adding
    unsigned iterations = 0;
    // LP bound of a state given the items not yet considered: add from t on (ratio <= ratio(t)), remove from s down
    // (ratio >= ratio(s)); the dual value lambda must lie between them.
    auto bound = [&](long long w, double p) {
      if (w <= capacity_) return p + static_cast<double>(capacity_ - w) * (t < m_ ? ratio(t) : 0.0);
      return s >= 0 ? p - static_cast<double>(w - capacity_) * ratio(static_cast<std::size_t>(s))
                    : -std::numeric_limits<double>::infinity();
    };
    // Flips item k (sorted position) in every state: merges the two weight-sorted lists, drops dominated states
    // (heavier and not more valuable) and states whose bound cannot beat z, records a better feasible state.
    auto merge = [&](std::size_t k, bool add) {
      ++core_items;
      effort.spend(2 * states.size());
      const long long dw = add ? weight(k) : -weight(k);
      const double dv = add ? value(k) : -value(k);
      next.clear();
      std::size_t i = 0, j = 0;
      bool have_last = false, last_kept = false;
      double last_value = 0;
      long long last_weight = 0;
      while (i < states.size() || j < states.size()) {
        const bool take_old = j == states.size() || (i < states.size() && states[i].weight <= states[j].weight + dw);
        State c = take_old ? states[i] : State{states[j].weight + dw, states[j].value + dv, -1};
        const int parent = take_old ? 0 : states[j].trail;
        take_old ? ++i : ++j;
        if (have_last && c.value <= last_value) continue;  // dominated by a lighter (or equally heavy) state
        if (have_last && c.weight == last_weight && last_kept) next.pop_back();
        have_last = true;
        last_weight = c.weight;
        last_value = c.value;
        if (!take_old) {
          trail.push_back(Flip{parent, static_cast<int>(k)});
          c.trail = static_cast<int>(trail.size()) - 1;
        }
        if (c.weight <= capacity_ && c.value > z) {
          z = c.value;
          best_trail = c.trail;
        }
        last_kept = bound(c.weight, c.value) > z;
        if (last_kept) next.push_back(c);
      }
      states.swap(next);
    };
    while (!states.empty() && (s >= 0 || t < m_)) {
      if (effort.spent()) {
        detail = effort_budget_reached(effort.units());
        break;
      }
      if (++iterations % kIterationsPerClockRead == 0 && (Clock::now() >= until || stop_requested())) {
        detail = stop_requested() ? stop_request_text() : "time limit reached";
        break;
      }
      if (t < m_) {  // fixed to 0 unless taking it could beat z (Dembo-Hammer: U minus its reduced cost)
        const std::size_t k = t++;
        if (upper - (lambda * static_cast<double>(weight(k)) - value(k)) > z) merge(k, true);
      }
      if (s >= 0) {  // fixed to 1 unless leaving it out could beat z
        const auto k = static_cast<std::size_t>(s--);
        if (upper - (value(k) - lambda * static_cast<double>(weight(k))) > z) merge(k, false);
      }
      if (states.size() > limits.max_states || trail.size() > limits.max_flips) {
        detail = "more than " + std::to_string(limits.max_states) + " dynamic programming states or " +
                 std::to_string(limits.max_flips) + " flips";
        break;
      }
    }
    if (best_trail != -2) {  // the best is a state: the break solution with its flips applied
      std::vector<bool> take(items_.size(), false);
      for (std::size_t k = 0; k < break_; ++k) take[order_[k]] = true;
      for (int f = best_trail; f >= 0; f = trail[static_cast<std::size_t>(f)].parent) {
        const std::size_t i = order_[static_cast<std::size_t>(trail[static_cast<std::size_t>(f)].item)];
        take[i] = !take[i];
      }
      best_take = std::move(take);
      z = total_value(items_, best_take);
    }
    return detail.empty() ? ExactStatus::kOptimal : ExactStatus::kFeasible;
  }

  // The break solution completed greedily by the later items that still fit.
  std::vector<bool> greedy() const {
    std::vector<bool> take(items_.size(), false);
    long long room = capacity_;
    for (std::size_t k = 0; k < m_; ++k)
      if (weight(k) <= room) {
        take[order_[k]] = true;
        room -= weight(k);
      }
    return take;
  }

private:
  long long weight(std::size_t k) const { return items_[order_[k]].weight; }
  double value(std::size_t k) const { return items_[order_[k]].value; }
  double ratio(std::size_t k) const { return value(k) / static_cast<double>(weight(k)); }

  const std::vector<Item>& items_;
  long long capacity_;
  std::vector<std::size_t> order_;  // the items worth considering, by decreasing value / weight
  std::size_t m_ = 0;
  std::size_t break_ = 0;  // the first item of order_ that does not fit after all before it
  long long weight_ = 0;   // of the break solution
  double value_ = 0;
};

}  // namespace

Solution solve_core(const std::vector<Item>& items, long long capacity, const SolveOptions& options,
                    const std::vector<std::vector<bool>>& starts, std::size_t* core_items, const CoreLimits& limits) {
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  Core core(items, std::max(0LL, capacity));
  Solution s;
  s.take = core.greedy();
  double z = total_value(items, s.take);
  for (const auto& start : starts)
    if (start.size() == items.size() && fits(items, start, capacity) && total_value(items, start) > z) {
      s.take = start;
      z = total_value(items, start);
    }
  std::size_t merged = 0;
  EffortMeter effort(options.effort);
  s.status = core.solve(z, s.take, until, effort, limits, merged, s.detail);
  s.effort_spent = effort.spent();
  s.value = z;
  if (core_items) *core_items = merged;
  return s;
}

}  // namespace schedcheck::knapsack
