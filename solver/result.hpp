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
  unsigned timeout_ms = 10'000;  // per solve; Z3's "timeout" parameter
};

template <class Decision>
struct ExactResult {
  ExactStatus status = ExactStatus::kUnknown;
  std::optional<Decision> decision;  // set when status is optimal or feasible
  double objective = 0;              // objective of `decision`, as the method computed it
  double seconds = 0;                // wall time of the solve
  std::string detail;                // why not optimal (limit reached, size limit), or method notes
};

}  // namespace schedcheck
