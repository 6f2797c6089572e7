// Seeded SLA instances and shrinking (see sla_generator.hpp). Our own.
#include "counterexamples/sla_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::sla {

namespace {
double round3(double value) { return std::round(value * 1000.0) / 1000.0; }

int running_processors(const Instance& instance) {
  int used = 0;
  for (const auto& job : instance.running) used += job.procs;
  return used;
}

// r = p_m - running processors - processors busy for reasons the file does not list (an explicit `free`
// without running jobs); the unlisted part is kept across a shrinking step, within what the site still has.
void recompute_free(Instance& instance, int unlisted_busy = 0) {
  instance.site.free_processors =
      std::max(0, instance.site.processors - running_processors(instance) - unlisted_busy);
}
}  // namespace

Instance generate_instance(std::uint64_t seed, std::size_t bids) {
  SplitMix64 rng(seed);
  Instance instance;
  instance.name = fmt::format("random-seed-{}-n{}", seed, bids);
  instance.site.mips = round3(rng.uniform(100, 1000));
  instance.site.price = round3(rng.uniform(1, 10));
  long long total_procs = 0;
  for (std::size_t i = 0; i < bids; ++i) {
    Bid bid;
    bid.id = fmt::format("b{}", i + 1);
    bid.procs = static_cast<int>(rng.integer(1, kMaxBidProcs));
    const double execution = rng.uniform(10, 1000);
    bid.length_mi = std::max(1.0, std::round(execution * instance.site.mips * bid.procs));
    bid.alpha = round3(rng.uniform(0, 20));
    const double d = response_time(instance.site, bid);
    const double b = incentive(instance.site, bid);
    bid.budget = round3(b * rng.uniform(0.8, 2.5));
    bid.deadline = round3(std::max(d * rng.uniform(1, 3), d) + 0.001);
    bid.expected_response = rng.chance(0.9) ? bid.deadline : round3(bid.deadline * rng.uniform(0.3, 1));
    bid.expected_response = std::max(bid.expected_response, 0.001);
    total_procs += bid.procs;
    instance.bids.push_back(bid);
  }
  instance.site.processors =
      std::max(kMaxBidProcs, static_cast<int>(std::ceil(kCapacityShare * static_cast<double>(total_procs))));
  const auto running = rng.integer(0, 2);
  for (long long k = 0; k < running; ++k)
    instance.running.push_back(RunningJob{fmt::format("r{}", k + 1),
                                          static_cast<int>(rng.integer(1, instance.site.processors / 4)),
                                          round3(rng.uniform(10, 500))});
  recompute_free(instance);
  return instance;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  const int unlisted_busy =
      instance.site.processors - running_processors(instance) - instance.site.free_processors;
  ShrinkCandidates<Instance> candidates(instance, [&](Instance& c) {
    recompute_free(c, unlisted_busy);
    return true;
  });
  auto variant = [&](auto&& change) { candidates.add(change); };
  candidates.drop_each(&Instance::bids);
  candidates.drop_each(&Instance::running);
  // Fewer site processors, while every bid and the running jobs still fit on the site.
  int needed = running_processors(instance) + unlisted_busy;
  for (const auto& bid : instance.bids) needed = std::max(needed, bid.procs);
  if (instance.site.processors > needed)
    variant([&](Instance& c) { c.site.processors = std::max(needed, c.site.processors / 2); });
  if (instance.site.processors - 1 >= needed) variant([&](Instance& c) { c.site.processors -= 1; });
  for (std::size_t i = 0; i < instance.bids.size(); ++i) {
    const Bid& bid = instance.bids[i];
    if (bid.procs > 1) variant([&](Instance& c) { c.bids[i].procs = std::max(1, bid.procs / 2); });
    if (bid.procs > 1) variant([&](Instance& c) { c.bids[i].procs -= 1; });
    if (bid.alpha != 0) variant([&](Instance& c) { c.bids[i].alpha = 0; });
    // Rounder numbers read better: each non-integer field rounded to an integer (at least 1).
    for (double Bid::*field : {&Bid::length_mi, &Bid::budget, &Bid::deadline, &Bid::expected_response}) {
      const double rounded = std::max(1.0, std::round(bid.*field));
      if (rounded != bid.*field) variant([&](Instance& c) { c.bids[i].*field = rounded; });
    }
  }
  for (std::size_t i = 0; i < instance.running.size(); ++i) {
    const double rounded = std::max(1.0, std::round(instance.running[i].remaining));
    if (rounded != instance.running[i].remaining) variant([&](Instance& c) { c.running[i].remaining = rounded; });
  }
  if (instance.site.price != 1) variant([](Instance& c) { c.site.price = 1; });
  if (instance.site.mips != std::round(instance.site.mips))
    variant([](Instance& c) { c.site.mips = std::max(1.0, std::round(c.site.mips)); });
  return candidates.take();
}

}  // namespace schedcheck::sla
