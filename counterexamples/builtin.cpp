// Built-in problem registrations (see builtin.hpp). Each problem: one ProblemSpec naming its instance type,
// policies (reference/), exact methods (solver/), properties (properties/) and generator (counterexamples/).
#include "counterexamples/builtin.hpp"

#include "counterexamples/dbc_generator.hpp"
#include "counterexamples/sla_generator.hpp"
#include "model/dbc.hpp"
#include "model/sla.hpp"
#include "properties/dbc_properties.hpp"
#include "properties/sla_properties.hpp"
#include "reference/dbc_policies.hpp"
#include "reference/sla_policies.hpp"
#include "solver/dbc_exact.hpp"
#include "solver/dbc_z3.hpp"
#include "solver/sla_exact.hpp"
#include "solver/sla_z3.hpp"

namespace schedcheck {

namespace {

using SlaSpec = ProblemSpec<sla::Instance, sla::Admission>;

// What both SLA problems share: the instance format, the decision's JSON, the generator.
SlaSpec sla_common(bool timed) {
  SlaSpec spec;
  spec.instance_kind = sla::kInstanceKind;
  spec.sense = Sense::kMaximise;
  spec.objective_name = "incentive";
  spec.read = sla::read_instance;
  spec.write = sla::write_instance;
  spec.describe = [timed](const sla::Instance& i, const sla::Admission& a) { return sla::write_admission(i, a, timed); };
  spec.size = [](const sla::Instance& i) { return i.bids.size(); };
  spec.instance_name = [](const sla::Instance& i) { return i.name; };
  spec.generator.settings =
      "n bids; p ~ U{1..32}; execution 10-1000 s; budget = B x U[0.8,2.5); d = D x U[1,3); "
      "p_m = max(32, 40% of bid processors); 0-2 running jobs (counterexamples/sla_generator.hpp)";
  spec.generator.generate = sla::generate_instance;
  spec.generator.shrink = sla::shrink_candidates;
  return spec;
}

std::unique_ptr<Problem> sla_admission() {
  SlaSpec spec = sla_common(false);
  spec.name = "sla-admission";
  spec.source = "paper 004 sec. 3.2, Eq. 4-5";
  spec.summary = "accept SLA bids on the r free processors now, maximising the owner's incentive (0-1 knapsack)";
  spec.validate = sla::validate_instant;
  spec.policies = {
      {{"greedy-backfilling", "paper 004 Alg. 2 (STRICTGREEDY)",
        "bids in decreasing incentive, accept each eligible bid that fits"},
       sla::greedy_backfilling},
      {{"fcfs", "paper 004 sec. 4 (0% SLA bid delay baseline)",
        "arrival order, accept while it fits; the first misfit blocks"},
       sla::fcfs},
  };
  spec.exact = {
      {{"dp", "our own", "dynamic programming over free processors; O(n r)"},
       [](const sla::Instance& i, const SolveOptions&) { return sla::solve_instant_dp(i); }},
      {{"z3", "paper 004 Eq. 4-5 in Z3 (our encoding)",
        "LP-bound fixing + Z3 QF_LIA bound tightening on 0/1 integers; 1,000 bids in ~1 s"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_instant_z3(i, o, sla::KnapsackEngine::kLia); }},
      {{"z3-wmax", "paper 004 Eq. 4-5 in Z3 (our encoding)", "LP-bound fixing + Z3 MaxSAT (wmax); to ~200 bids"},
       [](const sla::Instance& i, const SolveOptions& o) { return sla::solve_instant_z3(i, o, sla::KnapsackEngine::kWmax); }},
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

std::unique_ptr<Problem> sla_admission_timed() {
  SlaSpec spec = sla_common(true);
  spec.name = "sla-admission-timed";
  spec.source = "our own extension of paper 004 sec. 3.2";
  spec.summary = "accept and place SLA jobs on p_m processors around running jobs so each meets its deadline";
  spec.validate = sla::validate_timed;
  spec.policies = {
      {{"greedy-backfilling", "paper 004 Alg. 2 + earliest feasible start",
        "decreasing incentive; each eligible job at its earliest start that meets d"},
       sla::greedy_backfilling_timed},
      {{"fcfs", "paper 004 sec. 4 baseline + earliest feasible start",
        "arrival order; the first eligible job that cannot meet d blocks"},
       sla::fcfs_timed},
  };
  spec.exact = {
      {{"z3", "our own", "z3::optimize: accept flags, real start times, capacity at each start; to ~12 bids"},
       sla::solve_timed_z3},
      {{"sequences", "our own (Kolisch 1996: active schedules)",
        "serial schedule generation over every job sequence; up to 8 bids"},
       [](const sla::Instance& i, const SolveOptions&) { return sla::solve_timed_sequences(i); }},
  };
  spec.properties = sla::timed_properties();
  return std::make_unique<TypedProblem<sla::Instance, sla::Admission>>(std::move(spec));
}

// Paper 001: one problem, four policies. The explicit-allocation advisor and the dispatcher are registered as
// policies of the same problem (not as problems of their own) so that each can be run and checked on the same
// instance and compared with DBC and with the exact minimum cost (docs/policies.md).
std::unique_ptr<Problem> dbc_cost_time() {
  ProblemSpec<dbc::Instance, dbc::Schedule> spec;
  spec.name = "dbc-cost-time";
  spec.source = "paper 001 (explicit allocation + DBC cost-time)";
  spec.summary = "assign a bag of jobs to space-shared PEs by Dabsolute within Babsolute, minimising cost then time";
  spec.instance_kind = dbc::kInstanceKind;
  spec.sense = Sense::kMinimise;
  spec.objective_name = "cost";
  spec.read = dbc::read_instance;
  spec.write = dbc::write_instance;
  spec.validate = dbc::validate;
  spec.describe = dbc::write_schedule;
  spec.size = [](const dbc::Instance& i) { return i.jobs.size(); };
  spec.instance_name = [](const dbc::Instance& i) { return i.name; };
  spec.comparable = dbc::comparable;
  spec.metrics = dbc::metrics;
  spec.policies = {
      {{"dbc-cost-time", "paper 001 DBC cost-time + Schedule Advisor",
        "advisor's job set; cheapest equal-cost group first, earliest completion inside; deadline and budget checked"},
       dbc::dbc_cost_time},
      {{"no-optimization", "paper 001 baseline (explicit allocation without DBC)",
        "advisor alone with the maxTr limit only: earliest completion anywhere; deadline and budget ignored"},
       dbc::no_optimization},
      {{"explicit-allocation", "paper 001 Schedule Advisor (Rose et al. 2008)",
        "requests (p, tr) by earliest completion within min(Dabsolute, maxTr), throughput-improving replacement"},
       dbc::explicit_allocation},
      {{"dispatcher", "paper 001 dispatcher policy",
        "no advisor: dispatch size = min(ready, PEs x maxJobsPerPE - queued) per resource, file order, FCFS"},
       dbc::dispatcher},
  };
  spec.exact = {
      {{"dp", "our own (dbc-min-cost by subset DP)", "min cost, then makespan, over job subsets; up to 12 jobs, milliseconds"},
       [](const dbc::Instance& i, const SolveOptions&) { return dbc::solve_dp(i); }},
      {{"z3", "dbc-min-cost in Z3 (our encoding)",
        "Benders: Z3 master picks resources, exact PE-packing oracle adds cuts; unsat core when infeasible; slow (docs)"},
       dbc::solve_z3},
  };
  spec.properties = dbc::properties();
  spec.generator.settings =
      "n jobs, length U[20,300) MI, half local; 2-4 resources, PEs U{1..3}, MIPS U{10..20}, cost per MI from "
      "{50,...,400} with ties; Dfactor U[0.02,0.5), Bfactor U[0,1) (counterexamples/dbc_generator.hpp)";
  spec.generator.generate = dbc::generate_instance;
  spec.generator.shrink = dbc::shrink_candidates;
  return std::make_unique<TypedProblem<dbc::Instance, dbc::Schedule>>(std::move(spec));
}

}  // namespace

Registry make_builtin_registry() {
  Registry registry;
  registry.add(sla_admission());
  registry.add(sla_admission_timed());
  registry.add(dbc_cost_time());
  return registry;
}

}  // namespace schedcheck
