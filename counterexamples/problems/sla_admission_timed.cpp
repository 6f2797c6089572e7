// Registration of `sla-admission-timed`: our timed extension of paper 004 sec. 3.2 (accepted jobs placed around
// running jobs so each meets its deadline).
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/problems/sla_common.hpp"
#include "properties/sla_properties.hpp"
#include "reference/sla_policies.hpp"
#include "solver/sla_bnb.hpp"
#include "solver/sla_exact.hpp"
#include "solver/sla_z3.hpp"

namespace schedcheck::problems {

std::unique_ptr<Problem> sla_admission_timed() {
  SlaSpec spec = sla_common(true);
  spec.name = "sla-admission-timed";
  spec.source = "our own extension of paper 004 sec. 3.2";
  spec.summary = "accept and place SLA jobs on p_m processors around running jobs so each meets its deadline; "
                 "budget test b >= B only with site.budget_test (off: Alg. 2 as written)";
  spec.validate = sla::validate_timed;
  spec.policies = {
      {{"greedy-backfilling", "paper 004 Alg. 2 + earliest feasible start",
        "decreasing incentive; each eligible job at its earliest start that meets d"},
       sla::greedy_backfilling_timed},
      {{"fcfs", "paper 004 sec. 4.2 (decided on arrival) + earliest feasible start",
        "arrival order; each eligible job at its earliest start that meets d, else rejected (blocks nobody)"},
       sla::fcfs_timed},
      {{"fcfs-blocking", "our own (variant of fcfs, not the paper's reading) + earliest feasible start",
        "arrival order; the first eligible job that cannot meet d blocks every later bid"},
       sla::fcfs_blocking_timed},
  };
  spec.exact = {
      {{"bnb", "our own (implicit hitting sets; Kolisch 1996: active schedules)",
        "from the policy's decision: cheapest refusals meeting every known conflict and energy bound, then a "
        "scheduling check (heuristics, timetable + energetic reasoning, search) that schedules the rest or finds a new "
        "conflict; real-valued times; 200 bids in ~0.1 ms"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_timed_bnb(i, o); },
       sla::solve_timed_bnb},
      {{"z3", "our own", "z3::optimize: accept flags, real start times, capacity at each start; to ~12 bids"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_timed_z3(i, o); }, sla::solve_timed_z3},
      {{"sequences", "our own (Kolisch 1996: active schedules)",
        "serial schedule generation over every job sequence; up to 8 bids"},
       [](const sla::Instance& i, const SolveOptions&) { return sla::solve_timed_sequences(i); }},
  };
  spec.properties = sla::timed_properties();
  return std::make_unique<TypedProblem<sla::Instance, sla::Admission>>(std::move(spec));
}

}  // namespace schedcheck::problems
