// Registration of `offer-composition`: paper 000 sec. IV (Alg. 1) and V (composition of offers at the metascheduler).
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/compose_generator.hpp"
#include "model/compose.hpp"
#include "properties/compose_properties.hpp"
#include "reference/compose_policies.hpp"
#include "solver/compose_exact.hpp"
#include "solver/compose_z3.hpp"

namespace schedcheck::problems {

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
  spec.read_decision = read_composition;
  spec.decision_schema = object_schema(
      "offer-composition decision",
      {{"assigned",
        {{"description", "what each provider gets (providers not listed get nothing)"},
         {"type", "array"},
         {"items", object_schema("a provider's part",
                                 {{"provider", {{"type", "string"}, {"description", "provider id, at most once"}}},
                                  {"tasks", {{"type", "integer"}, {"minimum", 0}}},
                                  {"offer", {{"type", {"integer", "null"}}, {"minimum", 0},
                                             {"description", "index into the provider's offers"}}},
                                  {"from", {{"enum", {"offer", "free-slots", "none"}}}},
                                  {"completion", {{"type", "number"}, {"description", "when this provider completes its tasks"}}}},
                                 {"provider", "tasks", "from", "completion"}, true)}}},
       {"summary", {{"type", "string"}, {"description", "ignored"}}}},
      {"assigned"});
  spec.metrics = metrics;
  // A composition that loses tasks or overfills an offer finishes "early" only because it is incomplete: no gap.
  spec.not_comparable = not_comparable;
  spec.size = [](const Instance& i) { return i.providers.size(); };
  spec.instance_name = [](const Instance& i) { return i.name; };
  const std::string trigger = "; only when the offers meeting D hold n (IV), else offers-nolb (IV-A, Table I)";
  spec.policies = {
      {{"offers-nolb", "paper 000 sec. IV-A (OffersNoLB)",
        "sorted, filtered offers; composite lists L; the first with the earliest completion"},
       offers_nolb},
      {{"offers-plb", "paper 000 sec. IV-B (OffersWithPLB)", "tasks = offer size / total offered x n" + trigger},
       offers_plb},
      {{"offers-dplb", "paper 000 Alg. 1 (OffersWithDPLB); reading: line 12 rounded down",
        "per offer-size group, DP = computing power / group's; floor(DP x nTasks)" + trigger},
       offers_dplb},
      {{"offers-dplb-v2", "paper 000 sec. V (OffersWithDPLBV2); reading: load used as written",
        "Alg. 1 with DP = load / group's load (the busier provider gets more)" + trigger},
       offers_dplb_v2},
      {{"offers-dplb-v2-intent", "paper 000 sec. V (OffersWithDPLBV2); reading: the stated intent (ours)",
        "Alg. 1 with DP = (1/load) / group's sum of 1/load (the less loaded gets more; idle providers share alone)" +
            trigger},
       offers_dplb_v2_intent},
      {{"offers-dplb-round", "paper 000 Alg. 1; reading: line 12 rounded to the nearest task (ours)",
        "offers-dplb with round(DP x nTasks), half away from zero (may assign more than n)" + trigger},
       offers_dplb_round},
      {{"offers-dplb-fixed", "our correction of Alg. 1 lines 13-14",
        "offers-dplb, but tasks capped by lines 13-14 are carried to the group's later offers (never loses tasks)" +
            trigger},
       offers_dplb_fixed},
      {{"offers-dplb-v2-fixed", "our correction of DPLBV2 (Alg. 1 lines 13-14)",
        "offers-dplb-v2 with the carry of offers-dplb-fixed" + trigger},
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

}  // namespace schedcheck::problems
