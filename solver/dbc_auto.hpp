// The default exact method of `dbc-cost-time` (our own): chooses per instance among bin completion (solve_bnb),
// the subset DP (solve_dp) and Z3 Benders (solve_z3), the fastest that is exact on it, and records the choice.
// Limits: those of the chosen method; request lanes of several PEs with a finite maxTr and more than 12 jobs go to
// Z3, which packs such a resource only up to 12 jobs.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

#include <vector>

namespace schedcheck::dbc {

// The subset DP's work, resources x 3^jobs, up to which it is faster than bin completion (bench/bench_dbc.cpp,
// docs/performance.md: the generator's 2-4 resources up to 7-8 jobs, Table 1's 10 resources up to 6).
inline constexpr double kAutoDpWork = 12000;
// Every PE is a bin and the subset DP's work is at most kAutoDpWork: the DP is the faster method there.
bool auto_prefers_dp(const Instance& instance);

// Every PE a bin of its own (bins_model_gap empty): the subset DP when auto_prefers_dp, else bin completion.
// Otherwise (lanes of several PEs sharing request windows): the subset DP up to kDpMaxJobs jobs, else Z3.
// `incumbents` (valid full schedules, the policy's) go to bin completion and Z3. result.chain names the method,
// why it was chosen, its status and time; the rest of the result is the chosen method's.
ExactResult<Schedule> solve_auto(const Instance& instance, const SolveOptions& options,
                                 const std::vector<Schedule>& incumbents = {});

}  // namespace schedcheck::dbc
