// The Z3 formulation of auction-bid (solver/auction_bid_z3.hpp). Our own. Each model gives a plan (its placement and
// bids), validated and priced by the model's own semantics; the next check asks for a total below that price less
// kZ3TighteningSlack; unsat then proves it optimal within that slack. The charge and share variables only bound the
// true ones (share <= the true share, charge >= the true charge), so a model's plan costs at most its sum of charges.
#include "solver/auction_bid_z3.hpp"

#include "solver/z3_support.hpp"

#include <fmt/format.h>

#include <chrono>

namespace schedcheck::auction_bid {

namespace {

using z3support::exact_real;

double real_in_model(const z3::model& m, const z3::expr& e) {
  const z3::expr value = m.eval(e, true);
  if (!value.is_numeral() && !value.is_algebraic()) throw z3::exception("canceled");
  return z3support::to_double(value);
}

// Runs the tightening loop into `result` (kept as it stands, the best plan so far, when Z3 throws).
void solve_encoding(z3::context& ctx, const Instance& instance, z3support::Deadline& deadline, ExactResult<Plan>& result) {
  const std::size_t nr = instance.resources.size(), nt = instance.tasks.size();
  z3::solver solver(ctx, "QF_NRA");
  std::vector<std::vector<z3::expr>> place(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    const Task& task = instance.tasks[t];
    z3::expr_vector any(ctx);
    for (std::size_t r = 0; r < nr; ++r) {
      const std::string name = fmt::format("place_{}_on_{}", task.id, instance.resources[r].spec.name);
      place[t].push_back(ctx.bool_const(name.c_str()));
      any.push_back(place[t][r]);
      if (task.running_on != kNoResource) solver.add(task.running_on == r ? place[t][r] : !place[t][r]);
    }
    solver.add(z3::mk_or(any));
    for (std::size_t r = 0; r < nr; ++r)
      for (std::size_t q = r + 1; q < nr; ++q) solver.add(!place[t][r] || !place[t][q]);
  }
  const z3::expr zero = ctx.real_val(0), sixty = exact_real(ctx, auction::kSecondsPerMinute);
  std::vector<z3::expr> bid, charge;
  z3::expr_vector charges(ctx);
  for (std::size_t r = 0; r < nr; ++r) {
    const Resource& res = instance.resources[r];
    const std::string& name = res.spec.name;
    bid.push_back(ctx.real_const(("bid_" + name).c_str()));
    const z3::expr share = ctx.real_const(("share_" + name).c_str());
    charge.push_back(ctx.real_const(("charge_" + name).c_str()));
    z3::expr_vector work(ctx);
    for (std::size_t t = 0; t < nt; ++t)
      work.push_back(z3::ite(place[t][r], exact_real(ctx, instance.tasks[t].length), zero));
    const z3::expr load = ctx.real_const(("load_" + name).c_str());
    solver.add(load == z3support::flat_sum(work, zero));
    const z3::expr& b = bid.back();
    solver.add(b >= exact_real(ctx, res.spec.min_bid) && b <= exact_real(ctx, res.spec.max_bid));
    // Eq. 1 against the others' bids, capped at one PE: share <= B / (B + O) x Ctot and share <= Ccap.
    solver.add(share > 0 && share <= exact_real(ctx, task_cap(instance, r)));
    solver.add(share * (b + exact_real(ctx, res.others_bid)) <= b * exact_real(ctx, total_capacity(instance, r)));
    solver.add(load <= share * exact_real(ctx, instance.time_left));  // T = load / share <= time_left
    // Eq. 3 over the time run, with the surcharge: charge >= factor x B x (load / share) / 60.
    solver.add(charge.back() * sixty * share >= exact_real(ctx, surcharge_factor(instance, r)) * b * load);
    solver.add(charge.back() >= 0);
    charges.push_back(charge.back());
  }
  const z3::expr total = z3support::flat_sum(charges, zero);
  std::size_t models = 0;
  for (;;) {
    const z3::check_result answer = deadline.check(solver);
    if (answer == z3::unsat) {
      result.status = result.decision ? ExactStatus::kOptimal : ExactStatus::kInfeasible;
      result.detail = result.decision
                          ? fmt::format("{} models, each cheaper than the last; then none cheaper", models)
                          : "unsat: no placement and bids meet the deadline";
      return;
    }
    if (answer != z3::sat) {
      result.status = result.decision ? ExactStatus::kFeasible : ExactStatus::kUnknown;
      result.detail = deadline.passed()
                          ? deadline.limit_text(fmt::format(" after {} models", models))
                          : fmt::format("z3: {} after {} models", solver.reason_unknown(), models);
      return;
    }
    const z3::model m = solver.get_model();
    ++models;
    Plan plan;
    plan.assign.assign(nt, kNoResource);
    for (std::size_t t = 0; t < nt; ++t)
      for (std::size_t r = 0; r < nr; ++r)
        if (z3support::bool_value(m, place[t][r])) plan.assign[t] = r;
    const std::vector<double> load = loads(instance, plan.assign);
    plan.bids.assign(nr, 0.0);
    for (std::size_t r = 0; r < nr; ++r)
      if (load[r] > 0) plan.bids[r] = auction::clamp_bid(instance.resources[r].spec, real_in_model(m, bid[r]));
    const Verdict v = validate(instance, plan);
    if (!v.feasible) throw z3::exception(("a model's plan the validator rejects: " + v.reason).c_str());
    if (!result.decision || v.objective < result.objective) {
      result.decision = plan;
      result.objective = v.objective;
    }
    solver.add(total < exact_real(ctx, result.objective * (1 - kZ3TighteningSlack)));
  }
}

}  // namespace

ExactResult<Plan> solve_z3(const Instance& instance, const SolveOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  ExactResult<Plan> result;
  std::size_t free = 0;
  for (const Task& t : instance.tasks) free += t.running_on == kNoResource;
  const std::size_t nr = instance.resources.size();
  result.detail = z3support::over_size_limit(fmt::format("{} free tasks on {} resources", free, nr),
                                             static_cast<double>(free * nr), static_cast<double>(kZ3MaxPlacementVars));
  if (!result.detail.empty()) return result;
  z3::context ctx;
  z3support::Deadline deadline(ctx, options);
  try {  // from the first Z3 call: the deadline may interrupt the encoding too
    solve_encoding(ctx, instance, deadline, result);
  } catch (const z3::exception& e) {
    result.status = result.decision ? ExactStatus::kFeasible : ExactStatus::kUnknown;
    result.detail = deadline.stop_reason(e);
  }
  result.interrupted = deadline.interrupted();
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::auction_bid
