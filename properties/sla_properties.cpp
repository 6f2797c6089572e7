// Properties of SLA admission decisions (see sla_properties.hpp).
#include "properties/sla_properties.hpp"

namespace schedcheck::sla {

namespace {

// A property that holds when the model's check finds no violation; the check's sentence is the detail.
SlaProperty from_check(std::string name, std::string source, std::string summary,
                       std::function<std::string(const Instance&, const Admission&)> violation) {
  SlaProperty p;
  p.name = std::move(name);
  p.source = std::move(source);
  p.summary = std::move(summary);
  p.check = [violation = std::move(violation)](const CheckContext<Instance, Admission>& c) {
    PropertyResult r;
    std::string why = shape_violation(c.instance, c.decision);
    if (why.empty()) why = violation(c.instance, c.decision);
    r.status = why.empty() ? PropertyStatus::kHolds : PropertyStatus::kFails;
    r.detail = why.empty() ? "ok" : why;
    return r;
  };
  return p;
}

SlaProperty eligibility_property() {
  return from_check("eligibility", "paper 004 Alg. 2 line 1.40 (+ budget when site.budget_test)",
                    "every accepted bid has de >= D(J,R_m), and b >= B(J,R_m) when site.budget_test is set",
                    eligibility_violation);
}

}  // namespace

std::vector<SlaProperty> instant_properties() {
  return {
      from_check("capacity", "paper 004 Eq. 4", "accepted bids use at most the r free processors",
                 capacity_violation_instant),
      from_check("deadline", "our own (no accepted-deadline violation)",
                 "every accepted job, started now, finishes by its deadline d",
                 [](const Instance& i, const Admission& a) { return deadline_violation(i, a, false); }),
      eligibility_property(),
      not_above_optimum_property<Instance, Admission>(),
      optimal_within_property<Instance, Admission>(),
  };
}

std::vector<SlaProperty> timed_properties() {
  return {
      from_check("capacity", "our own (space-shared, non-preemptive)",
                 "running plus accepted jobs never use more than p_m processors at any time",
                 capacity_violation_timed),
      from_check("deadline", "our own (no accepted-deadline violation)",
                 "every accepted job starts now or later and finishes by its deadline d",
                 [](const Instance& i, const Admission& a) { return deadline_violation(i, a, true); }),
      eligibility_property(),
      not_above_optimum_property<Instance, Admission>(),
      optimal_within_property<Instance, Admission>(),
  };
}

}  // namespace schedcheck::sla
