// Seeded BoT-offer instances, shrinking and exhaustive enumeration (see compose_generator.hpp). Our own.
#include "counterexamples/compose_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"
#include "model/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace schedcheck::compose {

namespace {
constexpr int kMaxGeneratedProcessors = 16;
constexpr double kOfferFractions[] = {0.10, 0.25, 0.50, 0.75, 1.00};  // paper 000 III-A, Delta
constexpr long long kScopeLimit = 12;  // largest P, K or V accepted in a scope (the enumeration grows as V^(2KP))

long long covered(const Instance& instance) {
  long long sum = 0;
  for (const auto& p : instance.providers)
    if (!p.offers.empty()) sum += p.offers.back().tasks;
  return sum;
}

}  // namespace

Instance generate_instance(std::uint64_t seed, std::size_t providers) {
  SplitMix64 rng(seed);
  Instance instance;
  instance.name = fmt::format("random-seed-{}-p{}", seed, providers);
  instance.bot.tasks = rng.integer(1, kMaxGeneratedTasks);
  instance.bot.task_runtime = static_cast<double>(rng.integer(1, 10));
  std::vector<double> whole_bot;
  for (std::size_t p = 0; p < std::max<std::size_t>(providers, 1); ++p) {
    Provider provider;
    provider.id = fmt::format("p{}", p + 1);
    provider.processors = static_cast<int>(rng.integer(1, kMaxGeneratedProcessors));
    provider.load = static_cast<double>(rng.integer(0, 100));
    double time = static_cast<double>(rng.integer(0, 20));
    const auto slots = rng.integer(1, 3);
    for (long long s = 0; s < slots; ++s) {
      FreeSlot slot;
      slot.start = time;
      slot.end = s + 1 == slots ? kForever : time + static_cast<double>(rng.integer(1, 40));
      slot.processors = static_cast<int>(rng.integer(1, provider.processors));
      provider.free_slots.push_back(slot);
      if (slot.end != kForever) time = slot.end + static_cast<double>(rng.integer(0, 20));
    }
    std::vector<Offer> by_size;
    for (double fraction : kOfferFractions) {
      const long long tasks = std::max(1LL, static_cast<long long>(std::ceil(fraction * static_cast<double>(instance.bot.tasks))));
      by_size.push_back({tasks, *slot_completion(provider, instance.bot.task_runtime, 0, tasks)});
    }
    provider.offers = merge_into_staircase(by_size);
    whole_bot.push_back(provider.offers.back().completion);
    instance.providers.push_back(std::move(provider));
  }
  std::sort(whole_bot.begin(), whole_bot.end());
  instance.bot.deadline = std::max(1.0, std::ceil(whole_bot[whole_bot.size() / 2] * rng.uniform(0.5, 1.5)));
  return instance;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  ShrinkCandidates<Instance> candidates(instance, [](Instance& c) {
    if (c.providers.empty() || covered(c) < c.bot.tasks) return false;
    for (const auto& p : c.providers)
      if (!staircase_violation(p.offers).empty()) return false;
    return true;
  });
  auto variant = [&](auto&& change) { candidates.add(change); };
  candidates.drop_each(&Instance::providers);
  for (std::size_t p = 0; p < instance.providers.size(); ++p)
    for (std::size_t j = 0; j < instance.providers[p].offers.size(); ++j)
      variant([&](Instance& c) { c.providers[p].offers.erase(c.providers[p].offers.begin() + static_cast<std::ptrdiff_t>(j)); });
  if (instance.bot.tasks > 1) {
    variant([](Instance& c) { c.bot.tasks = std::max(1LL, c.bot.tasks / 2); });
    variant([](Instance& c) { c.bot.tasks -= 1; });
  }
  for (std::size_t p = 0; p < instance.providers.size(); ++p) {
    const Provider& provider = instance.providers[p];
    for (std::size_t j = 0; j < provider.offers.size(); ++j) {
      if (provider.offers[j].tasks > 1) {
        variant([&](Instance& c) { c.providers[p].offers[j].tasks = std::max(1LL, c.providers[p].offers[j].tasks / 2); });
        variant([&](Instance& c) { c.providers[p].offers[j].tasks -= 1; });
      }
      if (provider.offers[j].completion > 1)
        variant([&](Instance& c) { c.providers[p].offers[j].completion -= 1; });
    }
    if (provider.processors > 1) variant([&](Instance& c) {
      c.providers[p].processors = std::max(1, c.providers[p].processors / 2);
      for (auto& slot : c.providers[p].free_slots) slot.processors = std::min(slot.processors, c.providers[p].processors);
    });
    if (provider.load != 0) variant([&](Instance& c) { c.providers[p].load = 0; });
    if (!provider.free_slots.empty()) variant([&](Instance& c) { c.providers[p].free_slots.clear(); });
  }
  if (instance.bot.deadline > 1) variant([](Instance& c) { c.bot.deadline -= 1; });
  return candidates.take();
}

void enumerate_instances(const std::string& scope, const std::function<void(const Instance&)>& visit) {
  std::map<std::string, long long> bound = {{"providers", 3}, {"offers", 2}, {"max", 4}};
  const std::string text = scope.empty() ? kDefaultScope : scope;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    long long value = 0;
    try {
      std::size_t used = 0;
      value = eq == std::string::npos ? -1 : std::stoll(item.substr(eq + 1), &used);
      if (eq != std::string::npos && used != item.size() - eq - 1) value = -1;
    } catch (const std::exception&) {
      value = -1;
    }
    if (!bound.count(key) || value < 1 || value > kScopeLimit)
      throw InputError(fmt::format("--scope: {}: expected providers=P, offers=K or max=V with values 1..{}, "
                                   "comma-separated (e.g. {})", quoted_text(item), kScopeLimit, kDefaultScope));
    bound[key] = value;
    at = comma + 1;
  }
  const long long max_value = bound["max"];
  // Every staircase of 1..K offers with tasks and completions in 1..V, crossed with (processors, load).
  std::vector<Provider> kinds;
  std::vector<Offer> current;
  std::function<void(long long, long long)> extend = [&](long long min_tasks, long long min_time) {
    if (!current.empty())
      for (int power : {1, 2}) {
        Provider provider;
        provider.processors = power;
        provider.load = 3 - power;
        provider.offers = current;
        kinds.push_back(provider);
      }
    if (static_cast<long long>(current.size()) == bound["offers"]) return;
    for (long long tasks = min_tasks; tasks <= max_value; ++tasks)
      for (long long time = min_time; time <= max_value; ++time) {
        current.push_back({tasks, static_cast<double>(time)});
        extend(tasks + 1, time + 1);
        current.pop_back();
      }
  };
  extend(1, 1);
  Instance instance;
  std::vector<std::size_t> chosen;
  std::function<void(std::size_t)> pick = [&](std::size_t first) {
    if (!chosen.empty()) {
      instance.providers.clear();
      for (std::size_t k = 0; k < chosen.size(); ++k) {
        instance.providers.push_back(kinds[chosen[k]]);
        instance.providers.back().id = fmt::format("p{}", k + 1);
      }
      for (long long n = 1; n <= max_value; ++n) {
        instance.bot.tasks = n;
        if (covered(instance) < n) break;
        for (long long deadline = 1; deadline <= max_value; ++deadline) {
          instance.bot.deadline = static_cast<double>(deadline);
          instance.name = fmt::format("exhaustive {} n={} D={}", text, n, deadline);
          visit(instance);
        }
      }
    }
    if (static_cast<long long>(chosen.size()) == bound["providers"]) return;
    for (std::size_t k = first; k < kinds.size(); ++k) {  // multisets: non-decreasing kind indices
      chosen.push_back(k);
      pick(k);
      chosen.pop_back();
    }
  };
  pick(0);
}

}  // namespace schedcheck::compose
