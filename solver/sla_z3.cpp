// Z3 formulations of SLA admission (see sla_z3.hpp): paper 004 Eq. 4-5; timed encoding is our own.
#include "solver/sla_z3.hpp"

#include "solver/knapsack_z3.hpp"
#include "solver/sla_exact.hpp"
#include "solver/z3_support.hpp"

#include <fmt/format.h>

#include <chrono>

namespace schedcheck::sla {

namespace {

using Clock = std::chrono::steady_clock;
using z3support::exact_real;

// Timed encoding terms (bids x (bids + running jobs) capacity terms): with flat sums, 40,000 terms (200 bids) took
// 2.1 s for a 2 s limit; for a 10 s limit 19,600 (140 bids) took 10.6 s, 36,100 (190) 11.2 s; docs/performance.md.
constexpr double kTimedMaxTerms = 20'000;

struct Timer {
  Clock::time_point start = Clock::now();
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
};

// x_i for every bid: named "accept_<id>" so that a dumped model reads like the instance.
z3::expr_vector acceptance_vars(z3::context& ctx, const Instance& instance) {
  z3::expr_vector x(ctx);
  for (const auto& bid : instance.bids) x.push_back(ctx.bool_const(("accept_" + bid.id).c_str()));
  return x;
}

// Ineligible bids can never be accepted (Algorithm 2 line 1.40, and the budget test when site.budget_test).
void forbid_ineligible(z3::optimize& opt, const Instance& instance, const z3::expr_vector& x) {
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    if (!eligible(instance.site, instance.bids[i])) opt.add(!x[static_cast<int>(i)]);
}

z3::expr incentive_sum(z3::context& ctx, const Instance& instance, const z3::expr_vector& x) {
  z3::expr_vector terms(ctx);
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    terms.push_back(z3::ite(x[static_cast<int>(i)], exact_real(ctx, incentive(instance.site, instance.bids[i])),
                            ctx.real_val(0)));
  return z3support::flat_sum(terms, ctx.real_val(0));
}

// Runs the optimiser; reads the model when there is one. `sat` = proven optimal; `unknown` with a model
// (Z3 keeps the best model found so far) = feasible; otherwise unknown.
template <class ReadModel>
ExactResult<Admission> run_optimize(z3::optimize& opt, const Instance& instance, z3support::Deadline& deadline,
                                    const Timer& timer, ReadModel read_model) {
  ExactResult<Admission> result;
  Admission admission{std::vector<bool>(instance.bids.size(), false), std::vector<double>(instance.bids.size(), 0.0)};
  const z3::check_result answer = deadline.check(opt);  // a z3::exception goes to solve_timed_z3's handler
  if (answer == z3::unsat) {
    // Accepting nothing is always feasible: unsat comes from the lower bound of a decision at hand whose times meet
    // the constraints only within the time tolerance (the registry then keeps that decision), else an encoding error.
    result.detail = "z3 reported unsat (a decision at hand within the time tolerance only, or an encoding error)";
  } else {
    bool have_model = false;
    try {
      read_model(opt.get_model(), admission);
      have_model = true;
    } catch (const z3::exception&) {  // interrupted while reading: no model
      have_model = false;
    }
    if (have_model) {
      result.status = answer == z3::sat ? ExactStatus::kOptimal : ExactStatus::kFeasible;
      result.objective = total_incentive(instance, admission);
      result.decision = std::move(admission);
    }
    if (answer != z3::sat)
      result.detail = deadline.limit_text(fmt::format(" ({})", Z3_optimize_get_reason_unknown(opt.ctx(), opt)));
  }
  result.seconds = timer.seconds();
  return result;
}

}  // namespace

ExactResult<Admission> solve_instant_z3(const Instance& instance, const SolveOptions& options, KnapsackEngine engine,
                                        const std::vector<Admission>& incumbents) {
  const Timer timer;
  const InstantKnapsack knapsack = instant_knapsack(instance);  // ineligible bids are never accepted
  const auto starts = knapsack_starts(knapsack, incumbents);
  const std::vector<bool>* start = starts.empty() ? nullptr : &starts.front();
  const auto& items = knapsack.items;
  const knapsack::Solution solution =
      engine == KnapsackEngine::kLia    ? knapsack::solve_lia(items, knapsack.capacity, options, start)
      : engine == KnapsackEngine::kWmax ? knapsack::solve_wmax(items, knapsack.capacity, options, start)
                                        : knapsack::solve_optimize(items, knapsack.capacity, options);
  ExactResult<Admission> result;
  result.status = solution.status;
  result.detail = solution.detail;
  result.interrupted = solution.interrupted;
  if (solution.status != ExactStatus::kUnknown) {
    result.decision = admission_of(instance, knapsack, solution.take);
    result.objective = total_incentive(instance, *result.decision);
  }
  result.seconds = timer.seconds();
  return result;
}

namespace {

// The timed encoding and its solve, on a context whose Deadline is set (solve_timed_z3).
ExactResult<Admission> solve_timed_encoding(z3::context& ctx, const Instance& instance, z3support::Deadline& deadline,
                                            const Timer& timer, double at_least) {
  z3::optimize opt(ctx);
  const z3::expr_vector x = acceptance_vars(ctx, instance);
  forbid_ineligible(opt, instance, x);
  const int n = static_cast<int>(instance.bids.size());
  z3::expr_vector start(ctx);
  std::vector<z3::expr> duration;
  for (int i = 0; i < n; ++i) {
    const Bid& bid = instance.bids[static_cast<std::size_t>(i)];
    start.push_back(ctx.real_const(("start_" + bid.id).c_str()));
    duration.push_back(exact_real(ctx, response_time(instance.site, bid)));
    // An accepted job starts now or later and finishes by its deadline.
    opt.add(z3::implies(x[i], start[i] >= 0 && start[i] + duration.back() <= exact_real(ctx, bid.deadline)));
  }
  // Capacity at each accepted job's start (the usage peaks at some start): running jobs still in progress plus
  // accepted jobs with s_i <= s_j < s_i + D_i use at most p_m processors.
  const z3::expr zero = ctx.int_val(0);
  for (int j = 0; j < n; ++j) {
    z3::expr_vector used(ctx);
    for (const auto& job : instance.running)
      used.push_back(z3::ite(start[j] < exact_real(ctx, job.remaining), ctx.int_val(job.procs), zero));
    for (int i = 0; i < n; ++i) {
      const int procs = instance.bids[static_cast<std::size_t>(i)].procs;
      const z3::expr in_progress =
          i == j ? x[i] : (x[i] && start[i] <= start[j] && start[j] < start[i] + duration[static_cast<std::size_t>(i)]);
      used.push_back(z3::ite(in_progress, ctx.int_val(procs), zero));
    }
    opt.add(z3::implies(x[j], z3support::flat_sum(used, zero) <= instance.site.processors));
  }
  const z3::expr objective = incentive_sum(ctx, instance, x);
  // A decision at hand is a lower bound (less a margin far above rounding: the optimum always satisfies it).
  if (at_least > 0) opt.add(objective >= exact_real(ctx, at_least * (1 - 1e-9) - 1e-9));
  opt.maximize(objective);
  return run_optimize(opt, instance, deadline, timer, [&](const z3::model& m, Admission& admission) {
    for (int i = 0; i < n; ++i) {
      admission.accepted[static_cast<std::size_t>(i)] = z3support::bool_value(m, x[i]);
      if (admission.accepted[static_cast<std::size_t>(i)])
        admission.start[static_cast<std::size_t>(i)] = z3support::to_double(z3support::numeral_value(m, start[i]));
    }
  });
}

}  // namespace

ExactResult<Admission> solve_timed_z3(const Instance& instance, const SolveOptions& options,
                                      const std::vector<Admission>& incumbents) {
  double at_least = 0;
  for (const Admission& a : incumbents) at_least = std::max(at_least, total_incentive(instance, a));
  const Timer timer;
  ExactResult<Admission> result;
  const double n = static_cast<double>(instance.bids.size());
  result.detail = z3support::over_size_limit(fmt::format("{} bids", instance.bids.size()),
                                             n * (n + static_cast<double>(instance.running.size())),
                                             kTimedMaxTerms);
  if (!result.detail.empty()) return result;
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);
  try {  // from the first Z3 call: the deadline may interrupt the encoding too
    result = solve_timed_encoding(ctx, instance, deadline, timer, at_least);
  } catch (const z3::exception& e) {
    result.detail = deadline.stop_reason(e);
  }
  result.interrupted = deadline.interrupted();
  result.seconds = timer.seconds();
  return result;
}

}  // namespace schedcheck::sla
