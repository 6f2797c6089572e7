// Seeded provider snapshots and shrinking (see offers_generator.hpp). Our own.
#include "counterexamples/offers_generator.hpp"

#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"
#include "reference/offers_policies.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

namespace schedcheck::offers {

namespace {
constexpr long long kMaxRuntime = 30;
constexpr long long kMaxRemaining = 30;
constexpr long long kMaxSlack = 40;
constexpr long long kMaxBotSlack = 60;
constexpr long long kMaxNow = 100;

// Admission one job at a time, deciding exactly what EDF over the whole accepted work decides (edf_feasibility),
// without a full EDF run per job (10,000 jobs: 0.4 s instead of 36 s; docs/performance.md): the accepted work's EDF
// schedule is kept (its profile, each job's starts, the fill cursor before each position). A job entering the order at
// position p changes only positions p on, and the check stops at the first late job; the positions before p are
// rebuilt from their starts when there are fewer of them than after p, else the positions from p are lifted off the
// kept profile (and put back when the job is refused). Our own; tests/test_offers.cpp compares it with full runs.
class Admission {
public:
  explicit Admission(const Instance& instance) : instance_(instance), profile_(running_profile(instance)) {
    cursors_.emplace_back(instance.now);
  }

  // Whether EDF over the accepted work plus waiting job `index` (its deadline as set now) keeps every deadline;
  // if so the job is accepted.
  bool try_accept(std::size_t index) {
    const double deadline = instance_.waiting[index].deadline;
    const auto p = static_cast<std::size_t>(
        std::upper_bound(order_.begin(), order_.end(), deadline,
                         [&](double d, const Placed& placed) { return d < instance_.waiting[placed.index].deadline; }) -
        order_.begin());
    const bool rebuild = p < order_.size() - p;
    std::optional<AvailabilityProfile> rebuilt;
    if (rebuild) {
      rebuilt = running_profile(instance_);
      for (std::size_t k = 0; k < p; ++k) hold(*rebuilt, order_[k], true);
    } else {
      for (std::size_t k = p; k < order_.size(); ++k) hold(profile_, order_[k], false);
    }
    AvailabilityProfile& profile = rebuild ? *rebuilt : profile_;
    FillCursor cursor = cursors_[p];
    std::vector<FillCursor> cursors;
    std::vector<Placed> placed;
    bool late = false;
    for (std::size_t k = p; k <= order_.size() && !late; ++k) {
      const std::size_t i = k == p ? index : order_[k - 1].index;  // the new job first, then the order from p
      const WaitingJob& job = instance_.waiting[i];
      cursors.push_back(cursor);
      placed.push_back(Placed{i, {}});
      place_earliest(profile, cursor, instance_.now, job.procs, job.runtime, job.tasks, placed.back().starts);
      late = placed.back().starts.back() + job.runtime > job.deadline + kTimeTolerance;
    }
    if (late) {
      if (!rebuild) {  // back to the accepted schedule
        for (const Placed& job : placed) hold(profile_, job, false);
        for (std::size_t k = p; k < order_.size(); ++k) hold(profile_, order_[k], true);
      }
      return false;
    }
    cursors.push_back(cursor);
    order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(p), order_.end());
    order_.insert(order_.end(), std::make_move_iterator(placed.begin()), std::make_move_iterator(placed.end()));
    cursors_.erase(cursors_.begin() + static_cast<std::ptrdiff_t>(p), cursors_.end());
    cursors_.insert(cursors_.end(), cursors.begin(), cursors.end());
    if (rebuild) profile_ = std::move(*rebuilt);
    return true;
  }

  // When waiting job `index` would finish placed after all the accepted work (EDF with its deadline at infinity).
  double finish_when_last(std::size_t index) {
    const WaitingJob& job = instance_.waiting[index];
    FillCursor cursor = cursors_.back();
    Placed last{index, {}};
    place_earliest(profile_, cursor, instance_.now, job.procs, job.runtime, job.tasks, last.starts);
    hold(profile_, last, false);
    double finish = 0;
    for (double start : last.starts) finish = std::max(finish, start + job.runtime);
    return finish;
  }

private:
  struct Placed {
    std::size_t index;
    std::vector<double> starts;
  };
  // Reserves (take) or releases a placed job's tasks.
  void hold(AvailabilityProfile& profile, const Placed& placed, bool take) const {
    const WaitingJob& job = instance_.waiting[placed.index];
    for (double start : placed.starts) {
      if (take) profile.reserve(start, start + job.runtime, job.procs);
      else profile.release(start, start + job.runtime, job.procs);
    }
  }

  const Instance& instance_;
  AvailabilityProfile profile_;    // the accepted work's EDF schedule
  std::vector<Placed> order_;      // the accepted jobs in EDF order (deadline, then arrival), with their starts
  std::vector<FillCursor> cursors_;  // [k]: the fill cursor before position k is placed; [size]: after all
};

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
  Admission admission(instance);
  for (std::size_t i = 0; i < waiting; ++i) {
    if (stop_requested()) throw StopRequested();
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
    const std::size_t index = instance.waiting.size() - 1;
    if (!settings.repair || admission.try_accept(index)) continue;
    // Raise the deadline to the job's completion with the job last in EDF order (what FEEDBACK would offer).
    instance.waiting.back().deadline = std::ceil(admission.finish_when_last(index));
    if (!admission.try_accept(index)) instance.waiting.pop_back();
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
