// The default exact method of `dbc-cost-time` (our own): chooses per instance among bin completion (solve_bnb),
// the subset DP (solve_dp) and Z3 Benders (solve_z3), the fastest that is exact on it, and records the choice.
// Limits: those of the chosen method; request lanes of several PEs with a finite maxTr and more than 12 jobs go to
// Z3, which packs such a resource only up to 12 jobs.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

#include <vector>

namespace schedcheck::dbc {

// Jobs up to which the subset DP is faster than bin completion (bench/bench_dbc.cpp, docs/performance.md).
inline constexpr std::size_t kAutoDpJobs = 4;

// Every PE a bin of its own (bins_model_gap empty): the subset DP up to kAutoDpJobs jobs, else bin completion.
// Otherwise (lanes of several PEs sharing request windows): the subset DP up to kDpMaxJobs jobs, else Z3.
// `incumbents` (valid full schedules, the policy's) go to bin completion and Z3. result.chain names the method,
// why it was chosen, its status and time; the rest of the result is the chosen method's.
ExactResult<Schedule> solve_auto(const Instance& instance, const SolveOptions& options,
                                 const std::vector<Schedule>& incumbents = {});

}  // namespace schedcheck::dbc
