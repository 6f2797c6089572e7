// Z3 formulations of SLA admission. Instant: the paper's ILP (paper 004 Eq. 4-5) over Booleans x_i.
// Timed (our extension): x_i plus a real start s_i per bid, deadlines, and the cumulative capacity checked at
// every accepted job's start. One context per solve, named variables, a time limit; exact rationals throughout.
#pragma once

#include "model/sla.hpp"
#include "solver/result.hpp"

#include <vector>

namespace schedcheck::sla {

// The instant problem as a 0-1 knapsack over the eligible bids (weights p_i, values B_i, capacity r), solved by
// one of the Z3 engines of solver/knapsack_z3.hpp:
enum class KnapsackEngine {
  kLia,       // `z3`: LP-bound fixing + QF_LIA bound tightening; proves 1,000 bids in about a second
  kWmax,      // `z3-wmax`: LP-bound fixing + MaxSAT wmax
  kOptimize,  // `z3-optimize`: plain z3::optimize over Booleans (Eq. 4-5 as written); to ~20-30 bids
};
// `incumbents`: decisions at hand (a policy's); kLia and kWmax start from the best of them and their own greedy.
ExactResult<Admission> solve_instant_z3(const Instance& instance, const SolveOptions& options, KnapsackEngine engine,
                                        const std::vector<Admission>& incumbents = {});
// Timed problem with z3::optimize; exact; fine to ~10-12 bids within seconds. `incumbents` (valid decisions at hand):
// the best one's incentive is a lower bound on the objective.
ExactResult<Admission> solve_timed_z3(const Instance& instance, const SolveOptions& options,
                                      const std::vector<Admission>& incumbents = {});

}  // namespace schedcheck::sla
