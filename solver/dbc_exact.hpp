// Exact minimum-cost DBC schedule by dynamic programming over job subsets (our own; the cross-check of bnb and Z3):
// minimum cost, then minimum makespan. Per resource it packs subsets onto request lanes (model/dbc.hpp lane_width):
// a one-PE lane needs the subset's load, a wider one the least sum of request windows (P||Cmax each, <= maxTr).
// Limits: up to kDpMaxJobs jobs (O(m 3^n) time, O(m 2^n) memory), stopped by the time limit or the effort budget
// (3^n steps a resource's packing and as many its DP step) between resources.
#pragma once

#include "model/dbc.hpp"
#include "solver/result.hpp"

#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace schedcheck::dbc {

inline constexpr std::size_t kDpMaxJobs = 12;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
// Two total costs this close (relative) are equal, and then makespan decides: the DP and the branch and bound
// (solver/dbc_bnb.cpp) break ties alike.
inline constexpr double kCostSlack = 1e-9;

// `optimal` with a schedule: proven minimum cost, then minimum makespan. `infeasible`: proven that no schedule
// assigns every job by horizon(), each in one request, within Babsolute (detail says why). `unknown` above kDpMaxJobs
// or when options.timeout_ms or options.effort runs out (checked between resources).
ExactResult<Schedule> solve_dp(const Instance& instance, const SolveOptions& options = {});

// The DP's packing of one resource, for other exact methods (z3's oracle on request lanes of several PEs): the jobs
// `jobs` (at most kDpMaxJobs) on resource r's lanes, every lane done by `limit` (fits()), least makespan; per job of
// `jobs` its (PE, start), or nullopt when they do not fit (or there are more than kDpMaxJobs).
std::optional<std::vector<std::pair<int, double>>> pack_resource(const Instance& instance, std::size_t r,
                                                                 const std::vector<std::size_t>& jobs, double limit);

}  // namespace schedcheck::dbc
