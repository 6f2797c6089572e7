// Seeded slot-report instances (see slot_report_generator.hpp). Our own.
#include "counterexamples/slot_report_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"

#include <fmt/format.h>

#include <cmath>

namespace schedcheck::slots {

std::vector<Hold> draw_holds(SplitMix64& rng, std::size_t count, int processors, bool identity) {
  std::vector<Hold> holds;
  AvailabilityProfile profile(processors, identity);
  for (std::size_t h = 0; h < count; ++h) {
    Hold hold;
    hold.start = static_cast<double>(rng.integer(0, 300));
    hold.end = hold.start + static_cast<double>(rng.integer(1, 100));
    hold.processors = static_cast<int>(rng.integer(1, std::max(1, processors / 2)));
    if (identity) {
      const ProcessorSet free = profile.free_over(hold.start, hold.end);
      if (free.count() < hold.processors) continue;
      hold.on = free.lowest(hold.processors);
    } else if (profile.min_free(hold.start, hold.end) < hold.processors) {
      continue;
    }
    profile.reserve(hold.start, hold.end, hold.processors, hold.on);
    holds.push_back(std::move(hold));
  }
  return holds;
}

Instance generate_instance(std::uint64_t seed, std::size_t holds) {
  SplitMix64 rng(seed);
  Instance instance;
  instance.name = fmt::format("slot-report-{}", seed);
  const int sizes[] = {4, 8, 16};
  instance.processors = sizes[rng.integer(0, 2)];
  instance.identity = rng.chance(0.5);
  instance.now = 100;
  instance.holds = draw_holds(rng, holds, instance.processors, instance.identity);
  if (!rng.chance(0.5)) instance.horizon = instance.now + static_cast<double>(rng.integer(1, 300));
  return instance;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  ShrinkCandidates<Instance> out(instance);
  out.drop_each(&Instance::holds);
  if (!std::isinf(instance.horizon)) out.add([](Instance& c) { c.horizon = kForever; });
  for (std::size_t h = 0; h < instance.holds.size(); ++h)
    if (instance.holds[h].end - instance.holds[h].start > 1)
      out.add([h](Instance& c) { c.holds[h].end = c.holds[h].start + std::ceil((c.holds[h].end - c.holds[h].start) / 2); });
  return out.take();
}

}  // namespace schedcheck::slots
