// A time-indexed integer program for a provider's schedules (the textbook model of Pritsker, Watters and Wolfe
// 1969), solved by CBC (Debian coinor-libcbc-dev): x[g][t] = how many copies of job g start at grid step t; each
// job is done by its deadline (the new tasks by a bound) and the processors in use at each step are at most those
// free. Our own formulation; the tasks of a bag are one integer count per start, so identical tasks are never told
// apart. Exact on the time grid (offers_exact.hpp time_grid): with grid data every feasible schedule left-shifts to
// one with starts on the grid. Limits: at most kMipMaxColumns start variables; the effort budget as CBC's node
// limit; a CBC solve notices an interrupt (SIGINT/SIGTERM) only when it ends (at its time limit at the latest).
#pragma once

#include "model/offers.hpp"
#include "solver/offers_exact.hpp"
#include "solver/result.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace schedcheck::offers {

inline constexpr long long kMipMaxColumns = 200'000;

enum class MipOutcome { kFound, kInfeasible, kStopped };
struct MipAnswer {
  MipOutcome outcome = MipOutcome::kStopped;
  std::optional<Schedule> schedule;  // kFound: a schedule that passed schedule_violation
  bool optimal = false;              // kFound when minimising: its new tasks' finish is the least under the bound
  std::string detail;                // kStopped: why (time limit, not applicable, CBC error)
  bool timed_out = false;            // kStopped by the time limit (not by an error or a limit of the program)
  double lower = 0;                  // minimising: proven that no schedule finishes the new tasks earlier
  bool effort_spent = false;         // CBC stopped at the node limit of the effort budget
};

// "" when the program applies to the instance with `new_tasks` new tasks due by `bound`, else why not (times off
// the grid, too many start variables).
std::string mip_not_applicable(const Instance& instance, long long new_tasks, double bound);

// A schedule of every waiting job by its deadline with `new_tasks` new tasks all done by `bound` (new_tasks = 0:
// plain deadline feasibility), or a proof that there is none, or kStopped at `until`. With `minimise_above` (a
// proven lower bound L on the finish), the schedule's new tasks finish as early as possible (optimal = proven),
// the finish counted from L (a finish below L counts as L). `effort`: the budget of the integer program's branch
// and bound (CBC's node limit, kCbcUnitsPerNode units a node; 0: none); its linear relaxations are not counted.
MipAnswer mip_schedule(const Instance& instance, long long new_tasks, double bound,
                       std::chrono::steady_clock::time_point until, std::optional<double> minimise_above = {},
                       std::uint64_t effort = 0);

// The exact methods `mip` of offers and deadline-feasibility. Per count: the deadline-order schedule, then one
// minimisation of the finish below it (from the lower bound). Feasibility:
// one probe, then the core by deletion within the core budget.
Completion earliest_completion_mip(const Instance& instance, long long tasks, double lower_bound,
                                   const SolveOptions& options);
ExactResult<FeasibilityAnswer> feasibility_mip(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::offers
