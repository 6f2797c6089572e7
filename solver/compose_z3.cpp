// Offer composition in Z3 (see compose_z3.hpp). Our encoding; exact rationals for every time, lexicographic optimize.
#include "solver/compose_z3.hpp"

#include "solver/z3_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

namespace schedcheck::compose {

namespace {
constexpr double kProbeGap = 1e-6;  // stop bisecting the secondary objective below this relative gap
// Offers (one Boolean, two implications and the count terms each) beyond which the encoding is refused: Z3 took
// 0.8 s to stop at a 1 ms limit on 5,000 offers (generated, 1,000 providers) and 2,000 ms limits ran 0.3 s over
// there, 1.3 s over at 15,000 offers (docs/performance.md).
constexpr double kMaxOffers = 10'000;
}  // namespace

ExactResult<Composition> solve_z3(const Instance& instance, const SolveOptions& options, Secondary secondary) {
  const auto started = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  using z3support::exact_real;
  ExactResult<Composition> result;
  double offers = 0;
  for (const auto& provider : instance.providers) offers += static_cast<double>(provider.offers.size());
  const std::string what = fmt::format("{} providers, {:g} offers", instance.providers.size(), offers);
  result.detail = z3support::over_size_limit(what, offers, kMaxOffers);
  if (!result.detail.empty()) {
    result.seconds = seconds();
    return result;
  }
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);
  z3::check_result answer = z3::unknown;
  std::optional<z3::model> best;
  // One try from the first Z3 call: the deadline may interrupt the encoding too. Declared here for the reading below.
  std::optional<z3::solver> solver;
  std::vector<z3::expr> tasks;
  std::vector<std::vector<z3::expr>> use(instance.providers.size());
  try {
    z3::solver& opt = solver.emplace(ctx);  // plain satisfiability: see the two stages below
    const Bot& bot = instance.bot;
    const z3::expr zero = ctx.int_val(0), one = ctx.int_val(1);
    const z3::expr completion = ctx.real_const("bot_completion");
    opt.add(completion >= exact_real(ctx, bot.submit));
    const z3::expr share = ctx.real_const("largest_share");
    z3::expr_vector total_terms(ctx), used_terms(ctx), delay_terms(ctx);  // flat sums (z3support::flat_sum)
    opt.add(share >= 0);
    for (std::size_t p = 0; p < instance.providers.size(); ++p) {
      const Provider& provider = instance.providers[p];
      tasks.push_back(ctx.int_const(fmt::format("tasks_{}", provider.id).c_str()));
      const z3::expr& x = tasks.back();
      z3::expr chosen = ctx.int_val(0), capacity = ctx.int_val(0);
      for (std::size_t j = 0; j < provider.offers.size(); ++j) {
        const Offer& offer = provider.offers[j];
        use[p].push_back(ctx.bool_const(fmt::format("use_{}_offer{}", provider.id, j).c_str()));
        const z3::expr& u = use[p].back();
        chosen = chosen + z3::ite(u, one, zero);
        capacity = capacity + z3::ite(u, ctx.int_val(static_cast<int64_t>(offer.tasks)), zero);
        opt.add(z3::implies(u, completion >= exact_real(ctx, offer.completion)));
        // A real numeral (not to_real of an Int numeral): Z3 then sees a linear term; with (* (to_real 7) share) it
        // treated the product as nonlinear and returned non-optimal "optimal" answers.
        opt.add(z3::implies(u, ctx.real_val(static_cast<int64_t>(offer.tasks)) * share >= z3::to_real(x)));
        const double weight = offer.completion > bot.deadline
                                  ? ((offer.completion - bot.submit) / (bot.deadline - bot.submit) - 1) * 100
                                  : 0.0;
        if (weight > 0) delay_terms.push_back(z3::ite(u, z3::to_real(x) * exact_real(ctx, weight), ctx.real_val(0)));
      }
      opt.add(chosen <= 1);               // one offer per provider
      opt.add(x >= chosen && x <= capacity);  // a chosen offer gets >= 1 task, never more than its size
      used_terms.push_back(chosen);
      total_terms.push_back(x);
    }
    const z3::expr used_providers = z3support::flat_sum(used_terms, zero);
    const z3::expr delay = z3support::flat_sum(delay_terms, ctx.real_val(0));
    opt.add(z3support::flat_sum(total_terms, zero) == ctx.int_val(static_cast<int64_t>(bot.tasks)));
    // Lexicographic, in two explicit stages on a plain solver. We do not use z3::optimize: in Z3 4.8.12 it returned
    // "optimal" answers that a validated composition beats (a later completion on 5 of 25 random instances, with its
    // built-in lex priority and with push/pop stages; a larger share after fixing C*), mixing Int task counts with Real
    // objectives. Stage 1 bisects over the distinct offer completion times ("some composition completes by t", offers
    // completing later assumed unused). Stage 2 forbids those offers and tightens the secondary objective: find a
    // model, require a strictly smaller value, repeat until unsat (= proven optimal; finitely many values exist).
    std::vector<double> times;
    for (const auto& provider : instance.providers)
      for (const auto& offer : provider.offers) times.push_back(offer.completion);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    auto forbid_after = [&](z3::expr_vector& out, double t) {
      for (std::size_t p = 0; p < instance.providers.size(); ++p)
        for (std::size_t j = 0; j < use[p].size(); ++j)
          if (instance.providers[p].offers[j].completion > t) out.push_back(!use[p][j]);
    };
    const z3::expr objective = secondary == Secondary::kBalance     ? share
                               : secondary == Secondary::kProviders ? z3::to_real(used_providers)
                                                                    : delay;
    std::size_t low = 0, high = times.size();  // times[high] is known feasible once high < size
    while (low < high) {
      const std::size_t mid = low + (high - low) / 2;
      z3::expr_vector assumptions(ctx);
      forbid_after(assumptions, times[mid]);
      const z3::check_result feasible = deadline.check(opt, assumptions);
      if (feasible == z3::unknown) break;
      if (feasible == z3::sat) high = mid;
      else low = mid + 1;
    }
    if (low < high) {
      answer = z3::unknown;  // interrupted in stage 1: nothing proven
    } else if (high == times.size()) {
      answer = z3::unsat;
    } else {
      z3::expr_vector fixed(ctx);
      forbid_after(fixed, times[high]);
      for (unsigned i = 0; i < fixed.size(); ++i) opt.add(fixed[static_cast<int>(i)]);
      opt.add(completion <= exact_real(ctx, times[high]));
      // Bisection probes "objective <= mid" between a proven lower bound and the best value, then the exact final
      // question "objective < best" until unsat.
      if (secondary == Secondary::kBalance) {
        // The largest share is some k / size: bisect over those values with pure-integer probes
        // "every used offer j holds x_p <= floor(share * size_j)" (the real-valued tightening below did not prove
        // the optimum of one 4-provider instance in 10 s).
        struct Candidate {
          long long k, size;
        };
        std::vector<Candidate> shares;
        for (const auto& provider : instance.providers)
          for (const auto& offer : provider.offers)
            if (offer.completion <= times[high])
              for (long long k = 1; k <= std::min(offer.tasks, bot.tasks); ++k) shares.push_back({k, offer.tasks});
        auto less = [](const Candidate& a, const Candidate& b) { return static_cast<WideInt>(a.k) * b.size < static_cast<WideInt>(b.k) * a.size; };
        std::sort(shares.begin(), shares.end(), less);
        auto probe = [&](const Candidate& s) {
          opt.push();
          for (std::size_t p = 0; p < instance.providers.size(); ++p)
            for (std::size_t j = 0; j < use[p].size(); ++j) {
              const long long size = instance.providers[p].offers[j].tasks;
              const long long most = static_cast<long long>(static_cast<WideInt>(s.k) * size / s.size);
              opt.add(z3::implies(use[p][j], tasks[p] <= ctx.int_val(static_cast<int64_t>(most))));
            }
          const z3::check_result r = deadline.check(opt);
          if (r == z3::sat) best = opt.get_model();
          opt.pop();
          return r;
        };
        std::size_t lo = 0, hi = shares.size() - 1;  // the largest share is always feasible (every share <= 1)
        answer = probe(shares[hi]);
        while (answer == z3::sat && lo < hi) {
          const std::size_t mid = lo + (hi - lo) / 2;
          const z3::check_result r = probe(shares[mid]);
          if (r == z3::unknown) answer = z3::unknown;
          else if (r == z3::sat) hi = mid;
          else lo = mid + 1;
        }
        if (answer == z3::sat) answer = z3::unsat;  // converged: nothing smaller is feasible; `best` is optimal
      } else {
        answer = deadline.check(opt);
        if (answer == z3::sat) best = opt.get_model();
      }
      double lower = 0;
      while (answer == z3::sat) {
        const z3::expr best_value = z3support::numeral_value(*best, objective);
        const double upper = z3support::to_double(best_value);
        const double mid = lower + (upper - lower) / 2;
        if (upper - lower > kProbeGap * std::max(1.0, upper)) {
          opt.push();
          opt.add(objective <= exact_real(ctx, mid));
          const z3::check_result probe = deadline.check(opt);
          if (probe == z3::sat) best = opt.get_model();
          opt.pop();
          if (probe == z3::unsat) lower = mid;
          if (probe != z3::unknown) continue;
        }
        opt.add(objective < best_value);
        answer = deadline.check(opt);
        if (answer == z3::sat) best = opt.get_model();
      }
      if (answer == z3::unsat && best) answer = z3::sat;  // the last model is optimal
    }
  } catch (const z3::exception& e) {
    result.detail = deadline.stop_reason(e);
    result.interrupted = deadline.interrupted();
    result.seconds = seconds();
    return result;
  }
  auto why_unknown = [&]() -> std::string {  // after an interrupt even this query may be cut short
    try {
      return solver->reason_unknown();
    } catch (const z3::exception& e) {
      return e.msg();
    }
  };
  if (answer == z3::unsat) {
    result.detail = "z3: no composition covers the BoT";
  } else if (best) {
    try {
      const z3::model& model = *best;
      Composition composition{std::vector<Part>(instance.providers.size())};
      for (std::size_t p = 0; p < instance.providers.size(); ++p)
        for (std::size_t j = 0; j < use[p].size(); ++j)
          if (z3support::bool_value(model, use[p][j]))
            composition.parts[p] = Part{z3support::numeral_value(model, tasks[p]).get_numeral_int64(), static_cast<int>(j),
                                        instance.providers[p].offers[j].completion};
      result.status = answer == z3::sat ? ExactStatus::kOptimal : ExactStatus::kFeasible;
      result.objective = bot_completion(instance, composition);
      result.decision = std::move(composition);
    } catch (const z3::exception&) {
      result.status = ExactStatus::kUnknown;
    }
    if (answer != z3::sat)
      result.detail =
          deadline.limit_text(fmt::format(" ({}); best found, not proven", why_unknown()));
  } else {
    result.detail = deadline.limit_text(fmt::format(" ({})", why_unknown()));
  }
  result.interrupted = deadline.interrupted();
  result.seconds = seconds();
  return result;
}

}  // namespace schedcheck::compose
