// Seeded provider snapshots and shrinking (see offers_generator.hpp). Our own.
#include "counterexamples/offers_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"
#include "reference/offers_policies.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::offers {

namespace {
constexpr long long kMaxRuntime = 30;
constexpr long long kMaxRemaining = 30;
constexpr long long kMaxSlack = 40;
constexpr long long kMaxBotSlack = 60;
constexpr long long kMaxNow = 100;

int log2_floor(int value) {
  int bits = 0;
  while (value > 1) {
    value /= 2;
    ++bits;
  }
  return bits;
}
}  // namespace

Instance generate_instance(std::uint64_t seed, std::size_t waiting, const GeneratorSettings& settings) {
  SplitMix64 rng(seed);
  Instance instance;
  instance.name = fmt::format("random-seed-{}-n{}", seed, waiting);
  instance.processors =
      1 << rng.integer(log2_floor(settings.min_processors), log2_floor(settings.max_processors));
  instance.now = static_cast<double>(rng.integer(0, kMaxNow));
  const auto running = rng.integer(0, 2);
  for (long long k = 0; k < running; ++k)
    instance.running.push_back(RunningJob{fmt::format("r{}", k + 1),
                                          static_cast<int>(rng.integer(1, std::max(1, instance.processors / 2))),
                                          static_cast<double>(rng.integer(1, kMaxRemaining))});
  for (std::size_t i = 0; i < waiting; ++i) {
    if (stop_requested()) throw StopRequested();  // the admission below is quadratic: large sizes take minutes
    WaitingJob job;
    if (rng.chance(0.5)) {
      job.id = fmt::format("j{}", i + 1);
      job.type = JobType::kLocal;
      job.procs = static_cast<int>(rng.integer(1, instance.processors));
      job.tasks = 1;
    } else {
      job.id = fmt::format("b{}", i + 1);
      job.type = JobType::kBotPart;
      job.procs = 1;
      job.tasks = rng.integer(1, settings.max_part_tasks);
    }
    job.runtime = static_cast<double>(rng.integer(1, kMaxRuntime));
    job.deadline = instance.now + job.runtime + static_cast<double>(rng.integer(0, kMaxSlack));
    instance.waiting.push_back(job);
    if (!settings.repair || edf_accepted_work_violation(instance).empty()) continue;
    // Raise the deadline to the job's completion with the job last in EDF order (what FEEDBACK would offer).
    instance.waiting.back().deadline = kForever;
    const FeasibilityAnswer last = edf_feasibility(instance);
    double finish = 0;
    for (double start : last.schedule.starts.back()) finish = std::max(finish, start + job.runtime);
    instance.waiting.back().deadline = std::ceil(finish);
    if (!edf_accepted_work_violation(instance).empty()) instance.waiting.pop_back();
  }
  if (settings.with_bot) {
    NewBot bot;
    bot.id = "new";
    bot.tasks = rng.integer(2, settings.max_bot_tasks);
    bot.task_runtime = static_cast<double>(rng.integer(1, kMaxRuntime));
    bot.deadline = instance.now + bot.task_runtime + static_cast<double>(rng.integer(0, kMaxBotSlack));
    instance.bot = bot;
  }
  return instance;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  ShrinkCandidates<Instance> candidates(instance);
  auto variant = [&](auto&& change) { candidates.add(change); };
  candidates.drop_each(&Instance::waiting);
  candidates.drop_each(&Instance::running);
  if (instance.bot && instance.bot->tasks > 1) {
    variant([](Instance& c) { c.bot->tasks = std::max(1LL, c.bot->tasks / 2); });
    variant([](Instance& c) { c.bot->tasks -= 1; });
  }
  for (std::size_t i = 0; i < instance.waiting.size(); ++i) {
    const WaitingJob& job = instance.waiting[i];
    if (job.tasks > 1) variant([&](Instance& c) { c.waiting[i].tasks -= 1; });
    if (job.procs > 1) variant([&](Instance& c) { c.waiting[i].procs = std::max(1, job.procs / 2); });
    if (job.procs > 1) variant([&](Instance& c) { c.waiting[i].procs -= 1; });
  }
  int needed = 1, running = 0;
  for (const auto& job : instance.waiting) needed = std::max(needed, job.procs);
  for (const auto& job : instance.running) running += job.procs;
  needed = std::max(needed, running);
  if (instance.processors > needed) {
    variant([&](Instance& c) { c.processors = std::max(needed, c.processors / 2); });
    variant([](Instance& c) { c.processors -= 1; });
  }
  for (std::size_t i = 0; i < instance.running.size(); ++i)
    if (instance.running[i].procs > 1) variant([&](Instance& c) { c.running[i].procs -= 1; });
  if (instance.now != 0)
    variant([](Instance& c) {
      for (auto& job : c.waiting) job.deadline -= c.now;
      if (c.bot) c.bot->deadline -= c.now;
      c.now = 0;
    });
  return candidates.take();
}

}  // namespace schedcheck::offers
