// `dbc-min-cost` in Z3 (see dbc_z3.hpp). Our own encoding; exact rationals throughout, z3support::Deadline limit.
#include "solver/dbc_z3.hpp"

#include "solver/z3_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>

namespace schedcheck::dbc {

namespace {

using Clock = std::chrono::steady_clock;
using z3support::exact_real;
// Bisection probes toward the lower bound while the gap is above this share of the incumbent.
constexpr double kProbeGap = 1e-6;

struct Var {
  std::size_t resource;
  int pe;
  z3::expr x;
};

// Minimises `objective` (a real term) from an incumbent. Valid lower bounds learnt from unsat probes are kept.
// Returns true when the incumbent is proven minimal; false at the time limit (the incumbent stays the best found).
bool minimise(z3::solver& solver, const z3::expr& objective, double lower, const z3support::Deadline& deadline,
              const std::function<z3::expr(const z3::model&)>& accept, z3::expr& best, int& probe) {
  z3::context& ctx = solver.ctx();
  while (!deadline.passed()) {
    const double incumbent = z3support::to_double(best);
    const bool probing = incumbent - lower > kProbeGap * (std::fabs(incumbent) + 1);
    const double middle = lower + 0.5 * (incumbent - lower);
    const z3::expr literal = ctx.bool_const(fmt::format("ask_{}", probe++).c_str());
    solver.add(z3::implies(literal, probing ? objective <= exact_real(ctx, middle) : objective < best));
    z3::expr_vector assumptions(ctx);
    assumptions.push_back(literal);
    const z3::check_result answer = solver.check(assumptions);
    if (answer == z3::unknown) return false;
    if (answer == z3::unsat) {
      if (!probing) return true;
      solver.add(objective > exact_real(ctx, middle));  // proven: nothing costs <= middle
      lower = middle;
      continue;
    }
    best = accept(solver.get_model());
  }
  return false;
}

}  // namespace

ExactResult<Schedule> solve_z3(const Instance& instance, const SolveOptions& options) {
  const auto started = Clock::now();
  ExactResult<Schedule> result;
  const std::size_t n = instance.jobs.size(), m = instance.resources.size();
  const double limit = horizon(instance);
  try {
    z3::context ctx;
    z3support::Deadline deadline(ctx, options.timeout_ms);
    z3::solver solver(ctx);
    z3::params params(ctx);
    params.set("core.minimize", true);
    solver.set(params);

    // Symmetry of the identical PEs of one resource: with jobs ranked by decreasing length, the job of rank p may
    // only use PEs 0..p (relabel each resource's PEs in the order of their first job: any schedule has a copy so).
    std::vector<std::size_t> by_length(n);
    std::iota(by_length.begin(), by_length.end(), std::size_t{0});
    std::stable_sort(by_length.begin(), by_length.end(),
                     [&](std::size_t a, std::size_t b) { return instance.jobs[a].length > instance.jobs[b].length; });
    std::vector<std::size_t> rank(n);
    for (std::size_t p = 0; p < n; ++p) rank[by_length[p]] = p;

    std::vector<std::vector<Var>> vars(n);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t r = 0; r < m; ++r) {
        const int pes = static_cast<int>(std::min<std::size_t>(
            static_cast<std::size_t>(usable_pes(instance, instance.resources[r])), rank[j] + 1));
        for (int k = 0; k < pes; ++k)
          vars[j].push_back(Var{r, k, ctx.bool_const(fmt::format("x_{}_{}_{}", instance.jobs[j].id,
                                                                 instance.resources[r].id, k).c_str())});
      }

    z3::expr_vector tracked(ctx);
    std::vector<std::string> meaning;
    auto track = [&](const std::string& name, const std::string& what, const z3::expr& constraint) {
      const z3::expr literal = ctx.bool_const(name.c_str());
      solver.add(z3::implies(literal, constraint));
      tracked.push_back(literal);
      meaning.push_back(what);
    };
    const z3::expr zero = ctx.real_val(0);
    z3::expr cost = ctx.real_val(0);
    for (std::size_t j = 0; j < n; ++j) {
      z3::expr_vector xs(ctx);
      for (const auto& v : vars[j]) {
        xs.push_back(v.x);
        cost = cost + z3::ite(v.x, exact_real(ctx, instance.resources[v.resource].cost) *
                                       exact_real(ctx, instance.jobs[j].length), zero);
      }
      const z3::expr once = xs.empty() ? ctx.bool_val(false) : z3::mk_or(xs) && z3::atmost(xs, 1);
      track(fmt::format("assign_{}", instance.jobs[j].id), fmt::format("job {}", instance.jobs[j].id), once);
    }
    // Per PE: work in MI <= limit x MIPS (the PE's jobs run back to back from t = 0).
    std::vector<std::vector<z3::expr>> load(m);  // [r][k] seconds of work
    for (std::size_t r = 0; r < m; ++r) {
      const Resource& res = instance.resources[r];
      const int pes = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(usable_pes(instance, res)), n));
      z3::expr_vector fit(ctx);
      for (int k = 0; k < pes; ++k) {
        z3::expr work = ctx.real_val(0);
        for (std::size_t j = 0; j < n; ++j)
          for (const auto& v : vars[j])
            if (v.resource == r && v.pe == k) work = work + z3::ite(v.x, exact_real(ctx, instance.jobs[j].length), zero);
        load[r].push_back(work / exact_real(ctx, res.mips));
        fit.push_back(work <= exact_real(ctx, limit) * exact_real(ctx, res.mips));
      }
      if (!fit.empty())
        track(fmt::format("capacity_{}", res.id),
              fmt::format("capacity of {} ({} usable PEs x {} s)", res.id, pes, limit), z3::mk_and(fit));
    }
    track("budget", fmt::format("budget Babsolute = {}", instance.budget), cost <= exact_real(ctx, instance.budget));

    // A valid lower bound on the cost, given to Z3 too: each job at its cheapest resource where it fits alone.
    double lower = 0;
    z3::expr lower_term = ctx.real_val(0);
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t cheapest = m;
      for (std::size_t r = 0; r < m; ++r)
        if (fits(duration(instance.resources[r], instance.jobs[j]), limit) &&
            (cheapest == m || instance.resources[r].cost < instance.resources[cheapest].cost))
          cheapest = r;
      if (cheapest == m) continue;  // fits nowhere: the core will say so
      lower += job_cost(instance.resources[cheapest], instance.jobs[j]);
      lower_term = lower_term + exact_real(ctx, instance.resources[cheapest].cost) * exact_real(ctx, instance.jobs[j].length);
    }
    solver.add(cost >= lower_term);

    Schedule schedule = empty_schedule(instance);
    auto read = [&](const z3::model& model) {
      schedule = empty_schedule(instance);
      std::vector<std::vector<double>> clock(m);
      for (std::size_t r = 0; r < m; ++r) clock[r].assign(std::min<std::size_t>(static_cast<std::size_t>(usable_pes(instance, instance.resources[r])), n), 0.0);
      for (std::size_t j = 0; j < n; ++j)
        for (const auto& v : vars[j])
          if (model.eval(v.x, true).is_true()) {
            schedule.resource[j] = static_cast<int>(v.resource);
            schedule.pe[j] = v.pe;
            double& t = clock[v.resource][static_cast<std::size_t>(v.pe)];
            schedule.start[j] = t;
            t += duration(instance.resources[v.resource], instance.jobs[j]);
          }
    };

    const z3::check_result first = solver.check(tracked);
    if (first == z3::unknown) {
      result.detail = fmt::format("time limit of {} ms reached before any schedule was found", options.timeout_ms);
    } else if (first == z3::unsat) {
      const z3::expr_vector core = solver.unsat_core();
      std::string why;
      for (unsigned i = 0; i < core.size(); ++i)
        for (unsigned t = 0; t < tracked.size(); ++t)
          if (z3::eq(core[i], tracked[t])) why += (why.empty() ? "" : ", ") + meaning[t];
      result.status = ExactStatus::kInfeasible;
      result.detail = fmt::format("proven: no schedule assigns every job by {} s within the budget; unsat core: {}",
                                  limit, why);
    } else {
      z3::model last = solver.get_model();  // the incumbent's model (the solver's goes with the next add/unsat)
      for (unsigned t = 0; t < tracked.size(); ++t) solver.add(tracked[t]);
      int probe = 0;
      read(last);
      z3::expr best = last.eval(cost, true);
      const bool cost_proven = minimise(solver, cost, lower, deadline, [&](const z3::model& model) {
        read(model);
        last = model;
        return model.eval(cost, true);
      }, best, probe);
      Schedule min_cost = schedule;
      result.status = cost_proven ? ExactStatus::kOptimal : ExactStatus::kFeasible;
      if (!cost_proven) {
        result.detail = fmt::format("time limit of {} ms reached; cheapest schedule found kept", options.timeout_ms);
      } else {
        // Lexicographic second stage: among minimum-cost schedules, the smallest makespan.
        solver.add(cost <= best);
        const z3::expr span = ctx.real_const("makespan");
        for (const auto& pes : load)
          for (const auto& work : pes) solver.add(work <= span);
        double longest_alone = 0;  // lower bound: the longest job on the fastest PE
        double fastest = 0;
        for (const auto& res : instance.resources) fastest = std::max(fastest, res.mips);
        for (const auto& job : instance.jobs) longest_alone = std::max(longest_alone, job.length / fastest);
        auto span_of = [&](const z3::model& model) {
          z3::expr top = ctx.real_val(0);
          double top_value = 0;
          for (const auto& pes : load)
            for (const auto& work : pes) {
              const z3::expr v = model.eval(work, true);
              if (z3support::to_double(v) >= top_value) {
                top_value = z3support::to_double(v);
                top = v;
              }
            }
          return top;
        };
        z3::expr best_span = span_of(last);
        const bool span_proven = minimise(solver, span, longest_alone * (1 - 1e-9), deadline, [&](const z3::model& model) {
          read(model);
          min_cost = schedule;
          return span_of(model);
        }, best_span, probe);
        if (!span_proven)
          result.detail = fmt::format("minimum cost proven; the makespan tie-break was not proven minimal within {} ms",
                                      options.timeout_ms);
      }
      result.objective = total_cost(instance, min_cost);
      result.decision = std::move(min_cost);
    }
  } catch (const z3::exception& e) {
    result.status = result.decision ? ExactStatus::kFeasible : ExactStatus::kUnknown;
    result.detail = fmt::format("z3 error: {}", e.msg());
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace schedcheck::dbc
