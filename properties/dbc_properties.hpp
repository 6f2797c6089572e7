// Named properties of DBC broker schedules (paper 001): budget-respected, deadline-respected, placement (from the
// model's checks), all-assigned-when-feasible, cost-optimal-within and cost-time-tiebreak (the DBC rule among
// equal-cost resources); plus the paper's Cfactor / Tspeedup against the no-optimization baseline as metrics.
// Limits: those of the exact method used as the optimum.
#pragma once

#include "model/dbc.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::dbc {

using DbcProperty = PropertySpec<Instance, Schedule>;

std::vector<DbcProperty> properties();
// A heuristic cost is compared with the minimum only when the schedule assigns every job and is feasible.
std::string not_comparable(const Instance& instance, const Schedule& schedule);
// cost, makespan, assigned, and against `no-optimization` (paper 001 "Performance metrics"): cost_without,
// time_without, cfactor = C_without / C_with, tspeedup = T_without / T_with (null when a denominator is 0).
nlohmann::json metrics(const Instance& instance, const Schedule& schedule);
// The first job (in the schedule's `list` order, else file order) for which an equal-cost resource would have
// completed it strictly earlier (Clock::earliest), given the jobs before it in the list: "" when none (the
// cost-time tie-break holds).
std::string tiebreak_violation(const Instance& instance, const Schedule& schedule);

}  // namespace schedcheck::dbc
