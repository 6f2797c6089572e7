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
