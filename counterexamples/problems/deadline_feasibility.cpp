// Registration of `deadline-feasibility`: paper 000 sec. III-A (can a provider's accepted work meet every deadline).
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

using FeasibilitySpec = ProblemSpec<offers::Instance, offers::FeasibilityAnswer>;

std::unique_ptr<Problem> deadline_feasibility() {
  FeasibilitySpec spec = provider_common<offers::FeasibilityAnswer>();
  spec.name = "deadline-feasibility";
  spec.source = "paper 000 sec. III-A (accepted deadlines)";
  spec.summary = "can the provider's accepted work meet every deadline? a schedule, or infeasible with a core of jobs "
                 "that cannot";
  spec.sense = Sense::kMaximise;
  spec.objective_name = "1 if a schedule meets every deadline";
  spec.read = [](const nlohmann::json& document, const std::string& file) {
    return offers::read_instance(document, file, false);
  };
  spec.validate = offers::validate_feasibility;
  // An `infeasible` answer's core: ids checked by the model, the claim itself by the sequence search when small.
  spec.refute_core = [](const offers::Instance& i, const std::vector<std::string>& core) -> std::string {
    if (auto why = offers::core_shape_violation(i, core); !why.empty()) return why;
    const auto refuted = offers::core_refutation(i, core);
    return refuted ? *refuted : "";
  };
  spec.describe = offers::write_feasibility;
  spec.read_decision = offers::read_feasibility;
  spec.decision_schema = object_schema(
      "deadline-feasibility decision",
      {{"schedulable", {{"type", {"boolean", "null"}},
                        {"description", "true: the schedule meets every deadline; null: an attempt, with the job it finishes late"}}},
       {"late", {{"type", "string"}, {"description", "with schedulable null: a job the attempt finishes late"}}},
       {"schedule", schedule_schema()},
       {"summary", {{"type", "string"}, {"description", "ignored"}}}},
      {"schedulable", "schedule"});
  spec.policies = {
      {{"edf", "paper 000 III-A (the provider's EDF scheduler)",
        "EDF over the accepted work; a schedule when every deadline is met, else no schedule found"},
       offers::edf_feasibility},
  };
  spec.exact = {
      {{"auto", "our own (chooser)",
        fmt::format("the policy's schedule when it meets every deadline; else bnb when the times lie on a 1 ms grid "
                    "and there are at most 1,000 tasks (taking turns with sat after {} nodes, as for offers), else "
                    "z3; the chain (solve --json: optimum.chain) says which ran and why",
                    offers::kBnbProbeNodes)},
       [](const offers::Instance& i, const SolveOptions& o) { return offers::feasibility_auto(i, o, {}); },
       offers::feasibility_auto},
      {{"bnb", "our own (branch-and-bound over active schedules)",
        "depth-first search over active schedules in start order, energy and width bounds; times on a <= 1 ms grid "
        "(else unknown); core: shortest infeasible deadline prefix, then deletion, within the core budget"},
       offers::feasibility_bnb},
      {{"z3", "our own", "start times + waves, capacity at starts, energy cuts; unsat core over deadline literals, "
                         "shrunk within the core budget"},
       offers::feasibility_z3},
      {{"gecode", "our own (Gecode cumulative)",
        "integer starts on a <= 1 ms grid (else unknown), cumulative with edge finding; core by deletion within the "
        "core budget"},
       offers::feasibility_gecode},
      {{"mip", "our own (time-indexed integer program, Pritsker et al. 1969; CBC)",
        "integer starts per grid step on a <= 1 ms grid, at most 200,000 start variables (else unknown); core by "
        "deletion within the core budget"},
       offers::feasibility_mip},
      {{"sat", "our own (time-indexed SAT encoding; CaDiCaL)",
        "starts in the order encoding on a <= 1 ms grid, a weighted sequential counter a grid step, a presence "
        "literal a job; core: the jobs the refutation used, then deletion on the same solver within the core "
        "budget; at most 40 million literals (else unknown)"},
       offers::feasibility_sat},
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

}  // namespace schedcheck::problems
