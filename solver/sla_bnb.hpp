// Exact timed SLA admission (our extension of paper 004 sec. 3.2) by conflicts: a branch and bound chooses the cheapest
// set of refused bids that meets every known conflict (bids proven unable to run together) and energy bound; a
// scheduling check (heuristics, timetable and energetic reasoning, a search over active schedules) either schedules
// the rest, which is then optimal, or finds a new conflict. Our own; exact on real-valued times (no grid). The
// generator's instances: 200 bids in ~0.1 ms; about 1% of them from 40 bids on are not decided in 10 s
// (docs/performance.md).
#pragma once

#include "model/sla.hpp"
#include "solver/result.hpp"

#include <vector>

namespace schedcheck::sla {

// `incumbents`: valid decisions at hand (a policy's), the first lower bound. Status feasible at the time limit or
// on a stop request (best found kept), optimal otherwise.
ExactResult<Admission> solve_timed_bnb(const Instance& instance, const SolveOptions& options,
                                       const std::vector<Admission>& incumbents = {});

}  // namespace schedcheck::sla
