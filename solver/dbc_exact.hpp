// Exact minimum-cost DBC schedule without Z3: dynamic programming over job subsets (our own), the independent
// cross-check of the Z3 formulation. Lexicographic: minimum cost, then minimum makespan among min-cost schedules.
// Limits: up to kDpMaxJobs jobs (O(m 3^n) time, O(m 2^n) memory); durations compared with kFitSlack (model/dbc.hpp).
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

namespace schedcheck::dbc {

inline constexpr std::size_t kDpMaxJobs = 12;

// `optimal` with a schedule: proven minimum cost, then minimum makespan. `infeasible`: proven that no schedule
// assigns every job by min(Dabsolute, maxTr) within Babsolute (detail says why). `unknown` above kDpMaxJobs.
ExactResult<Schedule> solve_dp(const Instance& instance);

}  // namespace schedcheck::dbc
