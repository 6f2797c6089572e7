// `schedcheck gantt` (see gantt.hpp): reads the options and the rows, and draws them with report/gantt.hpp; a
// queue-window instance is drawn as a policy or the exact method schedules it. Our own.
#include "cli/gantt.hpp"

#include "cli/trace_options.hpp"
#include "model/input.hpp"
#include "model/jobs_csv.hpp"
#include "model/queue_window.hpp"
#include "reference/cluster_policies.hpp"
#include "report/gantt.hpp"
#include "report/plot.hpp"
#include "simulation/window.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace schedcheck::cli {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kDefaultMaxJobs = 2000;
constexpr int kExitGnuplotFailed = 4;

struct GanttArgs {
  std::string jobs_csv;
  std::string window;       // a queue-window instance instead of a CSV
  std::string side = "optimum";
  std::string out;
  double from = 0, to = 0;  // read only when given (the CLI11 options' count())
  int processors = 0;       // 0: the highest processor used in the window, plus one
  std::string clusters;     // P1,P2,...: the sizes of a run's clusters (its cluster column)
  std::string title;
  std::size_t max_jobs = kDefaultMaxJobs;
};

std::vector<std::string> sides() {
  std::vector<std::string> out = {"optimum"};
  for (const auto& name : cluster::cluster_policy_names()) out.push_back(name);
  return out;
}

std::string counted(std::size_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

int draw(const std::vector<jobs_csv::ScheduleRow>& rows, const GanttArgs& a, bool has_from, bool has_to,
         const std::string& source) {
  report::GanttOptions options;
  if (has_from) options.from = a.from;
  if (has_to) options.to = a.to;
  options.processors = a.processors;
  if (!a.clusters.empty()) options.clusters = cluster_sizes(a.clusters);
  options.title = a.title;
  options.max_jobs = a.max_jobs;
  options.source = source;
  report::GanttChart chart;
  const std::string failed = report::draw_gantt(rows, options, a.out, &chart);
  if (!failed.empty()) {
    std::cerr << "schedcheck: " << failed << "\n";
    return kExitGnuplotFailed;
  }
  std::cout << fmt::format("gantt     wrote {} ({}, {}x{}): {} from t = {:g} to {:g} s on {}{}\n", printable_text(a.out),
                           report::is_svg(a.out) ? "SVG" : "PNG", chart.width, chart.height, counted(chart.jobs, "job"),
                           chart.from, chart.to,
                           counted(static_cast<std::size_t>(chart.processors), "processor") +
                               (chart.clusters > 0 ? fmt::format(" in {} (one band each)", counted(static_cast<std::size_t>(chart.clusters), "cluster"))
                                                   : std::string()),
                           chart.lanes > 0 ? fmt::format(", {} of jobs without processors",
                                                         counted(static_cast<std::size_t>(chart.lanes), "lane"))
                                           : std::string());
  return 0;
}

// Usage first: the format follows the extension; --from and --to are finite.
void check_usage(const GanttArgs& a, bool has_from, bool has_to) {
  report::is_svg(a.out);
  if (has_from && !std::isfinite(a.from)) throw InputError(fmt::format("--from: expected a finite time, got {}", a.from));
  if (has_to && !std::isfinite(a.to)) throw InputError(fmt::format("--to: expected a finite time, got {}", a.to));
  if (!a.clusters.empty() && a.processors > 0)
    throw InputError("--clusters: give the cluster sizes or --processors, not both");
}

int run_gantt(const GanttArgs& a, bool has_from, bool has_to) {
  check_usage(a, has_from, has_to);
  return draw(jobs_csv::read_schedule(a.jobs_csv, jobs_csv::Columns{}, false), a, has_from, has_to, a.jobs_csv);
}

// --window: the window's schedule (exact, or a policy played forward), drawn like a run.
int run_window_gantt(const GanttArgs& a, bool has_from, bool has_to, const Registry& registry) {
  check_usage(a, has_from, has_to);
  const window::Instance instance = window::read_instance(read_json_file(a.window), a.window);
  window::Schedule schedule;
  std::string side = a.side;
  if (a.side == "optimum") {
    const auto& problem = registry.typed<window::Instance, window::Schedule>("queue-window");
    const auto exact = problem.solve(instance, "", SolveOptions{});  // re-validated by the registry
    if (!exact.decision)
      throw InputError(fmt::format("{}: --side optimum: no optimum ({}); draw a policy's schedule with --side", a.window,
                                   exact.detail));
    schedule = *exact.decision;
    side = fmt::format("optimum ({}, objective {:g})", to_string(exact.status), exact.objective);
  } else {
    schedule = sim::play_forward(instance, cluster::cluster_policy(a.side));
    side = fmt::format("{} played forward (objective {:g})", a.side, window::objective(instance, schedule));
  }
  GanttArgs b = a;
  if (b.title.empty())
    b.title = fmt::format("{}: {} ({} objective; running jobs first)", fs::path(a.window).filename().string(), side,
                          window::to_string(instance.objective));
  if (b.processors == 0) b.processors = instance.processors;
  return draw(jobs_csv::schedule_rows(sim::window_rows(instance, schedule)), b, has_from, has_to, a.window);
}

}  // namespace

std::function<int()> add_gantt_command(CLI::App& app, const Registry& registry) {
  auto args = std::make_shared<GanttArgs>();
  auto* gantt = app.add_subcommand(
      "gantt", "draw a Gantt chart (PNG or SVG, with gnuplot) of a run's per-job CSV (simulate --jobs-csv, or Batsim's "
               "out_jobs.csv): one rectangle per job and run of consecutive processors");
  gantt->add_option("--jobs-csv", args->jobs_csv, "the run's per-job CSV (Batsim's out_jobs.csv columns)");
  gantt->add_option("--out", args->out, "the chart: CHART.png or CHART.svg (the format follows the extension)")->required();
  auto* from = gantt->add_option("--from", args->from, "start of the time window (default: the first start)");
  auto* to = gantt->add_option("--to", args->to, "end of the time window (default: the last finish)");
  gantt->add_option("--processors", args->processors,
                    "processors 0..P-1 on the axis (default: up to the highest allocated in the window)")
      ->check(CLI::Range(1, kMaxTrackedProcessors));
  gantt->add_option("--clusters", args->clusters,
                    "P1,P2,...: the run's clusters (its cluster column): each drawn in a band of its size (default: "
                    "bands up to the highest processor allocated in each)");
  gantt->add_option("--title", args->title, "chart title (default: the file, job count and window)");
  gantt->add_option("--max-jobs", args->max_jobs, "refuse a window with more jobs than this")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  auto* csv = gantt->get_option("--jobs-csv");
  auto* window = gantt->add_option("--window", args->window,
                                   "draw a queue-window instance instead (JSON, docs/formats.md): its running jobs and "
                                   "its waiting jobs as --side schedules them");
  gantt->add_option("--side", args->side,
                    "with --window: `optimum` (the exact schedule of the queue-window problem's default method, "
                    "re-validated) or a policy played forward (" + choices(cluster::cluster_policy_names()) + ")")
      ->capture_default_str()
      ->check(CLI::IsMember(sides()));
  csv->excludes(window);
  return [=, &registry]() -> int {
    if (!gantt->parsed()) return -1;
    if (args->window.empty()) {
      if (args->jobs_csv.empty()) throw InputError("gantt: give --jobs-csv FILE (a run) or --window FILE (a queue window)");
      return run_gantt(*args, from->count() > 0, to->count() > 0);
    }
    return run_window_gantt(*args, from->count() > 0, to->count() > 0, registry);
  };
}

}  // namespace schedcheck::cli
