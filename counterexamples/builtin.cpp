// Built-in problem registrations (see builtin.hpp). Each problem: one ProblemSpec naming its instance type,
// policies (reference/), exact methods (solver/), properties (properties/) and generator (counterexamples/).
#include "counterexamples/builtin.hpp"

#include "counterexamples/compose_generator.hpp"
#include "counterexamples/sla_generator.hpp"
#include "model/compose.hpp"
#include "properties/compose_properties.hpp"
#include "reference/compose_policies.hpp"
#include "solver/compose_exact.hpp"
#include "solver/compose_z3.hpp"
#include "model/sla.hpp"
#include "properties/sla_properties.hpp"
#include "reference/sla_policies.hpp"
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

// Paper 000 section IV: offer composition at the metascheduler against the optimal composition.
std::unique_ptr<Problem> offer_composition() {
  using namespace compose;
  ProblemSpec<Instance, Composition> spec;
  spec.name = "offer-composition";
  spec.source = "paper 000 sec. IV (Alg. 1), sec. V";
  spec.summary = "split a BoT's n tasks over the providers' offers, minimising the BoT completion time";
  spec.instance_kind = kInstanceKind;
  spec.sense = Sense::kMinimise;
  spec.objective_name = "BoT completion time";
  spec.read = read_instance;
  spec.write = write_instance;
  spec.validate = validate;
  spec.describe = write_composition;
  spec.metrics = metrics;
  spec.size = [](const Instance& i) { return i.providers.size(); };
  spec.instance_name = [](const Instance& i) { return i.name; };
  const std::string fallback = "; when no offer meets D, offers-nolb (sec. V)";
  const std::string fixed = "; IV-B only when the offers meeting D cover n, else offers-nolb";
  spec.policies = {
      {{"offers-nolb", "paper 000 sec. IV-A (OffersNoLB)",
        "sorted, filtered offers; composite lists L; the first with the earliest completion"},
       offers_nolb},
      {{"offers-plb", "paper 000 sec. IV-B (OffersWithPLB) + sec. V", "tasks = offer size / total offered x n" + fallback},
       offers_plb},
      {{"offers-dplb", "paper 000 Alg. 1 (OffersWithDPLB) + sec. V",
        "per offer-size group, DP = computing power / group's" + fallback},
       offers_dplb},
      {{"offers-dplb-v2", "paper 000 sec. V (OffersWithDPLBV2)", "Alg. 1 with DP = load / group's load" + fallback},
       offers_dplb_v2},
      {{"offers-plb-fixed", "our correction of offers-plb", "offers-plb" + fixed}, offers_plb_fixed},
      {{"offers-dplb-fixed", "our correction of Alg. 1",
        "offers-dplb" + fixed + "; tasks capped by lines 13-14 carried to the group's later offers"},
       offers_dplb_fixed},
      {{"offers-dplb-v2-fixed", "our correction of DPLBV2", "offers-dplb-v2 with the corrections of offers-dplb-fixed"},
       offers_dplb_v2_fixed},
      {{"free-time-slots", "paper 000 sec. III-B (FreeTimeSlots, baseline)",
        "the BoT's tasks into the published free slots, earliest completion first"},
       free_time_slots},
  };
  spec.exact = {
      {{"exact", "our own (combinatorial)",
        "earliest time the largest offers cover n (sweep), then the most balanced split; lexicographic (completion, balance)"},
       [](const Instance& i, const SolveOptions&) { return solve_combinatorial(i); }},
      {{"z3-balance", "our Z3 encoding", "lexicographic: completion, then the largest share x_p / offer size"},
       [](const Instance& i, const SolveOptions& o) { return solve_z3(i, o, Secondary::kBalance); }},
      {{"z3-providers", "our Z3 encoding", "lexicographic: completion, then fewest providers (clusters per BoT)"},
       [](const Instance& i, const SolveOptions& o) { return solve_z3(i, o, Secondary::kProviders); }},
      {{"z3-delay", "our Z3 encoding, Eq. V.1 per part",
        "lexicographic: completion, then sum of x_p ((C_p - T_s)/(D - T_s) - 1) 100 over late parts"},
       [](const Instance& i, const SolveOptions& o) { return solve_z3(i, o, Secondary::kDelay); }},
  };
  spec.properties = composition_properties();
  spec.generator.settings =
      "p providers; n ~ U{1..100}; runtime ~ U{1..10}; 1-3 free slots per provider; offers for sizes "
      "{.1,.25,.5,.75,1} x n from the slots; D = U[0.5,1.5) x median whole-BoT completion "
      "(counterexamples/compose_generator.hpp)";
  spec.generator.generate = generate_instance;
  spec.generator.shrink = shrink_candidates;
  spec.enumerate = enumerate_instances;
  spec.enumerate_settings = std::string("--scope providers=P,offers=K,max=V (default ") + kDefaultScope + ")";
  return std::make_unique<TypedProblem<Instance, Composition>>(std::move(spec));
}

}  // namespace

Registry make_builtin_registry() {
  Registry registry;
  registry.add(sla_admission());
  registry.add(sla_admission_timed());
  registry.add(offer_composition());
  return registry;
}

}  // namespace schedcheck
