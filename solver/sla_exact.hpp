// Exact SLA admission without Z3: dynamic programming over processors (instant problem, Eq. 4-5),
// exhaustive enumeration (instant, up to kEnumerationMaxBids), and serial-schedule-generation search over
// all job sequences (timed, up to kSequenceMaxBids). Our own; the DP is exact up to double rounding (1e-9 rel).
#pragma once

#include "model/sla.hpp"
#include "solver/result.hpp"

namespace schedcheck::sla {

inline constexpr std::size_t kEnumerationMaxBids = 20;  // 2^20 subsets
inline constexpr std::size_t kSequenceMaxBids = 8;      // sum_k 8!/(8-k)! ~ 110k sequences
inline constexpr std::size_t kDpMaxCells = 200'000'000; // bids x (free processors + 1) choice bytes

// Knapsack DP over free processors: O(n r) time, n (r + 1) bytes. Unknown when the table exceeds kDpMaxCells.
ExactResult<Admission> solve_instant_dp(const Instance& instance);
// Every subset of the eligible bids. Unknown above kEnumerationMaxBids eligible bids.
ExactResult<Admission> solve_instant_enumeration(const Instance& instance);
// Every sequence of eligible bids placed by serial schedule generation (earliest feasible start, deadline
// checked). Exact: serial generation over all sequences yields every active schedule, and an active schedule
// meets the deadlines whenever any schedule does (Kolisch 1996). Unknown above kSequenceMaxBids eligible bids.
ExactResult<Admission> solve_timed_sequences(const Instance& instance);

}  // namespace schedcheck::sla
