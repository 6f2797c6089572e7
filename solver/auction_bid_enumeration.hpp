// The second exact method of `auction-bid` (model/auction_bid.hpp): every placement of the free tasks enumerated, each
// resource's cheapest bid for each set of tasks found by bisection on the bid against the validator's own semantics
// (share, finish time, charge), not by the closed form. Our own. At most kMaxEnumeratedTasks free tasks and
// kMaxEnumeratedPlacements placements (unknown beyond).
#pragma once

#include "model/auction_bid.hpp"
#include "solver/result.hpp"

#include <cstddef>
#include <optional>

namespace schedcheck::auction_bid {

inline constexpr std::size_t kMaxEnumeratedTasks = 16;
inline constexpr double kMaxEnumeratedPlacements = 10'000'000;  // resources ^ free tasks
inline constexpr int kBidBisectionSteps = 200;                  // halvings of [min_bid, max_bid]

// The least bid in [min_bid, max_bid] whose finish time for `load` is at most time_left, by bisection (the finish
// time falls as the bid rises: Eq. 1). nullopt when max_bid does not finish in time.
std::optional<double> bisected_bid(const Instance& instance, std::size_t r, double load);

ExactResult<Plan> solve_enumeration(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::auction_bid
