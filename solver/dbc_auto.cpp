// The default exact method of `dbc-cost-time`: one of bnb, dp, z3 per instance (see dbc_auto.hpp). Our own.
#include "solver/dbc_auto.hpp"

#include "solver/dbc_bnb.hpp"
#include "solver/dbc_exact.hpp"
#include "solver/dbc_z3.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

namespace schedcheck::dbc {

bool auto_prefers_dp(const Instance& instance) {
  return bins_model_gap(instance).empty() && instance.jobs.size() <= kDpMaxJobs &&
         static_cast<double>(instance.resources.size()) * std::pow(3.0, static_cast<double>(instance.jobs.size())) <=
             kAutoDpWork;
}

ExactResult<Schedule> solve_auto(const Instance& instance, const SolveOptions& options,
                                 const std::vector<Schedule>& incumbents) {
  const auto started = std::chrono::steady_clock::now();
  const std::size_t n = instance.jobs.size();
  const std::string gap = bins_model_gap(instance);
  MethodStep step;
  ExactResult<Schedule> result;
  const std::size_t m = instance.resources.size();
  if (gap.empty() && !auto_prefers_dp(instance)) {
    step = {"bnb", fmt::format("every PE is a bin of its own (no request lanes of several PEs with a finite maxTr) "
                               "and the subset DP's work {} resources x 3^{} jobs > {}: bin completion", m, n,
                               kAutoDpWork), "", 0};
    result = solve_bnb(instance, options, incumbents);
  } else if (n <= kDpMaxJobs) {
    step = {"dp", gap.empty() ? fmt::format("{} resources x 3^{} jobs <= {}: the subset DP is the fastest", m, n,
                                            kAutoDpWork)
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
