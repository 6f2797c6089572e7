// Z3 formulations for a provider (see offers_z3.hpp). Our own encoding.
#include "solver/offers_z3.hpp"

#include "solver/z3_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

namespace schedcheck::offers {

namespace {

using Clock = std::chrono::steady_clock;
using z3support::exact_real;

// Z3's older arithmetic solver (arith.solver=2) proved these encodings about twice as fast as 4.8.12's default
// (6) here: 2.3 s vs 3.9 s for the 4-count list of a 6-job instance (docs/performance.md).
constexpr unsigned kArithSolver = 2;
// Encoding terms (blocks x (blocks + running jobs) capacity terms) these encodings build, solve and tear down:
// 15,876 terms (70 jobs) ended 0.2 s after a 2 s limit, 32,761 (100 jobs) 3.3 s after it (Z3 ignored the interrupt
// for 2.7 s), 41,209 (120 jobs) 7.1 s after a 10 s limit; docs/performance.md.
constexpr double kMaxTerms = 16'000;
void use_fast_arithmetic(z3::context& ctx, z3::solver& s) {
  z3::params p(ctx);
  p.set("arith.solver", kArithSolver);
  s.set(p);
}

// A block of identical tasks starting together: a local job (count fixed at 1) or a wave of a BoT (part).
struct Block {
  std::size_t owner;  // waiting index; waiting.size() for the new BoT
  z3::expr start;
  z3::expr count;     // Int
  int unit;           // processors per counted unit
  double runtime;
};

struct Encoding {
  std::vector<Block> blocks;
  std::vector<z3::expr> deadline_literal;  // per waiting job: its deadline holds
  std::vector<Block> new_waves;
};

// Waves of k identical single-processor tasks: counts n_w >= 0 summing to k, used waves first, strictly
// increasing starts among used waves (every multiset of start times has exactly one representation).
std::vector<Block> add_waves(z3::context& ctx, z3::solver& s, const Instance& instance, std::size_t owner,
                             const std::string& name, long long tasks, double runtime) {
  std::vector<Block> waves;
  z3::expr sum = ctx.int_val(0);
  for (long long w = 0; w < tasks; ++w) {
    Block b{owner, ctx.real_const(fmt::format("start_{}_w{}", name, w).c_str()),
            ctx.int_const(fmt::format("count_{}_w{}", name, w).c_str()), 1, runtime};
    s.add(b.count >= 0 && b.count <= ctx.int_val(static_cast<int64_t>(tasks)));
    s.add(b.start >= exact_real(ctx, instance.now));
    if (!waves.empty()) {
      s.add(z3::implies(waves.back().count == 0, b.count == 0));
      s.add(z3::implies(b.count > 0, b.start > waves.back().start));
    }
    sum = sum + b.count;
    waves.push_back(b);
  }
  s.add(sum == ctx.int_val(static_cast<int64_t>(tasks)));
  return waves;
}

// The size check before building (z3support::over_size_limit): one block per local job and per task of a BoT part
// or of the new BoT (at most; waves), and a capacity term per pair of blocks.
std::string over_size_limit(const Instance& instance, long long new_tasks) {
  double blocks = static_cast<double>(new_tasks);
  for (const auto& job : instance.waiting) blocks += job.type == JobType::kLocal ? 1.0 : static_cast<double>(job.tasks);
  return z3support::over_size_limit(fmt::format("{} waiting jobs, {:g} blocks", instance.waiting.size(), blocks),
                                    blocks * (blocks + static_cast<double>(instance.running.size())), kMaxTerms);
}

Encoding encode(z3::context& ctx, z3::solver& s, const Instance& instance, long long new_tasks) {
  Encoding e;
  for (std::size_t i = 0; i < instance.waiting.size(); ++i) {
    const WaitingJob& job = instance.waiting[i];
    const z3::expr literal = ctx.bool_const(("deadline_" + job.id).c_str());
    e.deadline_literal.push_back(literal);
    std::vector<Block> blocks;
    if (job.type == JobType::kLocal) {
      blocks.push_back(Block{i, ctx.real_const(("start_" + job.id).c_str()), ctx.int_val(1), job.procs, job.runtime});
      s.add(blocks.back().start >= exact_real(ctx, instance.now));
    } else {
      blocks = add_waves(ctx, s, instance, i, job.id, job.tasks, job.runtime);
    }
    for (const Block& b : blocks) {
      s.add(z3::implies(literal && b.count > 0,
                        b.start + exact_real(ctx, b.runtime) <= exact_real(ctx, job.deadline)));
      e.blocks.push_back(b);
    }
  }
  if (new_tasks > 0) {
    e.new_waves = add_waves(ctx, s, instance, instance.waiting.size(), "new_" + instance.bot->id, new_tasks,
                            instance.bot->task_runtime);
    e.blocks.insert(e.blocks.end(), e.new_waves.begin(), e.new_waves.end());
  }
  // Capacity at every used block's start: usage only rises at starts, so this bounds it everywhere.
  const z3::expr zero = ctx.int_val(0);
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    const z3::expr& x = e.blocks[b].start;
    z3::expr_vector used(ctx);
    for (const auto& job : instance.running)
      used.push_back(z3::ite(x < exact_real(ctx, instance.now + job.remaining), ctx.int_val(job.procs), zero));
    for (std::size_t c = 0; c < e.blocks.size(); ++c) {
      const Block& other = e.blocks[c];
      const z3::expr units = other.count * ctx.int_val(other.unit);
      if (c == b)
        used.push_back(units);
      else
        used.push_back(z3::ite(other.start <= x && x < other.start + exact_real(ctx, other.runtime), units, zero));
    }
    s.add(z3::implies(e.blocks[b].count > 0, z3support::flat_sum(used, zero) <= ctx.int_val(instance.processors)));
  }
  return e;
}

// Processor-time the running jobs take out of [now, t], exactly (t a Z3 real).
z3::expr running_work_until(z3::context& ctx, const Instance& instance, const z3::expr& t) {
  z3::expr sum = ctx.real_val(0);
  const z3::expr elapsed = t - exact_real(ctx, instance.now);
  for (const auto& job : instance.running) {
    const z3::expr rem = exact_real(ctx, job.remaining);
    sum = sum + ctx.real_val(job.procs) * z3::ite(elapsed < rem, elapsed, rem);
  }
  return sum;
}

// Energy cuts, one per distinct deadline d: the work due by d fits in P (d - now) minus the running jobs' work.
// Guarded by the deadline literals of the jobs due by d (so an unsat core can name them), plus `extra` work
// required by d when `extra_guard` holds (the new tasks when the completion is <= d).
void add_energy_cuts(z3::context& ctx, z3::solver& s, const Instance& instance, const Encoding& e,
                     const std::optional<z3::expr>& completion, long long new_tasks) {
  std::set<double> deadlines;
  for (const auto& job : instance.waiting) deadlines.insert(job.deadline);
  for (double d : deadlines) {
    z3::expr_vector due_terms(ctx);
    z3::expr_vector literals(ctx);
    for (std::size_t i = 0; i < instance.waiting.size(); ++i) {
      if (instance.waiting[i].deadline > d) continue;
      due_terms.push_back(exact_real(ctx, work(instance.waiting[i])));
      literals.push_back(e.deadline_literal[i]);
    }
    const z3::expr due = z3support::flat_sum(due_terms, ctx.real_val(0));
    const z3::expr dd = exact_real(ctx, d);
    const z3::expr room = ctx.real_val(instance.processors) * (dd - exact_real(ctx, instance.now)) -
                          running_work_until(ctx, instance, dd);
    s.add(z3::implies(z3::mk_and(literals), due <= room));
    if (completion && new_tasks > 0) {
      const z3::expr bot_work = ctx.real_val(static_cast<int64_t>(new_tasks)) * exact_real(ctx, instance.bot->task_runtime);
      s.add(z3::implies(z3::mk_and(literals) && *completion <= dd, due + bot_work <= room));
    }
  }
  if (completion && new_tasks > 0) {
    // Everything due by C, and the new tasks, fit in [now, C].
    const z3::expr& c = *completion;
    z3::expr_vector due_terms(ctx);
    due_terms.push_back(ctx.real_val(static_cast<int64_t>(new_tasks)) * exact_real(ctx, instance.bot->task_runtime));
    for (const auto& job : instance.waiting)
      due_terms.push_back(z3::ite(exact_real(ctx, job.deadline) <= c, exact_real(ctx, work(job)), ctx.real_val(0)));
    const z3::expr due = z3support::flat_sum(due_terms, ctx.real_val(0));
    s.add(ctx.real_val(instance.processors) * (c - exact_real(ctx, instance.now)) - running_work_until(ctx, instance, c) >=
          due);
  }
}

Schedule read_schedule(const Instance& instance, const Encoding& e, const z3::model& m) {
  Schedule schedule;
  schedule.starts.resize(instance.waiting.size());
  for (const Block& b : e.blocks) {
    const int64_t count = z3support::numeral_value(m, b.count).get_numeral_int64();
    if (count <= 0) continue;
    const double start = z3support::to_double(z3support::numeral_value(m, b.start));
    auto& target = b.owner < instance.waiting.size() ? schedule.starts[b.owner] : schedule.new_tasks;
    target.insert(target.end(), static_cast<std::size_t>(count), start);
  }
  return schedule;
}

}  // namespace

Completion earliest_completion_z3(const Instance& instance, long long tasks, double lower_bound,
                                  const SolveOptions& options) {
  // c*(fewer tasks) <= c*(tasks): a known lower bound ends the descent without asking Z3.
  const auto until = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  Completion result;
  double best = kForever;
  if (auto start = deadline_order_schedule(instance, tasks, until)) {
    best = new_tasks_finish(instance, *start);
    result.schedule = std::move(start);
  }
  if (const std::string why = over_size_limit(instance, tasks); !why.empty()) {
    result.status = result.schedule ? ExactStatus::kFeasible : ExactStatus::kUnknown;
    result.detail = why + (result.schedule ? "; the deadline-order schedule kept" : "");
    result.finish = best;
    return result;
  }
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);
  try {  // from the first Z3 call: the deadline may interrupt the encoding too
    z3::solver s(ctx);
    use_fast_arithmetic(ctx, s);
    const Encoding e = encode(ctx, s, instance, tasks);
    for (const auto& literal : e.deadline_literal) s.add(literal);
    const z3::expr completion = ctx.real_const("completion");
    for (const Block& w : e.new_waves)
      s.add(z3::implies(w.count > 0, completion >= w.start + exact_real(ctx, w.runtime)));
    add_energy_cuts(ctx, s, instance, e, completion, tasks);

    auto improve = [&](const z3::model& m) {
      Schedule schedule = read_schedule(instance, e, m);
      if (auto shifted = left_shift(instance, schedule);
          shifted && new_tasks_finish(instance, *shifted) <= new_tasks_finish(instance, schedule))
        schedule = std::move(*shifted);
      const double finish = new_tasks_finish(instance, schedule);
      if (finish < best) {
        best = finish;
        result.schedule = std::move(schedule);
      }
    };
    if (!result.schedule) {
      const z3::check_result answer = deadline.check(s);
      if (answer == z3::sat) improve(s.get_model());
      if (answer == z3::unsat) result.detail = "no schedule keeps every accepted deadline (z3: unsat)";
      if (answer == z3::unknown) result.detail = deadline.limit_text();
      if (answer != z3::sat) {
        result.interrupted = deadline.interrupted();
        return result;
      }
    }
    // Descent: "anything earlier than the best, by more than kTimeTolerance?" until Z3 answers unsat. Each
    // model is left-shifted to an active schedule, so every step lands on a distinct active-schedule value.
    for (;;) {
      if (deadline.passed()) {
        result.status = ExactStatus::kFeasible;
        result.detail = deadline.limit_text(fmt::format("; best found {:g}", best));
        break;
      }
      if (best <= lower_bound + kTimeTolerance) {
        result.status = ExactStatus::kOptimal;
        break;
      }
      s.push();
      s.add(completion < exact_real(ctx, best - kTimeTolerance));
      const z3::check_result answer = deadline.check(s);
      const double before = best;
      if (answer == z3::sat) improve(s.get_model());
      s.pop();
      if (answer == z3::unsat) {
        result.status = ExactStatus::kOptimal;
        break;
      }
      if (answer == z3::unknown || best >= before) {
        result.status = ExactStatus::kFeasible;
        result.detail = answer == z3::unknown
                            ? deadline.limit_text(fmt::format("; best found {:g}", best))
                            : "z3 found an earlier completion the left shift does not reproduce (rounding)";
        break;
      }
    }
  } catch (const z3::exception& ex) {
    result.status = result.schedule ? ExactStatus::kFeasible : ExactStatus::kUnknown;
    result.detail = deadline.stop_reason(ex);
  }
  result.interrupted = deadline.interrupted();
  result.finish = best;
  return result;
}

ExactResult<FeasibilityAnswer> feasibility_z3(const Instance& instance, const SolveOptions& options) {
  const auto started = Clock::now();
  ExactResult<FeasibilityAnswer> result;
  result.detail = over_size_limit(instance, 0);
  if (!result.detail.empty()) return result;
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);
  try {  // from the first Z3 call: the deadline may interrupt the encoding too
    z3::solver s(ctx);
    use_fast_arithmetic(ctx, s);
    const Encoding e = encode(ctx, s, instance, 0);
    add_energy_cuts(ctx, s, instance, e, std::nullopt, 0);
    std::map<std::string, std::size_t> job_of_literal;
    z3::expr_vector assumptions(ctx);
    for (std::size_t i = 0; i < e.deadline_literal.size(); ++i) {
      assumptions.push_back(e.deadline_literal[i]);
      job_of_literal[e.deadline_literal[i].decl().name().str()] = i;
    }
    const z3::check_result answer = deadline.check(s, assumptions);
    if (answer == z3::unknown) {
      result.detail = deadline.limit_text();
    } else if (answer == z3::sat) {
      set_schedulable(result, read_schedule(instance, e, s.get_model()));
    } else {
      // The decision is made; the core (Z3's unsat core, shrunk) gets its own budget, checked between Z3 calls.
      result.phase_seconds.emplace_back("decision", seconds_since(started));
      const auto core_started = Clock::now();
      const auto core_until = core_started + std::chrono::milliseconds(core_budget_ms(options));
      std::vector<std::size_t> unsat;
      const z3::expr_vector z3_core = s.unsat_core();
      for (unsigned j = 0; j < z3_core.size(); ++j) unsat.push_back(job_of_literal.at(z3_core[j].decl().name().str()));
      std::sort(unsat.begin(), unsat.end());
      const Core core = minimise_core(instance, unsat, [&](const std::vector<std::size_t>& keep) {
        if (Clock::now() >= core_until || deadline.passed()) return CoreTest::kStopped;
        z3::expr_vector literals(ctx);
        for (std::size_t i : keep) literals.push_back(e.deadline_literal[i]);
        const z3::check_result smaller = deadline.check(s, literals);
        return smaller == z3::unsat ? CoreTest::kInfeasible : smaller == z3::sat ? CoreTest::kFeasible
                                                                                  : CoreTest::kStopped;
      });
      set_infeasible(result, instance, core, "no schedule meets every deadline (z3: unsat)");
      result.phase_seconds.emplace_back("core", seconds_since(core_started));
    }
  } catch (const z3::exception& ex) {
    result.status = ExactStatus::kUnknown;
    result.decision.reset();
    result.detail = deadline.stop_reason(ex);
  }
  result.interrupted = deadline.interrupted();
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::offers
