// Exact optima of queue windows along a run (see window_check.hpp). Our own.
#include "properties/window_check.hpp"

#include "simulation/window.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace schedcheck::runcheck {

WindowChecker::WindowChecker(const TypedProblem<window::Instance, window::Schedule>& problem, WindowSettings settings)
    : problem_(problem), settings_(std::move(settings)) {
  if (settings_.jobs < 2) throw std::invalid_argument("--check-windows: K must be 2 or more");
  if (settings_.every < 1) throw std::invalid_argument("--check-windows: EVERY must be 1 or more");
}

void WindowChecker::on_pass(const sim::PassView& view) {
  const sim::ClusterState& st = view.state;
  if (st.queue.size() < 2) return;  // one waiting job: every policy starts it at its earliest, which is optimal
  if (eligible_++ % settings_.every != 0) return;
  ++cut_;
  window::Instance w = sim::cut_window(st, view.simulation.jobs(), view.now, settings_.jobs, settings_.objective);
  w.name = fmt::format("{} at t={:g}", st.setup.name, view.now);
  const window::Schedule heuristic = sim::play_forward(w, st.setup.policy);

  CheckRequest request;
  request.exact = settings_.exact;
  request.solve = settings_.solve;
  Report report = problem_.check_instance(w, request);  // the exact side, re-validated by the check flow
  const Verdict verdict = problem_.spec().validate(w, heuristic);
  if (!verdict.feasible)
    throw InternalError(fmt::format("policy {} played forward on the window at t={:g} gives an invalid schedule: {}",
                                    st.setup.policy.name, view.now, verdict.reason));
  report.heuristic.name = st.setup.policy.name;
  report.heuristic.ran = true;
  report.heuristic.status = "feasible";
  report.heuristic.objective = verdict.objective;
  report.heuristic.decision = problem_.spec().describe(w, heuristic);
  solve_seconds_ += report.optimum.seconds;
  if (report.optimum.status != "optimal") {
    ++undecided_;
    return;
  }
  ++proven_;
  const double gap = relative_gap(Sense::kMinimise, verdict.objective, report.optimum.objective);
  report.gap = gap;
  gaps_.push_back(gap);
  if (gap <= kObjectiveSlack) ++at_optimum_;
  if (gap <= kObjectiveSlack) return;
  // Keep the worst windows, largest gap first (the earlier window on ties).
  auto position = std::find_if(worst_.begin(), worst_.end(), [&](const WindowRecord& r) { return *r.report.gap < gap; });
  if (static_cast<std::size_t>(position - worst_.begin()) >= settings_.keep_worst) return;
  worst_.insert(position, WindowRecord{view.now, std::move(w), std::move(report)});
  if (worst_.size() > settings_.keep_worst) worst_.pop_back();
}

Stats WindowChecker::gaps() const { return statistics(gaps_); }

nlohmann::json WindowChecker::to_json() const {
  const Stats g = gaps();
  nlohmann::json worst = nlohmann::json::array();
  for (const auto& r : worst_)
    worst.push_back({{"time", r.time},
                     {"gap", *r.report.gap},
                     {"heuristic", r.report.heuristic.objective},
                     {"optimum", r.report.optimum.objective},
                     {"waiting", r.instance.waiting.size()},
                     {"running", r.instance.running.size()}});
  return {{"jobs", settings_.jobs},
          {"every", settings_.every},
          {"objective", window::to_string(settings_.objective)},
          {"exact", settings_.exact.empty() ? nlohmann::json(nullptr) : nlohmann::json(settings_.exact)},
          {"timeout_ms", settings_.solve.timeout_ms},
          {"eligible_passes", eligible_},
          {"windows", cut_},
          {"proven", proven_},
          {"undecided", undecided_},
          {"at_optimum", at_optimum_},
          {"gap", {{"mean", g.mean}, {"median", g.median}, {"p95", g.p95}, {"max", g.max}}},
          {"solve_seconds", solve_seconds_},
          {"worst", worst}};
}

}  // namespace schedcheck::runcheck
