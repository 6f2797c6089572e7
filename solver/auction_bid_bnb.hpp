// The branch and bound of `auction-bid` (model/auction_bid.hpp): the free tasks, longest first, each placed on a
// resource; every resource bids the closed form's cheapest bid for its load, so a placement's cost is
// sum_r f_r(L_r). Pruned by each resource's most work (max_load), by a Lagrangian bound of the convex relaxation
// and by identical resources. Our own; proven within the relative kBnbPruneSlack; at most kMaxBnbNodes nodes.
#pragma once

#include "model/auction_bid.hpp"
#include "solver/result.hpp"

#include <cstddef>
#include <vector>

namespace schedcheck::auction_bid {

inline constexpr std::size_t kMaxBnbNodes = 200'000'000;  // the effort budget: nodes placed, the same on any machine
inline constexpr double kBnbPruneSlack = 1e-9;            // a node is pruned when its bound is within this of the best

// `incumbents`: valid plans at hand (a policy's): the best of them, re-bid by the closed form, is the first best.
// Optimal when the search is exhausted, infeasible when it is exhausted without a plan, feasible (best found) or
// unknown at the time limit, the node budget or a stop request. `detail` counts the nodes placed and pruned.
ExactResult<Plan> solve_bnb(const Instance& instance, const SolveOptions& options,
                            const std::vector<Plan>& incumbents = {});

}  // namespace schedcheck::auction_bid
