// Registration of `sla-admission`: paper 004 sec. 3.2, Eq. 4-5 (the SLA bids a site accepts now, a 0-1 knapsack).
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/problems/sla_common.hpp"
#include "properties/sla_properties.hpp"
#include "reference/sla_policies.hpp"
#include "solver/sla_exact.hpp"
#include "solver/sla_z3.hpp"

namespace schedcheck::problems {

std::unique_ptr<Problem> sla_admission() {
  SlaSpec spec = sla_common(false);
  spec.name = "sla-admission";
  spec.source = "paper 004 sec. 3.2, Eq. 4-5";
  spec.summary = "accept SLA bids on the r free processors now, maximising the owner's incentive (0-1 knapsack); "
                 "budget test b >= B only with site.budget_test (off: Alg. 2 as written)";
  spec.validate = sla::validate_instant;
  spec.policies = {
      {{"greedy-backfilling", "paper 004 Alg. 2 (STRICTGREEDY)",
        "bids in decreasing incentive, accept each eligible bid that fits"},
       sla::greedy_backfilling},
      {{"greedy-backfilling-one", "paper 004 Alg. 2, one STRICTGREEDY call as written (lines 1.39-1.47)",
        "bids in decreasing incentive, accept the first eligible bid that fits and stop (one RESERVE a call)"},
       sla::greedy_backfilling_one},
      {{"fcfs", "paper 004 sec. 4.2 (0% SLA bid delay: decided on arrival by Alg. 2's test)",
        "arrival order; each eligible bid that fits is accepted, each misfit rejected (blocks nobody)"},
       sla::fcfs},
      {{"fcfs-blocking", "our own (variant of fcfs: a queue without backfilling, not the paper's reading)",
        "arrival order, accept while it fits; the first eligible misfit blocks every later bid"},
       sla::fcfs_blocking},
  };
  spec.exact = {
      {{"core", "our own (Pisinger 1997: expanding core)",
        "expanding-core knapsack from the policy's decision: DP over the bids near the LP break item, the rest fixed "
        "by bounds; 1,000 bids in ~0.1 ms (DP fallback on a state blow-up)"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_instant_core(i, o); },
       [](const sla::Instance& i, const SolveOptions& o, const std::vector<sla::Admission>& from) {
         return sla::solve_instant_core(i, o, from);
       }},
      {{"dp", "our own", "dynamic programming over free processors; O(n r)"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_instant_dp(i, o); }},
      {{"z3", "paper 004 Eq. 4-5 in Z3 (our encoding)",
        "LP-bound fixing + Z3 QF_LIA bound tightening on 0/1 integers; 1,000 bids in ~1 s"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_instant_z3(i, o, sla::KnapsackEngine::kLia); },
       [](const sla::Instance& i, const SolveOptions& o, const std::vector<sla::Admission>& from) {
         return sla::solve_instant_z3(i, o, sla::KnapsackEngine::kLia, from);
       }},
      {{"z3-wmax", "paper 004 Eq. 4-5 in Z3 (our encoding)", "LP-bound fixing + Z3 MaxSAT (wmax); to ~200 bids"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_instant_z3(i, o, sla::KnapsackEngine::kWmax); },
       [](const sla::Instance& i, const SolveOptions& o, const std::vector<sla::Admission>& from) {
         return sla::solve_instant_z3(i, o, sla::KnapsackEngine::kWmax, from);
       }},
      {{"z3-optimize", "paper 004 Eq. 4-5 in Z3 (as written)",
        "plain z3::optimize over Booleans, no preprocessing; to ~20-30 bids"},
       [](const sla::Instance& i, const SolveOptions& o) {
         return sla::solve_instant_z3(i, o, sla::KnapsackEngine::kOptimize);
       }},
      {{"enumeration", "our own", "every subset of eligible bids; up to 20 bids"},
       [](const sla::Instance& i, const SolveOptions&) { return sla::solve_instant_enumeration(i); }},
  };
  spec.properties = sla::instant_properties();
  return std::make_unique<TypedProblem<sla::Instance, sla::Admission>>(std::move(spec));
}

}  // namespace schedcheck::problems
