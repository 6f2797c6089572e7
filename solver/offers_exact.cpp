// Exact provider answers by serial schedule generation (see offers_exact.hpp). Our own.
#include "solver/offers_exact.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace schedcheck::offers {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kNodesPerClockRead = 256;  // the sequence search reads the clock this often (~1 ms apart)

std::size_t total_copies(const std::vector<SerialJob>& jobs) {
  long long total = 0;
  for (const auto& job : jobs) total += job.copies;
  return static_cast<std::size_t>(total);
}

std::string over_limit(const std::vector<SerialJob>& jobs) {
  const double count = sequence_count(jobs);
  if (count <= kSequenceMaxSequences) return "";
  return fmt::format("{:.3g} task sequences; the sequence search is limited to {:g}", count, kSequenceMaxSequences);
}

// Some schedule meeting every deadline of `instance`'s waiting jobs, by exhaustive serial generation.
std::optional<Schedule> any_schedule(const Instance& instance) {
  const auto jobs = serial_jobs(instance, 0);
  const std::size_t total = total_copies(jobs);
  std::optional<Schedule> found;
  search_serial_schedules(running_profile(instance), instance.now, jobs, [&](const std::vector<SerialPlacement>& p) {
    if (p.size() < total) return Visit::kDescend;
    found = schedule_from(instance, p);
    return Visit::kStop;
  });
  return found;
}

}  // namespace

std::string new_bot_missing(const Instance& instance, long long new_tasks) {
  return new_tasks > 0 && !instance.bot ? "no new BoT" : "";
}

double active_span(const Instance& instance, const std::vector<std::size_t>& jobs, long long new_tasks) {
  double span = 0;
  for (const auto& r : instance.running) span = std::max(span, r.remaining);
  for (std::size_t i : jobs) span += instance.waiting[i].runtime * static_cast<double>(instance.waiting[i].tasks);
  if (new_tasks > 0) span += instance.bot->task_runtime * static_cast<double>(new_tasks);
  return span;
}

long long time_grid(const Instance& instance, const std::vector<std::size_t>& jobs, long long new_tasks) {
  std::vector<double> exact = {instance.now};
  for (const auto& r : instance.running) exact.push_back(r.remaining);
  for (std::size_t i : jobs) exact.push_back(instance.waiting[i].runtime);
  if (new_tasks > 0) exact.push_back(instance.bot->task_runtime);
  const double horizon = active_span(instance, jobs, new_tasks);
  // A deadline at or beyond now + horizon never binds (serial generation ends every task by then).
  for (std::size_t i : jobs)
    if (instance.waiting[i].deadline < instance.now + horizon) exact.push_back(instance.waiting[i].deadline);
  for (long long scale : {1LL, 10LL, 100LL, 1000LL}) {
    const auto on_grid = [&](double x) {
      return std::round(x * static_cast<double>(scale)) / static_cast<double>(scale) == x;
    };
    if (std::all_of(exact.begin(), exact.end(), on_grid)) return scale;
  }
  return 0;
}

Schedule fewer_new_tasks(Schedule schedule, long long tasks) {
  std::sort(schedule.new_tasks.begin(), schedule.new_tasks.end());
  schedule.new_tasks.resize(static_cast<std::size_t>(tasks));
  return schedule;
}

ExactResult<OfferList> exact_offers_sharing(const Instance& instance, const SolveOptions& options,
                                            const std::vector<OfferList>& incumbents, const EarliestFromFn& earliest) {
  const auto started = Clock::now();
  const auto until = started + std::chrono::milliseconds(options.timeout_ms);
  const auto counts = delta_counts(instance.bot->tasks);
  const std::size_t n = counts.size();
  std::vector<std::optional<Completion>> done(n);
  std::vector<std::pair<std::string, double>> phases;

  auto solve = [&](std::size_t c) {
    // Lower bound: the largest proven c* of fewer tasks. Upper bounds: the incumbents' schedules for this count and
    // any schedule for more tasks, less its latest new tasks.
    // Only the quote max(D, c*) matters: a schedule finishing by D ends the search for this count.
    double lower = instance.bot->deadline;
    for (std::size_t b = 0; b < c; ++b)
      if (done[b] && done[b]->status == ExactStatus::kOptimal) lower = std::max(lower, done[b]->finish);
    std::vector<Schedule> upper;
    for (const OfferList& list : incumbents)
      for (const CountOffer& offer : list.per_count)
        if (offer.tasks == counts[c]) upper.push_back(offer.schedule);
    for (std::size_t b = c + 1; b < n; ++b)
      if (done[b] && done[b]->schedule) upper.push_back(fewer_new_tasks(*done[b]->schedule, counts[c]));
    SolveOptions left = options;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    if (ms <= 0 || stop_requested()) {  // no new solve after the limit: building a large model alone takes seconds
      Completion skipped;
      skipped.detail = stop_requested()
                           ? stop_request_text() + " before this count"
                           : time_limit_reached(options.timeout_ms, " before this count");
      done[c] = std::move(skipped);
      return;
    }
    left.timeout_ms = static_cast<unsigned>(ms);
    const auto count_started = Clock::now();
    done[c] = earliest(counts[c], lower, upper, left);
    phases.emplace_back(fmt::format("{} tasks", counts[c]), seconds_since(count_started));
  };
  // The smallest count (its proof bounds every count from below) and the largest (its schedule bounds every count
  // from above), then halves: a count between two equal proven quotes has that quote.
  std::function<void(std::size_t, std::size_t)> fill = [&](std::size_t lo, std::size_t hi) {
    if (hi <= lo + 1) return;
    const double deadline = instance.bot->deadline;
    const bool equal = done[lo]->status == ExactStatus::kOptimal && done[hi]->status == ExactStatus::kOptimal &&
                       std::fabs(std::max(deadline, done[lo]->finish) - std::max(deadline, done[hi]->finish)) <=
                           kTimeTolerance;
    if (equal) {
      for (std::size_t c = lo + 1; c < hi; ++c) {
        Completion same = *done[hi];
        same.schedule = fewer_new_tasks(*done[hi]->schedule, counts[c]);
        same.finish = new_tasks_finish(instance, *same.schedule);
        done[c] = std::move(same);
      }
      return;
    }
    const std::size_t mid = (lo + hi) / 2;
    solve(mid);
    fill(lo, mid);
    fill(mid, hi);
  };
  solve(0);
  if (n > 1) {
    solve(n - 1);
    fill(0, n - 1);
  }
  std::size_t c = 0;
  ExactResult<OfferList> result = exact_offers(instance, [&](const Instance&, long long, double) { return *done[c++]; });
  result.phase_seconds = std::move(phases);
  result.seconds = seconds_since(started);
  return result;
}

Instance with_waiting(const Instance& instance, const std::vector<std::size_t>& keep) {
  Instance subset = instance;
  subset.waiting.clear();
  for (std::size_t i : keep) subset.waiting.push_back(instance.waiting[i]);
  subset.bot.reset();
  return subset;
}

unsigned core_budget_ms(const SolveOptions& options) {
  const double share = static_cast<double>(options.timeout_ms) * kCoreBudgetShare;
  return std::max(1u, std::min(kCoreBudgetMaxMs, static_cast<unsigned>(share)));
}

Core minimise_core(const Instance& instance, std::vector<std::size_t> jobs,
                   const std::function<CoreTest(const std::vector<std::size_t>& keep)>& test) {
  Core core;
  std::stable_sort(jobs.begin(), jobs.end(), [&](std::size_t a, std::size_t b) {
    return instance.waiting[a].deadline < instance.waiting[b].deadline;
  });
  // The shortest infeasible prefix: prefix `hi` is infeasible, prefix `lo` is not known to be.
  std::size_t lo = 0, hi = jobs.size();
  while (lo + 1 < hi) {
    const std::size_t mid = (lo + hi) / 2;
    const CoreTest answer = test(std::vector<std::size_t>(jobs.begin(), jobs.begin() + static_cast<std::ptrdiff_t>(mid)));
    if (answer == CoreTest::kStopped) {
      core.jobs.assign(jobs.begin(), jobs.begin() + static_cast<std::ptrdiff_t>(hi));
      return core;
    }
    (answer == CoreTest::kInfeasible ? hi : lo) = mid;
  }
  jobs.resize(hi);
  // Deletion, latest deadline first; the prefix's last job stays (without it the prefix is feasible).
  for (std::size_t k = jobs.size() >= 1 ? jobs.size() - 1 : 0; k-- > 0;) {
    std::vector<std::size_t> without = jobs;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(k));
    const CoreTest answer = test(without);
    if (answer == CoreTest::kStopped) {
      core.jobs = std::move(jobs);
      return core;
    }
    if (answer == CoreTest::kInfeasible) jobs = std::move(without);
  }
  std::sort(jobs.begin(), jobs.end());  // in the instance's order
  core.jobs = std::move(jobs);
  core.minimal = true;
  return core;
}

std::vector<std::size_t> all_jobs(const Instance& instance) {
  std::vector<std::size_t> jobs(instance.waiting.size());
  std::iota(jobs.begin(), jobs.end(), std::size_t{0});
  return jobs;
}

void EarliestSchedule::consider(std::optional<Schedule> schedule) {
  if (!schedule) return;
  const double finish = new_tasks_finish(instance_, *schedule);
  if (finish < finish_) {
    finish_ = finish;
    into_.schedule = std::move(schedule);
  }
}

double grid_point_at_or_after(const Instance& instance, double scale, double x) {
  return instance.now + std::ceil((x - instance.now) * scale - 1e-6) / scale;
}

std::vector<SerialJob> serial_jobs(const Instance& instance, long long new_tasks) {
  std::vector<SerialJob> jobs;
  for (const auto& job : instance.waiting) jobs.push_back(SerialJob{job.procs, job.runtime, job.deadline, job.tasks});
  if (new_tasks > 0) jobs.push_back(SerialJob{1, instance.bot->task_runtime, kForever, new_tasks});
  return jobs;
}

Schedule schedule_from(const Instance& instance, const std::vector<SerialPlacement>& placed) {
  Schedule schedule;
  schedule.starts.resize(instance.waiting.size());
  for (const auto& p : placed) {
    if (p.job < instance.waiting.size())
      schedule.starts[p.job].push_back(p.start);
    else
      schedule.new_tasks.push_back(p.start);
  }
  return schedule;
}

std::optional<Schedule> deadline_order_schedule(const Instance& instance, long long new_tasks,
                                                std::chrono::steady_clock::time_point until) {
  constexpr auto kFirstScheduleGrace = std::chrono::milliseconds(250);
  std::vector<std::size_t> order(instance.waiting.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return instance.waiting[a].deadline < instance.waiting[b].deadline;
  });
  // The new tasks at every position of the deadline order (last: feasible whenever deadline order is; at most
  // kMaxPositions positions, evenly spread, first and last included); the earliest finish of the new tasks wins.
  constexpr std::size_t kMaxPositions = 64;
  const std::size_t stride = std::max<std::size_t>(1, (order.size() + kMaxPositions) / kMaxPositions);
  std::optional<Schedule> best;
  for (std::size_t position = order.size() + 1; position-- > 0;) {
    if (new_tasks == 0 && position < order.size()) break;
    if (position != 0 && position != order.size() && position % stride != 0) continue;
    if (position < order.size() && (Clock::now() >= until || stop_requested())) break;
    std::vector<std::size_t> sequence;
    for (std::size_t k = 0; k <= order.size(); ++k) {
      if (k == position) sequence.insert(sequence.end(), static_cast<std::size_t>(new_tasks), instance.waiting.size());
      if (k < order.size())
        sequence.insert(sequence.end(), static_cast<std::size_t>(instance.waiting[order[k]].tasks), order[k]);
    }
    // The first schedule (the new tasks last) gets a grace of kFirstScheduleGrace past `until`: a count started just
    // before the limit still has an upper bound when its queue is short (tens of ms at 10,000 jobs).
    const auto give_up = position == order.size() && until != Clock::time_point::max() ? until + kFirstScheduleGrace
                                                                                           : until;
    const auto placed =
        serial_schedule(running_profile(instance), instance.now, serial_jobs(instance, new_tasks), sequence, give_up);
    if (placed && (!best || new_tasks_finish(instance, schedule_from(instance, *placed)) < new_tasks_finish(instance, *best)))
      best = schedule_from(instance, *placed);
  }
  return best;
}

std::optional<Schedule> left_shift(const Instance& instance, const Schedule& schedule) {
  std::vector<SerialPlacement> by_start;
  for (std::size_t i = 0; i < schedule.starts.size(); ++i)
    for (double start : schedule.starts[i]) by_start.push_back({i, start});
  for (double start : schedule.new_tasks) by_start.push_back({instance.waiting.size(), start});
  std::stable_sort(by_start.begin(), by_start.end(),
                   [](const SerialPlacement& a, const SerialPlacement& b) { return a.start < b.start; });
  std::vector<std::size_t> sequence;
  for (const auto& p : by_start) sequence.push_back(p.job);
  const auto placed = serial_schedule(running_profile(instance), instance.now,
                                      serial_jobs(instance, static_cast<long long>(schedule.new_tasks.size())), sequence);
  if (!placed) return std::nullopt;
  return schedule_from(instance, *placed);
}

Completion earliest_completion_sequences(const Instance& instance, long long tasks, double lower_bound,
                                         const SolveOptions& options) {
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  Completion result;
  const auto jobs = serial_jobs(instance, tasks);
  const std::size_t total = total_copies(jobs);
  const std::size_t bot = instance.waiting.size();
  const double runtime = instance.bot->task_runtime;
  double best = kForever;
  if (auto start = deadline_order_schedule(instance, tasks, until)) {
    best = new_tasks_finish(instance, *start);
    result.schedule = start;
  }
  // Depth first; the new tasks placed so far bound the completion of every extension from below.
  std::size_t nodes = 0;
  EffortMeter effort(options.effort, 1, kOfferSequenceNodesPerUnit);
  bool exhausted = false, out_of_time = false;
  search_serial_schedules(running_profile(instance), instance.now, jobs, [&](const std::vector<SerialPlacement>& p) {
    if (++nodes > kSequenceMaxNodes) {
      exhausted = true;
      return Visit::kStop;
    }
    if (effort.spend()) {
      exhausted = out_of_time = true;
      return Visit::kStop;
    }
    if (nodes % kNodesPerClockRead == 0 && (Clock::now() >= until || stop_requested())) {
      exhausted = out_of_time = true;
      return Visit::kStop;
    }
    double finish = instance.now;
    for (const auto& placement : p)
      if (placement.job == bot) finish = std::max(finish, placement.start + runtime);
    if (finish >= best - kTimeTolerance) return Visit::kPrune;
    if (p.size() < total) return Visit::kDescend;
    best = finish;
    result.schedule = schedule_from(instance, p);
    return best <= lower_bound + kTimeTolerance ? Visit::kStop : Visit::kPrune;
  });
  if (!result.schedule) {
    result.status = ExactStatus::kUnknown;
    result.detail = out_of_time ? limit_reached(effort, options.timeout_ms, " before any schedule was found")
                    : exhausted ? fmt::format("search stopped after {} nodes before any schedule was found",
                                              kSequenceMaxNodes)
                                : "no schedule keeps every accepted deadline (proven by the sequence search)";
    return result;
  }
  result.status = exhausted ? ExactStatus::kFeasible : ExactStatus::kOptimal;
  if (exhausted)
    result.detail = out_of_time ? limit_reached(effort, options.timeout_ms, fmt::format("; best found {:g}", best))
                                : fmt::format("search stopped after {} nodes; best found {:g}", kSequenceMaxNodes, best);
  result.finish = best;
  return result;
}

ExactResult<OfferList> exact_offers(const Instance& instance, const EarliestFn& earliest) {
  const auto started = Clock::now();
  ExactResult<OfferList> result;
  OfferList list;
  bool all_proven = true;
  double lower_bound = instance.now;
  std::string notes;
  for (long long tasks : delta_counts(instance.bot->tasks)) {
    const Completion c = earliest(instance, tasks, lower_bound);
    result.interrupted = result.interrupted || c.interrupted;
    if (!c.schedule) {
      result.detail = fmt::format("{} tasks: {}", tasks, c.detail);
      result.seconds = seconds_since(started);
      return result;
    }
    if (c.status != ExactStatus::kOptimal) {
      all_proven = false;
      notes += fmt::format("{}{} tasks: best found, not proven ({})", notes.empty() ? "" : "; ", tasks, c.detail);
    } else {
      lower_bound = c.finish;
    }
    CountOffer offer;
    offer.tasks = tasks;
    offer.schedule = *c.schedule;
    const double finish = new_tasks_finish(instance, offer.schedule);
    offer.completion = std::max(instance.bot->deadline, finish);
    offer.feedback = finish > instance.bot->deadline + kTimeTolerance;
    list.per_count.push_back(std::move(offer));
  }
  list.staircase = merge_offers(list.per_count);
  result.status = all_proven ? ExactStatus::kOptimal : ExactStatus::kFeasible;
  result.objective = offers_objective(instance, list);
  result.decision = std::move(list);
  result.detail = notes;
  result.seconds = seconds_since(started);
  return result;
}

ExactResult<OfferList> exact_offers_within(const Instance& instance, const SolveOptions& options,
                                           const EarliestWithinFn& earliest) {
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  return exact_offers(instance, [&](const Instance& inst, long long tasks, double lower_bound) {
    SolveOptions left = options;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    left.timeout_ms = static_cast<unsigned>(std::max<long long>(1, ms.count()));
    return earliest(inst, tasks, lower_bound, left);
  });
}

void set_schedulable(ExactResult<FeasibilityAnswer>& result, Schedule schedule) {
  FeasibilityAnswer answer;
  answer.answer = Feasibility::kSchedule;
  answer.schedule = std::move(schedule);
  result.status = ExactStatus::kOptimal;
  result.objective = 1;
  result.decision = std::move(answer);
}

void set_infeasible(ExactResult<FeasibilityAnswer>& result, const Instance& instance, const Core& core,
                    std::string detail) {
  result.status = ExactStatus::kInfeasible;
  result.decision.reset();
  result.objective = 0;
  result.core.clear();
  for (std::size_t i : core.jobs) result.core.push_back(instance.waiting[i].id);
  result.core_minimal = core.minimal;
  result.detail = std::move(detail);
}

ExactResult<FeasibilityAnswer> decide_then_core(
    const Instance& instance, const SolveOptions& options, const std::string& proof,
    const std::function<FeasibilityDecision(Clock::time_point until, std::uint64_t effort)>& decide,
    const std::function<std::vector<std::size_t>()>& first_core,
    const std::function<CoreTest(const std::vector<std::size_t>& keep, Clock::time_point until, std::uint64_t effort)>&
        test) {
  const auto started = Clock::now();
  const auto until = started + std::chrono::milliseconds(options.timeout_ms);
  ExactResult<FeasibilityAnswer> result;
  FeasibilityDecision decision = decide(until, options.effort);
  result.phase_seconds.emplace_back("decision", seconds_since(started));
  if (decision.outcome == CoreTest::kFeasible) {
    set_schedulable(result, std::move(*decision.schedule));
  } else if (decision.outcome == CoreTest::kStopped) {
    result.detail = std::move(decision.detail);
  } else {
    // The decision is made; the core gets its own budget.
    const auto core_started = Clock::now();
    const auto core_until = std::min(until, core_started + std::chrono::milliseconds(core_budget_ms(options)));
    const Core core = minimise_core(instance, first_core(),
                                    [&](const std::vector<std::size_t>& keep) { return test(keep, core_until, core_effort(options)); });
    set_infeasible(result, instance, core,
                   fmt::format("no schedule meets every deadline ({}); core of {} of {} jobs, {}", proof,
                               core.jobs.size(), instance.waiting.size(),
                               core.minimal ? "minimal" : "not minimised within its budget"));
    result.phase_seconds.emplace_back("core", seconds_since(core_started));
  }
  result.seconds = seconds_since(started);
  return result;
}

ExactResult<FeasibilityAnswer> feasibility_sequences(const Instance& instance) {
  const auto started = Clock::now();
  ExactResult<FeasibilityAnswer> result;
  if (auto why = over_limit(serial_jobs(instance, 0)); !why.empty()) {
    result.detail = why;
    return result;
  }
  if (auto schedule = any_schedule(instance)) {
    set_schedulable(result, std::move(*schedule));
  } else {
    result.phase_seconds.emplace_back("decision", seconds_since(started));
    const auto core_started = Clock::now();
    const Core core = minimise_core(instance, all_jobs(instance), [&](const std::vector<std::size_t>& keep) {
      return any_schedule(with_waiting(instance, keep)) ? CoreTest::kFeasible : CoreTest::kInfeasible;
    });
    set_infeasible(result, instance, core, "no schedule meets every deadline (every task sequence tried)");
    result.phase_seconds.emplace_back("core", seconds_since(core_started));
  }
  result.seconds = seconds_since(started);
  return result;
}

std::optional<std::string> core_refutation(const Instance& instance, const std::vector<std::string>& core) {
  std::vector<std::size_t> keep;
  for (const auto& id : core) keep.push_back(waiting_index(instance, id));
  const Instance subset = with_waiting(instance, keep);
  if (!over_limit(serial_jobs(subset, 0)).empty()) return std::nullopt;
  const auto schedule = any_schedule(subset);
  if (!schedule) return "";
  std::string starts;
  for (std::size_t i = 0; i < subset.waiting.size(); ++i)
    starts += fmt::format("{}{} at {:g}", starts.empty() ? "" : ", ", subset.waiting[i].id, schedule->starts[i].front());
  return fmt::format("the core jobs can all meet their deadlines ({})", starts);
}

}  // namespace schedcheck::offers
