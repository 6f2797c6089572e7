// What the two provider problems of paper 000 sec. III share (offers, deadline-feasibility): the instance format,
// size, name, shrinking, the generator's documented settings, and one time limit for a whole exact offer list.
// Our own.
#pragma once

#include "counterexamples/offers_generator.hpp"
#include "model/offers.hpp"
#include "properties/registry.hpp"
#include "solver/offers_exact.hpp"

#include <algorithm>
#include <chrono>

namespace schedcheck::problems {

// The exact offer list under one time limit for the whole list: each Delta count gets what is left of it.
template <class EarliestCompletion>
auto offers_within_one_limit(const offers::Instance& instance, const SolveOptions& options,
                             EarliestCompletion earliest_completion) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.timeout_ms);
  return offers::exact_offers(instance, [&](const offers::Instance& inst, long long tasks, double lower_bound) {
    SolveOptions left = options;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    left.timeout_ms = static_cast<unsigned>(std::max<long long>(1, ms.count()));
    return earliest_completion(inst, tasks, lower_bound, left);
  });
}
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
