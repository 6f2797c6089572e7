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
// STRICTGREEDY as written, one call: lines 1.39-1.47 stop at the first RESERVE, so a call reserves the first eligible
// bid that fits in decreasing incentive, and the others wait for the next event or their timeout (line 1.17). On one
// snapshot, calling it until nothing changes gives greedy_backfilling; over a run, with events between the calls, the
// two differ (docs/policies.md, Readings).
Admission greedy_backfilling_one(const Instance& instance);
// FCFS, the 0%-bid-delay baseline (sec. 4.2: "the contacted GFA has to instantly make the admission control
// decision"): each bid is decided on arrival, in arrival order, by Algorithm 2's test: reserved if it is eligible
// and fits (r >= p), otherwise rejected. A bid that does not fit holds up nobody.
Admission fcfs(const Instance& instance);
// Our own variant (not in the paper): arrival order, but the first eligible bid that does not fit blocks every
// later bid (a queue without backfilling): a stricter baseline.
Admission fcfs_blocking(const Instance& instance);

// Timed versions: the same orders; "fits" means an earliest start on the availability profile (running jobs
// and earlier acceptances reserved) at which the job, holding its processors for D(J,R_m), meets d.
Admission greedy_backfilling_timed(const Instance& instance);
Admission fcfs_timed(const Instance& instance);           // decided on arrival: placed or rejected
Admission fcfs_blocking_timed(const Instance& instance);  // our own: the first eligible misfit blocks

}  // namespace schedcheck::sla
