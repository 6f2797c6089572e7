// An offer of a resource provider for part or all of a Bag-of-Tasks: (tasks, completion time), and the
// staircase shape of a provider's offer list. Paper 000 section III-A (offer list Phi, step 4: equal completion
// times merged into the larger count, a later completion appended). Shared by offer generation and composition.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace schedcheck {

// A task count share x n rounded down to whole tasks, with a 1e-9 relative slack: a product that is whole in exact
// arithmetic (0.9 x 10 = 9, 0.1 x 30 = 3) must not lose a task when the double lands just below it. Used by Delta
// truncation (III-A step 1) and DPLB's line 12 (Alg. 1).
inline long long floor_tasks(double exact) {
  return static_cast<long long>(std::floor(exact + 1e-9 * std::max(1.0, std::fabs(exact))));
}

struct Offer {
  long long tasks = 0;    // how many tasks of the BoT the provider takes
  double completion = 0;  // by when it completes all of them (absolute time)
};

// A free time slot a provider publishes (paper 000 section III-B, FreeTimeSlots after Singh et al.):
// `processors` processors are free over [start, end); end = kForever (JSON: null) for the open-ended last slot.
struct FreeSlot {
  double start = 0;
  double end = 0;
  int processors = 1;
};

// Paper 000 III-A step 4: offers by increasing task count merged into a staircase. An offer whose count does not
// exceed the last kept one is skipped; kept offers that complete later than a larger offer are dropped (it dominates
// them); an equal completion (within kTimeTolerance) gives the previous offer the larger count; a later one appends.
std::vector<Offer> merge_into_staircase(const std::vector<Offer>& by_increasing_tasks);

// "" when the offers strictly increase in both tasks and completion time (the merged staircase), else a
// sentence naming the first offending pair, e.g. "offers[2] (64 tasks, t=40) after offers[1] (128 tasks, t=40)".
std::string staircase_violation(const std::vector<Offer>& offers);

}  // namespace schedcheck
