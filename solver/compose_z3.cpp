// Offer composition in Z3 (see compose_z3.hpp). Our encoding; exact rationals for every time, lexicographic optimize.
#include "solver/compose_z3.hpp"

#include "solver/z3_support.hpp"

#include <fmt/format.h>

#include <chrono>

namespace schedcheck::compose {

ExactResult<Composition> solve_z3(const Instance& instance, const SolveOptions& options, Secondary secondary) {
  const auto started = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  using z3support::exact_real;
  ExactResult<Composition> result;
  z3::context ctx;
  z3support::Deadline deadline(ctx, options.timeout_ms);
  z3::optimize opt(ctx);
  const Bot& bot = instance.bot;
  const z3::expr zero = ctx.int_val(0), one = ctx.int_val(1);
  const z3::expr completion = ctx.real_const("bot_completion");
  opt.add(completion >= exact_real(ctx, bot.submit));
  z3::expr total = ctx.int_val(0), used_providers = ctx.int_val(0), share = ctx.real_const("largest_share");
  z3::expr delay = ctx.real_val(0);
  opt.add(share >= 0);
  std::vector<z3::expr> tasks;
  std::vector<std::vector<z3::expr>> use(instance.providers.size());
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
      opt.add(z3::implies(u, ctx.int_val(static_cast<int64_t>(offer.tasks)) * share >= z3::to_real(x)));
      const double weight = offer.completion > bot.deadline
                                ? ((offer.completion - bot.submit) / (bot.deadline - bot.submit) - 1) * 100
                                : 0.0;
      if (weight > 0) delay = delay + z3::ite(u, z3::to_real(x) * exact_real(ctx, weight), ctx.real_val(0));
    }
    opt.add(chosen <= 1);               // one offer per provider
    opt.add(x >= chosen && x <= capacity);  // a chosen offer gets >= 1 task, never more than its size
    used_providers = used_providers + chosen;
    total = total + x;
  }
  opt.add(total == ctx.int_val(static_cast<int64_t>(bot.tasks)));
  opt.minimize(completion);  // lexicographic (Z3's default priority): completion first
  opt.minimize(secondary == Secondary::kBalance ? share : secondary == Secondary::kProviders ? z3::to_real(used_providers) : delay);
  z3::check_result answer = z3::unknown;
  try {
    answer = opt.check();
  } catch (const z3::exception& e) {
    result.detail = fmt::format("z3 error: {}", e.msg());
    result.seconds = seconds();
    return result;
  }
  if (answer == z3::unsat) {
    result.detail = "z3: no composition covers the BoT";
  } else {
    try {
      const z3::model model = opt.get_model();
      Composition composition{std::vector<Part>(instance.providers.size())};
      for (std::size_t p = 0; p < instance.providers.size(); ++p)
        for (std::size_t j = 0; j < use[p].size(); ++j)
          if (model.eval(use[p][j], true).is_true())
            composition.parts[p] = Part{model.eval(tasks[p], true).get_numeral_int64(), static_cast<int>(j),
                                        instance.providers[p].offers[j].completion};
      result.status = answer == z3::sat ? ExactStatus::kOptimal : ExactStatus::kFeasible;
      result.objective = bot_completion(instance, composition);
      result.decision = std::move(composition);
    } catch (const z3::exception&) {
      result.status = ExactStatus::kUnknown;
    }
    if (answer != z3::sat)
      result.detail = fmt::format("time limit of {} ms reached ({})", options.timeout_ms,
                                  Z3_optimize_get_reason_unknown(opt.ctx(), opt));
  }
  result.seconds = seconds();
  return result;
}

}  // namespace schedcheck::compose
