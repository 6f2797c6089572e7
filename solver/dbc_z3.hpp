// `dbc-min-cost` in Z3 (our encoding of the exact problem for paper 001): assign every job to a usable PE
// so that each PE's work ends by min(Dabsolute, maxTr) and the total cost is within Babsolute; minimise cost, then
// makespan. Booleans x[job][resource][pe] with PE-symmetry breaking; infeasibility reasons from an unsat core.
// Limits: proves 10 resources x 30 jobs in seconds (docs/performance.md); the makespan stage may stop at the limit.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

namespace schedcheck::dbc {

// `optimal`: minimum cost proven (detail notes when the makespan tie-break was not proven within the time limit);
// `infeasible`: unsat proven, detail names the unsat core (jobs, resource capacities, budget); `feasible`: a schedule
// but its cost not proven minimal; `unknown`: nothing within the time limit.
ExactResult<Schedule> solve_z3(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::dbc
