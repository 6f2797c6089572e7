// Z3 formulations of SLA admission. Instant: the paper's ILP (paper 004 Eq. 4-5) over Booleans x_i.
// Timed (our extension): x_i plus a real start s_i per bid, deadlines, and the cumulative capacity checked at
// every accepted job's start. One context per solve, named variables, a time limit; exact rationals throughout.
#pragma once

#include "model/sla.hpp"
#include "solver/result.hpp"

namespace schedcheck::sla {

// z3::optimize maximising sum B_i x_i subject to the pseudo-Boolean capacity sum p_i x_i <= r.
// Fine to ~30 bids; the optimality proof grows quickly beyond.
ExactResult<Admission> solve_instant_z3_optimize(const Instance& instance, const SolveOptions& options);
// Timed problem with z3::optimize; exact; fine to ~10-12 bids within seconds.
ExactResult<Admission> solve_timed_z3(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::sla
