// Properties of offer compositions (see compose_properties.hpp). Paper 000 section IV; the checks are our own.
#include "properties/compose_properties.hpp"

#include "model/profile.hpp"
#include "solver/compose_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::compose {

namespace {

// The model's check, after the shape check (a decision with the wrong number of parts fails every property).
ComposeProperty from_check(std::string name, std::string source, std::string summary,
                           std::string (*violation)(const Instance&, const Composition&)) {
  return violation_property<Instance, Composition>(
      std::move(name), std::move(source), std::move(summary), [violation](const Instance& i, const Composition& c) {
        const std::string why = shape_violation(i, c);
        return why.empty() ? violation(i, c) : why;
      });
}

bool uses_free_slots(const Composition& c) {
  return std::any_of(c.parts.begin(), c.parts.end(), [](const Part& part) { return part.offer == kFromFreeSlots; });
}

// Times are seconds at any magnitude (the model's tolerance: model/compose.cpp).
bool later_than(double a, double b) { return a > b + kTimeTolerance; }

ComposeProperty meets_deadline_when_possible() {
  ComposeProperty p;
  p.name = "meets-deadline-when-possible";
  p.source = "paper 000 sec. IV (the metascheduler's goal)";
  p.summary = "when some composition of the offers completes by D, the decision does";
  p.check = [](const CheckContext<Instance, Composition>& c) {
    PropertyResult r;
    const auto earliest = earliest_cover_time(c.instance);
    const double completion = bot_completion(c.instance, c.decision);
    const double deadline = c.instance.bot.deadline;
    const bool possible = earliest && !later_than(*earliest, deadline);
    r.status = possible && later_than(completion, deadline) ? PropertyStatus::kFails : PropertyStatus::kHolds;
    r.detail = possible ? fmt::format("D = {:g} can be met (by t={:g}); the decision completes at t={:g}", deadline,
                                      *earliest, completion)
                        : fmt::format("no composition meets D = {:g}", deadline);
    return r;
  };
  return p;
}

ComposeProperty optimal_completion() {
  ComposeProperty p;
  p.name = "optimal-completion";
  p.source = "paper 000 sec. IV (our exact composition)";
  p.summary = "the decision is feasible and its BoT completion time equals the exact optimum";
  p.needs_optimum = true;
  p.check = [](const CheckContext<Instance, Composition>& c) {
    if (auto undecided = undecided_unless_proven(*c.optimum)) return *undecided;
    PropertyResult r;
    const Verdict verdict = validate(c.instance, c.decision);
    const double completion = bot_completion(c.instance, c.decision);
    const double best = c.optimum->objective;
    if (!verdict.feasible) {
      r.status = PropertyStatus::kFails;
      r.detail = "not a composition of the BoT: " + verdict.reason;
    } else if (uses_free_slots(c.decision)) {
      r.detail = fmt::format("not judged: the decision uses free time slots (completes at t={:g}); the exact optimum "
                             "t={:g} composes offers only", completion, best);
    } else if (later_than(completion, best) || later_than(best, completion)) {
      r.status = PropertyStatus::kFails;
      r.detail = fmt::format("completes at t={:g}, the optimum at t={:g}", completion, best);
    } else {
      r.detail = fmt::format("t={:g} = optimum", completion);
    }
    return r;
  };
  return p;
}

ComposeProperty balance_within() {
  ComposeProperty p;
  p.name = "balance-within";
  p.source = "paper 000 sec. IV-B (load balancing; our measure)";
  p.summary = "largest share tasks / offer size at most (1 + tolerance) x the smallest possible by the same completion";
  p.check = [](const CheckContext<Instance, Composition>& c) {
    PropertyResult r;
    const Verdict verdict = validate(c.instance, c.decision);
    const bool slot_based = uses_free_slots(c.decision);
    if (!verdict.feasible || slot_based) {
      r.detail = !verdict.feasible ? "not judged: the decision is infeasible (" + verdict.reason + ")"
                                   : "not judged: free-slot parts have no offer size";
      return r;
    }
    const double completion = bot_completion(c.instance, c.decision);
    const auto best = most_balanced_by(c.instance, completion);
    const double share = largest_share(c.instance, c.decision);
    const double best_share = best ? largest_share(c.instance, *best) : share;
    const bool within = share <= best_share * (1 + c.tolerance) + kObjectiveSlack;
    r.status = within ? PropertyStatus::kHolds : PropertyStatus::kFails;
    r.detail = fmt::format("largest share {:.6g} {} {:.6g} x (1 + {:g}) (the most balanced composition completing by "
                           "t={:g})", share, within ? "<=" : ">", best_share, c.tolerance, completion);
    return r;
  };
  return p;
}

}  // namespace

std::string not_comparable(const Instance& instance, const Composition& composition) {
  const Verdict verdict = validate(instance, composition);
  if (!verdict.feasible) return "the composition is infeasible (" + verdict.reason + ")";
  if (uses_free_slots(composition)) return "the decision uses free time slots; the exact method composes offers only";
  return "";
}

std::vector<ComposeProperty> composition_properties() {
  return {
      from_check("tasks-conserved", "paper 000 sec. IV", "exactly the BoT's n tasks are assigned", conservation_violation),
      from_check("offer-respected", "paper 000 sec. IV-A/B",
                 "no provider gets more than the offer it was given (one offer per provider), or than its free slots hold",
                 offer_violation),
      from_check("no-empty-assignment", "our own", "no provider is given an offer (or slots) with 0 tasks",
                 empty_assignment_violation),
      meets_deadline_when_possible(),
      optimal_completion(),
      balance_within(),
  };
}

}  // namespace schedcheck::compose
