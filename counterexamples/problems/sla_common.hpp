// What the two SLA admission problems share: the instance format, the decision's JSON, size, name and generator
// (paper 004; counterexamples/problems/sla_admission*.cpp). Our own.
#pragma once

#include "counterexamples/sla_generator.hpp"
#include "model/sla.hpp"
#include "properties/registry.hpp"

namespace schedcheck::problems {

using SlaSpec = ProblemSpec<sla::Instance, sla::Admission>;

// What both SLA problems share: the instance format, the decision's JSON, the generator.
inline SlaSpec sla_common(bool timed) {
  SlaSpec spec;
  spec.instance_kind = sla::kInstanceKind;
  spec.sense = Sense::kMaximise;
  spec.objective_name = "incentive";
  spec.read = sla::read_instance;
  spec.write = sla::write_instance;
  spec.describe = [timed](const sla::Instance& i, const sla::Admission& a) { return sla::write_admission(i, a, timed); };
  spec.read_decision = [timed](const sla::Instance& i, const nlohmann::json& d, const std::string& where) {
    return sla::read_admission(i, d, where, timed);
  };
  spec.decision_schema = object_schema(
      timed ? "sla-admission-timed decision" : "sla-admission decision",
      {{"accepted",
        {{"description", "ids of the accepted bids, each at most once"},
         {"type", "array"},
         {"items", {{"type", "string"}}},
         {"uniqueItems", true}}}},
      {"accepted"});
  if (timed) {
    spec.decision_schema["properties"]["start"] = {
        {"description", "start time (seconds from now) of every accepted bid, keyed by its id"},
        {"type", "object"},
        {"additionalProperties", {{"type", "number"}}}};
    spec.decision_schema["required"] = {"accepted", "start"};
  }
  spec.size = [](const sla::Instance& i) { return i.bids.size(); };
  spec.instance_name = [](const sla::Instance& i) { return i.name; };
  spec.generator.settings =
      "n bids; p ~ U{1..32}; execution 10-1000 s; budget = B x U[0.8,2.5); d = D x U[1,3); "
      "p_m = max(32, 40% of bid processors); 0-2 running jobs (counterexamples/sla_generator.hpp)";
  spec.generator.generate = sla::generate_instance;
  spec.generator.shrink = sla::shrink_candidates;
  return spec;
}

}  // namespace schedcheck::problems
