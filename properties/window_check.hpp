// The exact optimum of queue windows along a run (`simulate --check-windows K[:EVERY]`): at sampled scheduling
// passes, the first K waiting jobs are cut into a queue-window instance (simulation/window.hpp), the run's policy is
// played forward on it, and that decision is checked against the window's exact optimum by a DecisionProbe of the
// queue-window problem (every answer re-validated); the run keeps the policy's gap distribution and worst windows.
// Our own. Cost: one exact solve per sampled pass.
#pragma once

#include "model/job_metrics.hpp"
#include "model/queue_window.hpp"
#include "properties/decision_probe.hpp"
#include "properties/registry.hpp"
#include "simulation/observer.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace schedcheck::runcheck {

struct WindowSettings {
  std::size_t jobs = 8;                 // K: the first K waiting jobs
  std::size_t every = 1;                // every EVERY-th pass with at least two waiting jobs ...
  std::size_t offset = 0;               // ... from the (offset % EVERY)-th on (a sampling phase)
  window::Objective objective = window::Objective::kBoundedSlowdown;
  std::string exact;                    // exact method ("" = the problem's default)
  SolveOptions solve;                   // time limit of each window
  std::size_t keep_worst = 5;           // the worst windows kept (instance + report)
};

class WindowChecker : public sim::Observer {
public:
  WindowChecker(const TypedProblem<window::Instance, window::Schedule>& problem, WindowSettings settings);

  void on_pass(const sim::PassView& view) override;

  std::size_t cut() const { return probe_.counts().checked; }
  std::size_t proven() const { return probe_.counts().proven; }        // windows whose optimum was proven
  std::size_t undecided() const { return probe_.counts().undecided; }
  std::size_t at_optimum() const { return probe_.counts().at_optimum; } // proven windows where the policy's gap is 0
  Stats gaps() const { return probe_.gaps(); }                          // relative gaps of the proven windows
  double solve_seconds() const { return probe_.counts().solve_seconds; }
  const std::vector<ProbeCase<window::Instance>>& worst() const { return probe_.worst(); }  // largest gaps first
  const DecisionProbe<window::Instance, window::Schedule>& probe() const { return probe_; }
  const WindowSettings& settings() const { return settings_; }
  nlohmann::json to_json() const;
  // Writes the worst windows as queue-window corpus files into `dir`, re-checked with the run's policy; `found_by`
  // names the run (a command line). Returns the paths.
  std::vector<std::string> write_worst(const std::string& dir, const std::string& trace_stem,
                                       const std::string& found_by) const;

private:
  WindowSettings settings_;
  DecisionProbe<window::Instance, window::Schedule> probe_;
};

}  // namespace schedcheck::runcheck
