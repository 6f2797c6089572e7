// `dbc-min-cost` in Z3 (our encoding of the exact problem for paper 001): assign every job to a usable PE
// that may run there (duration <= maxTr) so that each PE's work ends by horizon() (Dabsolute; min(Dabsolute, maxTr)
// under max_tr "horizon") and the total cost is within Babsolute; minimise cost, then
// makespan. Benders: a Z3 master over job-to-resource Booleans + exact PE-packing cuts; unsat core when infeasible.
// Limits: proves 2-4-resource instances up to 12 jobs in 0.05-1.7 s, but NOT 10 resources x 30 jobs, nor the
// 7-12-job Table 2 inputs, within 10 s (docs/performance.md); branch and bound (dbc_bnb.hpp) is the default oracle,
// the subset DP (dbc_exact.hpp) the independent cross-check. Request lanes of several PEs (shared request windows)
// are packed by the subset DP's oracle (pack_resource), so at most 12 jobs on such a resource.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

namespace schedcheck::dbc {

// `optimal`: minimum cost proven (detail notes when the makespan tie-break was not proven within the time limit);
// `infeasible`: unsat proven, detail names the unsat core (jobs, resource capacities, budget); `feasible`: a schedule
// but its cost not proven minimal; `unknown`: nothing within the time limit.
ExactResult<Schedule> solve_z3(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::dbc
