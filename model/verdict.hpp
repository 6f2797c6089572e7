// The answer of a problem's validator: is a decision feasible, why not, and its recomputed objective.
// Our own. Every solver answer and every heuristic decision is judged by one of these.
#pragma once

#include <string>

namespace schedcheck {

struct Verdict {
  bool feasible = true;
  std::string reason;    // first violation found, "" when feasible
  double objective = 0;  // recomputed from the decision, independently of whoever produced it
};

}  // namespace schedcheck
