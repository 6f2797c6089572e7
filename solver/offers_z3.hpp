// Z3 formulations for a provider (paper 000 III-A's question, answered exactly): deadline feasibility with an
// unsat core mapped back to job ids, and the earliest completion of k new tasks keeping every accepted deadline.
// Our encoding: real start times, capacity checked at every start; a BoT part (and the new BoT) as waves
// (start, count) with used waves first and strictly increasing starts, so k identical tasks are one count vector,
// not k symmetric tasks; redundant energy cuts. Limits: see docs/performance.md (measured sizes and times).
#pragma once

#include "model/offers.hpp"
#include "solver/offers_exact.hpp"
#include "solver/result.hpp"

namespace schedcheck::offers {

// Minimum completion of `tasks` new tasks, by descent from the deadline-order schedule; `lower_bound` (a proven
// c* of fewer tasks, or now) ends the descent when reached. Optimal only after Z3 answers unsat to
// "completion < best - kTimeTolerance" with exact rationals (so: no schedule finishes more than 1e-6 s earlier).
Completion earliest_completion_z3(const Instance& instance, long long tasks, double lower_bound,
                                  const SolveOptions& options);
// A schedule meeting every deadline, or kInfeasible with an unsat core (one assumption literal per job's
// deadline), shrunk by deletion while time remains.
ExactResult<FeasibilityAnswer> feasibility_z3(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::offers
