// Registration of `dbc-cost-time`: paper 001 (explicit allocation + DBC cost-time scheduling).
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/dbc_generator.hpp"
#include "model/dbc.hpp"
#include "properties/dbc_properties.hpp"
#include "reference/dbc_policies.hpp"
#include "solver/dbc_auto.hpp"
#include "solver/dbc_bnb.hpp"
#include "solver/dbc_exact.hpp"
#include "solver/dbc_z3.hpp"

namespace schedcheck::problems {

namespace {
// An exact method that takes the policy's schedule (ExactSpec::solve_from) as its first incumbent.
ExactSpec<dbc::Instance, dbc::Schedule> starting_from_incumbents(
    Described described, ExactResult<dbc::Schedule> (*solve)(const dbc::Instance&, const SolveOptions&,
                                                             const std::vector<dbc::Schedule>&)) {
  ExactSpec<dbc::Instance, dbc::Schedule> spec;
  static_cast<Described&>(spec) = std::move(described);
  spec.solve = [solve](const dbc::Instance& i, const SolveOptions& o) { return solve(i, o, {}); };
  spec.solve_from = solve;
  return spec;
}
}  // namespace

// Paper 001: one problem, six policies. The explicit-allocation advisor and the dispatcher are registered as
// policies of the same problem (not as problems of their own) so that each can be run and checked on the same
// instance and compared with DBC and with the exact minimum cost (docs/policies.md).
std::unique_ptr<Problem> dbc_cost_time() {
  ProblemSpec<dbc::Instance, dbc::Schedule> spec;
  spec.name = "dbc-cost-time";
  spec.source = "paper 001 (explicit allocation + DBC cost-time)";
  spec.summary = "assign a bag of jobs to space-shared PEs by Dabsolute within Babsolute, minimising cost then time; "
                 "readings as instance fields: readings.cost_unit, mips_rating, deadline_test, max_tr, max_pending, "
                 "advisor (docs/formats.md)";
  spec.instance_kind = dbc::kInstanceKind;
  spec.sense = Sense::kMinimise;
  spec.objective_name = "cost";
  spec.read = dbc::read_instance;
  spec.write = dbc::write_instance;
  spec.validate = dbc::validate;
  spec.describe = dbc::write_schedule;
  spec.read_decision = dbc::read_schedule;
  spec.decision_schema = object_schema(
      "dbc-cost-time decision",
      {{"accepted", {{"type", "array"}, {"items", {{"type", "string"}}}, {"uniqueItems", true},
                     {"description", "ids of the jobs the schedule runs"}}},
       {"start", {{"type", "object"}, {"additionalProperties", {{"type", "number"}, {"minimum", 0}}},
                  {"description", "start time of every accepted job, keyed by its id"}}},
       {"placement", {{"type", "object"}, {"additionalProperties", {{"type", "string"}, {"pattern", "/pe[0-9]+$"}}},
                      {"description", "\"RESOURCE/peK\" (K from 0) of every accepted job, keyed by its id"}}},
       {"unassigned", {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "jobs left out (optional)"}}},
       {"requests", {{"description", "ignored (recomputed)"}}},
       {"cost", {{"description", "ignored (recomputed)"}}},
       {"makespan", {{"description", "ignored (recomputed)"}}}},
      {"accepted", "start", "placement"});
  spec.size = [](const dbc::Instance& i) { return i.jobs.size(); };
  spec.instance_name = [](const dbc::Instance& i) { return i.name; };
  spec.not_comparable = dbc::not_comparable;
  spec.metrics = dbc::metrics;
  spec.policies = {
      {{"dbc-cost-time", "paper 001 DBC cost-time as the prose orders it (\"For each resource group ... each job\") + Schedule Advisor",
        "advisor's job set in file order; groups of equal cost per MI cheapest first, each offered every job still "
        "unassigned; earliest completion inside a group; deadline and budget checked"},
       dbc::dbc_cost_time},
      {{"dbc-cost-time-jobs-outer", "paper 001 DBC cost-time, the algorithm listing's loop (\"for each job\"), a reading",
        "reading: jobs in the outer loop, each tries every group before the next job (differs once the budget binds)"},
       dbc::dbc_cost_time_jobs_outer},
      {{"dbc-cost-time-local-first", "paper 001 DBC cost-time, reading \"local user priority\" as list order",
        "reading: local jobs first in the unassigned-jobs list (advisor and DBC), then grid jobs; groups outer"},
       dbc::dbc_cost_time_local_first},
      {{"no-optimization", "paper 001 baseline (explicit allocation without DBC)",
        "advisor alone with the request limits only (maxTr): earliest completion anywhere; deadline and budget ignored"},
       dbc::no_optimization},
      {{"explicit-allocation", "paper 001 Schedule Advisor (Rose et al. 2008)",
        "requests (p, tr) by earliest completion by Dabsolute, each request <= maxTr; throughput-improving replacement"},
       dbc::explicit_allocation},
      {{"dispatcher", "paper 001 dispatcher policy",
        "no advisor: dispatch size = min(ready, PEs x maxJobsPerPE - queued) per resource, file order, FCFS"},
       dbc::dispatcher},
  };
  spec.exact = {
      starting_from_incumbents({"auto", "our own (chooses bnb, dp or z3 per instance)",
                                "bnb when every PE is a bin (dp on the smallest), dp (<= 12 jobs) or z3 on request lanes "
                                "sharing windows; optimum.chain says which and why"},
                               dbc::solve_auto),
      starting_from_incumbents({"bnb", "our own (dbc-min-cost by bin completion)",
                                "min cost, then makespan; a PE's whole job set at a time, by exact subset sums; "
                                "Table 1 x 50 jobs in milliseconds (docs); not request lanes of several PEs with a "
                                "finite maxTr"},
                               dbc::solve_bnb),
      {{"dp", "our own (dbc-min-cost by subset DP)", "min cost, then makespan, over job subsets; up to 12 jobs, milliseconds"},
       [](const dbc::Instance& i, const SolveOptions& o) { return dbc::solve_dp(i, o); },
       {}},
      starting_from_incumbents({"z3", "dbc-min-cost in Z3 (our encoding)",
                                "Benders: Z3 master picks resources, exact PE-packing oracle adds cuts; unsat core when "
                                "infeasible; slow (docs)"},
                               dbc::solve_z3),
  };
  spec.properties = dbc::properties();
  spec.generator.settings =
      "n jobs, length U[20,300) MI, half local; 2-4 resources, PEs U{1..3}, MIPS U{10..20}, cost per MI from "
      "{50,...,400} with ties; Dfactor U[0.02,0.5), Bfactor U[0,1); sometimes maxProc/maxPendingRequests U{1..2}, "
      "maxTr U[0.25,1) x Dabsolute; default readings (counterexamples/dbc_generator.hpp)";
  spec.generator.generate = dbc::generate_instance;
  spec.generator.shrink = dbc::shrink_candidates;
  return std::make_unique<TypedProblem<dbc::Instance, dbc::Schedule>>(std::move(spec));
}

}  // namespace schedcheck::problems
