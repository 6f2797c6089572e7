// What every exact method returns: a status that is never an unknown dressed as an answer; and the limits of a solve.
// Our own. `optimal` = proven; `feasible` = best found, not proven (time, effort or size limit); `unknown` = nothing;
// `infeasible` = proven that no decision satisfies the hard constraints (no decision; `detail` says why).
#pragma once

#include "support/stack.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedcheck {

// Wall seconds since `start` on the steady clock: the time an exact method reports (ExactResult::seconds, phases).
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

enum class ExactStatus { kOptimal, kFeasible, kUnknown, kInfeasible };

inline const char* to_string(ExactStatus status) {
  switch (status) {
    case ExactStatus::kOptimal: return "optimal";
    case ExactStatus::kFeasible: return "feasible";
    case ExactStatus::kUnknown: return "unknown";
    case ExactStatus::kInfeasible: return "infeasible";
  }
  return "unknown";
}

// The effort budget (SolveOptions::effort) in each method's own deterministic steps, so that whether a decision is
// proven depends on the instance and the budget only, never on the machine, its load or how many runs share it.
// One effort unit is one node of the branch-and-bound searches; the other counters are converted so that a unit
// costs about the same time everywhere (measured on 40-job offers instances, one core: a node about 4 us, a Gecode
// node about 280 us, a CaDiCaL conflict about 125 us, Z3 about 12 rlimit units a us, a CBC node milliseconds):
//   branch and bound and sequence searches (solver/*_bnb, serial_search, knapsack (a DP state),
//     auction_bid_enumeration (a placement))                                 1 node (or step) = 1 unit
//   the offers machine search inside offers bnb                              kMachineNodesPerNode nodes = 1 unit
//   sla dp table cells, dbc dp subset pairs                                  kTableCellsPerUnit = 1 unit
//   gateway scan hold checks                                                 kHoldChecksPerUnit = 1 unit
//   queue-window bnb / sequences nodes, offers sequences nodes               k*NodesPerUnit below = 1 unit
//   Gecode (offers gecode; queue-window gecode: kWindowGecodeUnitsPerNode)   1 search node    = kGecodeUnitsPerNode
//   CaDiCaL (offers sat, and the solver's turns in offers auto)              1 conflict       = kSatUnitsPerConflict
//   CBC (offers mip; its linear relaxations are not counted)                 1 B&B node       = kCbcUnitsPerNode
//   Z3 (every *_z3 method)                                   kZ3RlimitPerUnit rlimit units    = 1 unit
// The budget bounds one exact solve of one question. A method that chooses or chains others (auto, sla exact,
// compose exact, an offer list's counts, a core's minimisation) gives each step the whole budget, except the core
// of an infeasibility proof, whose tests get a tenth of it each (as its time budget is a tenth of the time limit).
// Where a method schedules turns by time (offers auto), an effort budget makes them kEffortUnitsPerSecond a second.
// The wall-clock limit stays as a safety net: whichever comes first stops the method, and the detail says which.
inline constexpr std::uint64_t kGecodeUnitsPerNode = 50;
inline constexpr std::uint64_t kSatUnitsPerConflict = 30;
inline constexpr std::uint64_t kCbcUnitsPerNode = 2000;
inline constexpr std::uint64_t kZ3RlimitPerUnit = 50;
// Steps much cheaper than a node, so many a unit (bench/effort_units.py; docs/performance.md "Effort budgets"):
inline constexpr std::uint64_t kTableCellsPerUnit = 2000;     // sla-admission dp cells, dbc-cost-time dp subset pairs
inline constexpr std::uint64_t kHoldChecksPerUnit = 500;      // gateway-choice scan
inline constexpr std::uint64_t kWindowNodesPerUnit = 8;       // queue-window bnb
inline constexpr std::uint64_t kWindowSequenceNodesPerUnit = 16;  // queue-window sequences
inline constexpr std::uint64_t kOfferSequenceNodesPerUnit = 8;    // offers and deadline-feasibility sequences
inline constexpr std::uint64_t kWindowGecodeUnitsPerNode = 2;     // queue-window gecode (offers gecode: 50)
inline constexpr double kEffortUnitsPerSecond = 250'000;

struct SolveOptions {
  unsigned timeout_ms = 10'000;  // wall-clock limit of one exact method: building, solving and teardown
  std::uint64_t effort = 0;      // machine-independent budget in effort units (table above); 0 = none
};

// The budget of a search's or a suite's solve when none is given: what a tenth of its time limit is worth at
// kEffortUnitsPerSecond (10 s: 250,000 units). The budget, not the clock, then ends a solve on a machine up to ten
// times slower or busier than the one the units were measured on, so that every process, thread and shard proves
// the same instances. Experiments set their checks' budgets and time limits in their own settings.
inline constexpr unsigned kEffortSafetyFactor = 10;
inline std::uint64_t default_effort(unsigned timeout_ms) {
  const auto per_ms = static_cast<std::uint64_t>(kEffortUnitsPerSecond / 1000);
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(timeout_ms) * per_ms / kEffortSafetyFactor);
}

// A method's count of its own steps against an effort budget of `units` (0: none), `units_per_step` units a step
// (a step that costs less than a unit: steps_per_unit instead). Deterministic: it counts, never reads a clock.
class EffortMeter {
public:
  explicit EffortMeter(std::uint64_t units, std::uint64_t units_per_step = 1, std::uint64_t steps_per_unit = 1)
      : units_(units), limit_(units == 0 ? kNoLimit : scaled(units, steps_per_unit, units_per_step)) {}
  // Counts `steps` more; true once the count is past the budget (the method stops there).
  bool spend(std::uint64_t steps = 1) {
    used_ = steps > kNoLimit - used_ ? kNoLimit : used_ + steps;
    return spent();
  }
  bool spent() const { return limit_ != kNoLimit && used_ > limit_; }
  // The method's own limit in these steps stopped it (a solver's conflict limit set from left()): spent from here on.
  void exhaust() {
    if (limit_ != kNoLimit) used_ = limit_ + 1;
  }
  // What is left, as a limit to hand a solver for its next call: at least one step, 0 when there is no budget.
  std::uint64_t next_limit() const { return limit_ == kNoLimit ? 0 : std::max<std::uint64_t>(1, left()); }
  bool limited() const { return limit_ != kNoLimit; }
  std::uint64_t units() const { return units_; }  // the budget, in units (0: none)
  std::uint64_t used() const { return used_; }     // steps so far
  std::uint64_t left() const { return used_ >= limit_ ? 0 : limit_ - used_; }  // steps still allowed

private:
  static constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
  static std::uint64_t scaled(std::uint64_t units, std::uint64_t times, std::uint64_t over) {
    if (units > (kNoLimit - 1) / times) return kNoLimit - 1;
    return units * times / over;
  }
  std::uint64_t units_, limit_, used_ = 0;
};

// The budget of each test of an infeasibility core's minimisation: a tenth of the effort, at least one unit (0: none).
inline std::uint64_t core_effort(const SolveOptions& options) {
  return options.effort == 0 ? 0 : std::max<std::uint64_t>(1, options.effort / 10);
}

// The one wording of a time limit that stopped an exact method: "time limit of N ms reached", then `then` (what
// was found by then: "; best found 12", " after 40 nodes").
inline std::string time_limit_reached(unsigned timeout_ms, std::string_view then = {}) {
  return "time limit of " + std::to_string(timeout_ms) + " ms reached" + std::string(then);
}
// The one wording of an effort budget (SolveOptions::effort) that stopped an exact method: "effort budget of N
// reached", then `then`, as time_limit_reached.
inline std::string effort_budget_reached(std::uint64_t effort, std::string_view then = {}) {
  return "effort budget of " + std::to_string(effort) + " reached" + std::string(then);
}
// Whichever limit stopped a method: its effort budget when `effort` is spent, else its time limit.
inline std::string limit_reached(const EffortMeter& effort, unsigned timeout_ms, std::string_view then = {}) {
  return effort.spent() ? effort_budget_reached(effort.units(), then) : time_limit_reached(timeout_ms, then);
}
// A stopped search's wording: the stack's limit when the stack test fired inside `stack` (a recursive search that
// went as deep as its thread's stack allows, support/stack.hpp), else the effort budget or the time limit.
inline std::string limit_reached(const StackWatch& stack, const EffortMeter& effort, unsigned timeout_ms,
                                 std::string_view then = {}) {
  return stack.hit() ? stack_limit_reached(then) : limit_reached(effort, timeout_ms, then);
}

// One step of an exact method that chooses or chains other methods (e.g. a CP model when the times lie on its grid,
// Z3 otherwise): which method ran, why it was chosen, what it answered and how long it took. `solve --json` shows them.
struct MethodStep {
  std::string method;
  std::string why;
  std::string status;  // as to_string(ExactStatus)
  double seconds = 0;
};

template <class Decision>
struct ExactResult {
  ExactStatus status = ExactStatus::kUnknown;
  std::optional<Decision> decision;  // set when status is optimal or feasible
  double objective = 0;              // objective of `decision`, as the method computed it
  double seconds = 0;                // wall time of the solve, teardown included (measured by the registry)
  std::string detail;                // why not optimal (limit reached, size limit), or method notes
  // The time limit interrupted Z3 (z3support::Deadline) during this solve: the decision may come from a model Z3
  // never finished, so the registry keeps it only if the validator accepts it (else: unknown, not an internal error).
  bool interrupted = false;
  std::vector<MethodStep> chain = {};                             // the methods a chooser ran, in order (else empty)
  std::vector<std::pair<std::string, double>> phase_seconds = {};  // named parts of the solve (cost proof, tie-break)
  // `infeasible` only: the jobs / resources / bids the proof needs (an unsat core, by their ids), and whether that
  // set is minimal (no member can be left out) or only sufficient (minimising it has its own budget).
  std::vector<std::string> core = {};
  bool core_minimal = false;
};

}  // namespace schedcheck
