// Seeded `auction-bid` snapshots (model/auction_bid.hpp) and their shrinking candidates, for `search auction-bid`.
// Our own, after paper 003's Table 1-2. Settings (SplitMix64 from the seed; whole numbers): 1 to 5 resources, each a
// 4-PE 1050-MIPS resource (probability 0.7) or a 1-PE 684-MIPS one; bids [5, 500] and [1, 100] (probability 1/2),
// else min_bid U{1..20}, max_bid min_bid + U{0..200}; 0 to 3 other users each bidding U{min_bid..max_bid}; foreign
// with probability 0.3; capacity "total" with probability 0.2; U{1..size} tasks (size 0: 12) of U{50000..800000} MI;
// each resource runs one of them with probability 0.3 (its remaining length U{10000..length}); time_left = the
// larger of the work / the sum of the task caps and the longest task / the largest cap, x U(0.7, 3.0), whole
// seconds, so that most snapshots have a plan and some none (the others' bids and the bid bounds decide).
#pragma once

#include "model/auction_bid.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::auction_bid {

Instance generate_instance(std::uint64_t seed, std::size_t tasks);
// Simpler snapshots, most aggressive first: drop a resource (its running task becomes free), drop a task, a free
// running task, a local user, no other users, rounder lengths, bids and time_left.
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace schedcheck::auction_bid
