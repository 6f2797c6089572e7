// The two exact methods of gateway-choice (solver/gateway_choice_exact.hpp). Our own.
#include "solver/gateway_choice_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace schedcheck::gateway {

namespace {

// The result of a search that found `best` (optimal), or none.
ExactResult<Choice> answer(const std::optional<Choice>& best, std::string detail) {
  ExactResult<Choice> result;
  if (!best) {
    result.detail = "no provider has processors enough";
    return result;
  }
  result.status = ExactStatus::kOptimal;
  result.decision = best;
  result.objective = best->start;
  result.detail = std::move(detail);
  return result;
}

}  // namespace

ExactResult<Choice> solve_profiles(const Instance& instance, const SolveOptions&) {
  std::optional<Choice> best;
  for (std::size_t p = 0; p < instance.providers.size(); ++p) {
    if (instance.procs > instance.providers[p].processors) continue;
    const auto slot = true_profile(instance, p).earliest_slot(instance.procs, instance.duration, instance.now);
    if (slot && (!best || slot->start < best->start - kTimeTolerance)) best = Choice{p, slot->start};
  }
  return answer(best, "each provider's profile searched");
}

namespace {

// Whether the job fits on provider p over [t, t + duration), from the holds alone.
bool fits(const Instance& instance, const Provider& p, double t, std::size_t& steps) {
  const double end = t + instance.duration;
  auto overlaps = [&](const slots::Hold& h) { return h.start < end - kTimeTolerance && h.end > t + kTimeTolerance; };
  if (instance.identity) {
    std::vector<char> busy(static_cast<std::size_t>(p.processors), 0);
    int taken = 0;
    for (const slots::Hold& h : p.holds) {
      ++steps;
      if (!overlaps(h)) continue;
      for (int q : h.on.members())
        if (!busy[static_cast<std::size_t>(q)]) {
          busy[static_cast<std::size_t>(q)] = 1;
          ++taken;
        }
    }
    return p.processors - taken >= instance.procs;
  }
  // On counts: the most processors held at once in the window is reached at t or at a hold's start inside it.
  std::vector<double> at{t};
  for (const slots::Hold& h : p.holds)
    if (h.start > t && h.start < end - kTimeTolerance) at.push_back(h.start);
  for (double x : at) {
    int used = 0;
    for (const slots::Hold& h : p.holds) {
      ++steps;
      if (h.start <= x + kTimeTolerance && x < h.end - kTimeTolerance) used += h.processors;
    }
    if (p.processors - used < instance.procs) return false;
  }
  return true;
}

}  // namespace

ExactResult<Choice> solve_scan(const Instance& instance, const SolveOptions& options) {
  ExactResult<Choice> result;
  std::optional<Choice> best;
  std::size_t steps = 0;
  for (std::size_t p = 0; p < instance.providers.size(); ++p) {
    const Provider& provider = instance.providers[p];
    if (instance.procs > provider.processors) continue;
    // The earliest start is now or the end of some hold: a start later than both could move back to the latest of them.
    std::vector<double> candidates{instance.now};
    for (const slots::Hold& h : provider.holds)
      if (h.end > instance.now) candidates.push_back(h.end);
    std::sort(candidates.begin(), candidates.end());
    for (double t : candidates) {
      if (best && t >= best->start - kTimeTolerance) break;  // no earlier than the best so far
      if (steps > kMaxScanSteps) {  // an effort budget (hold checks), the same on any machine
        result.detail = fmt::format("more than {} hold checks", kMaxScanSteps);
        return result;
      }
      if (options.effort > 0 && steps / kHoldChecksPerUnit > options.effort) {  // the solve's own budget
        result.detail = effort_budget_reached(options.effort, fmt::format(" after {} hold checks", steps));
        return result;
      }
      if (fits(instance, provider, t, steps)) {
        best = Choice{p, t};
        break;
      }
    }
  }
  return answer(best, fmt::format("{} hold checks at the candidate starts (now and every hold's end)", steps));
}

}  // namespace schedcheck::gateway
