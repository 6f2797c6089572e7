// Seeded queue windows and their shrinking (see window_generator.hpp). Our own.
#include "counterexamples/window_generator.hpp"

#include "counterexamples/job_sizes.hpp"
#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::window {

namespace {
constexpr int kMaxEstimate = 100;  // s: a waiting job's estimate is U{1..kMaxEstimate}
}  // namespace

Instance generate_instance(std::uint64_t seed, std::size_t waiting) {
  SplitMix64 rng(seed);
  Instance w;
  w.name = "generated-seed" + std::to_string(seed);
  w.processors = draw_machine_processors(rng);
  w.now = 1000;
  const double pick = rng.uniform(0, 1);
  w.objective = pick < 0.6 ? Objective::kBoundedSlowdown : pick < 0.8 ? Objective::kWait : Objective::kMakespan;
  int busy = 0;
  const long long running = rng.integer(0, 3);
  for (long long r = 0; r < running; ++r) {
    const int procs = static_cast<int>(rng.integer(1, std::max(1, w.processors / 2)));
    const double remaining = static_cast<double>(rng.integer(1, 100));
    if (busy + procs > w.processors) break;
    busy += procs;
    w.running.push_back(RunningJob{fmt::format("r{}", r + 1), procs, remaining});
  }
  std::vector<double> submits;
  for (std::size_t i = 0; i < waiting; ++i) submits.push_back(w.now - static_cast<double>(rng.integer(0, 500)));
  std::sort(submits.begin(), submits.end());
  for (std::size_t i = 0; i < waiting; ++i) {
    WaitingJob job;
    job.id = fmt::format("w{}", i + 1);
    job.submit = submits[i];
    const JobSize size = draw_job_size(rng, w.processors, kMaxEstimate);
    job.procs = size.procs;
    job.estimate = size.seconds;
    w.waiting.push_back(job);
  }
  return w;
}

std::vector<Instance> shrink_candidates(const Instance& instance) {
  ShrinkCandidates<Instance> out(instance);
  out.drop_each(&Instance::waiting);
  out.drop_each(&Instance::running);
  for (std::size_t i = 0; i < instance.waiting.size(); ++i) {
    if (instance.waiting[i].submit < instance.now && (i + 1 == instance.waiting.size()))
      out.add([&](Instance& c) { c.waiting[i].submit = c.now; });  // the last one only: queue order stays sorted
    if (instance.waiting[i].estimate > 1)
      out.add([&](Instance& c) { c.waiting[i].estimate = std::ceil(c.waiting[i].estimate / 2); });
    if (instance.waiting[i].procs > 1) out.add([&](Instance& c) { c.waiting[i].procs = (c.waiting[i].procs + 1) / 2; });
  }
  for (std::size_t r = 0; r < instance.running.size(); ++r) {
    if (instance.running[r].remaining > 1)
      out.add([&](Instance& c) { c.running[r].remaining = std::ceil(c.running[r].remaining / 2); });
    if (instance.running[r].procs > 1) out.add([&](Instance& c) { c.running[r].procs = (c.running[r].procs + 1) / 2; });
  }
  int widest = 0, busy = 0;
  for (const auto& w : instance.waiting) widest = std::max(widest, w.procs);
  for (const auto& r : instance.running) busy += r.procs;
  if (instance.processors > std::max({1, widest, busy})) out.add([](Instance& c) { c.processors -= 1; });
  return out.take();
}

}  // namespace schedcheck::window
