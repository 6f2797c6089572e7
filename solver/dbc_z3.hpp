// `dbc-min-cost` in Z3 (our encoding, paper 001 model): every job on a usable PE it may run on, each PE done by
// horizon(), cost within Babsolute; minimise cost, then makespan (Benders: Z3 master + exact PE-packing cuts).
// Limits: 2-4 resources up to 12 jobs in seconds, not Table 1's 10 x 30 (docs/performance.md); request lanes of
// several PEs are packed by the subset DP's oracle (pack_resource), so at most 12 jobs on such a resource.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

namespace schedcheck::dbc {

// `optimal`: minimum cost proven (detail notes when the makespan tie-break was not proven within the time limit);
// `infeasible`: unsat proven, detail names the unsat core (jobs, resource capacities, budget); `feasible`: a schedule
// but its cost not proven minimal; `unknown`: nothing within the time limit.
ExactResult<Schedule> solve_z3(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::dbc
