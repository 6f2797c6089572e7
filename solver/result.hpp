// What every exact method returns: a status that is never an unknown dressed as an answer.
// Our own. `optimal` = proven; `feasible` = best found, not proven (time or size limit); `unknown` = nothing;
// `infeasible` = proven that no decision satisfies the hard constraints (no decision; `detail` says why).
#pragma once

#include <optional>
#include <string>

namespace schedcheck {

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
};

}  // namespace schedcheck
