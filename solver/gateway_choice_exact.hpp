// Exact methods of `gateway-choice` (model/gateway_choice.hpp): the earliest start of the job over the providers'
// true profiles, by two independent computations: `profiles` (each provider's availability profile searched,
// model/profile.hpp) and `scan` (no profile: the candidate starts now and every hold's end, each checked against the
// holds directly). Our own; `scan` gives up (unknown) after kMaxScanSteps hold checks, an effort budget.
#pragma once

#include "model/gateway_choice.hpp"
#include "solver/result.hpp"

namespace schedcheck::gateway {

inline constexpr std::size_t kMaxScanSteps = 50'000'000;

ExactResult<Choice> solve_profiles(const Instance& instance, const SolveOptions& options);
ExactResult<Choice> solve_scan(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::gateway
