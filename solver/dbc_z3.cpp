// `dbc-min-cost` in Z3 (see dbc_z3.hpp). Our own: logic-based Benders decomposition. The Z3 master (QF_LIA, 0/1
// integers y[job][resource], exact rationals) chooses each job's resource under aggregate capacity and the budget;
// an exact packing oracle (branch and bound over the resource's identical PEs) checks each resource's jobs and
// returns a minimal set that cannot be packed, which becomes the cut sum_{j in S} y[j][r] <= |S| - 1.
#include "solver/dbc_z3.hpp"

#include "solver/dbc_exact.hpp"
#include "solver/z3_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <numeric>

namespace schedcheck::dbc {

namespace {

using SteadyClock = std::chrono::steady_clock;
using z3support::exact_real;
constexpr double kProbeGap = 1e-6;  // bisection toward the lower bound while the gap is above this share
constexpr int kCountingCuts = 4;   // q = 1..4 in the counting cuts below
// Job-resource pairs (assignment Booleans) beyond which the encoding is refused before it is built: with a 2,000 ms
// limit, 12,000 pairs (3,000 generated jobs on 4 resources) ended in 2.3 s, 40,000 in 4.2 s (docs/performance.md).
constexpr double kMaxPairs = 12'000;
double kInfinity() { return std::numeric_limits<double>::infinity(); }

// Exact packing of durations onto `bins` identical PEs, each load <= limit (`strict`: < limit). Branch and bound,
// longest first, equal-load PEs treated as one. Returns the PE of each item of the best (min makespan) packing, or
// empty when none exists. `first_only`: stop at the first packing found (a feasibility question).
std::vector<int> pack(const std::vector<double>& durations, int bins, double limit, bool strict, bool first_only) {
  const std::size_t n = durations.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return durations[a] > durations[b]; });
  bins = std::min<int>(bins, static_cast<int>(std::max<std::size_t>(n, 1)));
  std::vector<double> load(static_cast<std::size_t>(bins), 0.0);
  std::vector<int> where(n, -1), best;
  double best_span = kInfinity();
  auto ok = [&](double t) { return strict ? t < limit * (1 - kFitSlack) : fits(t, limit); };
  std::function<bool(std::size_t, double)> place = [&](std::size_t i, double span) {
    if (span >= best_span) return false;
    if (i == n) {
      best = where;
      best_span = span;
      return first_only;
    }
    const std::size_t item = order[i];
    for (std::size_t b = 0; b < load.size(); ++b) {
      bool seen = false;  // an earlier PE with the same load gives the same subtree
      for (std::size_t c = 0; c < b && !seen; ++c) seen = load[c] == load[b];
      if (seen || !ok(load[b] + durations[item])) continue;
      load[b] += durations[item];
      where[item] = static_cast<int>(b);
      if (place(i + 1, std::max(span, load[b]))) return true;
      load[b] -= durations[item];
    }
    return false;
  };
  place(0, 0.0);
  return best;
}

}  // namespace



ExactResult<Schedule> solve_z3(const Instance& instance, const SolveOptions& options,
                               const std::vector<Schedule>& incumbents) {
  const auto started = SteadyClock::now();
  ExactResult<Schedule> result;
  const std::size_t n = instance.jobs.size(), m = instance.resources.size();
  const double limit = horizon(instance);
  bool lane_overflow = false;  // a lane resource got more jobs than the subset-DP oracle takes
  const std::string overflow_text = fmt::format("a resource with request lanes of several PEs was given more than {} "
                                                "jobs, more than the subset-DP packing oracle takes", kDpMaxJobs);
  std::optional<Schedule> incumbent;  // the best schedule found; kept if Z3 stops with an error
  for (const Schedule& s : incumbents)  // the cheapest valid full schedule at hand (the policy's)
    if (assigned_count(s) == n && (!incumbent || total_cost(instance, s) < total_cost(instance, *incumbent)))
      incumbent = s;
  double cost_seconds = -1;  // when the cost search ended (phase_seconds)
  bool cost_proven = false;
  result.detail = z3support::over_size_limit(fmt::format("{} jobs x {} resources", n, m),
                                             static_cast<double>(n) * static_cast<double>(m), kMaxPairs);
  if (!result.detail.empty()) {
    result.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
    return result;
  }
  std::vector<int> pes(m);
  for (std::size_t r = 0; r < m; ++r) pes[r] = usable_pes(instance, instance.resources[r]);
  auto durations_of = [&](std::size_t r, const std::vector<std::size_t>& jobs) {
    std::vector<double> d;
    for (std::size_t j : jobs) d.push_back(duration(instance.resources[r], instance.jobs[j]));
    return d;
  };
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);
  try {
    z3::solver solver(ctx);
    z3::params params(ctx);
    // default arithmetic core (arith.solver=2, faster for knapsack_z3, was slower here)
    solver.set(params);

    // y[j][r]: job j runs on resource r (only where it fits alone by the limit).
    std::vector<std::vector<std::optional<z3::expr>>> y(n, std::vector<std::optional<z3::expr>>(m));
    z3::expr_vector tracked(ctx);
    std::vector<std::string> meaning, core_id;  // per tracked literal: a phrase, and the job / resource id or "budget"
    auto track = [&](const std::string& name, const std::string& what, const std::string& id) {
      tracked.push_back(ctx.bool_const(name.c_str()));
      meaning.push_back(what);
      core_id.push_back(id);
      return tracked.back();
    };
    const z3::expr zero = ctx.real_val(0);
    z3::expr_vector cost_terms(ctx);
    double lower = 0;  // valid lower bound: each job at its cheapest resource where it fits alone
    for (std::size_t j = 0; j < n; ++j) {
      z3::expr_vector choices(ctx);
      double cheapest = kInfinity();
      for (std::size_t r = 0; r < m; ++r) {
        if (!fits(duration(instance.resources[r], instance.jobs[j]), limit) ||
            !eligible(instance, instance.resources[r], instance.jobs[j]))
          continue;
        const z3::expr v = ctx.bool_const(fmt::format("y_{}_{}", instance.jobs[j].id, instance.resources[r].id).c_str());
        y[j][r] = v;
        choices.push_back(v);
        cost_terms.push_back(z3::ite(v, exact_real(ctx, job_cost(instance, instance.resources[r], instance.jobs[j])), zero));
        cheapest = std::min(cheapest, job_cost(instance, instance.resources[r], instance.jobs[j]));
      }
      if (cheapest < kInfinity()) lower += cheapest;
      solver.add(z3::implies(track(fmt::format("assign_{}", instance.jobs[j].id),
                                   cheapest < kInfinity() ? fmt::format("job {}", instance.jobs[j].id)
                                                          : fmt::format("job {} (fits on no resource alone)",
                                                                        instance.jobs[j].id),
                                   instance.jobs[j].id),
                             choices.empty() ? ctx.bool_val(false) : z3::mk_or(choices) && z3::atmost(choices, 1)));
    }
    const z3::expr cost = z3support::flat_sum(cost_terms, zero);
    std::vector<z3::expr> packing_literal;  // per resource: guards its packing cuts, so a core can name them
    for (std::size_t r = 0; r < m; ++r) {
      const Resource& res = instance.resources[r];
      z3::expr_vector work_terms(ctx);
      for (std::size_t j = 0; j < n; ++j)
        if (y[j][r]) work_terms.push_back(z3::ite(*y[j][r], exact_real(ctx, instance.jobs[j].length), zero));
      const z3::expr work = z3support::flat_sum(work_terms, zero);
      solver.add(z3::implies(track(fmt::format("capacity_{}", res.id),
                                   fmt::format("capacity of {} ({} PEs x {} s)", res.id, pes[r], limit), res.id),
                             work <= exact_real(ctx, slack_limit(limit)) * exact_real(ctx, res.mips) * ctx.real_val(pes[r])));
      // Valid counting cuts: a PE holds at most q jobs longer than limit / (q + 1), so at most q x PEs of them.
      for (int q = 1; q <= kCountingCuts; ++q) {
        z3::expr_vector many(ctx);
        for (std::size_t j = 0; j < n; ++j)
          if (y[j][r] && duration(res, instance.jobs[j]) > limit / (q + 1) * (1 + kFitSlack) + kFitSlack)
            many.push_back(*y[j][r]);
        if (static_cast<int>(many.size()) > q * pes[r]) solver.add(z3::atmost(many, static_cast<unsigned>(q * pes[r])));
      }
      packing_literal.push_back(
          track(fmt::format("packing_{}", res.id), fmt::format("PE packing of {}", res.id), res.id));
    }
    solver.add(z3::implies(track("budget", fmt::format("budget Babsolute = {}", instance.budget), "budget"),
                           cost <= exact_real(ctx, slack_limit(instance.budget))));

    // Reads a master model; checks every resource's jobs with the packing oracle under `span` (the limit, or a
    // strict makespan bound in the second stage). Adds a cut per failing resource; returns the schedule if none.
    // The oracle: resource r's jobs packed by `span` (strict: below it), each job's (PE, start), or nullopt. One-PE
    // lanes: the branch and bound above over independent PEs; lanes of several PEs share request windows: the
    // subset DP's packing (dbc_exact.hpp), limited to kDpMaxJobs jobs on the resource (else lane_overflow).
    auto packs = [&](std::size_t r, const std::vector<std::size_t>& jobs, double span, bool strict,
                     bool first_only) -> std::optional<std::vector<std::pair<int, double>>> {
      if (lane_width(instance, instance.resources[r]) > 1) {
        if (jobs.size() > kDpMaxJobs) {
          lane_overflow = true;
          return std::nullopt;
        }
        return pack_resource(instance, r, jobs, strict ? span - 3 * kFitSlack * std::max(1.0, span) : span);
      }
      const auto packed = pack(durations_of(r, jobs), pes[r], span, strict, first_only);
      if (packed.empty() && !jobs.empty()) return std::nullopt;
      std::vector<std::pair<int, double>> out;
      std::vector<double> clock(static_cast<std::size_t>(pes[r]), 0.0);
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        out.emplace_back(packed[i], clock[static_cast<std::size_t>(packed[i])]);
        clock[static_cast<std::size_t>(packed[i])] += duration(instance.resources[r], instance.jobs[jobs[i]]);
      }
      return out;
    };
    auto check_packing = [&](const z3::model& model, double span, bool strict,
                             const z3::expr& guard) -> std::optional<Schedule> {
      Schedule s = empty_schedule(instance);
      bool all = true;
      std::vector<std::vector<std::size_t>> on(m);  // the jobs the model puts on each resource
      std::size_t placed_jobs = 0;
      for (std::size_t r = 0; r < m; ++r)
        for (std::size_t j = 0; j < n; ++j)
          if (y[j][r] && z3support::bool_value(model, *y[j][r])) {
            on[r].push_back(j);
            ++placed_jobs;
          }
      // Every model of the master assigns every job once; one that does not is a model Z3 never finished.
      if (placed_jobs != n) throw z3::exception("canceled (an unfinished model assigns a job to no resource)");
      for (std::size_t r = 0; r < m; ++r) {
        std::vector<std::size_t> jobs = on[r];
        if (const auto placed = packs(r, jobs, span, strict, false)) {
          for (std::size_t i = 0; i < jobs.size(); ++i) {
            s.resource[jobs[i]] = static_cast<int>(r);
            s.pe[jobs[i]] = (*placed)[i].first;
            s.start[jobs[i]] = (*placed)[i].second;
          }
          continue;
        }
        if (lane_overflow) return std::nullopt;
        all = false;
        // A minimal subset that still cannot be packed: drop each job whose removal keeps it unpackable.
        for (std::size_t i = jobs.size(); i-- > 0;) {
          std::vector<std::size_t> fewer = jobs;
          fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
          if (!packs(r, fewer, span, strict, true)) jobs = std::move(fewer);
        }
        z3::expr_vector not_all(ctx);  // not every job of the set on r
        for (std::size_t j : jobs) not_all.push_back(!*y[j][r]);
        solver.add(z3::implies(guard && packing_literal[r], z3::mk_or(not_all)));
      }
      if (all) return s;
      return std::nullopt;
    };

    // Stage 0: any schedule at all (tracked constraints as assumptions, so unsat gives a core).
    z3::check_result answer = z3::unknown;
    const z3::expr always = ctx.bool_val(true);
    while (!incumbent && !deadline.passed() && !lane_overflow) {
      answer = deadline.check(solver, tracked);
      if (answer != z3::sat) break;
      incumbent = check_packing(solver.get_model(), limit, false, always);
    }
    if (!incumbent && answer == z3::unsat) {
      const z3::expr_vector core = solver.unsat_core();
      std::string why;
      for (unsigned i = 0; i < core.size(); ++i)
        for (unsigned t = 0; t < tracked.size(); ++t)
          if (z3::eq(core[i], tracked[t])) {
            why += (why.empty() ? "" : ", ") + meaning[t];
            if (std::find(result.core.begin(), result.core.end(), core_id[t]) == result.core.end())
              result.core.push_back(core_id[t]);
          }
      result.status = ExactStatus::kInfeasible;
      result.detail = fmt::format("proven: no schedule assigns every job by {} s within the budget; unsat core: {}",
                                  limit, why);
    } else if (!incumbent) {
      result.detail = lane_overflow ? overflow_text
                                    : deadline.limit_text(" before any schedule was found");
    } else {
      for (unsigned t = 0; t < tracked.size(); ++t) solver.add(tracked[t]);
      // Stage 1: minimum cost. Probes "cost <= middle" toward the lower bound, then the exact "cost < best".
      double best = total_cost(instance, *incumbent);
      z3::expr_vector incumbent_costs(ctx);
      for (std::size_t j = 0; j < n; ++j)
        incumbent_costs.push_back(exact_real(ctx, job_cost(instance, instance.resources[static_cast<std::size_t>(incumbent->resource[j])], instance.jobs[j])));
      z3::expr best_exact = z3support::flat_sum(incumbent_costs, zero).simplify();
      int asked = 0;
      while (!deadline.passed() && !lane_overflow) {
        const bool probing = best - lower > kProbeGap * (std::fabs(best) + 1);
        const double middle = lower + 0.5 * (best - lower);
        const z3::expr literal = ctx.bool_const(fmt::format("ask_{}", asked++).c_str());
        solver.add(z3::implies(literal, probing ? cost <= exact_real(ctx, middle) : cost < best_exact));
        z3::expr_vector assumption(ctx);
        assumption.push_back(literal);
        answer = deadline.check(solver, assumption);
        if (answer == z3::unknown) break;
        if (answer == z3::unsat) {
          if (!probing) {
            cost_proven = true;
            break;
          }
          solver.add(cost > exact_real(ctx, middle));  // proven: nothing within every cut costs <= middle
          lower = middle;
          continue;
        }
        const z3::model model = solver.get_model();
        if (auto s = check_packing(model, limit, false, always)) {
          incumbent = s;
          best = total_cost(instance, *s);
          best_exact = z3support::numeral_value(model, cost);
        }
      }
      result.status = cost_proven ? ExactStatus::kOptimal : ExactStatus::kFeasible;
      if (!cost_proven)
        result.detail = lane_overflow ? overflow_text + "; cheapest schedule found kept"
                                      : deadline.limit_text("; cheapest schedule found kept");
      cost_seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
      // Stage 2 (lexicographic): among minimum-cost assignments, ask for a packed makespan strictly below the best.
      if (cost_proven) {
        solver.add(cost <= best_exact);
        bool span_proven = false;
        // Cuts learnt under a makespan bound hold under every smaller bound; the bounds only decrease, so all
        // stage-2 cuts are guarded by one literal assumed in every stage-2 question.
        const z3::expr stage2 = ctx.bool_const("stage2");
        while (!deadline.passed() && !lane_overflow) {
          const double span = makespan(instance, *incumbent);
          const z3::expr literal = ctx.bool_const(fmt::format("ask_{}", asked++).c_str());
          for (std::size_t r = 0; r < m; ++r) {  // aggregate: a resource's work below pes x span
            z3::expr_vector work_terms(ctx);
            for (std::size_t j = 0; j < n; ++j)
              if (y[j][r]) work_terms.push_back(z3::ite(*y[j][r], exact_real(ctx, duration(instance.resources[r], instance.jobs[j])), zero));
            const z3::expr work = z3support::flat_sum(work_terms, zero);
            solver.add(z3::implies(literal, work < exact_real(ctx, span) * ctx.real_val(pes[r])));
          }
          z3::expr_vector assumption(ctx);
          assumption.push_back(literal);
          assumption.push_back(stage2);
          answer = deadline.check(solver, assumption);
          if (answer == z3::unknown) break;
          if (answer == z3::unsat) {
            span_proven = true;
            break;
          }
          if (auto s = check_packing(solver.get_model(), span, true, stage2)) incumbent = s;
        }
        if (!span_proven)
          result.detail = lane_overflow ? "minimum cost proven; makespan tie-break stopped: " + overflow_text
                                        : "minimum cost proven; the makespan tie-break was not proven minimal: " +
                                              deadline.limit_text();
      }
      result.objective = total_cost(instance, *incumbent);
      result.decision = std::move(incumbent);
    }
  } catch (const z3::exception& e) {  // e.g. "canceled" when the deadline interrupts Z3 inside a model query
    result.status = cost_proven ? ExactStatus::kOptimal : incumbent ? ExactStatus::kFeasible : ExactStatus::kUnknown;
    result.detail = deadline.stop_reason(e) + (incumbent ? "; cheapest schedule found kept" : "");
    if (incumbent) {
      result.objective = total_cost(instance, *incumbent);
      result.decision = std::move(incumbent);
    }
  }
  result.interrupted = deadline.interrupted();
  const double total = std::chrono::duration<double>(SteadyClock::now() - started).count();
  result.phase_seconds = {{"cost", cost_seconds < 0 ? total : cost_seconds}};
  if (cost_seconds >= 0 && cost_proven) result.phase_seconds.emplace_back("tie-break", total - cost_seconds);
  result.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
  return result;
}

}  // namespace schedcheck::dbc
