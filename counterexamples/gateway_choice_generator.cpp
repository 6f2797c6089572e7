// Seeded gateway-choice instances (see gateway_choice_generator.hpp). Our own.
#include "counterexamples/gateway_choice_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"
#include "counterexamples/slot_report_generator.hpp"
#include "model/time_slots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::gateway {

Instance generate_instance(std::uint64_t seed, std::size_t holds) {
  SplitMix64 rng(seed);
  Instance instance;
  instance.name = fmt::format("gateway-choice-{}", seed);
  instance.identity = rng.chance(0.5);
  instance.now = 100;
  const auto providers = static_cast<std::size_t>(rng.integer(2, 4));
  int widest = 1;
  for (std::size_t k = 0; k < providers; ++k) {
    Provider p;
    p.name = fmt::format("p{}", k + 1);
    p.processors = rng.chance(0.5) ? 4 : 8;
    widest = std::max(widest, p.processors);
    p.holds = slots::draw_holds(rng, holds, p.processors, instance.identity);
    if (rng.chance(0.5) && !p.holds.empty()) {  // published before its last holds came
      const auto newer = std::min<std::size_t>(p.holds.size(), static_cast<std::size_t>(rng.integer(1, 3)));
      const std::vector<slots::Hold> before(p.holds.begin(), p.holds.end() - static_cast<std::ptrdiff_t>(newer));
      p.published = free_time_slots(slots::profile_of(p.processors, instance.identity, before), instance.now);
    }
    instance.providers.push_back(std::move(p));
  }
  instance.procs = static_cast<int>(rng.integer(1, widest));
  instance.duration = static_cast<double>(rng.integer(1, 200));
  return instance;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  ShrinkCandidates<Instance> out(instance);
  int widest_other = 0;
  for (std::size_t k = 0; k < instance.providers.size() && instance.providers.size() > 1; ++k) {
    widest_other = 0;
    for (std::size_t j = 0; j < instance.providers.size(); ++j)
      if (j != k) widest_other = std::max(widest_other, instance.providers[j].processors);
    if (instance.procs <= widest_other)
      out.add([k](Instance& c) { c.providers.erase(c.providers.begin() + static_cast<std::ptrdiff_t>(k)); });
  }
  for (std::size_t k = 0; k < instance.providers.size(); ++k)
    if (instance.providers[k].published) out.add([k](Instance& c) { c.providers[k].published.reset(); });
  for (std::size_t k = 0; k < instance.providers.size(); ++k)  // a slot less: still a sound report
    for (std::size_t s = 0; instance.providers[k].published && s < instance.providers[k].published->size(); ++s)
      out.add([k, s](Instance& c) {
        auto& slots = *c.providers[k].published;
        slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(s));
      });
  for (std::size_t k = 0; k < instance.providers.size(); ++k)
    for (std::size_t h = 0; h < instance.providers[k].holds.size(); ++h)
      out.add([k, h](Instance& c) {
        auto& holds = c.providers[k].holds;
        holds.erase(holds.begin() + static_cast<std::ptrdiff_t>(h));
      });
  if (instance.duration > 1) out.add([](Instance& c) { c.duration = std::ceil(c.duration / 2); });
  if (instance.procs > 1) out.add([](Instance& c) { c.procs -= 1; });
  return out.take();
}

}  // namespace schedcheck::gateway
