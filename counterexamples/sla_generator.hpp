// Seeded random SLA site instances and shrinking candidates, for search and property tests. Our own;
// the budget (2B) and deadline (3D) centres follow paper 004 section 3.3.2 (Eq. 8 and the deadline model).
// Settings (all drawn with SplitMix64 from the seed; values rounded to 3 decimals so files stay readable):
//   bids n = size; procs p ~ U{1..kMaxBidProcs}; execution time e ~ U[10, 1000) s; length l = e mu p;
//   alpha ~ U[0, 20) s; budget b = B x U[0.8, 2.5) (~15% of bids below B: ineligible only under the budget test,
//   which generated instances leave off, as Algorithm 2 is written; site.budget_test = false);
//   deadline d = D x U[1, 3) (timed deadlines from tight to the paper's 3D); de = d with probability 0.9,
//   else de = d x U[0.3, 1) (some bids ineligible on time);
//   site: p_m = max(kMaxBidProcs, 40% of the bids' processors); mu ~ U[100, 1000) MIPS; c ~ U[1, 10);
//   running jobs ~ U{0..2}, each p ~ U{1..p_m/4}, remaining ~ U[10, 500) s; r = p_m - running processors.
#pragma once

#include "model/sla.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::sla {

inline constexpr int kMaxBidProcs = 32;
inline constexpr double kCapacityShare = 0.4;  // p_m as a share of the bids' total processors

Instance generate_instance(std::uint64_t seed, std::size_t bids);
// Simpler instances than `instance`, most aggressive first: drop a bid, drop a running job, halve a bid's
// processors, round a number, zero an overhead, set the price to 1. Each candidate is a valid instance.
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace schedcheck::sla
