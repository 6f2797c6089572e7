// What every exact method returns: a status that is never an unknown dressed as an answer.
// Our own. `optimal` = proven; `feasible` = best found, not proven (time or size limit); `unknown` = nothing;
// `infeasible` = proven that no decision satisfies the hard constraints (no decision; `detail` says why).
#pragma once

#include "support/stack.hpp"

#include <chrono>
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

struct SolveOptions {
  unsigned timeout_ms = 10'000;  // wall-clock limit of one exact method: building, solving and teardown
};

// The one wording of a time limit that stopped an exact method: "time limit of N ms reached", then `then` (what
// was found by then: "; best found 12", " after 40 nodes").
inline std::string time_limit_reached(unsigned timeout_ms, std::string_view then = {}) {
  return "time limit of " + std::to_string(timeout_ms) + " ms reached" + std::string(then);
}
// A stopped search's wording: the stack's limit when the stack test fired inside `stack` (a recursive search that
// went as deep as its thread's stack allows, support/stack.hpp), else the time limit.
inline std::string limit_reached(const StackWatch& stack, unsigned timeout_ms, std::string_view then = {}) {
  return stack.hit() ? stack_limit_reached(then) : time_limit_reached(timeout_ms, then);
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
