// The default exact method of `dbc-cost-time`: one of bnb, dp, z3 per instance (see dbc_auto.hpp). Our own.
#include "solver/dbc_auto.hpp"

#include "solver/dbc_bnb.hpp"
#include "solver/dbc_exact.hpp"
#include "solver/dbc_z3.hpp"

#include <fmt/format.h>

#include <chrono>

namespace schedcheck::dbc {

ExactResult<Schedule> solve_auto(const Instance& instance, const SolveOptions& options,
                                 const std::vector<Schedule>& incumbents) {
  const auto started = std::chrono::steady_clock::now();
  const std::size_t n = instance.jobs.size();
  const std::string gap = bins_model_gap(instance);
  MethodStep step;
  ExactResult<Schedule> result;
  if (gap.empty() && n > kAutoDpJobs) {
    step = {"bnb", fmt::format("every PE is a bin of its own (no request lanes of several PEs with a finite maxTr) "
                               "and {} jobs > {}: bin completion", n, kAutoDpJobs), "", 0};
    result = solve_bnb(instance, options, incumbents);
  } else if (n <= kDpMaxJobs) {
    step = {"dp", gap.empty() ? fmt::format("{} jobs <= {}: the subset DP is the fastest", n, kAutoDpJobs)
                              : fmt::format("{}; the subset DP packs shared request windows exactly ({} jobs <= {})",
                                            gap, n, kDpMaxJobs), "", 0};
    result = solve_dp(instance, options);
  } else {
    step = {"z3", fmt::format("{}; {} jobs > {} (the subset DP's limit): Z3 Benders, whose packing oracle takes a "
                              "lane resource's jobs up to {}", gap, n, kDpMaxJobs, kDpMaxJobs), "", 0};
    result = solve_z3(instance, options, incumbents);
  }
  step.status = to_string(result.status);
  step.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  result.chain.insert(result.chain.begin(), step);
  result.seconds = step.seconds;
  return result;
}

}  // namespace schedcheck::dbc
