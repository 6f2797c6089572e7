// Exact minimum-cost DBC schedule by bin completion (our own, paper 001 model): minimum cost, then minimum makespan.
// Limits: exponential in the worst case; proves Table 1's 10 resources x 30 jobs (docs/performance.md); many jobs per
// PE make the makespan tie-break slow (then `feasible`). A PE is a bin, so request lanes of several PEs (shared
// request windows) are handed to the subset DP (<= 12 jobs, else `unknown`).
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

namespace schedcheck::dbc {

// Bin completion: resources with equal (MIPS, cost) merged into one pool of identical PEs (a job only where it runs
// within maxTr, i.e. fits one request); PEs filled one at a
// time, cheapest pool first, each with a whole set of the remaining jobs (only maximal sets; loads non-increasing
// inside a pool; identical jobs taken in order), bounded by the remaining jobs' LP relaxation with per-PE subset-sum
// capacities. Then the makespan tie-break: minimum cost again under shorter per-PE limits (see .cpp).
// `optimal`: proven minimum cost, then makespan. `infeasible`: proven that no schedule assigns every job by
// horizon() within Babsolute, each in one request. `feasible`: the time limit (or the memory cap on listed job sets) stopped
// the search; the cheapest schedule found is kept, and `detail` says whether its cost was already proven minimal.
ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::dbc
