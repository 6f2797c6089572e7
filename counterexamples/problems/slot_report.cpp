// Registration of `slot-report`: paper 002 sec. 4, Fig. 2a (the free time slots a provider publishes), checked
// against the processor x time grid.
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/slot_report_generator.hpp"
#include "model/slot_report.hpp"
#include "properties/slot_report_properties.hpp"
#include "solver/slot_report_grid.hpp"

#include <fmt/format.h>

namespace schedcheck::problems {

std::unique_ptr<Problem> slot_report() {
  using namespace slots;
  ProblemSpec<Instance, SlotReport> spec;
  spec.name = "slot-report";
  spec.source = "paper 002 sec. 4, Fig. 2a (free time slots from the availability profile)";
  spec.summary = "publish the free time slots of a provider's availability profile up to a planning horizon: sound "
                 "(nothing busy, no slot overlapping another) and complete (every free processor-second)";
  spec.instance_kind = kInstanceKind;
  spec.sense = Sense::kMaximise;
  spec.objective_name = "processor-seconds published before the horizon (infinite: before the last hold ends)";
  spec.read = read_instance;
  spec.write = write_instance;
  spec.validate = validate;
  spec.describe = write_report;
  spec.read_decision = read_report;
  spec.decision_schema = object_schema(
      "slot-report decision",
      {{"slots",
        {{"type", "array"},
         {"items",
          object_schema("slot",
                        {{"start", {{"type", "number"}}},
                         {"end", {{"type", {"number", "null"}}, {"description", "null: open for ever"}}},
                         {"processors", {{"type", "integer"}, {"minimum", 1}}},
                         {"on", {{"type", "string"}, {"description", "model processors: which, e.g. \"0-3 7\""}}}},
                        {"start", "processors"}, true)}}},
       {"summary", {{"type", "string"}, {"description", "ignored"}}}},
      {"slots"});
  spec.size = [](const Instance& i) { return i.holds.size(); };
  spec.instance_name = [](const Instance& i) { return i.name; };
  spec.policies = {
      {{"profile-scan", "paper 002 sec. 4, Fig. 2a; the rule of its authors' profile (GridSim, servsim getTimeSlots)",
        "scan the availability profile from now to the horizon: at each step a slot with the processors free and "
        "unpublished there, as long as they stay free (model/time_slots.hpp)"},
       [](const Instance& i) { return SlotReport{free_time_slots(profile_of(i), i.now, i.horizon)}; }},
  };
  spec.exact = {
      {{"grid", "our own (brute force on the processor x time grid)",
        fmt::format("the holds marked on every processor and elementary interval, no profile; one slot per "
                    "processor's free run (count model: per interval); at most {} cells", kMaxCells)},
       solve_grid},
  };
  spec.properties = properties();
  spec.generator.settings =
      "P ~ U{4, 8, 16}; processors model 1/2; now 100; n holds, start U{0..300}, length U{1..100}, U{1..P/2} "
      "processors, kept when they fit; horizon infinite 1/2, else now + U{1..300} "
      "(counterexamples/slot_report_generator.hpp)";
  spec.generator.generate = generate_instance;
  spec.generator.shrink = shrink_candidates;
  return std::make_unique<TypedProblem<Instance, SlotReport>>(std::move(spec));
}

}  // namespace schedcheck::problems
