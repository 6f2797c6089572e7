// Seeded `gateway-choice` instances (model/gateway_choice.hpp) and their shrinking candidates, for `search
// gateway-choice`. Our own. Settings (SplitMix64 from the seed; whole seconds): 2 to 4 providers of U{4, 8}
// processors; the processors model with probability 1/2; now = 100; `size` holds per provider, drawn as slot-report's
// (start U{0..300}, length U{1..100}, U{1..P/2} processors, kept when they fit); each provider's published slots stale
// with probability 1/2: the slots its profile had before its last U{1..3} holds (work it accepted since); the job
// U{1..widest} processors for U{1..200} s.
#pragma once

#include "model/gateway_choice.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::gateway {

Instance generate_instance(std::uint64_t seed, std::size_t holds);
// Simpler instances, most aggressive first: drop a provider, fresh slots for one, drop a published slot, drop a
// hold, a shorter or narrower job.
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace schedcheck::gateway
