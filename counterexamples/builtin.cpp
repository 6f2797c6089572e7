// Built-in problem registrations (see builtin.hpp). Each problem: one ProblemSpec naming its instance type,
// policies (reference/), exact methods (solver/), properties (properties/) and generator (counterexamples/).
#include "counterexamples/builtin.hpp"

#include "counterexamples/compose_generator.hpp"
#include "counterexamples/dbc_generator.hpp"
#include "counterexamples/offers_generator.hpp"
#include "counterexamples/sla_generator.hpp"
#include "model/compose.hpp"
#include "model/dbc.hpp"
#include "model/offers.hpp"
#include "model/sla.hpp"
#include "properties/compose_properties.hpp"
#include "properties/dbc_properties.hpp"
#include "properties/offers_properties.hpp"
#include "properties/sla_properties.hpp"
#include "reference/compose_policies.hpp"
#include "reference/dbc_policies.hpp"
#include "reference/offers_policies.hpp"
#include "reference/sla_policies.hpp"
#include "solver/compose_exact.hpp"
#include "solver/compose_z3.hpp"
#include "solver/dbc_bnb.hpp"
#include "solver/dbc_exact.hpp"
#include "solver/dbc_z3.hpp"
#include "solver/offers_exact.hpp"
#include "solver/offers_gecode.hpp"
#include "solver/offers_z3.hpp"
#include "solver/sla_exact.hpp"
#include "solver/sla_z3.hpp"

#include <chrono>

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

using OffersSpec = ProblemSpec<offers::Instance, offers::OfferList>;

// The exact offer list under one time limit for the whole list: each Delta count gets what is left of it.
template <class EarliestCompletion>
auto offers_within_one_limit(const offers::Instance& instance, const SolveOptions& options,
                             EarliestCompletion earliest_completion) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.timeout_ms);
  return offers::exact_offers(instance, [&](const offers::Instance& inst, long long tasks, double lower_bound) {
    SolveOptions left = options;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    left.timeout_ms = static_cast<unsigned>(std::max<long long>(1, ms.count()));
    return earliest_completion(inst, tasks, lower_bound, left);
  });
}
using FeasibilitySpec = ProblemSpec<offers::Instance, offers::FeasibilityAnswer>;

const char* const kOffersGeneratorSettings =
    "n waiting jobs (half local p ~ U{1..P}, half BoT parts of 1-4 tasks), runtimes U{1..30}, P in {4, 8, 16}, "
    "0-2 running jobs, now ~ U{0..100}, deadlines now + runtime + U{0..40}";

// What both provider problems share: the instance format, size, name and shrinking.
template <class Decision>
ProblemSpec<offers::Instance, Decision> provider_common() {
  ProblemSpec<offers::Instance, Decision> spec;
  spec.instance_kind = offers::kInstanceKind;
  spec.write = offers::write_instance;
  spec.size = [](const offers::Instance& i) { return i.waiting.size(); };
  spec.instance_name = [](const offers::Instance& i) { return i.name; };
  spec.generator.shrink = offers::shrink_candidates;
  return spec;
}

std::unique_ptr<Problem> offers_problem() {
  OffersSpec spec = provider_common<offers::OfferList>();
  spec.name = "offers";
  spec.source = "paper 000 sec. III-A/B";
  spec.summary = "a provider's offer list (tasks, completion) for a new BoT, keeping every accepted deadline";
  spec.sense = Sense::kMinimise;
  spec.objective_name = "sum over Delta counts of (quoted completion - now)";
  // A provider holds only work it can keep: the accepted work must be EDF-feasible (else nothing to offer).
  spec.read = [](const nlohmann::json& document, const std::string& file) {
    offers::Instance instance = offers::read_instance(document, file, true);
    if (auto why = offers::edf_accepted_work_violation(instance); !why.empty())
      throw InputError(file + ": waiting: " + why + " (a provider holds only work EDF keeps; analyse it with "
                       "`deadline-feasibility`)");
    return instance;
  };
  spec.validate = offers::validate_offers;
  spec.describe = offers::write_offer_list;
  spec.policies = {
      {{"edf", "paper 000 III-A (genOffer + FEEDBACK, Delta, step 4)",
        "EDF with the temporary job; if a deadline breaks, binary search over the new job's EDF positions"},
       offers::edf_offers},
      {{"free-time-slots", "paper 000 III-B (after Singh et al.)",
        "published per-processor free slots of the EDF schedule; k tasks at the earliest finishes in them"},
       offers::free_time_slot_offers},
  };
  spec.exact = {
      {{"exact-offers", "our own (Z3)",
        "per count: min completion by Z3 (waves, capacity at starts, energy cuts), quote max(D, c*)"},
       [](const offers::Instance& i, const SolveOptions& o) {
         return offers_within_one_limit(i, o, offers::earliest_completion_z3);
       }},
      {{"gecode", "our own (Gecode cumulative)",
        "per count: min completion by Gecode BAB (cumulative with edge finding, integer starts on a <= 1 ms grid, "
        "else unknown), quote max(D, c*)"},
       [](const offers::Instance& i, const SolveOptions& o) {
         return offers_within_one_limit(i, o, offers::earliest_completion_gecode);
       }},
      {{"sequences", "our own (Kolisch 1996: active schedules)",
        "per count: serial schedule generation over every task sequence; up to 3e5 sequences"},
       [](const offers::Instance& i, const SolveOptions&) {
         return offers::exact_offers(i, offers::earliest_completion_sequences);
       }},
  };
  spec.properties = offers::offers_properties();
  spec.generator.settings = std::string(kOffersGeneratorSettings) +
                            "; admitted one by one (EDF-feasible); new BoT 2-6 tasks (counterexamples/offers_generator.hpp)";
  spec.generator.generate = [](std::uint64_t seed, std::size_t size) { return offers::generate_instance(seed, size); };
  return std::make_unique<TypedProblem<offers::Instance, offers::OfferList>>(std::move(spec));
}

std::unique_ptr<Problem> deadline_feasibility_problem() {
  FeasibilitySpec spec = provider_common<offers::FeasibilityAnswer>();
  spec.name = "deadline-feasibility";
  spec.source = "paper 000 sec. III-A (accepted deadlines)";
  spec.summary = "can the provider's accepted work meet every deadline? a schedule, or a core of jobs that cannot";
  spec.sense = Sense::kMaximise;
  spec.objective_name = "1 if a schedule meets every deadline";
  spec.read = [](const nlohmann::json& document, const std::string& file) {
    return offers::read_instance(document, file, false);
  };
  // The model checks a core's ids; the core's claim itself is re-checked by the sequence search when small.
  spec.validate = [](const offers::Instance& i, const offers::FeasibilityAnswer& answer) {
    Verdict v = offers::validate_feasibility(i, answer);
    if (v.feasible && answer.answer == offers::Feasibility::kInfeasible)
      if (auto refuted = offers::core_refutation(i, answer.core); refuted && !refuted->empty()) {
        v.feasible = false;
        v.reason = "infeasibility core refuted: " + *refuted;
      }
    return v;
  };
  spec.describe = offers::write_feasibility;
  spec.policies = {
      {{"edf", "paper 000 III-A (the provider's EDF scheduler)",
        "EDF over the accepted work; a schedule when every deadline is met, else no schedule found"},
       offers::edf_feasibility},
  };
  spec.exact = {
      {{"z3", "our own", "start times + waves, capacity at starts, energy cuts; unsat core over deadline literals"},
       offers::feasibility_z3},
      {{"gecode", "our own (Gecode cumulative)",
        "integer starts on a <= 1 ms grid (else unknown), cumulative with edge finding; core by deletion"},
       offers::feasibility_gecode},
      {{"sequences", "our own (Kolisch 1996)", "serial schedule generation over every sequence; core by deletion"},
       [](const offers::Instance& i, const SolveOptions&) { return offers::feasibility_sequences(i); }},
  };
  spec.properties = offers::feasibility_properties();
  spec.generator.settings = std::string(kOffersGeneratorSettings) + "; not repaired (may be infeasible); no new BoT";
  spec.generator.generate = [](std::uint64_t seed, std::size_t size) {
    offers::GeneratorSettings settings;
    settings.repair = false;
    settings.with_bot = false;
    return offers::generate_instance(seed, size, settings);
  };
  return std::make_unique<TypedProblem<offers::Instance, offers::FeasibilityAnswer>>(std::move(spec));
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
  // A composition that loses tasks or overfills an offer finishes "early" only because it is incomplete: no gap.
  spec.comparable = [](const Instance& i, const Composition& c) { return validate(i, c).feasible; };
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
      {{"bnb", "our own (dbc-min-cost by bin completion)",
        "min cost, then makespan; a PE's whole job set at a time, LP bound with subset-sum caps; 10 resources x 30 jobs in < 1 s (docs)"},
       dbc::solve_bnb},
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
  registry.add(offers_problem());
  registry.add(deadline_feasibility_problem());
  registry.add(offer_composition());
  registry.add(dbc_cost_time());
  return registry;
}

}  // namespace schedcheck
