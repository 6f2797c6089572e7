// Exact offer composition without Z3: the smallest completion time at which the providers' largest offers completing
// by then cover n (a sweep over all offer completion times), then the most balanced split at that time.
// Our own (paper 000 section IV's composition problem). Exact for the first objective and for `balance`.
#pragma once

#include "model/compose.hpp"
#include "solver/result.hpp"

#include <optional>

namespace schedcheck::compose {

// The earliest T (an offer completion time) such that sum over providers of their largest offer completing by T
// is >= n; nullopt when even all offers do not cover n. O(m log m) for m offers.
std::optional<double> earliest_cover_time(const Instance& instance);
// Among compositions using, per provider, an offer completing by T: the smallest possible largest share
// tasks / offer size (each provider then uses its largest such offer), and a composition attaining it. O(P^2).
std::optional<Composition> most_balanced_by(const Instance& instance, double time);
// Fewest providers whose offers completing by T cover n (largest first); 0 when they cannot.
std::size_t fewest_providers_by(const Instance& instance, double time);

// `exact` (default oracle): earliest_cover_time, then most_balanced_by at it. Always optimal (lexicographically:
// completion time, then the largest share).
ExactResult<Composition> solve_combinatorial(const Instance& instance);

}  // namespace schedcheck::compose
