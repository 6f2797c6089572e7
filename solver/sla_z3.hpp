// Z3 formulations of SLA admission. Instant: the paper's ILP (paper 004 Eq. 4-5) over Booleans x_i.
// Timed (our extension): x_i plus a real start s_i per bid, deadlines, and the cumulative capacity checked at
// every accepted job's start. One context per solve, named variables, a time limit; exact rationals throughout.
#pragma once

#include "model/sla.hpp"
#include "solver/result.hpp"

namespace schedcheck::sla {

// The instant problem as a 0-1 knapsack over the eligible bids (weights p_i, values B_i, capacity r), solved by
// one of the Z3 engines of solver/knapsack_z3.hpp:
enum class KnapsackEngine {
  kLia,       // `z3`: LP-bound fixing + QF_LIA bound tightening; proves 1,000 bids in about a second
  kWmax,      // `z3-wmax`: LP-bound fixing + MaxSAT wmax
  kOptimize,  // `z3-optimize`: plain z3::optimize over Booleans (Eq. 4-5 as written); to ~20-30 bids
};
ExactResult<Admission> solve_instant_z3(const Instance& instance, const SolveOptions& options, KnapsackEngine engine);
// Timed problem with z3::optimize; exact; fine to ~10-12 bids within seconds.
ExactResult<Admission> solve_timed_z3(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::sla
