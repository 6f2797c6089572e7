// What the two provider problems of paper 000 sec. III share (offers, deadline-feasibility): the instance format,
// size, name, shrinking and the generator's documented settings. Our own.
#pragma once

#include "counterexamples/offers_generator.hpp"
#include "model/offers.hpp"
#include "properties/registry.hpp"
#include "solver/offers_exact.hpp"

namespace schedcheck::problems {

inline const char* const kOffersGeneratorSettings =
    "n waiting jobs (half local p ~ U{1..P}, half BoT parts of 1-4 tasks), runtimes U{1..30}, P in {4, 8, 16}, "
    "0-2 running jobs, now ~ U{0..100}, deadlines now + runtime + U{0..40}";

// The JSON Schema of an offers schedule (docs/protocol.md): each waiting job's start (a number) or task waves, and
// for offers the BoT's new tasks under its id.
inline nlohmann::json schedule_schema() {
  const nlohmann::json waves = {{"type", "array"},
                                {"items", object_schema("a wave", {{"start", {{"type", "number"}}},
                                                                   {"tasks", {{"type", "integer"}, {"minimum", 1}}}},
                                                        {"start", "tasks"}, true)}};
  return {{"type", "object"},
          {"description", "keyed by job id (every waiting job; offers: also the BoT's id for its new tasks)"},
          {"additionalProperties", {{"oneOf", {{{"type", "number"}}, waves}}}}};
}

// What both provider problems share: the instance format, size, name and shrinking.
template <class Decision>
ProblemSpec<offers::Instance, Decision> provider_common() {
  ProblemSpec<offers::Instance, Decision> spec;
  spec.instance_kind = offers::kInstanceKind;
  spec.write = offers::write_instance;
  spec.size = [](const offers::Instance& i) { return i.waiting.size(); };
  spec.instance_name = [](const offers::Instance& i) { return i.name; };
  spec.generator.shrink = offers::shrink_candidates;
  return spec;
}

}  // namespace schedcheck::problems
