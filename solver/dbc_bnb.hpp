// Exact minimum-cost DBC schedule by bin completion (our own, paper 001 model): minimum cost, then minimum makespan.
// Limits: exponential in the worst case; proves the generator's 30-job instances and Table 1's 10 resources x 30-50
// jobs in well under a second (docs/performance.md). A PE is a bin: request lanes of several PEs with a finite maxTr
// (shared request windows) are outside its model (`unknown`; the `auto` method hands them to the subset DP or Z3).
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

#include <string>
#include <vector>

namespace schedcheck::dbc {

// "" when every usable PE is a bin of its own (request lanes of one PE, or no finite maxTr per request, or the
// "horizon" reading); else why not (a resource whose lanes of several PEs share request windows of <= maxTr).
std::string bins_model_gap(const Instance& instance);

// Bin completion: resources with equal (MIPS, cost) merged into one pool of identical PEs (a job only where it runs
// within maxTr, i.e. fits one request); PEs filled one at a time, cheapest pool first, each with a whole set of the
// remaining jobs (only maximal sets; loads non-increasing inside a pool; identical jobs taken in order), bounded by
// the remaining jobs' LP relaxation with per-PE subset-sum capacities; a table of explored (PE, remaining jobs)
// states. On a decimal grid of lengths the sets come lazily by exact subset sum, largest first. Then the makespan
// tie-break: the same search with the cost fixed at the minimum under shorter per-PE limits (see .cpp).
// `incumbents`: valid full schedules at hand (the policy's): the first upper bound on the cost, and the answer when
// the search finds nothing cheaper before it stops. phase_seconds: "cost" (the cost proof) and "tie-break".
// `optimal`: proven minimum cost, then makespan. `infeasible`: proven that no schedule assigns every job by
// horizon() within Babsolute, each in one request. `feasible`: the time limit (or the memory cap on listed job
// sets) stopped the search; the cheapest schedule found is kept, and `detail` says whether its cost was already
// proven minimal. `unknown`: outside the model (bins_model_gap) or stopped before any schedule.
ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options,
                                const std::vector<Schedule>& incumbents = {});

}  // namespace schedcheck::dbc
