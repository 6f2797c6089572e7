// SLA admission policies as pure decision functions: decide(snapshot) -> Admission.
// Paper 004, Algorithm 2 (GREEDYBACKFILLING / STRICTGREEDY) and the FCFS baseline (0% SLA bid delay).
// Timed variants (our extension) place each accepted job at its earliest feasible start on the profile.
#pragma once

#include "model/sla.hpp"

#include <vector>

namespace schedcheck::sla {

// Bid indices in decreasing incentive, ties in arrival order (Algorithm 2, line 1.38: the list Q^s_{m,t}).
std::vector<std::size_t> by_decreasing_incentive(const Instance& instance);

// STRICTGREEDY (lines 1.36-1.48): walk Q^s in decreasing incentive and RESERVE every eligible bid that fits
// in the r free processors. The pseudo-code reserves one bid per call and is called again on every event;
// called until nothing changes, that is exactly one pass that accepts each bid that fits (docs/policies.md).
Admission greedy_backfilling(const Instance& instance);
// FCFS: arrival order; accept each eligible bid while it fits; the first eligible bid that does not fit
// blocks the queue (no backfilling). Ineligible bids are rejected and do not block.
Admission fcfs(const Instance& instance);

// Timed versions: the same orders; "fits" means an earliest start on the availability profile (running jobs
// and earlier acceptances reserved) at which the job, holding its processors for D(J,R_m), meets d.
Admission greedy_backfilling_timed(const Instance& instance);
Admission fcfs_timed(const Instance& instance);

}  // namespace schedcheck::sla
