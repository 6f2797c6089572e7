// A time-indexed SAT encoding of a provider's schedules, solved incrementally by CaDiCaL (Debian libcadical-dev):
// each task's start on the time grid in the order encoding ("starts by t" literals), one weighted sequential
// counter a grid step for the processors (Hoelldobler, Manthey and Steinke 2012), copies of a job and jobs of one
// shape in deadline order, and one precedence literal for each pair of jobs too wide to run side by side. Our own
// formulation, in the spirit of the time-decomposed cumulative of lazy clause generation (Schutt et al. 2009): the
// solver learns clauses from each failure and keeps them for every later probe. Exact on the grid of
// offers_exact.hpp time_grid. Limits: an encoding of at most kSatMaxLiterals literals (estimated before it is built);
// the time limit (checked while building, and by CaDiCaL's terminator: within milliseconds); the effort budget, in
// conflicts over every probe of one count (or of one decision, or of one core test; solver/result.hpp).
#pragma once

#include "model/offers.hpp"
#include "solver/offers_exact.hpp"
#include "solver/result.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::offers {

// Estimated literals (about twice those of the clauses built): 8 million is about 100 generated jobs on a 1 s grid,
// 0.4 s to build and 300 MB in CaDiCaL.
inline constexpr long long kSatMaxLiterals = 8'000'000;

enum class SatOutcome { kFound, kInfeasible, kStopped };

// One incremental solver for an instance: every probe of a count's descent, of every count, and of a core's
// deletion reuses the clauses learnt before.
class SatSchedules {
 public:
  // Schedules of the waiting jobs by their deadlines with up to `max_new_tasks` new tasks, none finishing after
  // `horizon` (absolute; kForever: the horizon of all the work). A probe above the horizon is asked at the horizon:
  // the caller passes a finish that some schedule of every count it probes meets. `selectable`: each waiting job
  // may be left out of a probe (its `keep`), and an infeasible probe names the kept jobs it needed (core()). Building
  // stops at `until` (then why_not() says so).
  SatSchedules(const Instance& instance, long long max_new_tasks, double horizon, bool selectable = false,
               std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max());
  ~SatSchedules();
  SatSchedules(const SatSchedules&) = delete;
  SatSchedules& operator=(const SatSchedules&) = delete;

  const std::string& why_not() const;  // "" when the encoding was built; else why not (off the grid, too large)
  // A schedule of `new_tasks` new tasks all done by `bound` with every kept waiting job (all when keep is null; a
  // keep list only without new tasks) by its deadline, or a proof that there is none, or kStopped at `until`, on a
  // stop request or after `max_conflicts` conflicts (0: no limit; then conflict_limit_hit()).
  SatOutcome probe(long long new_tasks, double bound, std::chrono::steady_clock::time_point until,
                   const std::vector<std::size_t>* keep = nullptr, std::uint64_t max_conflicts = 0);
  // The conflicts of every probe so far (CaDiCaL's learnt clauses: one a conflict), the solver's deterministic count
  // of its work; and whether the last probe stopped at its max_conflicts.
  std::uint64_t conflicts() const;
  bool conflict_limit_hit() const;
  // After kFound: the schedule (of with_waiting(instance, keep) when jobs were left out), left-shifted and validated.
  const Schedule& schedule() const;
  // After kInfeasible of a selectable solver: kept waiting jobs whose presence the refutation used (ascending).
  std::vector<std::size_t> core() const;
  std::string size() const;  // "N variables, M clauses" of the encoding
  std::string detail() const;  // after kStopped: why (time limit, a validator failure)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The exact methods `sat` of offers and deadline-feasibility. offers: one solver for every count, the counts
// sharing bounds (exact_offers_sharing); per count the deadline-order and the incumbents' schedules (valid offer
// lists, e.g. the policy's), a probe at the lower bound, then descent one grid step below the best schedule found.
// deadline-feasibility: one probe, then the core from the refutation, shrunk by deletion within the core budget.
ExactResult<OfferList> exact_offers_sat(const Instance& instance, const SolveOptions& options,
                                        const std::vector<OfferList>& incumbents = {});
ExactResult<FeasibilityAnswer> feasibility_sat(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::offers
