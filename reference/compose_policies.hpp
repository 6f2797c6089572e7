// Offer composition policies of the metascheduler as pure decision functions: decide(instance) -> Composition.
// Paper 000 section IV-A (OffersNoLB), IV-B (OffersWithPLB, Algorithm 1 OffersWithDPLB), section V (DPLBV2, the
// NoLB fallback) and III-B (FreeTimeSlots). As published first; "-fixed" variants are ours (docs/policies.md).
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

// Section V evaluation combination, as published: when no offer meets D, OffersNoLB; otherwise the IV-B policy on
// the offers meeting D (even when they do not cover n).
Composition offers_plb(const Instance& instance);      // P = offer size / total offered; largest-remainder rounding
Composition offers_dplb(const Instance& instance);     // Algorithm 1, DP from computing power (processors)
Composition offers_dplb_v2(const Instance& instance);  // Algorithm 1, DP from the providers' load to be processed

// Corrected variants (ours): IV-B only when the offers meeting D cover n (else OffersNoLB); DPLB carries the tasks
// that lines 13-14 cap away to the later offers of the group.
Composition offers_plb_fixed(const Instance& instance);
Composition offers_dplb_fixed(const Instance& instance);
Composition offers_dplb_v2_fixed(const Instance& instance);

// III-B FreeTimeSlots (baseline): the BoT's tasks go to the free-slot positions (a processor of a slot running
// tasks back to back from max(slot start, submit)) with the earliest completion, ties in provider order.
Composition free_time_slots(const Instance& instance);

}  // namespace schedcheck::compose
