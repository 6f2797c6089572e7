// The time-indexed integer program of a provider's schedules, solved by CBC (see offers_mip.hpp). Our own.
#include "solver/offers_mip.hpp"

#include "support/stop.hpp"
#include "solver/offers_grid.hpp"

#include <Cbc_C_Interface.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

namespace schedcheck::offers {

namespace {

using Clock = std::chrono::steady_clock;

// The program: the grid view of offers_grid.hpp, within the column limit.
using Program = GridProgram;

Program build(const Instance& instance, long long new_tasks, double bound) {
  Program p = grid_program(instance, new_tasks, bound);
  if (!p.why_not.empty())
    p.why_not = "mip: " + p.why_not;
  else if (p.starts > kMipMaxColumns)
    p.why_not = fmt::format("mip: {} start variables on a {:g} s grid (limit {})", p.starts, 1 / p.scale,
                            kMipMaxColumns);
  return p;
}

// CBC's solver driver keeps process-wide state; one solve at a time.
std::mutex& cbc_mutex() {
  static std::mutex m;
  return m;
}

struct CbcDeleter {
  void operator()(Cbc_Model* m) const { Cbc_deleteModel(m); }
};

}  // namespace

std::string mip_not_applicable(const Instance& instance, long long new_tasks, double bound) {
  if (auto why = new_bot_missing(instance, new_tasks); !why.empty()) return why;
  return build(instance, new_tasks, bound).why_not;
}

namespace {

// The program of one bound as CBC loads it (columns: the starts, then the finish indicators when minimising).
struct Matrix {
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> index;
  std::vector<double> value, col_lower, col_upper, objective, row_lower, row_upper;
  std::vector<std::size_t> group_of;  // a start column's group (the first group_of.size() columns are the starts)
  std::vector<long long> start_of;    // and its start (grid units from now)
};

// `lowest`: minimise the new tasks' finish F (grid units from now) above it; none: feasibility only.
Matrix assemble(const Program& p, const Instance& instance, std::optional<long long> lowest) {
  // Rows: one "all copies start" equality a group, then one capacity row a grid step of [0, end).
  const std::vector<int> free = grid_free(p, instance);
  const std::size_t groups = p.groups.size();
  const auto steps = static_cast<std::size_t>(p.end);
  constexpr double kNoLimit = std::numeric_limits<double>::max();
  Matrix m;
  m.row_lower.assign(groups + steps, -kNoLimit);
  m.row_upper.resize(groups + steps);
  for (std::size_t g = 0; g < groups; ++g)
    m.row_lower[g] = m.row_upper[g] = static_cast<double>(p.groups[g].copies);
  for (std::size_t u = 0; u < steps; ++u)
    m.row_upper[groups + u] = static_cast<double>(free[u]);
  struct Column {
    std::vector<std::pair<int, double>> entries;  // (row, coefficient)
    double upper, cost;
  };
  std::vector<Column> columns;
  std::vector<std::size_t> first_column(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    const auto& group = p.groups[g];
    first_column[g] = columns.size();
    for (long long t = 0; t <= group.latest; ++t) {
      Column c{{{static_cast<int>(g), 1.0}}, static_cast<double>(group.copies), 0};
      for (long long u = t; u < t + group.duration; ++u)
        c.entries.emplace_back(static_cast<int>(groups + static_cast<std::size_t>(u)), group.procs);
      columns.push_back(std::move(c));
      m.group_of.push_back(g);
      m.start_of.push_back(t);
    }
  }
  // Minimising F above L = lowest: z[f] = 1 when F >= f, for f in (L, latest finish]; z falls with f; the new tasks
  // starting at t or later are at most k z[t + d]; cost: the sum of the z (F - L when F > L).
  if (lowest) {
    const auto& target = p.groups.back();
    const long long last_finish = target.latest + target.duration;
    std::vector<std::size_t> z_column(static_cast<std::size_t>(std::max(0LL, last_finish + 1)), 0);
    auto new_row = [&] {
      m.row_lower.push_back(-kNoLimit);
      m.row_upper.push_back(0);
      return static_cast<int>(m.row_upper.size() - 1);
    };
    for (long long f = *lowest + 1; f <= last_finish; ++f) {
      z_column[static_cast<std::size_t>(f)] = columns.size();
      columns.push_back(Column{{}, 1, 1});
      if (f > *lowest + 1) {  // z[f] - z[f - 1] <= 0
        const int row = new_row();
        columns.back().entries.emplace_back(row, 1.0);
        columns[z_column[static_cast<std::size_t>(f - 1)]].entries.emplace_back(row, -1.0);
      }
    }
    for (long long t = std::max(0LL, *lowest + 1 - target.duration); t <= target.latest; ++t) {
      const int row = new_row();
      for (long long later = t; later <= target.latest; ++later)
        columns[first_column[groups - 1] + static_cast<std::size_t>(later)].entries.emplace_back(row, 1.0);
      columns[z_column[static_cast<std::size_t>(t + target.duration)]].entries.emplace_back(
          row, -static_cast<double>(target.copies));
    }
  }
  for (const Column& c : columns) {
    for (const auto& [row, coefficient] : c.entries) {
      m.index.push_back(row);
      m.value.push_back(coefficient);
    }
    m.starts.push_back(static_cast<CoinBigIndex>(m.index.size()));
    m.col_lower.push_back(0);
    m.col_upper.push_back(c.upper);
    m.objective.push_back(c.cost);
  }
  return m;
}

struct Run {
  enum { kSolution, kInfeasible, kStopped } result = kStopped;
  bool optimal = false;   // kSolution: proven optimal
  std::vector<double> x;  // kSolution: the start columns
  std::string detail;     // kStopped: why
  bool timed_out = true;  // kStopped: by the time limit (else a CBC error)
  bool node_limit = false;  // CBC stopped at `max_nodes` (a solution then is not proven optimal)
};

// One CBC solve of the matrix; `integer` false: its linear relaxation. `max_nodes`: CBC's node limit (0: none).
Run run_cbc(const Matrix& m, bool integer, Clock::time_point until, std::uint64_t max_nodes = 0) {
  Run run;
  if (std::chrono::duration<double>(until - Clock::now()).count() <= 0 || stop_requested()) {
    run.detail = "time limit reached";
    return run;
  }
  try {
    const std::lock_guard<std::mutex> lock(cbc_mutex());
    const double left = std::chrono::duration<double>(until - Clock::now()).count();  // after the wait for the lock
    if (left <= 0) {
      run.detail = "time limit reached";
      return run;
    }
    std::unique_ptr<Cbc_Model, CbcDeleter> model(Cbc_newModel());
    const auto columns = static_cast<int>(m.col_upper.size());
    Cbc_loadProblem(model.get(), columns, static_cast<int>(m.row_upper.size()), m.starts.data(), m.index.data(),
                    m.value.data(), m.col_lower.data(), m.col_upper.data(), m.objective.data(), m.row_lower.data(),
                    m.row_upper.data());
    if (integer)
      for (int c = 0; c < columns; ++c) Cbc_setInteger(model.get(), c);
    Cbc_setLogLevel(model.get(), 0);
    Cbc_setParameter(model.get(), "timeMode", "elapsed");
    Cbc_setMaximumSeconds(model.get(), left);
    if (integer && max_nodes > 0)
      Cbc_setMaximumNodes(model.get(), static_cast<int>(std::min<std::uint64_t>(max_nodes, std::numeric_limits<int>::max())));
    Cbc_solve(model.get());
    run.node_limit = integer && max_nodes > 0 && Cbc_isNodeLimitReached(model.get()) != 0;
    // CBC 2.10.8 reports a linear relaxation cut short by the time limit as proven infeasible (status 0, secondary
    // 1, no limit flag: seen at limits under a millisecond). It stops on time only past `until` (its clock starts
    // later): a proof of infeasibility arriving then is not trusted.
    if (Cbc_isProvenInfeasible(model.get()) && Clock::now() < until) {
      run.result = Run::kInfeasible;
      return run;
    }
    if (Cbc_numberSavedSolutions(model.get()) > 0 || Cbc_isProvenOptimal(model.get())) {
      if (const double* x = Cbc_getColSolution(model.get())) {
        run.x.assign(x, x + m.group_of.size());
        run.result = Run::kSolution;
        run.optimal = Cbc_isProvenOptimal(model.get()) != 0;
        return run;
      }
    }
    run.detail = run.node_limit ? "node limit reached" : "time limit reached";
  } catch (const std::exception& e) {
    run.detail = fmt::format("cbc error: {}", e.what());
    run.timed_out = false;
  } catch (...) {
    run.detail = "cbc error";
    run.timed_out = false;
  }
  return run;
}


}  // namespace

MipAnswer mip_schedule(const Instance& instance, long long new_tasks, double bound, Clock::time_point until,
                       std::optional<double> minimise_above, std::uint64_t effort) {
  MipAnswer answer;
  answer.detail = new_bot_missing(instance, new_tasks);
  if (!answer.detail.empty()) return answer;
  const Program p = build(instance, new_tasks, bound);
  if (!p.why_not.empty()) {
    answer.detail = p.why_not;
    return answer;
  }
  if (p.trivially_infeasible) {
    answer.outcome = MipOutcome::kInfeasible;
    return answer;
  }
  std::optional<long long> lowest;
  if (minimise_above && new_tasks > 0) {
    // The least finish f in [L, bound] whose linear relaxation has a schedule (bisection: a later finish only
    // relaxes it): none finishes earlier, so the minimisation starts there; none at all: proven infeasible.
    const auto& target = p.groups.back();
    long long lo = grid_units_above(*minimise_above, instance, p.scale), hi = target.latest + target.duration;
    if (lo > hi) lo = hi;
    auto relaxation_feasible = [&](long long f) {
      const Program q = build(instance, new_tasks, instance.now + static_cast<double>(f) / p.scale);
      if (q.trivially_infeasible) return std::optional<bool>(false);
      const Run r = run_cbc(assemble(q, instance, std::nullopt), false, until);
      if (r.result == Run::kStopped) {
        answer.timed_out = r.timed_out;
        answer.detail = r.detail;
        return std::optional<bool>();
      }
      return std::optional<bool>(r.result == Run::kSolution);
    };
    const auto at_bound = relaxation_feasible(hi);
    if (!at_bound) return answer;
    if (!*at_bound) {
      answer.outcome = MipOutcome::kInfeasible;
      return answer;
    }
    answer.lower = *minimise_above;
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      const auto feasible = relaxation_feasible(mid);
      if (!feasible) return answer;
      if (*feasible) {
        hi = mid;
      } else {
        lo = mid + 1;
        answer.lower = std::max(answer.lower, instance.now + static_cast<double>(lo) / p.scale);
      }
    }
    lowest = lo;
  }
  const Matrix m = assemble(p, instance, lowest);
  const EffortMeter nodes(effort, kCbcUnitsPerNode);
  const Run run = run_cbc(m, true, until, nodes.next_limit());
  answer.effort_spent = run.node_limit;
  if (run.result == Run::kInfeasible) {
    answer.outcome = MipOutcome::kInfeasible;
    return answer;
  }
  if (run.result == Run::kStopped) {
    answer.detail = run.node_limit ? effort_budget_reached(effort) : run.detail;
    answer.timed_out = run.timed_out;
    return answer;
  }
  std::vector<SerialPlacement> placed;
  for (std::size_t c = 0; c < m.group_of.size(); ++c) {
    const long long copies = std::llround(run.x[c]);
    for (long long k = 0; k < copies; ++k)
      placed.push_back({p.groups[m.group_of[c]].job, instance.now + static_cast<double>(m.start_of[c]) / p.scale});
  }
  Schedule schedule = schedule_from(instance, placed);
  if (auto shifted = left_shift(instance, schedule)) schedule = std::move(*shifted);  // active: no start later
  const std::string violation = schedule_violation(instance, schedule, new_tasks);
  if (!violation.empty() || (new_tasks > 0 && new_tasks_finish(instance, schedule) > bound + kTimeTolerance)) {
    answer.detail =
        "cbc's solution fails the validator: " + (violation.empty() ? "new tasks after the bound" : violation);
    return answer;
  }
  answer.outcome = MipOutcome::kFound;
  answer.schedule = std::move(schedule);
  answer.optimal = lowest && run.optimal;
  return answer;
}

Completion earliest_completion_mip(const Instance& instance, long long tasks, double lower_bound,
                                   const SolveOptions& options) {
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  Completion result;
  result.detail = new_bot_missing(instance, tasks);
  if (!result.detail.empty()) return result;
  const long long scale = time_grid(instance, all_jobs(instance), tasks);
  if (scale == 0) {
    result.detail = "mip needs times on a 1 ms grid (now, runtimes, remaining times and binding deadlines)";
    return result;
  }
  const double step = 1.0 / static_cast<double>(scale);
  EarliestSchedule best_schedule(instance, result);
  auto consider = [&](std::optional<Schedule> schedule) { best_schedule.consider(std::move(schedule)); };
  consider(deadline_order_schedule(instance, tasks, until));
  const auto on_grid_up = [&](double x) { return grid_point_at_or_after(instance, static_cast<double>(scale), x); };
  const double lo = on_grid_up(std::max(lower_bound, instance.now + (tasks > 0 ? instance.bot->task_runtime : 0)));
  if (!result.schedule) {
    // No first schedule: one probe with the new tasks unbounded decides whether there is any.
    const MipAnswer any = mip_schedule(instance, tasks, kForever, until, std::nullopt, options.effort);
    if (any.outcome != MipOutcome::kFound) {
      result.detail = any.outcome == MipOutcome::kInfeasible
                          ? "no schedule keeps every accepted deadline (mip: proven infeasible)"
                          : any.detail;
      return result;
    }
    consider(any.schedule);
  }
  bool stopped = false;
  std::string why;
  if (best_schedule.finish() > lo + kTimeTolerance) {
    // One minimisation of the finish over [lo, best - step]: optimal, none (best is optimal), or stopped.
    MipAnswer a = mip_schedule(instance, tasks, best_schedule.finish() - step, until, lo, options.effort);
    if (a.outcome == MipOutcome::kFound) consider(std::move(a.schedule));
    if (a.outcome == MipOutcome::kStopped || (a.outcome == MipOutcome::kFound && !a.optimal)) {
      stopped = true;
      why = a.outcome != MipOutcome::kFound ? a.detail
            : a.effort_spent                ? effort_budget_reached(options.effort)
                                            : "time limit reached";
    }
  }
  result.finish = best_schedule.finish();
  result.status = stopped ? ExactStatus::kFeasible : ExactStatus::kOptimal;
  if (stopped) result.detail = fmt::format("{}; best found {:g}", why, best_schedule.finish());
  return result;
}

ExactResult<FeasibilityAnswer> feasibility_mip(const Instance& instance, const SolveOptions& options) {
  auto answer = [](const MipAnswer& a) {
    return a.outcome == MipOutcome::kInfeasible ? CoreTest::kInfeasible
           : a.outcome == MipOutcome::kFound    ? CoreTest::kFeasible
                                                : CoreTest::kStopped;
  };
  return decide_then_core(
      instance, options, "mip: proven infeasible",
      [&](Clock::time_point until, std::uint64_t effort) {
        MipAnswer a = mip_schedule(instance, 0, kForever, until, std::nullopt, effort);
        return FeasibilityDecision{answer(a), std::move(a.schedule), a.detail};
      },
      [&] { return all_jobs(instance); },
      [&](const std::vector<std::size_t>& keep, Clock::time_point until, std::uint64_t effort) {
        return answer(mip_schedule(with_waiting(instance, keep), 0, kForever, until, std::nullopt, effort));
      });
}

}  // namespace schedcheck::offers
