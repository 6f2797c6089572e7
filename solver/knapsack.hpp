// Exact 0-1 knapsack (max sum v_i x_i s.t. sum w_i x_i <= W) without Z3: the items and solutions every knapsack
// engine shares, and the expanding-core algorithm (Pisinger 1997, "A minimal algorithm for the 0-1 knapsack problem":
// dynamic programming over the items near the LP break item, the others fixed by bounds). Our implementation; exact
// up to double rounding of the values (about 1e-15 relative). 1,000 items in about 0.1 ms (docs/performance.md).
#pragma once

#include "solver/result.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace schedcheck::knapsack {

struct Item {
  std::string name;  // the Z3 engines name their variable after it
  int weight = 0;    // > 0
  double value = 0;  // >= 0, finite
};

struct Solution {
  ExactStatus status = ExactStatus::kUnknown;
  std::vector<bool> take;  // one per item
  double value = 0;
  std::string detail;
  bool interrupted = false;  // as ExactResult::interrupted (solver/result.hpp)
  bool effort_spent = false;  // the effort budget (SolveOptions::effort) stopped the solve
};

// The solve stops early (status feasible: the best found, and `detail` says why) at the wall-clock limit
// (SolveOptions::timeout_ms), at the effort budget (SolveOptions::effort: a state a unit), on a stop request, or with more than `max_states` dynamic programming states at once
// (24 bytes each, in two lists) or `max_flips` recorded flips (8 bytes each): only adversarial, subset-sum-like
// instances get there; a table DP, whose size does not depend on the values, is the fallback.
struct CoreLimits {
  std::size_t max_states = 1'000'000;
  std::size_t max_flips = 8'000'000;
};

// The expanding core. `starts`: feasible solutions at hand (e.g. a policy's), the first incumbents; an infeasible
// one is ignored. Items heavier than W or worth nothing are never taken. `core_items` (optional) receives how many
// items entered the core.
Solution solve_core(const std::vector<Item>& items, long long capacity, const SolveOptions& options,
                    const std::vector<std::vector<bool>>& starts = {}, std::size_t* core_items = nullptr,
                    const CoreLimits& limits = {});

}  // namespace schedcheck::knapsack
