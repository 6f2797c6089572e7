// Exact SLA admission without Z3: the instant problem (Eq. 4-5) as a 0-1 knapsack solved by the expanding core
// (Pisinger 1997; solver/knapsack.hpp), by dynamic programming over processors and by exhaustive enumeration (up to
// kEnumerationMaxBids); the timed problem by serial schedule generation over all job sequences (up to
// kSequenceMaxBids). Our own; the core and the DP are exact up to double rounding (1e-9 rel).
#pragma once

#include "model/sla.hpp"
#include "solver/knapsack.hpp"
#include "solver/result.hpp"

#include <vector>

namespace schedcheck::sla {

inline constexpr std::size_t kEnumerationMaxBids = 20;  // 2^20 subsets
inline constexpr std::size_t kSequenceMaxBids = 8;      // sum_k 8!/(8-k)! ~ 110k sequences
inline constexpr std::size_t kDpMaxCells = 200'000'000; // bids x (free processors + 1) choice bytes

// The instant problem as a knapsack: one item per eligible bid (weight p, value B), capacity r.
struct InstantKnapsack {
  std::vector<knapsack::Item> items;
  std::vector<std::size_t> bid_of;  // item -> bid index
  long long capacity = 0;
};
InstantKnapsack instant_knapsack(const Instance& instance);
// The decisions at hand as knapsack solutions (an admission accepting an ineligible bid is left out).
std::vector<std::vector<bool>> knapsack_starts(const InstantKnapsack& knapsack, const std::vector<Admission>& decisions);
Admission admission_of(const Instance& instance, const InstantKnapsack& knapsack, const std::vector<bool>& take);

// Expanding core, starting from the decisions at hand; should its state list outgrow `limits` (only on adversarial,
// subset-sum-like instances), the DP takes over (ExactResult::chain says so).
ExactResult<Admission> solve_instant_core(const Instance& instance, const SolveOptions& options,
                                          const std::vector<Admission>& incumbents = {},
                                          const knapsack::CoreLimits& limits = {});
// Knapsack DP over free processors: O(n r) time, n (r + 1) bytes. Unknown when the table exceeds kDpMaxCells or the
// time limit passes (checked once a bid).
ExactResult<Admission> solve_instant_dp(const Instance& instance, const SolveOptions& options = {});
// Every subset of the eligible bids. Unknown above kEnumerationMaxBids eligible bids.
ExactResult<Admission> solve_instant_enumeration(const Instance& instance);
// Every sequence of eligible bids placed by serial schedule generation (earliest feasible start, deadline
// checked). Exact: serial generation over all sequences yields every active schedule, and an active schedule
// meets the deadlines whenever any schedule does (Kolisch 1996). Unknown above kSequenceMaxBids eligible bids.
ExactResult<Admission> solve_timed_sequences(const Instance& instance);

}  // namespace schedcheck::sla
