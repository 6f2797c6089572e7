// Exact minimum-cost DBC schedule by branch and bound (our own; the "dbc-min-cost", paper 001 model):
// minimum cost, then minimum makespan among minimum-cost schedules (the same lexicographic objective as the DP).
// Limits: exponential in the worst case; proves Table 1's 10 resources x 20 jobs in < 0.1 s but NOT 10 x 30 in 5 s
// on the benchmark instances (docs/performance.md); time limit = SolveOptions::timeout_ms.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

namespace schedcheck::dbc {

// Depth-first branch and bound: jobs longest first; resources with equal (MIPS, cost) merged into one pool of
// identical PEs; a job tries the cheapest pools first and, inside a pool, only PEs of distinct loads (symmetry);
// the bound at a node is the exact LP relaxation (each remaining job may be split over the PEs where it still fits
// whole, each PE holds at most the largest subset sum of the remaining lengths within its slack), computed greedily
// (nested eligibility, see .cpp).
// `optimal`: proven minimum cost, then makespan. `infeasible`: proven that no schedule assigns every job by
// min(Dabsolute, maxTr) within Babsolute. `feasible`: the time limit stopped the search (best schedule kept).
ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::dbc
