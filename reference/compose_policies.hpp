// Offer composition policies of the metascheduler as pure decision functions: decide(instance) -> Composition.
// Paper 000 section IV-A (OffersNoLB), IV-B (OffersWithPLB, Algorithm 1 OffersWithDPLB), section V (DPLBV2, the
// NoLB fallback) and III-B (FreeTimeSlots). As published first; "-fixed" variants are ours, "-round"/"-v2-intent"
// are other readings of the text (docs/policies.md, "Readings").
#pragma once

#include "model/compose.hpp"

#include <vector>

namespace schedcheck::compose {

// OffersNoLB builds at most this many composite lists (L) before it stops forking new ones (our guard against the
// exponential worst case; never reached within the exhaustive scope or by the generator's instances).
inline constexpr std::size_t kMaxCompositeLists = 1 << 16;

// IV-A OffersNoLB: sort (offers meeting D first by decreasing tasks, the rest by increasing completion), cut after
// the first offer that takes the whole BoT, build the composite lists L in that order, return the first complete
// composite with the earliest completion.
Composition offers_nolb(const Instance& instance);

// Per provider, the index of its largest offer completing by D (kUnused if none): the offer IV-B keeps.
std::vector<int> offers_meeting_deadline(const Instance& instance);
// IV: "possible to meet the user's deadline": the offers meeting D together cover n.
bool deadline_can_be_met(const Instance& instance);

// IV's trigger, as published: the IV-B policy runs "when it is possible to meet the user's deadline", i.e. when the
// offers meeting D can hold the n tasks (deadline_can_be_met); otherwise OffersNoLB (IV-A "when user's deadline
// cannot be met", Table I; section V: "when no offer can meet the user deadline ... OffersWithNoLB").
Composition offers_plb(const Instance& instance);      // P = offer size / total offered; largest-remainder rounding
Composition offers_dplb(const Instance& instance);     // Algorithm 1, DP from computing power; line 12 rounded down
Composition offers_dplb_v2(const Instance& instance);  // Algorithm 1 with the load "used in the same way" (literal)

// Other readings (docs/policies.md, "Readings"): DPLBV2 as the paper's stated intent (DP from 1 / load: the less
// loaded provider gets more); Algorithm 1 line 12 rounded to the nearest task instead of down.
Composition offers_dplb_v2_intent(const Instance& instance);
Composition offers_dplb_round(const Instance& instance);

// Corrected variants (ours): Algorithm 1 with the tasks that lines 13-14 cap away carried to the group's later
// offers (the published lines lose tasks even in exact arithmetic).
Composition offers_dplb_fixed(const Instance& instance);
Composition offers_dplb_v2_fixed(const Instance& instance);

// III-B FreeTimeSlots (baseline): the BoT's tasks go to the free-slot positions (a processor of a slot running
// tasks back to back from max(slot start, submit)) with the earliest completion, ties in provider order.
Composition free_time_slots(const Instance& instance);

}  // namespace schedcheck::compose
