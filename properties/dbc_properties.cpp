// Properties of DBC broker schedules (see dbc_properties.hpp). Paper 001; cost-optimal-within is our own.
#include "properties/dbc_properties.hpp"

#include "model/profile.hpp"
#include "reference/dbc_policies.hpp"

#include <fmt/format.h>

#include <cmath>

namespace schedcheck::dbc {

namespace {

using Context = CheckContext<Instance, Schedule>;

std::string unassigned_ids(const Instance& instance, const Schedule& s) {
  std::string ids;
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (s.resource[j] == kUnassigned) ids += (ids.empty() ? "" : ", ") + instance.jobs[j].id;
  return ids;
}

// A property that holds when the model's check finds no violation (after the shape and placement checks).
DbcProperty from_check(std::string name, std::string source, std::string summary,
                       std::string (*violation)(const Instance&, const Schedule&)) {
  DbcProperty p;
  p.name = std::move(name);
  p.source = std::move(source);
  p.summary = std::move(summary);
  p.check = [violation](const Context& c) {
    std::string why = shape_violation(c.instance, c.decision);
    if (why.empty()) why = placement_violation(c.instance, c.decision);
    if (why.empty()) why = violation(c.instance, c.decision);
    return PropertyResult{"", why.empty() ? PropertyStatus::kHolds : PropertyStatus::kFails, why.empty() ? "ok" : why};
  };
  return p;
}

std::string sound_schedule_violation(const Instance& instance, const Schedule& s) {
  std::string why = overlap_violation(instance, s);
  return why.empty() ? request_violation(instance, s) : why;
}

DbcProperty all_assigned_when_feasible() {
  DbcProperty p;
  p.name = "all-assigned-when-feasible";
  p.source = "our own, paper 001 DBC";
  p.summary = "when the exact solver finds a schedule of every job within deadline and budget, the policy assigns every job";
  p.needs_optimum = true;
  p.check = [](const Context& c) {
    const auto& opt = *c.optimum;
    const std::size_t missing = c.instance.jobs.size() - assigned_count(c.decision);
    if (opt.status == ExactStatus::kInfeasible)
      return PropertyResult{"", PropertyStatus::kHolds, "no full schedule exists (" + opt.detail + ")"};
    if (auto undecided = undecided_without_best_found(opt)) return *undecided;
    if (missing == 0) return PropertyResult{"", PropertyStatus::kHolds, "every job assigned"};
    return PropertyResult{"", PropertyStatus::kFails,
                          fmt::format("{} of {} jobs left unassigned ({}), but {} assigns every job within the deadline "
                                      "and budget at cost {}", missing, c.instance.jobs.size(),
                                      unassigned_ids(c.instance, c.decision), "the exact schedule", opt.objective)};
  };
  return p;
}

DbcProperty cost_optimal_within() {
  DbcProperty p;
  p.name = "cost-optimal-within";
  p.source = "our own";
  p.summary = "a full feasible schedule costs at most (1 + --tolerance) x the minimum cost; partial or infeasible "
              "schedules are not compared";
  p.needs_optimum = true;
  p.check = [](const Context& c) {
    const auto& opt = *c.optimum;
    const bool full = not_comparable(c.instance, c.decision).empty();
    if (opt.status == ExactStatus::kInfeasible)
      return full ? PropertyResult{"", PropertyStatus::kFails,
                                   "the policy found a feasible schedule of every job, yet the exact method claims none "
                                   "exists: the exact method is wrong"}
                  : PropertyResult{"", PropertyStatus::kHolds, "no full schedule exists; nothing to compare"};
    if (!full)
      return PropertyResult{"", PropertyStatus::kHolds,
                            "not compared: the schedule leaves jobs unassigned or breaks a constraint (see the other "
                            "properties)"};
    if (auto undecided = undecided_without_best_found(opt)) return *undecided;
    const double slack = kObjectiveSlack * std::max(1.0, std::fabs(opt.objective));
    if (opt.status == ExactStatus::kOptimal && c.objective < opt.objective - slack)
      return PropertyResult{"", PropertyStatus::kFails,
                            fmt::format("cost {} beats the proven minimum {}: the encoding or validator is wrong",
                                        c.objective, opt.objective)};
    const double gap = relative_gap(Sense::kMinimise, c.objective, opt.objective);
    const bool within = gap <= c.tolerance + kObjectiveSlack;
    return against_best_found(opt, within,
                              fmt::format("cost {:.10g} vs minimum {:.10g}: gap {:.6g} {} tolerance {}", c.objective,
                                          opt.objective, gap, within ? "<=" : ">", c.tolerance));
  };
  return p;
}

DbcProperty cost_time_tiebreak() {
  DbcProperty p;
  p.name = "cost-time-tiebreak";
  p.source = "paper 001 DBC cost-time (\"if two resources are of same cost ... time optimization\")";
  p.summary = "among resources of equal cost, each job (in list order) is on one that completes it earliest";
  p.check = [](const Context& c) {
    std::string why = shape_violation(c.instance, c.decision);
    if (why.empty()) why = placement_violation(c.instance, c.decision);
    if (why.empty()) why = tiebreak_violation(c.instance, c.decision);
    return PropertyResult{"", why.empty() ? PropertyStatus::kHolds : PropertyStatus::kFails, why.empty() ? "ok" : why};
  };
  return p;
}

}  // namespace

std::string tiebreak_violation(const Instance& instance, const Schedule& s) {
  Clock clock(instance);
  for (std::size_t j : s.list.empty() ? job_list_order(instance) : s.list) {
    if (s.resource[j] == kUnassigned) continue;
    const auto own = static_cast<std::size_t>(s.resource[j]);
    const double finish = s.start[j] + duration(instance.resources[own], instance.jobs[j]);
    const double rate = cost_per_mi(instance, instance.resources[own]);
    for (std::size_t r = 0; r < instance.resources.size(); ++r) {
      if (r == own || cost_per_mi(instance, instance.resources[r]) != rate ||
          !eligible(instance, instance.resources[r], instance.jobs[j]))
        continue;
      const double earliest = clock.earliest(r, duration(instance.resources[r], instance.jobs[j])).finish;
      if (earliest < finish - kTimeTolerance)
        return fmt::format("job {} completes at {} on {}, but {} (same cost {} per MI) would complete it at {}",
                           instance.jobs[j].id, finish, instance.resources[own].id, instance.resources[r].id, rate,
                           earliest);
    }
    clock.place(own, s.pe[j], s.start[j], finish);
  }
  return "";
}

std::string not_comparable(const Instance& instance, const Schedule& schedule) {
  if (!shape_violation(instance, schedule).empty() || !validate(instance, schedule).feasible)
    return "the schedule is infeasible";
  if (assigned_count(schedule) != instance.jobs.size())
    return "the schedule leaves jobs unassigned (its lower cost is not better)";
  return "";
}

nlohmann::json metrics(const Instance& instance, const Schedule& schedule) {
  if (!shape_violation(instance, schedule).empty() || !placement_violation(instance, schedule).empty()) return nullptr;
  const Schedule baseline = no_optimization(instance);
  const double cost = total_cost(instance, schedule), time = makespan(instance, schedule);
  const double cost_without = total_cost(instance, baseline), time_without = makespan(instance, baseline);
  auto ratio = [](double a, double b) { return b > 0 ? nlohmann::json(a / b) : nlohmann::json(nullptr); };
  return {{"assigned", fmt::format("{}/{}", assigned_count(schedule), instance.jobs.size())},
          {"cost", cost},
          {"makespan", time},
          {"deadline", instance.deadline},
          {"budget", instance.budget},
          {"cost_without", cost_without},
          {"time_without", time_without},
          {"cfactor", ratio(cost_without, cost)},
          {"tspeedup", ratio(time_without, time)}};
}

std::vector<DbcProperty> properties() {
  return {
      from_check("budget-respected", "paper 001 DBC (Babsolute)", "the assigned jobs cost at most Babsolute",
                 budget_violation),
      from_check("deadline-respected", "paper 001 DBC (Dabsolute)", "every assigned job finishes by Dabsolute",
                 deadline_violation),
      from_check("placement", "paper 001 explicit allocation (space-shared PEs, maxProc, maxTr, maxPendingRequests)",
                 "each job on a usable PE, one job at a time per PE, inside requests of at most maxTr (max_tr reading)",
                 sound_schedule_violation),
      all_assigned_when_feasible(),
      cost_optimal_within(),
      cost_time_tiebreak(),
  };
}

}  // namespace schedcheck::dbc
