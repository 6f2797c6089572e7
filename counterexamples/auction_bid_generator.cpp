// Seeded auction-bid snapshots (see auction_bid_generator.hpp). Our own.
#include "counterexamples/auction_bid_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::auction_bid {

namespace {

constexpr std::size_t kDefaultGeneratedTasks = 12;

// `value` rounded to `digits` significant digits (>= 1).
double rounded_to_digits(double value, int digits) {
  if (value <= 0) return value;
  const double scale = std::pow(10.0, std::floor(std::log10(value)) - (digits - 1));
  return std::max(scale, std::round(value / scale) * scale);
}

}  // namespace

Instance generate_instance(std::uint64_t seed, std::size_t tasks) {
  SplitMix64 rng(seed);
  Instance instance;
  instance.name = fmt::format("auction-bid-{}", seed);
  if (rng.chance(0.2)) instance.capacity = auction::Capacity::kTotal;
  const auto nr = static_cast<std::size_t>(rng.integer(1, 5));
  for (std::size_t r = 0; r < nr; ++r) {
    Resource res;
    res.spec.name = fmt::format("R{}", r);
    const bool xeon = rng.chance(0.7);
    res.spec.pes = xeon ? 4 : 1;
    res.spec.mips = xeon ? 1050 : 684;
    if (rng.chance(0.5)) {
      res.spec.min_bid = xeon ? 5 : 1;
      res.spec.max_bid = xeon ? 500 : 100;
    } else {
      res.spec.min_bid = static_cast<double>(rng.integer(1, 20));
      res.spec.max_bid = res.spec.min_bid + static_cast<double>(rng.integer(0, 200));
    }
    const auto others = rng.integer(0, 3);
    for (long long o = 0; o < others; ++o)
      res.others_bid += static_cast<double>(
          rng.integer(static_cast<long long>(res.spec.min_bid), static_cast<long long>(res.spec.max_bid)));
    res.foreign = rng.chance(0.3);
    instance.resources.push_back(std::move(res));
  }
  const std::size_t most_tasks = tasks == 0 ? kDefaultGeneratedTasks : tasks;
  const auto nt = static_cast<std::size_t>(rng.integer(1, static_cast<long long>(most_tasks)));
  double work = 0;
  for (std::size_t t = 0; t < nt; ++t) {
    Task task;
    task.id = fmt::format("t{}", t);
    task.length = static_cast<double>(rng.integer(50'000, 800'000));
    instance.tasks.push_back(std::move(task));
  }
  std::size_t next_task = 0;
  for (std::size_t r = 0; r < nr && next_task < nt; ++r)
    if (rng.chance(0.3)) {
      Task& task = instance.tasks[next_task++];
      task.running_on = r;
      task.length = static_cast<double>(rng.integer(10'000, static_cast<long long>(task.length)));
    }
  double caps = 0, widest = 0, longest = 0;
  for (std::size_t r = 0; r < nr; ++r) {
    caps += task_cap(instance, r);
    widest = std::max(widest, task_cap(instance, r));
  }
  for (const Task& t : instance.tasks) {
    work += t.length;
    longest = std::max(longest, t.length);
  }
  // At least the time the longest task takes alone on the fastest PE, and the work spread over every PE's cap.
  const double least = std::max(work / caps, longest / widest);
  instance.time_left = std::max(1.0, std::round(least * rng.uniform(0.7, 3.0)));
  return instance;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  ShrinkCandidates<Instance> out(instance);
  for (std::size_t r = 0; r < instance.resources.size() && instance.resources.size() > 1; ++r)
    out.add([r](Instance& c) {
      c.resources.erase(c.resources.begin() + static_cast<std::ptrdiff_t>(r));
      for (Task& t : c.tasks)
        if (t.running_on == r) t.running_on = kNoResource;
        else if (t.running_on != kNoResource && t.running_on > r) --t.running_on;
    });
  if (instance.tasks.size() > 1) out.drop_each(&Instance::tasks);
  for (std::size_t t = 0; t < instance.tasks.size(); ++t)
    if (instance.tasks[t].running_on != kNoResource) out.add([t](Instance& c) { c.tasks[t].running_on = kNoResource; });
  for (std::size_t r = 0; r < instance.resources.size(); ++r) {
    if (instance.resources[r].foreign) out.add([r](Instance& c) { c.resources[r].foreign = false; });
    if (instance.resources[r].others_bid > 0) out.add([r](Instance& c) { c.resources[r].others_bid = 0; });
  }
  for (int digits : {1, 2}) {
    out.add([digits](Instance& c) {
      for (Task& t : c.tasks) t.length = rounded_to_digits(t.length, digits);
    });
    out.add([digits](Instance& c) { c.time_left = rounded_to_digits(c.time_left, digits); });
    out.add([digits](Instance& c) {
      for (Resource& r : c.resources) {
        r.others_bid = rounded_to_digits(r.others_bid, digits);
        r.spec.min_bid = rounded_to_digits(r.spec.min_bid, digits);
        r.spec.max_bid = std::max(r.spec.min_bid, rounded_to_digits(r.spec.max_bid, digits));
      }
    });
  }
  std::vector<Instance> candidates = out.take();
  // A candidate equal to the instance is no simplification.
  const nlohmann::json same = write_instance(instance);
  std::erase_if(candidates, [&](const Instance& c) { return write_instance(c) == same; });
  return candidates;
}

}  // namespace schedcheck::auction_bid
