// Gecode (constraint programming) formulations for a provider (paper 000 III-A's question, answered exactly):
// the earliest completion of k new tasks keeping every accepted deadline, and deadline feasibility with a core.
// Our own encoding: integer start times on a common grid (1, 0.1, 0.01 or 0.001 s: the coarsest on which every
// instance time lies exactly), one `cumulative` over all tasks (overload checking, time-tabling and edge
// finding), running jobs as fixed tasks at now, BoT parts as k unit tasks with non-decreasing starts, deadlines
// as latest starts. Times off the 1 ms grid, or a horizon beyond Gecode's int range: status unknown, never a
// rounded answer (integral data: some optimal schedule is active, so its starts lie on the grid; the grid
// optimum is the real one). Z3 (solver/offers_z3.hpp) stays the cross-check.
#pragma once

#include "model/offers.hpp"
#include "solver/offers_exact.hpp"
#include "solver/result.hpp"

namespace schedcheck::offers {

// Minimum completion of `tasks` new tasks by branch-and-bound below the deadline-order schedule; `lower_bound`
// (a proven c* of fewer tasks, or now) bounds the completion from below. Optimal only when the search space was
// exhausted within options.timeout_ms.
Completion earliest_completion_gecode(const Instance& instance, long long tasks, double lower_bound,
                                      const SolveOptions& options);
// A schedule meeting every deadline, or kInfeasible with a core: every waiting job, shrunk by deletion (a job
// whose removal leaves the rest infeasible is dropped) while time remains.
ExactResult<FeasibilityAnswer> feasibility_gecode(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::offers
