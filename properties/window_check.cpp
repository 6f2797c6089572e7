// Exact optima of queue windows along a run (see window_check.hpp). Our own.
#include "properties/window_check.hpp"

#include "simulation/window.hpp"

#include <fmt/format.h>

namespace schedcheck::runcheck {

namespace {
ProbeSettings probe_settings(const WindowSettings& s) {
  if (s.jobs < 2) throw std::invalid_argument("--check-windows: K must be 2 or more");
  if (s.every < 1) throw std::invalid_argument("--check-windows: EVERY must be 1 or more");
  ProbeSettings p;
  p.exact = s.exact;
  p.solve = s.solve;
  p.every = s.every;
  p.offset = s.offset;
  p.keep_worst = s.keep_worst;
  return p;
}
}  // namespace

WindowChecker::WindowChecker(const TypedProblem<window::Instance, window::Schedule>& problem, WindowSettings settings)
    : settings_(std::move(settings)), probe_(problem, probe_settings(settings_)) {}

void WindowChecker::on_pass(const sim::PassView& view) {
  const sim::ClusterState& st = view.state;
  if (st.queue.size() < 2) return;  // one waiting job: every policy starts it at its earliest, which is optimal
  if (!probe_.sample()) return;
  window::Instance w = sim::cut_window(st, view.book.jobs, view.now, settings_.jobs, settings_.objective);
  w.name = fmt::format("{} at t={:g}", st.setup.name, view.now);
  const window::Schedule heuristic = sim::play_forward(w, st.setup.policy);
  const Report& report = probe_.check(view.now, st.setup.name, std::move(w), heuristic, st.setup.policy.name);
  if (report.heuristic.status != "feasible")
    throw InternalError(fmt::format("policy {} played forward on the window at t={:g} gives an invalid schedule: {}",
                                    st.setup.policy.name, view.now, report.heuristic.detail));
}

nlohmann::json WindowChecker::to_json() const {
  const Stats g = gaps();
  nlohmann::json worst = nlohmann::json::array();
  for (const auto& r : probe_.worst())
    worst.push_back({{"time", r.time},
                     {"gap", r.report.gap ? nlohmann::json(*r.report.gap) : nlohmann::json(nullptr)},
                     {"heuristic", r.report.heuristic.objective},
                     {"optimum", r.report.optimum.objective},
                     {"waiting", r.instance.waiting.size()},
                     {"running", r.instance.running.size()}});
  nlohmann::json out = {{"jobs", settings_.jobs},
          {"every", settings_.every},
          {"objective", window::to_string(settings_.objective)},
          {"exact", settings_.exact.empty() ? nlohmann::json(nullptr) : nlohmann::json(settings_.exact)},
          {"timeout_ms", settings_.solve.timeout_ms},
          {"effort", settings_.solve.effort},
          {"eligible_passes", probe_.counts().offered},
          {"windows", cut()},
          {"proven", proven()},
          {"undecided", undecided()},
          {"at_optimum", at_optimum()},
          {"gap", {{"mean", g.mean}, {"median", g.median}, {"p95", g.p95}, {"max", g.max}}},
          {"solve_seconds", solve_seconds()},
          {"worst", worst}};
  if (settings_.offset % settings_.every) out["phase"] = settings_.offset % settings_.every;  // K:EVERY:PHASE
  return out;
}

std::vector<std::string> WindowChecker::write_worst(const std::string& dir, const std::string& trace_stem,
                                                    const std::string& found_by) const {
  prepare_output_directory(dir, "--windows-out");
  return probe_.write_worst(
      dir,
      [&](const ProbeCase<window::Instance>& c, std::size_t) {
        return fmt::format("queue-window-{}-{}-t{:.0f}.json", c.report.heuristic.name, trace_stem, c.time);
      },
      [&](const ProbeCase<window::Instance>& c, std::size_t rank) {
        return fmt::format("{} (pass at t={:g}, worst window {} of {}; the run's policy played forward: gap {:.6f})",
                           found_by, c.time, rank, cut(), c.report.gap.value_or(0));
      });
}

}  // namespace schedcheck::runcheck
