// A Z3 formulation of `auction-bid` (model/auction_bid.hpp) that does not use the closed form: a Boolean per task and
// resource, a real bid, share and charge per resource, Eq. 1's share as share x (bid + others) <= bid x Ctot and
// share <= Ccap, the deadline as load <= share x time_left, the charge as charge x 60 x share >= (1 + surcharge) x
// bid x load; minimised by iterative tightening (nonlinear real arithmetic). Our own. Small snapshots only: at most
// kZ3MaxPlacementVars placement Booleans.
#pragma once

#include "model/auction_bid.hpp"
#include "solver/result.hpp"

#include <cstddef>

namespace schedcheck::auction_bid {

inline constexpr std::size_t kZ3MaxPlacementVars = 40;  // free tasks x resources
inline constexpr double kZ3TighteningSlack = 1e-9;      // relative: each model must cost less than the last by this

ExactResult<Plan> solve_z3(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::auction_bid
