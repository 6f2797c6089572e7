// Seeded random BoT-offer instances, shrinking candidates, and the exhaustive small-scope enumeration. Our own; offers
// follow paper 000 III-A (sizes Delta = {n, .75n, .5n, .25n, .1n}, equal completions merged into the larger count).
// Settings (SplitMix64 from the seed): providers = size; n ~ U{1..kMaxGeneratedTasks}; task runtime ~ U{1..10};
//   submit 0; per provider processors ~ U{1..16}, load ~ U{0..100}, 1-3 free slots one after another (gaps
//   U{0..20}, finite ones U{1..40} long, the last open-ended), processors ~ U{1..processors} each; offers for the
//   sizes Delta, completion = the earliest completion of that many tasks in the slots; D = U[0.5, 1.5) x the median
//   completion of the providers' whole-BoT offers, rounded up to an integer.
// Exhaustive scope "providers=P,offers=K,max=V": every multiset of 1..P providers, each with a staircase of 1..K
//   offers (tasks and completion in 1..V) and (processors, load) in {(1,2), (2,1)}; n and D in 1..V; submit 0.
#pragma once

#include "model/compose.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace schedcheck::compose {

inline constexpr long long kMaxGeneratedTasks = 100;
inline constexpr const char* kDefaultScope = "providers=3,offers=2,max=4";

Instance generate_instance(std::uint64_t seed, std::size_t providers);
// Simpler instances, most aggressive first: drop a provider, drop an offer, fewer tasks, smaller offers, fewer
// processors, load = 0, drop the free slots. Only candidates the reader accepts (offers still cover n).
std::vector<Instance> shrink_candidates(const Instance& instance);
// Every instance within the scope (syntax above; "" = kDefaultScope); throws InputError on a bad scope.
void enumerate_instances(const std::string& scope, const std::function<void(const Instance&)>& visit);

}  // namespace schedcheck::compose
