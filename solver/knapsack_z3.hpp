// Exact 0-1 knapsack with Z3 (max sum v_i x_i s.t. sum w_i x_i <= W), the engine behind paper 004 Eq. 4-5.
// Our own: incumbent (greedy + exchange search) -> exact LP-bound variable fixing -> Z3 bound-tightening loop
// on 0/1 integers (QF_LIA, exact rationals). Proves n = 1000 random instances in ~1 s (docs/performance.md).
#pragma once

#include "solver/knapsack.hpp"

#include <string>
#include <vector>

namespace schedcheck::knapsack {

// Greedy by value/weight, then add-any-fitting and best-single-exchange passes: a good feasible start.
std::vector<bool> incumbent(const std::vector<Item>& items, long long capacity);
// Dantzig (LP relaxation) fixing against a known feasible value: -1 free, 0 or 1 fixed. Sound: an item is
// fixed to 0 only if every solution containing it is worth less than `known` (so no optimal solution contains
// it), and to 1 symmetrically; every optimal solution satisfies all fixings at once.
std::vector<int> lp_fixings(const std::vector<Item>& items, long long capacity, double known);

// `start` (optional): a feasible solution at hand (e.g. a policy's); the first incumbent when it beats incumbent().
// Fixing, then a QF_LIA loop (0/1 Int variables, so Z3's simplex sees the LP bound) that probes the midpoint to the
// LP bound, then asks "objective > best" until unsat (= proven optimal).
Solution solve_lia(const std::vector<Item>& items, long long capacity, const SolveOptions& options,
                   const std::vector<bool>* start = nullptr);
// Fixing, then z3::optimize MaxSAT (wmax) with exact rational soft weights.
Solution solve_wmax(const std::vector<Item>& items, long long capacity, const SolveOptions& options,
                    const std::vector<bool>* start = nullptr);
// Baseline: z3::optimize maximising the sum over Booleans, pseudo-Boolean capacity, no preprocessing.
Solution solve_optimize(const std::vector<Item>& items, long long capacity, const SolveOptions& options);

}  // namespace schedcheck::knapsack
