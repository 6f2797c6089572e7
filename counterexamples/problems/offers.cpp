// Registration of `offers`: paper 000 sec. III-A/B (a provider's offer list for a new BoT).
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/problems/provider_common.hpp"
#include "properties/offers_properties.hpp"
#include "reference/offers_policies.hpp"
#include "solver/offers_bnb.hpp"
#include "solver/offers_gecode.hpp"
#include "solver/offers_mip.hpp"
#include "solver/offers_sat.hpp"
#include "solver/offers_z3.hpp"

#include <fmt/format.h>

namespace schedcheck::problems {

using OffersSpec = ProblemSpec<offers::Instance, offers::OfferList>;

std::unique_ptr<Problem> offers() {
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
  spec.read_decision = offers::read_offer_list;
  spec.decision_schema = object_schema(
      "offers decision",
      {{"offers", {{"type", "array"},
                   {"description", "one offer per Delta count, ascending, each with the schedule that keeps it"},
                   {"items", object_schema("an offer",
                                           {{"tasks", {{"type", "integer"}, {"minimum", 0}}},
                                            {"completion", {{"type", "number"}, {"description", "the quoted completion"}}},
                                            {"feedback", {{"type", "boolean"}}},
                                            {"position", {{"type", "integer"}, {"minimum", 0}}},
                                            {"finish", {{"description", "ignored (recomputed)"}}},
                                            {"schedule", schedule_schema()}},
                                           {"tasks", "completion", "schedule"}, true)}}},
       {"staircase", {{"type", "array"},
                      {"description", "the merged offer list (step 4)"},
                      {"items", object_schema("a step", {{"tasks", {{"type", "integer"}}}, {"completion", {{"type", "number"}}}},
                                              {"tasks", "completion"}, true)}}},
       {"reading", {{"type", "string"}, {"description", "\"delta truncated\", \"rigid BoT\", \"strict EDF order\", joined by \", \""}}},
       {"published_slots", {{"type", "array"},
                            {"items", object_schema("a free slot", {{"start", {{"type", "number"}}},
                                                                    {"end", {{"type", {"number", "null"}}}},
                                                                    {"processors", {{"type", "integer"}, {"minimum", 1}}}},
                                                    {"start", "processors"}, true)}}},
       {"summary", {{"type", "string"}, {"description", "ignored"}}}},
      {"offers", "staircase"});
  // The objective sums over the Delta counts: only comparable with the exact list when the counts are the same.
  spec.not_comparable = [](const offers::Instance& i, const offers::OfferList& o) -> std::string {
    if (offers::delta_counts(i.bot->tasks, o.reading.delta) == offers::delta_counts(i.bot->tasks)) return "";
    return "the policy's Delta counts differ from the exact list's (the objective sums over the counts)";
  };
  using offers::GenOfferReading;
  auto edf_under = [](GenOfferReading reading) {
    return [reading](const offers::Instance& i) { return offers::edf_offers(i, reading); };
  };
  const std::string exact_models = "; the exact side models k independent 1-processor tasks, so gaps are relative "
                                   "to that";
  spec.policies = {
      {{"edf", "paper 000 III-A (genOffer + FEEDBACK, Delta, step 4); readings: Delta half away from zero, BoT as "
               "k 1-processor tasks, EDF backfills",
        "EDF with the temporary job; if a deadline breaks, binary search over the new job's EDF positions"},
       edf_under({})},
      {{"edf-delta-trunc", "paper 000 III-A step 1; reading: Delta truncated (ours)",
        "edf with Delta counts share x n truncated (n = 6: 1, 3, 4, 6); the exact side answers the default Delta, "
        "compared on the counts both have"},
       edf_under({offers::DeltaRounding::kTruncate, false, false})},
      {{"edf-rigid", "paper 000 III-A step 2; reading: the temporary job j_k as one rigid k-processor job (ours)",
        "edf with the new job's k tasks starting together (k > P: rigid waves of P, then the rest)" + exact_models},
       edf_under({offers::DeltaRounding::kHalfAwayFromZero, true, false})},
      {{"edf-strict-order", "paper 000 III-A step 2; reading: EDF starts jobs strictly in deadline order (ours)",
        "edf where no job starts before the previous job of the deadline order (no backfilling into earlier holes)"},
       edf_under({offers::DeltaRounding::kHalfAwayFromZero, false, true})},
      {{"free-time-slots", "paper 000 III-B (after Singh et al.)",
        "published per-processor free slots of the EDF schedule; k tasks at the earliest finishes in them"},
       offers::free_time_slot_offers},
  };
  spec.exact = {
      {{"auto", "our own (chooser)",
        // The turns' figures come from the constants of solver/offers_bnb.hpp, so this text follows them.
        fmt::format("per instance: bnb when the times lie on a 1 ms grid and there are at most 1,000 tasks, else z3; "
                    "a probe bnb leaves open after {} nodes goes to sat for {} s, then they take turns, each pair {}x "
                    "longer (bnb's {}x the solver's up to a {} s solver turn, {}x after it; docs/policies.md \"Turns "
                    "in auto\"); the chain (solve --json: optimum.chain) says which ran and why",
                    offers::kBnbProbeNodes, offers::kSatFirstSeconds, offers::kHandoverGrowth,
                    offers::kSearchTurnShare, offers::kSearchShareUpTo, offers::kSearchLateShare)},
       [](const offers::Instance& i, const SolveOptions& o) { return offers::exact_offers_auto(i, o, {}); },
       offers::exact_offers_auto},
      {{"bnb", "our own (branch-and-bound over active schedules)",
        "per count: the quote max(D, c*) by depth-first search over active schedules in start order (time-tabling, "
        "energy and width bounds; a schedule meeting D ends the count); counts share bounds; times on a <= 1 ms "
        "grid (else unknown)"},
       [](const offers::Instance& i, const SolveOptions& o) { return offers::exact_offers_bnb(i, o, {}); },
       offers::exact_offers_bnb},
      {{"z3", "our own (Z3)",
        "per count: min completion by Z3 (waves, capacity at starts, energy cuts), quote max(D, c*)"},
       [](const offers::Instance& i, const SolveOptions& o) {
         return offers::exact_offers_within(i, o, offers::earliest_completion_z3);
       }},
      {{"gecode", "our own (Gecode cumulative)",
        "per count: min completion by Gecode BAB (cumulative with edge finding, integer starts on a <= 1 ms grid, "
        "else unknown), quote max(D, c*)"},
       [](const offers::Instance& i, const SolveOptions& o) {
         return offers::exact_offers_within(i, o, offers::earliest_completion_gecode);
       }},
      {{"mip", "our own (time-indexed integer program, Pritsker et al. 1969; CBC)",
        "per count: one minimisation of the finish below the deadline-order schedule, from the lower bound raised by "
        "bisection on the linear relaxation (integer starts per grid step, bag tasks as counts); times on a <= 1 ms "
        "grid and at most 200,000 start variables (else unknown)"},
       [](const offers::Instance& i, const SolveOptions& o) {
         return offers::exact_offers_within(i, o, offers::earliest_completion_mip);
       }},
      {{"sat", "our own (time-indexed SAT encoding; CaDiCaL)",
        "one incremental solver for every count: starts in the order encoding on a <= 1 ms grid, a weighted "
        "sequential counter a grid step, same-shape jobs in deadline order, precedence literals for pairs too wide "
        "to run together; counts share bounds; per count from the policy's and the deadline-order schedules, descent "
        "one grid step below the best; at most 40 million literals (else unknown)"},
       [](const offers::Instance& i, const SolveOptions& o) { return offers::exact_offers_sat(i, o, {}); },
       offers::exact_offers_sat},
      {{"sequences", "our own (Kolisch 1996: active schedules)",
        "per count: serial schedule generation over every task sequence; up to 3e5 sequences"},
       [](const offers::Instance& i, const SolveOptions& o) {
         return offers::exact_offers_within(i, o, offers::earliest_completion_sequences);
       }},
  };
  spec.properties = offers::offers_properties();
  spec.generator.settings = std::string(kOffersGeneratorSettings) +
                            "; admitted one by one (EDF-feasible); new BoT 2-6 tasks (counterexamples/offers_generator.hpp)";
  spec.generator.generate = [](std::uint64_t seed, std::size_t size) { return offers::generate_instance(seed, size); };
  return std::make_unique<TypedProblem<offers::Instance, offers::OfferList>>(std::move(spec));
}

}  // namespace schedcheck::problems
