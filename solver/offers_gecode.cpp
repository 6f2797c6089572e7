// Gecode formulations for a provider (see offers_gecode.hpp). Our own encoding.
#include "solver/offers_gecode.hpp"
#include "solver/gecode_stop.hpp"

#include <fmt/format.h>
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>

namespace schedcheck::offers {

namespace {

using Clock = std::chrono::steady_clock;

// Horizons beyond this (in grid units) are refused: Gecode's int variables and the cumulative energy sums must
// not overflow.
constexpr double kMaxHorizonUnits = 1e9;
// Tasks (start variables) beyond this are refused before the model is built: Gecode's first propagation of the
// cumulative constraint, which no time limit interrupts, grows with about the square of the tasks (generated
// instances: 260 tasks 0.16 s, 300 tasks up to 0.7 s, 800 tasks 3.5 s, 1,400 tasks 8.6 s, 2,300 tasks 23 s).
constexpr long long kMaxGecodeTasks = 300;
struct Task {
  std::size_t owner;  // waiting index; waiting.size() for the new BoT
  int duration;
  int height;
  int latest;         // latest start, relative to now
};

// The integer model of an instance (a subset of its waiting jobs, plus `new_tasks` new tasks).
struct Data {
  std::string why_unknown;           // non-empty: not on the grid / too large; nothing else is set
  bool infeasible = false;           // a task can never fit (too wide, or its deadline is before now + runtime)
  long long scale = 1;
  long long now = 0;                 // now in grid units (absolute)
  int horizon = 0;                   // every active schedule ends by now + horizon
  int processors = 0;
  std::vector<Task> tasks;           // waiting tasks (in job order), then the new tasks
  std::vector<std::pair<int, int>> running;  // (remaining, processors), fixed at now
  std::vector<std::pair<int, int>> identical;  // [first, last) task ranges with non-decreasing starts
  int new_first = -1;                // index of the first new task
  int new_count = 0;
  int new_duration = 0;
};

Data build(const Instance& instance, const std::vector<std::size_t>& jobs, long long new_tasks) {
  Data d;
  long long tasks = std::max(0LL, new_tasks);
  for (std::size_t i : jobs) tasks += instance.waiting[i].tasks;
  if (tasks > kMaxGecodeTasks) {
    d.why_unknown = fmt::format("gecode: {} tasks exceed its limit of {} (its first propagation is not interrupted "
                                "by the time limit; use bnb, sat or mip)", tasks, kMaxGecodeTasks);
    return d;
  }
  const double horizon = active_span(instance, jobs, new_tasks);
  d.scale = time_grid(instance, jobs, new_tasks);
  if (d.scale == 0) {
    d.why_unknown = "gecode needs times on a 1 ms grid (now, runtimes, remaining times and binding deadlines)";
    return d;
  }
  const double s = static_cast<double>(d.scale);
  if (horizon * s > kMaxHorizonUnits || instance.processors > 1'000'000'000) {
    d.why_unknown = fmt::format("gecode: horizon of {:g} s at a {:g} s grid exceeds {:g} grid units", horizon, 1 / s,
                                kMaxHorizonUnits);
    return d;
  }
  auto units = [&](double x) { return static_cast<long long>(std::llround(x * s)); };
  d.now = units(instance.now);
  d.processors = instance.processors;
  long long h = 0;
  for (const auto& r : instance.running) {
    d.running.emplace_back(static_cast<int>(units(r.remaining)), r.procs);
    h = std::max(h, units(r.remaining));
    if (r.procs > instance.processors) d.infeasible = true;
  }
  for (std::size_t i : jobs) h += units(instance.waiting[i].runtime) * instance.waiting[i].tasks;
  if (new_tasks > 0) h += units(instance.bot->task_runtime) * new_tasks;
  d.horizon = static_cast<int>(h);
  for (std::size_t i : jobs) {
    const WaitingJob& job = instance.waiting[i];
    const int duration = static_cast<int>(units(job.runtime));
    long long end = d.horizon;
    if (job.deadline < instance.now + horizon) end = std::min<long long>(end, units(job.deadline) - d.now);
    const long long latest = end - duration;
    if (latest < 0 || job.procs > instance.processors) d.infeasible = true;
    const int first = static_cast<int>(d.tasks.size());
    for (long long t = 0; t < job.tasks; ++t)
      d.tasks.push_back(Task{i, duration, job.procs, static_cast<int>(std::max<long long>(latest, 0))});
    if (job.tasks > 1) d.identical.emplace_back(first, static_cast<int>(d.tasks.size()));
  }
  if (new_tasks > 0) {
    d.new_first = static_cast<int>(d.tasks.size());
    d.new_count = static_cast<int>(new_tasks);
    d.new_duration = static_cast<int>(units(instance.bot->task_runtime));
    if (instance.processors < 1) d.infeasible = true;
    for (long long t = 0; t < new_tasks; ++t)
      d.tasks.push_back(Task{instance.waiting.size(), d.new_duration, 1, d.horizon - d.new_duration});
    if (new_tasks > 1) d.identical.emplace_back(d.new_first, static_cast<int>(d.tasks.size()));
  }
  return d;
}

// Starts relative to now; `completion` = the last new task's end (new tasks start in non-decreasing order),
// 0 without new tasks. Minimised by BAB; DFS ignores it.
class Model : public Gecode::IntMinimizeSpace {
 public:
  Gecode::IntVarArray start;
  Gecode::IntVar completion;

  Model(const Data& d, int lower, int upper) : start(*this, static_cast<int>(d.tasks.size())) {
    using namespace Gecode;
    IntVarArgs all;
    IntArgs duration, height;
    for (std::size_t i = 0; i < d.tasks.size(); ++i) {
      start[static_cast<int>(i)] = IntVar(*this, 0, d.tasks[i].latest);
      all << start[static_cast<int>(i)];
      duration << d.tasks[i].duration;
      height << d.tasks[i].height;
    }
    for (const auto& [remaining, procs] : d.running) {
      all << IntVar(*this, 0, 0);
      duration << remaining;
      height << procs;
    }
    cumulative(*this, d.processors, all, duration, height, IPL_BASIC_ADVANCED);
    for (const auto& [first, last] : d.identical)
      for (int t = first + 1; t < last; ++t) rel(*this, start[t - 1], IRT_LQ, start[t]);
    if (d.new_count > 0) {
      completion = IntVar(*this, std::max(lower, d.new_duration), std::max(upper, 0));
      rel(*this, completion == start[d.new_first + d.new_count - 1] + d.new_duration);
    } else {
      completion = IntVar(*this, 0, 0);
    }
    // Branch on starts: the smallest earliest start first (ties: the earlier deadline, then job order), at it.
    std::vector<int> order(d.tasks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return d.tasks[a].latest + d.tasks[a].duration < d.tasks[b].latest + d.tasks[b].duration;
    });
    IntVarArgs ordered;
    for (int i : order) ordered << start[i];
    if (ordered.size() > 0) branch(*this, ordered, INT_VAR_MIN_MIN(), INT_VAL_MIN());
    branch(*this, completion, INT_VAL_MIN());
  }
  Model(Model& other) : Gecode::IntMinimizeSpace(other) {
    start.update(*this, other.start);
    completion.update(*this, other.completion);
  }
  Gecode::Space* copy() override { return new Model(*this); }
  Gecode::IntVar cost() const override { return completion; }
};

Schedule read_schedule(const Instance& instance, const Data& d, const Model& m) {
  Schedule schedule;
  schedule.starts.resize(instance.waiting.size());
  const double s = static_cast<double>(d.scale);
  for (std::size_t i = 0; i < d.tasks.size(); ++i) {
    const double at = static_cast<double>(d.now + m.start[static_cast<int>(i)].val()) / s;
    auto& target = d.tasks[i].owner < instance.waiting.size() ? schedule.starts[d.tasks[i].owner] : schedule.new_tasks;
    target.push_back(at);
  }
  return schedule;
}

struct SearchOutcome {
  bool exhausted = false;         // the search space was explored completely
  bool effort_spent = false;      // not exhausted: the effort budget stopped it (else the time limit)
  std::optional<Schedule> best;   // the last (best) solution found
};

// BAB (minimise) or DFS (first solution) within `ms` milliseconds and `effort` units (0: no budget).
SearchOutcome search(const Instance& instance, const Data& d, int lower, int upper, bool minimise, unsigned long ms,
                     std::uint64_t effort) {
  SearchOutcome out;
  if (d.new_count > 0) lower = std::max(lower, d.new_duration);
  if (d.infeasible || upper < lower) {
    out.exhausted = true;
    return out;
  }
  auto root = std::make_unique<Model>(d, lower, upper);
  const auto stop = gecode_support::time_or_stop_request(ms, effort);
  Gecode::Search::Options options;
  options.threads = 1;
  options.stop = stop.get();
  if (minimise) {
    Gecode::BAB<Model> engine(root.get(), options);
    while (Model* solution = engine.next()) {
      out.best = read_schedule(instance, d, *solution);
      delete solution;
    }
    out.exhausted = !engine.stopped();
  } else {
    Gecode::DFS<Model> engine(root.get(), options);
    if (Model* solution = engine.next()) {
      out.best = read_schedule(instance, d, *solution);
      delete solution;
      out.exhausted = true;  // a solution answers the question
    } else {
      out.exhausted = !engine.stopped();
    }
  }
  out.effort_spent = !out.exhausted && stop->effort_spent();
  return out;
}

unsigned long ms_left(Clock::time_point until) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
  return left > 0 ? static_cast<unsigned long>(left) : 0;
}

}  // namespace

Completion earliest_completion_gecode(const Instance& instance, long long tasks, double lower_bound,
                                      const SolveOptions& options) {
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  Completion result;
  std::vector<std::size_t> jobs(instance.waiting.size());
  std::iota(jobs.begin(), jobs.end(), 0);
  result.detail = new_bot_missing(instance, tasks);
  if (!result.detail.empty()) return result;
  const Data d = build(instance, jobs, tasks);
  if (!d.why_unknown.empty()) {
    result.detail = d.why_unknown;
    return result;
  }
  const double s = static_cast<double>(d.scale);
  // The completion in grid units, relative to now: at least the proven bound, below the incumbent.
  const long long lower = std::max(0LL, static_cast<long long>(std::ceil(lower_bound * s - static_cast<double>(d.now) - 1e-3)));
  long long upper = d.horizon;
  if (auto incumbent = deadline_order_schedule(instance, tasks, until)) {
    result.finish = new_tasks_finish(instance, *incumbent);
    result.schedule = std::move(incumbent);
    upper = std::min<long long>(upper, static_cast<long long>(std::ceil(result.finish * s - static_cast<double>(d.now) - 1e-3)) - 1);
  }
  try {
    const long long lo = std::min<long long>(lower, d.horizon);
    // One branch-and-bound with the plain branching (complete). SetTimes with postponement, alternated with it
    // before, is not: Gecode's cumulative does not keep each start's minimum at its earliest feasible start, so the
    // postponement rule cut optimal schedules (generate offers --seed 4 --size 10: 4 tasks "proven" at 107, a
    // schedule finishes them at 95; docs/performance.md).
    const SearchOutcome out = search(instance, d, static_cast<int>(lo), static_cast<int>(std::max(upper, -1LL)), true,
                                     ms_left(until), options.effort);
    const auto limit = [&](std::string_view then) {
      return out.effort_spent ? effort_budget_reached(options.effort, then) : time_limit_reached(options.timeout_ms, then);
    };
    if (out.best) {
      result.schedule = out.best;
      result.finish = new_tasks_finish(instance, *out.best);
    }
    if (!result.schedule) {
      result.detail = out.exhausted ? "no schedule keeps every accepted deadline (gecode: search space exhausted)"
                                    : limit({});
      return result;
    }
    result.status = out.exhausted ? ExactStatus::kOptimal : ExactStatus::kFeasible;
    if (!out.exhausted)
      result.detail = limit(fmt::format("; best found {:g}", result.finish));
  } catch (const Gecode::Exception& ex) {
    result.status = result.schedule ? ExactStatus::kFeasible : ExactStatus::kUnknown;
    result.detail = fmt::format("gecode error: {}", ex.what());
  }
  return result;
}

ExactResult<FeasibilityAnswer> feasibility_gecode(const Instance& instance, const SolveOptions& options) {
  const auto started = Clock::now();
  auto run = [&](const std::vector<std::size_t>& jobs, Clock::time_point until, std::uint64_t effort) {
    FeasibilityDecision d;
    const Data data = build(instance, jobs, 0);
    if (!data.why_unknown.empty()) {
      d.detail = data.why_unknown;
      return d;
    }
    SearchOutcome out = search(instance, data, 0, 0, false, ms_left(until), effort);
    d.outcome = out.best ? CoreTest::kFeasible : out.exhausted ? CoreTest::kInfeasible : CoreTest::kStopped;
    d.schedule = std::move(out.best);
    if (d.outcome == CoreTest::kStopped)
      d.detail = out.effort_spent ? effort_budget_reached(effort) : time_limit_reached(options.timeout_ms);
    return d;
  };
  try {
    return decide_then_core(
        instance, options, "gecode: search space exhausted",
        [&](Clock::time_point until, std::uint64_t effort) { return run(all_jobs(instance), until, effort); },
        [&] { return all_jobs(instance); },
        [&](const std::vector<std::size_t>& keep, Clock::time_point until, std::uint64_t effort) {
          return run(keep, until, effort).outcome;
        });
  } catch (const Gecode::Exception& ex) {
    ExactResult<FeasibilityAnswer> result;
    result.detail = fmt::format("gecode error: {}", ex.what());
    result.seconds = seconds_since(started);
    return result;
  }
}

}  // namespace schedcheck::offers
