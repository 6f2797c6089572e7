// The exact optimum of queue windows along a run (`simulate --check-windows K[:EVERY]`): at sampled scheduling
// passes, the first K waiting jobs are cut into a queue-window instance (simulation/window.hpp), the run's policy is
// played forward on it, the window is solved exactly through the queue-window problem's check flow (every answer
// re-validated), and the policy's gap to the optimum is recorded. Our own. Cost: one exact solve per sampled pass.
#pragma once

#include "model/job_metrics.hpp"
#include "model/queue_window.hpp"
#include "properties/registry.hpp"
#include "simulation/observer.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace schedcheck::runcheck {

struct WindowSettings {
  std::size_t jobs = 8;                 // K: the first K waiting jobs
  std::size_t every = 1;                // every EVERY-th pass with at least two waiting jobs
  window::Objective objective = window::Objective::kBoundedSlowdown;
  std::string exact;                    // exact method ("" = the problem's default)
  SolveOptions solve;                   // time limit of each window
  std::size_t keep_worst = 5;           // the worst windows kept (instance + report)
};

struct WindowRecord {
  double time = 0;
  window::Instance instance;
  Report report;                        // the exact side and the properties; heuristic filled by the checker
};

class WindowChecker : public sim::Observer {
public:
  WindowChecker(const TypedProblem<window::Instance, window::Schedule>& problem, WindowSettings settings);

  void on_pass(const sim::PassView& view) override;

  std::size_t cut() const { return cut_; }
  std::size_t proven() const { return proven_; }        // windows whose optimum was proven
  std::size_t undecided() const { return undecided_; }
  std::size_t at_optimum() const { return at_optimum_; } // proven windows where the policy's gap is 0
  Stats gaps() const;                                    // relative gaps of the proven windows
  double solve_seconds() const { return solve_seconds_; }
  const std::vector<WindowRecord>& worst() const { return worst_; }  // largest gaps first
  const WindowSettings& settings() const { return settings_; }
  nlohmann::json to_json() const;

private:
  const TypedProblem<window::Instance, window::Schedule>& problem_;
  WindowSettings settings_;
  std::size_t eligible_ = 0, cut_ = 0, proven_ = 0, undecided_ = 0, at_optimum_ = 0;
  std::vector<double> gaps_;
  double solve_seconds_ = 0;
  std::vector<WindowRecord> worst_;
};

}  // namespace schedcheck::runcheck
