// Registration of `gateway-choice`: paper 002 sec. 4 (the gateway's earliest-start choice of provider from the
// free time slots providers publish), checked against the providers' true profiles by two exact methods.
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/gateway_choice_generator.hpp"
#include "model/gateway_choice.hpp"
#include "properties/gateway_choice_properties.hpp"
#include "reference/gateway_policies.hpp"
#include "solver/gateway_choice_exact.hpp"

#include <fmt/format.h>

namespace schedcheck::problems {

std::unique_ptr<Problem> gateway_choice() {
  using namespace gateway;
  ProblemSpec<Instance, Choice> spec;
  spec.name = "gateway-choice";
  spec.source = "paper 002 sec. 4 (\"Earliest start time\": the gateway is given the providers' availability "
                "information and the job)";
  spec.summary = "choose the provider that starts a job first from the free time slots providers published (stale "
                 "or fresh); checked against their true profiles";
  spec.instance_kind = kInstanceKind;
  spec.sense = Sense::kMinimise;
  spec.objective_name = "the job's start time";
  spec.read = read_instance;
  spec.write = write_instance;
  spec.validate = validate;
  spec.describe = write_choice;
  spec.read_decision = read_choice;
  spec.decision_schema = object_schema(
      "gateway-choice decision",
      {{"provider", {{"type", "string"}, {"description", "a provider's name"}}},
       {"start", {{"type", "number"}}},
       {"summary", {{"type", "string"}, {"description", "ignored"}}}},
      {"provider", "start"});
  spec.size = [](const Instance& i) {
    std::size_t n = 0;
    for (const Provider& p : i.providers) n += p.holds.size();
    return n;
  };
  spec.instance_name = [](const Instance& i) { return i.name; };
  spec.policies = {
      {{"earliest-start", "paper 002 sec. 4 (Earliest start time; the first provider on a tie)",
        "rebuild each provider's availability from the slots the gateway knows (published, else fresh), take the "
        "earliest start of the job over them (reference/gateway_policies.hpp)"},
       [](const Instance& i) {
         std::vector<AvailabilityProfile> views;
         for (std::size_t p = 0; p < i.providers.size(); ++p)
           views.push_back(view_of_slots(i.providers[p].processors, i.identity, known_slots(i, p), i.now));
         const auto pick = earliest_start(views, i.procs, i.duration, i.now);
         return pick ? Choice{pick->provider, pick->start} : Choice{0, i.now};
       }},
  };
  spec.exact = {
      {{"profiles", "our own (each provider's true availability profile searched)",
        "the earliest start on each provider's profile of its holds, the first provider on a tie"},
       solve_profiles},
      {{"scan", "our own (no profile: candidate starts checked against the holds)",
        fmt::format("the candidate starts now and every hold's end, in order, each checked against every hold; at "
                    "most {} hold checks", kMaxScanSteps)},
       solve_scan},
  };
  spec.properties = properties();
  spec.generator.settings =
      "2 to 4 providers of U{4, 8} processors; processors model 1/2; now 100; per provider n holds as slot-report's; "
      "published slots stale with probability 1/2 (before its last 1 to 3 holds); the job U{1..widest} processors "
      "for U{1..200} s (counterexamples/gateway_choice_generator.hpp)";
  spec.generator.generate = generate_instance;
  spec.generator.shrink = shrink_candidates;
  return std::make_unique<TypedProblem<Instance, Choice>>(std::move(spec));
}

}  // namespace schedcheck::problems
