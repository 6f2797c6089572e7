// Properties of provider offers and deadline-feasibility answers (see offers_properties.hpp). Our own.
#include "properties/offers_properties.hpp"

#include "reference/offers_policies.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>

namespace schedcheck::offers {

namespace {

using OffersContext = CheckContext<Instance, OfferList>;

PropertyResult verdict(const std::string& why, const std::string& ok = "ok") {
  PropertyResult r;
  r.status = why.empty() ? PropertyStatus::kHolds : PropertyStatus::kFails;
  r.detail = why.empty() ? ok : why;
  return r;
}

// The decision's per-count offers must line up with the Delta counts before any per-count property applies.
std::string shape(const OffersContext& c) {
  const auto counts = delta_counts(c.instance.bot->tasks, c.decision.reading.delta);
  if (c.decision.per_count.size() != counts.size())
    return fmt::format("{} offers for {} Delta counts", c.decision.per_count.size(), counts.size());
  return "";
}

// A property over each count's offer: holds when `violation` finds nothing for any count (first one reported).
OffersProperty per_count_property(std::string name, std::string source, std::string summary,
                                  std::function<std::string(const Instance&, const CountOffer&)> violation) {
  OffersProperty p;
  p.name = std::move(name);
  p.source = std::move(source);
  p.summary = std::move(summary);
  p.check = [violation = std::move(violation)](const OffersContext& c) {
    std::string why = shape(c);
    for (const auto& offer : c.decision.per_count) {
      if (!why.empty()) break;
      why = violation(c.instance, offer);
      if (!why.empty()) why = fmt::format("{} tasks: {}", offer.tasks, why);
    }
    return verdict(why);
  };
  return p;
}

OffersProperty no_accepted_deadline_violation() {
  return per_count_property(
      "no-accepted-deadline-violation", "paper 000 III-A (offers that do not violate already scheduled deadlines)",
      "each offer's schedule keeps every accepted deadline and finishes the tasks by the quoted time",
      [](const Instance& instance, const CountOffer& offer) {
        std::string why = schedule_shape_violation(instance, offer.schedule, offer.tasks);
        if (why.empty()) why = accepted_deadline_violation(instance, offer.schedule);
        const double finish = new_tasks_finish(instance, offer.schedule);
        if (why.empty() && finish > offer.completion + kTimeTolerance)
          why = fmt::format("the offer promises them by {} but its schedule finishes them at {}", offer.completion,
                            finish);
        return why;
      });
}

OffersProperty capacity() {
  return per_count_property("capacity", "our own (space-shared, non-preemptive)",
                            "running jobs, accepted work and the new tasks never use more than P processors",
                            [](const Instance& instance, const CountOffer& offer) {
                              return capacity_violation(instance, offer.schedule);
                            });
}

OffersProperty offer_staircase() {
  OffersProperty p;
  p.name = "offer-staircase";
  p.source = "paper 000 III-A step 4";
  p.summary = "more tasks never complete earlier; the merged list strictly increases in tasks and completion";
  p.check = [](const OffersContext& c) {
    const auto& offers = c.decision.per_count;
    for (std::size_t i = 1; i < offers.size(); ++i)
      if (offers[i].completion < offers[i - 1].completion - kTimeTolerance)
        return verdict(fmt::format("{} tasks are quoted at {}, earlier than {} tasks at {}", offers[i].tasks,
                                   offers[i].completion, offers[i - 1].tasks, offers[i - 1].completion));
    std::string why = staircase_violation(c.decision.staircase);
    const auto merged = merge_offers(offers);
    if (why.empty() && merged.size() != c.decision.staircase.size())
      why = fmt::format("the staircase has {} offers, merging the per-count offers gives {}",
                        c.decision.staircase.size(), merged.size());
    return verdict(why);
  };
  return p;
}

OffersProperty feedback_sound() {
  OffersProperty p;
  p.name = "feedback-sound";
  p.source = "paper 000 III-A FEEDBACK (Islam et al.)";
  p.summary = "with the new job's deadline set to the quoted completion, a fresh EDF run meets every deadline";
  p.check = [](const OffersContext& c) {
    std::size_t checked = 0;
    for (const auto& offer : c.decision.per_count) {
      if (offer.position < 0) continue;  // not an EDF decision
      ++checked;
      EdfScheduler edf(c.instance, c.decision.reading);  // the same EDF reading as the decision's
      const std::size_t position = edf.position_of(offer.completion);
      const EdfRun run = edf.run(position, offer.tasks, c.instance.bot->task_runtime);
      if (!run.first_late.empty())
        return verdict(fmt::format("{} tasks quoted at {}: EDF with that deadline finishes job {} late",
                                   offer.tasks, offer.completion, run.first_late));
      if (run.new_finish > offer.completion + kTimeTolerance)
        return verdict(fmt::format("{} tasks quoted at {}: EDF with that deadline finishes them at {}", offer.tasks,
                                   offer.completion, run.new_finish));
    }
    return verdict("", checked == 0 ? "not an EDF decision (no positions recorded)"
                                    : fmt::format("EDF keeps all {} quotes", checked));
  };
  return p;
}

OffersProperty feedback_monotone_assumption() {
  OffersProperty p;
  p.name = "feedback-monotone-assumption";
  p.source = "paper 000 III-A FEEDBACK (binary search assumes it)";
  p.summary = "EDF feasibility never turns false for a later new-job deadline (linear scan of every position)";
  p.check = [](const OffersContext& c) {
    EdfScheduler edf(c.instance, c.decision.reading);  // the decision's EDF and Delta readings
    for (long long tasks : delta_counts(c.instance.bot->tasks, c.decision.reading.delta)) {
      const auto scan = feedback_feasibility(edf, c.instance, tasks);
      for (std::size_t i = 0; i < scan.size(); ++i) {
        if (!scan[i].feasible) continue;
        for (std::size_t j = i + 1; j < scan.size(); ++j)
          if (!scan[j].feasible)
            return verdict(fmt::format(
                "{} tasks: EDF meets every deadline with the new job's deadline at {} (position {}) but not at {} "
                "(position {}); the binary search may return a later deadline than needed",
                tasks, scan[i].quote, scan[i].interval.position, scan[j].interval.from, scan[j].interval.position));
        break;
      }
    }
    return verdict("");
  };
  return p;
}

// For each count, the decision's quote beside the exact one: max(D, c*(k)). Matched by count: the exact side
// answers the default Delta, so a decision under another Delta reading is compared on the counts both have.
struct CountGap {
  long long tasks;
  double heuristic, exact, gap;
};
std::vector<CountGap> count_gaps(const OffersContext& c) {
  std::vector<CountGap> gaps;
  for (const auto& e : c.optimum->decision->per_count)
    for (const auto& d : c.decision.per_count)
      if (d.tasks == e.tasks)
        gaps.push_back({e.tasks, d.completion, e.completion,
                        relative_gap(Sense::kMinimise, d.completion - c.instance.now, e.completion - c.instance.now)});
  return gaps;
}

std::string gap_table(const std::vector<CountGap>& gaps) {
  std::string out;
  for (const auto& g : gaps)
    out += fmt::format("{}k={}: {:g} vs {:g} ({:.1f}%)", out.empty() ? "" : "; ", g.tasks, g.heuristic, g.exact,
                       g.gap * 100);
  return out;
}

OffersProperty edf_admits_when_feasible() {
  OffersProperty p;
  p.name = "edf-admits-when-feasible";
  p.source = "our own (EDF is not optimal for non-preemptive parallel jobs)";
  p.summary = "when the exact method meets the BoT deadline for k tasks, the policy's offer does too";
  p.needs_optimum = true;
  p.check = [](const OffersContext& c) {
    if (auto undecided = undecided_without_best_found(*c.optimum)) return *undecided;
    for (const auto& g : count_gaps(c)) {
      const double deadline = c.instance.bot->deadline;
      if (g.exact <= deadline + kTimeTolerance && g.heuristic > deadline + kTimeTolerance)
        return verdict(fmt::format("{} tasks can finish by the BoT deadline {} (exact schedule), the policy quotes {}",
                                   g.tasks, deadline, g.heuristic));
    }
    return verdict("");
  };
  return p;
}

OffersProperty offer_optimal_within() {
  OffersProperty p;
  p.name = "offer-optimal-within";
  p.source = "our own";
  p.summary = "per Delta count, (quote - now) within --tolerance of the exact (max(D, c*) - now)";
  p.needs_optimum = true;
  p.check = [](const OffersContext& c) {
    if (auto undecided = undecided_without_best_found(*c.optimum)) return *undecided;
    const auto gaps = count_gaps(c);
    bool within = true;
    for (const auto& g : gaps) within = within && g.gap <= c.tolerance + kObjectiveSlack;
    return against_best_found(*c.optimum, within, gap_table(gaps));
  };
  return p;
}

OffersProperty not_above_optimum() {
  OffersProperty p;
  p.name = "not-above-optimum";
  p.source = "our own";
  p.summary = "no count is quoted earlier than the proven exact quote (else an encoding or validator is wrong)";
  p.needs_optimum = true;
  p.check = [](const OffersContext& c) {
    if (auto undecided = undecided_unless_proven(*c.optimum)) return *undecided;
    for (const auto& g : count_gaps(c))
      if (g.heuristic < g.exact - kTimeTolerance)
        return verdict(fmt::format("{} tasks: quoted {} before the proven earliest {}", g.tasks, g.heuristic, g.exact));
    return verdict("");
  };
  return p;
}

// ---------------------------------------------------------------- deadline-feasibility

using FeasibilityContext = CheckContext<Instance, FeasibilityAnswer>;

FeasibilityProperty feasibility_capacity() {
  FeasibilityProperty p;
  p.name = "capacity";
  p.source = "our own (space-shared, non-preemptive)";
  p.summary = "the schedule (or the failed attempt) never uses more than P processors";
  p.check = [](const FeasibilityContext& c) {
    std::string why = schedule_shape_violation(c.instance, c.decision.schedule, 0);
    if (why.empty()) why = capacity_violation(c.instance, c.decision.schedule);
    return verdict(why);
  };
  return p;
}

FeasibilityProperty feasibility_deadlines() {
  FeasibilityProperty p;
  p.name = "no-accepted-deadline-violation";
  p.source = "paper 000 III-A (do not violate already scheduled deadlines)";
  p.summary = "a schedule presented as meeting every deadline does";
  p.check = [](const FeasibilityContext& c) {
    if (c.decision.answer != Feasibility::kSchedule)
      return verdict("", "no schedule is claimed to meet every deadline");
    std::string why = schedule_shape_violation(c.instance, c.decision.schedule, 0);
    if (why.empty()) why = accepted_deadline_violation(c.instance, c.decision.schedule);
    return verdict(why);
  };
  return p;
}

// "core: a, b (minimal)" of an `infeasible` answer.
std::string core_text(const ExactResult<FeasibilityAnswer>& optimum) {
  std::string ids;
  for (const auto& id : optimum.core) ids += (ids.empty() ? "" : ", ") + id;
  return fmt::format("core: {} ({})", ids, optimum.core_minimal ? "minimal" : "not shown minimal");
}

// A deadline-feasibility property that compares with the exact side's answer.
FeasibilityProperty against_exact(std::string name, std::string source, std::string summary,
                                  std::function<PropertyResult(const FeasibilityContext&)> check) {
  FeasibilityProperty p;
  p.name = std::move(name);
  p.source = std::move(source);
  p.summary = std::move(summary);
  p.needs_optimum = true;
  p.check = std::move(check);
  return p;
}

FeasibilityProperty feasibility_edf_admits() {
  return against_exact(
      "edf-admits-when-feasible", "our own (EDF is not optimal for non-preemptive parallel jobs)",
      "when the exact method finds a schedule meeting every deadline, the policy finds one too",
      [](const FeasibilityContext& c) {
        if (c.optimum->status == ExactStatus::kInfeasible)
          return verdict("", "no schedule meets every deadline (proven; " + core_text(*c.optimum) + ")");
        if (auto undecided = undecided_without_best_found(*c.optimum)) return *undecided;
        if (c.optimum->decision->answer == Feasibility::kSchedule && c.decision.answer != Feasibility::kSchedule)
          return verdict(fmt::format("a schedule meets every deadline, but the policy finishes {} late",
                                     c.decision.missed));
        return verdict("");
      });
}

// not-above-optimum for a yes/no question: a policy schedule meeting every deadline contradicts a proof that none
// exists; against a proven schedule (objective 1, the maximum) nothing can be above.
FeasibilityProperty feasibility_not_above_optimum() {
  return against_exact(
      "not-above-optimum", "our own",
      "the policy never meets every deadline where the exact method proves no schedule can (else the exact method "
      "or the validator is wrong)",
      [](const FeasibilityContext& c) {
        const bool schedule = c.decision.answer == Feasibility::kSchedule && c.objective == 1;
        if (c.optimum->status == ExactStatus::kInfeasible)
          return verdict(schedule ? "the policy's schedule meets every deadline, yet the exact method claims none "
                                    "exists (" + core_text(*c.optimum) + ")"
                                  : "",
                         "no schedule exists, and the policy claims none");
        if (auto undecided = undecided_unless_proven(*c.optimum)) return *undecided;
        return verdict("", fmt::format("{:g} vs optimum {:g}", c.objective, c.optimum->objective));
      });
}

}  // namespace

std::vector<OffersProperty> offers_properties() {
  return {no_accepted_deadline_violation(), capacity(), offer_staircase(), feedback_sound(),
          feedback_monotone_assumption(), edf_admits_when_feasible(), offer_optimal_within(), not_above_optimum()};
}

std::vector<FeasibilityProperty> feasibility_properties() {
  return {feasibility_capacity(), feasibility_deadlines(), feasibility_edf_admits(), feasibility_not_above_optimum()};
}

}  // namespace schedcheck::offers
