// Seeded `slot-report` instances (model/slot_report.hpp) and their shrinking candidates, for `search slot-report`.
// Our own. Settings (SplitMix64 from the seed; whole seconds): P ~ U{4, 8, 16}; the processors model with
// probability 1/2; now = 100; `size` holds drawn in turn, start U{0..300}, length U{1..100}, U{1..P/2} processors,
// each kept only when it fits (with identity on the lowest processors free over its window); horizon infinite with
// probability 1/2, else now + U{1..300}.
#pragma once

#include "counterexamples/rng.hpp"
#include "model/slot_report.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::slots {

Instance generate_instance(std::uint64_t seed, std::size_t holds);
// `count` holds drawn in turn on a machine of `processors` (the settings above), each kept only when it fits.
std::vector<Hold> draw_holds(SplitMix64& rng, std::size_t count, int processors, bool identity);
// Simpler instances, most aggressive first: drop a hold, an infinite horizon, a hold half as long.
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace schedcheck::slots
