// The time-indexed SAT encoding of a provider's schedules, solved by CaDiCaL (see offers_sat.hpp). Our own.
#include "solver/offers_sat.hpp"

#include "support/stop.hpp"
#include "solver/offers_grid.hpp"

#include <cadical.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace schedcheck::offers {

// The encoding's types have a name of their own (not an anonymous namespace): SatSchedules::Impl holds them.
namespace sat_encoding {

using Clock = std::chrono::steady_clock;

// Literals are CaDiCaL's (a variable or its negation); two sentinels stand for the constants.
constexpr int kTrue = std::numeric_limits<int>::max();
constexpr int kFalse = -kTrue;

// One task: a copy of a group of the grid program. Its start s lies in [0, latest]; "s <= t" is the variable
// base + t for 0 <= t < latest (false before 0, true from latest on).
struct Item {
  std::size_t group = 0;
  int procs = 1;
  long long duration = 0, latest = 0;
  int base = 0;
  int present = kTrue;  // presence literal: kTrue when the task is always there
  bool possible = true;  // latest >= 0 and procs <= P
};

class Deadline : public CaDiCaL::Terminator {
 public:
  explicit Deadline(Clock::time_point until) : until_(until) {}
  bool terminate() override {
    fired = fired || Clock::now() >= until_ || stop_requested();
    return fired;
  }
  bool fired = false;

 private:
  Clock::time_point until_;
};

// Counts the solver's conflicts: one learnt clause each, none of them copied out.
class ConflictCount : public CaDiCaL::Learner {
 public:
  bool learning(int) override {
    ++count;
    return false;
  }
  void learn(int) override {}
  std::uint64_t count = 0;
};

}  // namespace sat_encoding

using namespace sat_encoding;

struct SatSchedules::Impl {
  Instance instance;
  GridProgram program;
  std::vector<int> free;
  bool selectable = false;
  long long max_new = 0;
  std::string why_not;
  std::vector<Item> items;
  std::vector<int> job_present;        // selectable: a waiting job's presence variable
  std::vector<std::size_t> new_items;  // the new tasks' items, in copy order
  CaDiCaL::Solver solver;
  ConflictCount conflicts;
  bool conflict_limit_hit = false;
  int vars = 0;
  long long clauses = 0, literals = 0;
  bool refuted = false;  // an empty clause: no probe has a schedule
  Schedule found;
  std::vector<std::size_t> core;
  std::string detail;
  std::vector<int> buffer;

  int fresh() { return ++vars; }
  int starts_by(const Item& it, long long t) const {
    if (t < 0) return kFalse;
    if (t >= it.latest) return kTrue;
    return it.base + static_cast<int>(t);
  }
  // Adds the clause of the listed literals (constants simplified away).
  void clause(std::initializer_list<int> lits) {
    buffer.clear();
    for (int l : lits) {
      if (l == kTrue) return;
      if (l != kFalse) buffer.push_back(l);
    }
    if (buffer.empty()) refuted = true;
    for (int l : buffer) solver.add(l);
    solver.add(0);
    ++clauses;
    literals += static_cast<long long>(buffer.size());
  }

  long long estimate() const;
  void build(Clock::time_point until);  // after program, instance, selectable and max_new are set
  void encode_capacity(int cap, const std::vector<std::pair<int, int>>& terms);
};

// Literals of the encoding, roughly: the start chains, the counters (a term's three clauses a counter level) and the
// precedence clauses of the wide pairs. Computed before anything is built.
long long SatSchedules::Impl::estimate() const {
  const auto steps = static_cast<std::size_t>(std::max(0LL, program.end));
  std::vector<long long> ending(steps + 1, 0), width(steps + 1, 0);
  long long total = 0;
  for (const Item& it : items) {
    if (!it.possible) continue;
    total += 2 * std::max(0LL, it.latest);
    const auto end = static_cast<std::size_t>(std::min<long long>(program.end, it.latest + it.duration));
    ++ending[end];
    width[end] += it.procs;
  }
  long long active = 0, procs = 0;
  for (const Item& it : items)
    if (it.possible) {
      ++active;
      procs += it.procs;
    }
  for (std::size_t u = 0; u < steps; ++u) {
    active -= ending[u];
    procs -= width[u];
    total += active * (3 + 7 * std::min<long long>(procs, std::max(0, free[u])));
  }
  for (std::size_t i = 0; i < items.size(); ++i)
    for (std::size_t j = i + 1; j < items.size(); ++j)
      if (items[i].possible && items[j].possible && items[i].procs + items[j].procs > instance.processors)
        total += 5 * (items[i].latest + items[j].latest + 2);
  return total;
}

// sum of procs x r over the terms <= cap, by a weighted sequential counter: level c of the counter after a term is
// true when the terms so far use at least c processors (forced, not defined: only the upper bound is needed).
void SatSchedules::Impl::encode_capacity(int cap, const std::vector<std::pair<int, int>>& terms) {
  std::vector<int> level(static_cast<std::size_t>(cap) + 1, kFalse), next(level.size());
  int reach = 0;  // processors the terms so far can use: the levels above it are false
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const auto [w, x] = terms[k];
    if (w > cap) {
      clause({-x});
      continue;
    }
    // Overflow: this term on top of more than cap - w.
    clause({-x, -level[static_cast<std::size_t>(cap - w + 1)]});
    if (k + 1 == terms.size()) break;
    const int new_reach = std::min(cap, reach + w);
    next[0] = kTrue;
    for (int c = 1; c <= cap; ++c) {
      if (c > new_reach) {
        next[static_cast<std::size_t>(c)] = kFalse;
        continue;
      }
      const int v = fresh();
      next[static_cast<std::size_t>(c)] = v;
      clause({-level[static_cast<std::size_t>(c)], v});
      if (c <= w)
        clause({-x, v});
      else
        clause({-x, -level[static_cast<std::size_t>(c - w)], v});
    }
    reach = new_reach;
    level.swap(next);
  }
}

void SatSchedules::Impl::build(Clock::time_point until) {
  const std::size_t waiting = instance.waiting.size();
  const int processors = instance.processors;
  // Before anything is allocated a task or a grid step: the tasks, their start literals and the steps alone must
  // fit the limit.
  long long tasks = 0, starts = 0;
  for (const auto& group : program.groups) {
    tasks += group.copies;
    starts += group.copies * std::max(0LL, group.latest);
  }
  if (tasks > kSatMaxLiterals / 64 || 2 * starts > kSatMaxLiterals || program.end > kSatMaxLiterals) {
    why_not = fmt::format("sat: {} tasks with {} start literals over {} grid steps of {:g} s (limit {} literals)",
                          tasks, starts, program.end, 1 / program.scale, kSatMaxLiterals);
    return;
  }
  free = grid_free(program, instance);
  // Items: the copies of each group; presence: per waiting job when selectable, per new task (counts).
  if (selectable)
    for (std::size_t j = 0; j < waiting; ++j) job_present.push_back(fresh());
  for (std::size_t g = 0; g < program.groups.size(); ++g) {
    const auto& group = program.groups[g];
    for (long long c = 0; c < group.copies; ++c) {
      Item it;
      it.group = g;
      it.procs = group.procs;
      it.duration = group.duration;
      it.latest = group.latest;
      it.possible = group.latest >= 0 && group.procs <= processors;
      if (group.job >= waiting) {
        it.present = fresh();
        new_items.push_back(items.size());
      } else if (selectable) {
        it.present = job_present[group.job];
      }
      items.push_back(it);
    }
  }
  if (const long long size = estimate(); size > kSatMaxLiterals) {
    why_not = fmt::format("sat: an encoding of about {} literals on a {:g} s grid (limit {})", size,
                          1 / program.scale, kSatMaxLiterals);
    return;
  }
  for (Item& it : items) {
    if (!it.possible) {
      clause({-it.present});  // never there: a job that cannot meet its deadline alone, or too wide
      continue;
    }
    it.base = vars + 1;
    vars += static_cast<int>(std::max(0LL, it.latest));
    for (long long t = 0; t + 1 < it.latest; ++t) clause({-starts_by(it, t), starts_by(it, t + 1)});
  }
  // Fewer new tasks are the first ones.
  for (std::size_t m = 1; m < new_items.size(); ++m)
    clause({-items[new_items[m]].present, items[new_items[m - 1]].present});

  // Tasks of one shape (processors, duration) start in deadline order (ties: group, copy): exchanging two such
  // starts keeps the processors in use and every deadline. Too wide to run side by side (2 procs > P): one after
  // the other, when both are there. The new tasks form their own chain (their deadline is the probe's bound).
  std::map<std::tuple<bool, int, long long>, std::vector<std::size_t>> shapes;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].possible)
      shapes[{program.groups[items[i].group].job >= waiting, items[i].procs, items[i].duration}].push_back(i);
  for (auto& [shape, chain] : shapes) {
    std::stable_sort(chain.begin(), chain.end(), [&](std::size_t a, std::size_t b) {
      return items[a].latest < items[b].latest;  // same duration: deadline order
    });
    for (std::size_t k = 1; k < chain.size(); ++k) {
      const Item &a = items[chain[k - 1]], &b = items[chain[k]];
      for (long long t = 0; t < b.latest; ++t) clause({-starts_by(b, t), starts_by(a, t)});
      if (2 * a.procs > processors)
        for (long long t = 0; t <= b.latest; ++t)
          clause({-a.present, -b.present, -starts_by(b, t), starts_by(a, t - a.duration)});
    }
  }
  // Two tasks of different shapes too wide to run side by side: a literal says which goes first.
  for (std::size_t i = 0; i < items.size(); ++i)
    for (std::size_t j = i + 1; j < items.size(); ++j) {
      const Item &a = items[i], &b = items[j];
      if (!a.possible || !b.possible || a.procs + b.procs <= processors) continue;
      if (a.procs == b.procs && a.duration == b.duration) continue;  // in one chain above
      const int first = fresh();
      for (long long t = 0; t <= b.latest; ++t)
        clause({-first, -a.present, -b.present, -starts_by(b, t), starts_by(a, t - a.duration)});
      for (long long t = 0; t <= a.latest; ++t)
        clause({first, -a.present, -b.present, -starts_by(a, t), starts_by(b, t - b.duration)});
    }

  // Capacity: at each grid step the tasks running (started by u, not by u - duration, there) use at most the
  // processors the running jobs leave free.
  std::vector<std::pair<int, int>> terms;
  for (std::size_t u = 0; u < free.size(); ++u) {
    if (u % 64 == 0 && (Clock::now() >= until || stop_requested())) {
      why_not = "sat: time limit reached while building the encoding";
      return;
    }
    const auto t = static_cast<long long>(u);
    terms.clear();
    int fixed = 0, total = 0;
    for (const Item& it : items) {
      if (!it.possible) continue;
      const int started = starts_by(it, t), ended = starts_by(it, t - it.duration);
      if (started == kFalse || ended == kTrue) continue;
      if (started == kTrue && ended == kFalse && it.present == kTrue) {
        fixed += it.procs;
        continue;
      }
      const int runs = fresh();
      clause({runs, -started, ended, -it.present});
      terms.emplace_back(it.procs, runs);
      total += it.procs;
    }
    const int cap = free[u] - fixed;
    if (cap < 0) {
      clause({});
      continue;
    }
    if (total <= cap) continue;
    encode_capacity(cap, terms);
  }
}

SatSchedules::SatSchedules(const Instance& instance, long long max_new_tasks, double horizon, bool selectable,
                           Clock::time_point until)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  if (!new_bot_missing(instance, max_new_tasks).empty())
    throw std::logic_error("SatSchedules: new tasks without a new BoT");
  m.solver.set("quiet", 1);  // CaDiCaL reports a clause refuted at the root on stdout otherwise
  m.solver.connect_learner(&m.conflicts);
  m.instance = instance;
  m.selectable = selectable;
  m.max_new = max_new_tasks;
  m.program = grid_program(instance, max_new_tasks, horizon);
  if (!m.program.why_not.empty()) {
    m.why_not = "sat: " + m.program.why_not;
    return;
  }
  m.build(until);
}

SatSchedules::~SatSchedules() = default;

const std::string& SatSchedules::why_not() const { return impl_->why_not; }
const Schedule& SatSchedules::schedule() const { return impl_->found; }
std::vector<std::size_t> SatSchedules::core() const { return impl_->core; }
std::string SatSchedules::detail() const { return impl_->detail; }
std::uint64_t SatSchedules::conflicts() const { return impl_->conflicts.count; }
bool SatSchedules::conflict_limit_hit() const { return impl_->conflict_limit_hit; }
std::string SatSchedules::size() const {
  return fmt::format("{} variables, {} clauses", impl_->vars, impl_->clauses);
}

SatOutcome SatSchedules::probe(long long new_tasks, double bound, Clock::time_point until,
                               const std::vector<std::size_t>* keep, std::uint64_t max_conflicts) {
  Impl& m = *impl_;
  m.detail.clear();
  m.core.clear();
  m.conflict_limit_hit = false;
  if (!m.why_not.empty()) {
    m.detail = m.why_not;
    return SatOutcome::kStopped;
  }
  if (new_tasks < 0 || new_tasks > m.max_new) throw std::logic_error("SatSchedules::probe: count out of range");
  if (keep && (!m.selectable || new_tasks > 0))
    throw std::logic_error("SatSchedules::probe: jobs left out of a solver without them, or with new tasks");
  if (m.refuted) return SatOutcome::kInfeasible;
  // Assumptions: the count, the bound on the last new task's start, the kept jobs.
  std::vector<int> assumptions;
  int bound_literal = kTrue;
  if (new_tasks > 0) {
    const Item& last = m.items[m.new_items[static_cast<std::size_t>(new_tasks - 1)]];
    if (!last.possible) return SatOutcome::kInfeasible;
    assumptions.push_back(last.present);
    const long long latest =
        static_cast<long long>(std::floor((bound - m.instance.now) * m.program.scale + 1e-6)) - last.duration;
    if (latest < 0) return SatOutcome::kInfeasible;
    bound_literal = m.starts_by(last, latest);
    if (bound_literal != kTrue) assumptions.push_back(bound_literal);
  }
  if (new_tasks < m.max_new) assumptions.push_back(-m.items[m.new_items[static_cast<std::size_t>(new_tasks)]].present);
  std::vector<bool> kept(m.instance.waiting.size(), true);
  if (keep) {
    std::fill(kept.begin(), kept.end(), false);
    for (std::size_t j : *keep) kept.at(j) = true;
  }
  if (m.selectable)
    for (std::size_t j = 0; j < kept.size(); ++j) assumptions.push_back(kept[j] ? m.job_present[j] : -m.job_present[j]);
  for (int a : assumptions) m.solver.assume(a);
  if (max_conflicts > 0)
    m.solver.limit("conflicts", static_cast<int>(std::min<std::uint64_t>(max_conflicts, std::numeric_limits<int>::max())));
  Deadline deadline(until);
  m.solver.connect_terminator(&deadline);
  const int answer = m.solver.solve();
  m.solver.disconnect_terminator();
  m.conflict_limit_hit = answer == 0 && max_conflicts > 0 && !deadline.fired;

  if (answer == 20) {
    if (m.selectable) {
      for (std::size_t j = 0; j < kept.size(); ++j)
        if (kept[j] && m.solver.failed(m.job_present[j])) m.core.push_back(j);
    } else if (new_tasks > 0 && bound_literal != kTrue) {
      // Proven for every later probe too: with this many new tasks, the last starts after the bound's latest start.
      m.clause({-m.items[m.new_items[static_cast<std::size_t>(new_tasks - 1)]].present, -bound_literal});
    }
    return SatOutcome::kInfeasible;
  }
  if (answer != 10) {
    m.detail = stop_requested() ? "stopped" : m.conflict_limit_hit ? "conflict limit reached" : "time limit reached";
    return SatOutcome::kStopped;
  }
  // The model's starts: the first step whose "starts by" literal is true (monotone: binary search).
  const std::size_t waiting = m.instance.waiting.size();
  std::vector<std::size_t> index(waiting);  // waiting job -> its index in the schedule's instance
  std::iota(index.begin(), index.end(), std::size_t{0});
  if (keep)
    for (std::size_t k = 0; k < keep->size(); ++k) index[(*keep)[k]] = k;
  const std::size_t next = keep ? keep->size() : waiting;  // the new tasks' index
  std::vector<SerialPlacement> placed;
  for (const Item& it : m.items) {
    if (!it.possible) continue;
    const std::size_t job = m.program.groups[it.group].job;
    if (job < waiting ? !kept[job] : m.solver.val(it.present) < 0) continue;
    long long lo = 0, hi = it.latest;  // the start lies in [lo, hi]
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      if (m.solver.val(m.starts_by(it, mid)) > 0)
        hi = mid;
      else
        lo = mid + 1;
    }
    placed.push_back({job < waiting ? index[job] : next, m.instance.now + static_cast<double>(lo) / m.program.scale});
  }
  const Instance subset = keep ? with_waiting(m.instance, *keep) : Instance{};
  const Instance& of = keep ? subset : m.instance;
  Schedule schedule = schedule_from(of, placed);
  if (auto shifted = left_shift(of, schedule)) schedule = std::move(*shifted);  // active: no start later
  std::string violation = schedule_violation(of, schedule, new_tasks);
  if (violation.empty() && new_tasks > 0 && new_tasks_finish(of, schedule) > bound + kTimeTolerance)
    violation = "new tasks after the bound";
  if (!violation.empty()) {
    m.detail = "the solver's schedule fails the validator: " + violation;
    return SatOutcome::kStopped;
  }
  m.found = std::move(schedule);
  return SatOutcome::kFound;
}

namespace {

// One probe within what is left of `effort` (in conflicts): none once it is spent; its conflicts counted.
SatOutcome probe_within(SatSchedules& sat, EffortMeter& effort, long long tasks, double bound, Clock::time_point until,
                        const std::vector<std::size_t>* keep = nullptr) {
  if (effort.spent()) return SatOutcome::kStopped;
  const std::uint64_t before = sat.conflicts();
  const SatOutcome outcome = sat.probe(tasks, bound, until, keep, effort.next_limit());
  effort.spend(sat.conflicts() - before);
  if (sat.conflict_limit_hit()) effort.exhaust();
  return outcome;
}

// c*(tasks) by descent on one solver: the first schedules (deadline order, `upper`), a probe at the lower bound,
// then one grid step below the best schedule until a probe is refuted.
Completion earliest_completion_on(SatSchedules& sat, const Instance& instance, long long tasks, double lower_bound,
                                  const std::vector<Schedule>& upper, const SolveOptions& options) {
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  Completion result;
  if (!sat.why_not().empty()) {
    result.detail = sat.why_not();
    return result;
  }
  const double scale = static_cast<double>(time_grid(instance, all_jobs(instance), tasks));
  const double step = 1.0 / scale;
  EarliestSchedule best(instance, result);
  best.consider(deadline_order_schedule(instance, tasks, until));
  for (const Schedule& s : upper)
    if (static_cast<long long>(s.new_tasks.size()) == tasks && schedule_violation(instance, s, tasks).empty())
      best.consider(s);
  double lo = grid_point_at_or_after(instance, scale, std::max(lower_bound, instance.now + instance.bot->task_runtime));
  SatOutcome outcome = SatOutcome::kInfeasible;
  EffortMeter effort(options.effort, kSatUnitsPerConflict);
  auto probe = [&](double bound) {
    outcome = probe_within(sat, effort, tasks, bound, until);
    if (outcome == SatOutcome::kFound) best.consider(sat.schedule());
    return outcome;
  };
  if (!result.schedule && probe(kForever) == SatOutcome::kInfeasible) {
    result.detail = "no schedule keeps every accepted deadline (sat: refuted)";
    return result;
  }
  if (result.schedule && best.finish() > lo + kTimeTolerance && probe(lo) == SatOutcome::kInfeasible) lo += step;
  while (result.schedule && outcome != SatOutcome::kStopped && best.finish() > lo + kTimeTolerance)
    if (probe(best.finish() - step) == SatOutcome::kInfeasible) lo = best.finish();
  const std::string why = effort.spent() ? effort_budget_reached(options.effort) : sat.detail();
  if (!result.schedule) {
    result.detail = why;
    return result;
  }
  result.finish = best.finish();
  result.status = outcome == SatOutcome::kStopped ? ExactStatus::kFeasible : ExactStatus::kOptimal;
  if (outcome == SatOutcome::kStopped)
    result.detail = fmt::format("{} ({}); best found {:g}, none before {:g}", why, sat.size(), best.finish(), lo);
  return result;
}

}  // namespace

ExactResult<OfferList> exact_offers_sat(const Instance& instance, const SolveOptions& options,
                                        const std::vector<OfferList>& incumbents) {
  const auto started = Clock::now();
  const long long most = delta_counts(instance.bot->tasks).back();
  // Every count's optimum is at most the finish of a schedule of the most tasks (less its latest tasks).
  std::optional<double> horizon;
  auto consider = [&](const Schedule& s) {
    if (schedule_violation(instance, s, most).empty())
      horizon = std::min(horizon.value_or(kForever), new_tasks_finish(instance, s));
  };
  if (auto first = deadline_order_schedule(instance, most, started + std::chrono::milliseconds(options.timeout_ms)))
    consider(*first);
  for (const OfferList& list : incumbents)
    for (const CountOffer& offer : list.per_count)
      if (offer.tasks == most) consider(offer.schedule);
  SatSchedules sat(instance, most, horizon.value_or(kForever), false,
                   started + std::chrono::milliseconds(options.timeout_ms));
  SolveOptions left = options;
  left.timeout_ms = static_cast<unsigned>(std::max<long long>(
      1, static_cast<long long>(options.timeout_ms) -
             std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count()));
  ExactResult<OfferList> result = exact_offers_sharing(
      instance, left, incumbents,
      [&](long long tasks, double lower, const std::vector<Schedule>& upper, const SolveOptions& o) {
        return earliest_completion_on(sat, instance, tasks, lower, upper, o);
      });
  result.seconds = seconds_since(started);
  return result;
}

ExactResult<FeasibilityAnswer> feasibility_sat(const Instance& instance, const SolveOptions& options) {
  SatSchedules sat(instance, 0, kForever, true, Clock::now() + std::chrono::milliseconds(options.timeout_ms));
  auto answer = [](SatOutcome o) {
    return o == SatOutcome::kInfeasible ? CoreTest::kInfeasible
           : o == SatOutcome::kFound    ? CoreTest::kFeasible
                                        : CoreTest::kStopped;
  };
  // The refutation's jobs are the first core; the deletion probes the same solver with jobs left out.
  return decide_then_core(
      instance, options, "sat: refuted",
      [&](Clock::time_point until, std::uint64_t units) {
        EffortMeter effort(units, kSatUnitsPerConflict);
        const CoreTest o = answer(probe_within(sat, effort, 0, kForever, until));
        return FeasibilityDecision{o, o == CoreTest::kFeasible ? std::optional(sat.schedule()) : std::nullopt,
                                   effort.spent() ? effort_budget_reached(units) : sat.detail()};
      },
      [&] { return sat.core(); },
      [&](const std::vector<std::size_t>& keep, Clock::time_point until, std::uint64_t units) {
        EffortMeter effort(units, kSatUnitsPerConflict);
        return answer(probe_within(sat, effort, 0, kForever, until, &keep));
      });
}

}  // namespace schedcheck::offers
