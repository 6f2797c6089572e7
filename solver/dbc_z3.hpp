// `dbc-min-cost` in Z3 (our encoding, paper 001 model): every job on a usable PE it may run on, each PE done by
// horizon(), cost within Babsolute; minimise cost, then makespan (Benders: Z3 master + exact PE-packing cuts).
// Limits: 2-4 resources up to 12 jobs in seconds, not Table 1's 10 x 30 (docs/performance.md); request lanes of
// several PEs are packed by the subset DP's oracle (pack_resource), so at most 12 jobs on such a resource.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

#include <vector>

namespace schedcheck::dbc {

// `optimal`: minimum cost proven (detail notes when the makespan tie-break was not proven within the time limit);
// `infeasible`: unsat proven, detail and `core` name the unsat core (job ids, resource ids, "budget"); `feasible`: a
// schedule but its cost not proven minimal; `unknown`: nothing within the time limit. `incumbents` (valid full
// schedules, the policy's): the cheapest is the first incumbent, so the cost search starts below it (no stage 0).
// phase_seconds: "cost" (a first schedule and the cost proof) and "tie-break".
ExactResult<Schedule> solve_z3(const Instance& instance, const SolveOptions& options,
                               const std::vector<Schedule>& incumbents = {});

}  // namespace schedcheck::dbc
