// `schedcheck experiment backfilling`: FCFS, EASY (1 and 4 pivots) and conservative backfilling over every trace,
// under requested and exact estimates, in the count and processors models, every decision checked against the
// policies' invariants and sampled queue windows solved exactly. Source: the comparisons of Mu'alem & Feitelson
// (IEEE TPDS 12(6), 2001) and Lifka (EASY, 1995), on the shared traces; our own experiment design (docs/experiments.md).
// Limits: a window's gap is the policy restarted on the window against the window's optimum (docs/simulation.md).
#include "experiments/backfilling/backfilling.hpp"

#include "experiments/runner.hpp"
#include "model/input.hpp"
#include "model/queue_window.hpp"
#include "model/scenario.hpp"
#include "reference/router_policies.hpp"
#include "properties/corpus.hpp"
#include "properties/trace_run.hpp"
#include "reference/cluster_policies.hpp"
#include "report/charts.hpp"
#include "report/gantt.hpp"
#include "simulation/window.hpp"
#include "support/files.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>

#ifndef SCHEDCHECK_DEFAULT_SCENARIO
#define SCHEDCHECK_DEFAULT_SCENARIO ""
#endif

namespace schedcheck::experiments {

// Its own namespace, as every experiment's: its names stay apart from the others' (unity builds join files).
namespace backfilling_run {
namespace {

namespace fs = std::filesystem;

// The sweep, as examples/scenarios/backfilling.json gives it (a scenario's "sweep" block may change each part):
// FCFS, EASY with 1 and 4 pivots (MAUI's reservation depth, paper 002), conservative; both estimate readings; both
// resource models; windows of 8 jobs, about 1000 sampled a run, each solved within 2 s; --quick reads the first 2000
// records of each trace and samples about 25 windows a run.
struct Variant {
  std::string policy;
  std::size_t pivots = 1;
};

struct Settings {
  std::vector<Variant> policies = {{"fcfs", 1}, {"easy", 1}, {"easy", 4}, {"conservative", 1}};
  std::vector<std::string> estimates = {"requested", "runtime"};
  std::vector<std::string> models = {"count", "processors"};
  std::size_t window_jobs = 8;
  std::size_t windows_per_run = 1000, windows_per_quick_run = 25;
  unsigned window_timeout_ms = 20'000;  // a safety net: ten times what the budget takes
  std::uint64_t window_effort = 500'000;  // SolveOptions::effort of each window (0: none): about 2 s of work
  std::size_t quick_records = 2000;
};

// The policy of a variant, its pivots set where it declares them.
cluster::ClusterPolicy variant_policy(const Variant& v) { return cluster::cluster_policy(v.policy, v.pivots); }

// "easy-4" for EASY with 4 pivots; the policy's name otherwise.
std::string variant_name(const Variant& v) {
  return cluster::param(variant_policy(v), "pivots").value_or(1) == 1 ? v.policy : fmt::format("{}-{}", v.policy, cluster::value_text(v.pivots));
}

// The sweep block of a scenario file: every key optional, the defaults above.
Settings read_sweep(const nlohmann::json& sweep, const std::string& file) {
  Settings s;
  if (sweep.is_null()) return s;
  const Field root(sweep, file, "sweep");
  root.only_keys({"policies", "estimates", "models", "windows", "quick"});
  if (root.has("policies")) {
    s.policies.clear();
    for (const Field& item : root.at("policies").items()) {
      item.only_keys({"name", "pivots"});
      Variant v{item.at("name").as_string(), 1};
      const auto names = cluster::cluster_policy_names();
      if (std::find(names.begin(), names.end(), v.policy) == names.end()) item.at("name").fail("a cluster policy (schedcheck list)");
      if (item.has("pivots")) {
        const auto declared = cluster::policy_params(v.policy);
        const Field pivots = item.at("pivots");
        try {
          v.pivots = cluster::read_json_value(cluster::spec_of(declared, "pivots", v.policy), pivots.raw());
        } catch (const std::invalid_argument& e) {
          throw InputError(fmt::format("{}: {}: {}", pivots.file(), pivots.path(), e.what()));
        }
      }
      s.policies.push_back(v);
    }
    if (s.policies.empty()) root.at("policies").fail("at least one policy");
    for (std::size_t i = 0; i < s.policies.size(); ++i)
      for (std::size_t k = 0; k < i; ++k)
        if (variant_name(s.policies[i]) == variant_name(s.policies[k]))
          root.at("policies").items()[i].fail("a policy (and pivots) not listed before");
  }
  if (root.has("estimates")) s.estimates = read_names(root.at("estimates"), {"requested", "runtime"}, "estimate source");
  if (root.has("models")) s.models = read_names(root.at("models"), {"count", "processors"}, "resource model");
  if (root.has("windows")) {
    const Field w = root.at("windows");
    w.only_keys({"jobs", "per_run", "timeout_ms", "effort"});
    if (w.has("jobs")) s.window_jobs = static_cast<std::size_t>(w.at("jobs").as_int(2, 16));
    if (w.has("per_run")) s.windows_per_run = static_cast<std::size_t>(w.at("per_run").as_int(1, 100'000'000));
    if (w.has("timeout_ms")) s.window_timeout_ms = static_cast<unsigned>(w.at("timeout_ms").as_int(1, 86'400'000));
    if (w.has("effort")) s.window_effort = static_cast<std::uint64_t>(w.at("effort").as_int(0, 1LL << 62));
  }
  if (root.has("quick")) {
    const Field q = root.at("quick");
    q.only_keys({"records", "windows_per_run"});
    if (q.has("records")) s.quick_records = static_cast<std::size_t>(q.at("records").as_int(1, 1'000'000'000));
    if (q.has("windows_per_run")) s.windows_per_quick_run = static_cast<std::size_t>(q.at("windows_per_run").as_int(1, 100'000'000));
  }
  return s;
}

struct Trace {
  std::string path;
  std::string name;                          // the CSV's trace column (default: the file name)
  workload::ReadOptions read;                // how it is read (processors, processor field, records)
  workload::Workload requested, runtime;     // the two readings of its estimates
};


// FILE, or FILE:P for a trace whose header gives no machine size.
std::pair<std::string, std::optional<long long>> trace_argument(const std::string& text) {
  const auto colon = text.rfind(':');
  std::error_code error;
  if (colon != std::string::npos && colon + 1 < text.size() && !fs::exists(text, error) &&
      text.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    long long p = 0;
    const auto [end, ec] = std::from_chars(text.data() + colon + 1, text.data() + text.size(), p);
    if (ec != std::errc() || p < 1 || p > workload::kMaxProcessors)
      throw InputError(fmt::format("--trace {}: expected FILE or FILE:P with P from 1 to {}", text, workload::kMaxProcessors));
    return {text.substr(0, colon), p};
  }
  return {text, std::nullopt};
}

class Backfilling final : public Experiment {
public:
  Backfilling(const ExperimentOptions& options, const Registry& registry, const Described& info)
      : options_(options), registry_(registry), info_(info) {
    seeds_ = options.seeds == 0 ? 1 : options.seeds;
    // Where the traces come from: a scenario file (--scenario, or examples/scenarios/backfilling.json by default), or
    // --traces DIR and --trace FILE[:P] (either or both).
    std::vector<std::pair<scenario::WorkloadSpec, bool>> inputs;  // a workload, and whether it came from a folder
    if (!options.scenario.empty() && (!options.traces.empty() || !options.traces_dir.empty()))
      throw InputError("backfilling: give the traces one way: --scenario FILE, or --trace / --traces");
    std::string scenario_file = options.scenario;
    if (scenario_file.empty() && options.traces.empty() && options.traces_dir.empty()) {
      scenario_file = SCHEDCHECK_DEFAULT_SCENARIO;
      std::error_code error;
      if (scenario_file.empty() || !fs::exists(scenario_file, error))
        throw InputError("backfilling: no traces: give --scenario FILE, --traces DIR or --trace FILE (repeatable)");
    }
    if (!scenario_file.empty()) {
      const scenario::Scenario sc =
          scenario::read_file(scenario_file, {cluster::cluster_policy_names(), router::router_policy_names(), cluster::policy_params});
      if (sc.policy || sc.model || !sc.clusters.empty() || sc.router)
        throw InputError(fmt::format("{}: the backfilling experiment sweeps policies and models on one cluster a trace: "
                                     "give them in \"sweep\" (no \"policy\", \"model\", \"clusters\" or \"router\")",
                                     scenario_file));
      for (std::size_t k = 0; k < sc.workloads.size(); ++k) {
        if (sc.workloads[k].estimates_given)
          throw InputError(fmt::format("{}: workloads[{}].estimates: the backfilling experiment sweeps estimates "
                                       "(sweep.estimates); leave it out", scenario_file, k));
        inputs.emplace_back(sc.workloads[k], false);
      }
      settings_ = read_sweep(sc.sweep, scenario_file);
      notes_.push_back("inputs: the scenario " + scenario_file);
    } else {
      if (!options.traces_dir.empty()) {
        const std::string& dir = options.traces_dir;
        std::error_code error;
        if (!fs::is_directory(dir, error))
          throw InputError(fmt::format("{}: --traces: not a folder{}", dir, error ? " (" + error.message() + ")" : ""));
        std::vector<std::string> found;
        for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
          const std::string name = it->path().filename().string();
          const bool swf = name.size() > 4 && (name.ends_with(".swf") || name.ends_with(".swf.gz"));
          std::error_code kind;
          if (it->is_regular_file(kind) && swf) found.push_back(it->path().lexically_normal().string());
        }
        if (error) throw InputError(fmt::format("{}: --traces: cannot list the folder ({})", dir, error.message()));
        std::sort(found.begin(), found.end());
        if (found.empty()) throw InputError(fmt::format("{}: --traces: no .swf or .swf.gz file in the folder", dir));
        for (const auto& f : found) {
          scenario::WorkloadSpec w;
          w.trace = f;
          w.name = fs::path(f).filename().string();
          inputs.emplace_back(std::move(w), true);
        }
      }
      for (const auto& t : options.traces) {
        const auto [path, processors] = trace_argument(t);
        scenario::WorkloadSpec w;
        w.trace = path;
        w.name = fs::path(path).filename().string();
        w.read.processors = processors;
        inputs.emplace_back(std::move(w), false);
      }
      notes_.push_back("inputs: " + std::string(options.traces_dir.empty() ? "" : "the folder " + options.traces_dir) +
                       (options.traces_dir.empty() || options.traces.empty() ? "" : " and ") +
                       (options.traces.empty() ? "" : std::to_string(options.traces.size()) + " --trace"));
    }
    for (auto& [spec, from_folder] : inputs) {
      workload::ReadOptions read = spec.read;
      if (options.quick) read.max_records = read.max_records ? std::min(read.max_records, settings_.quick_records)
                                                             : settings_.quick_records;
      Trace t;
      t.path = spec.trace;
      t.name = spec.name;
      t.read = read;
      try {
        t.requested = workload::load(t.path, read);
      } catch (const workload::NoMachineSize&) {
        // A trace of a folder without a machine size in its header is left out, and said so; a trace named one by
        // one is an error.
        if (!from_folder) throw;
        notes_.push_back(fmt::format("{}: left out: its header gives no machine size (name it with --trace {}:P)",
                                     t.name, t.path));
        continue;
      }
      t.runtime = workload::with_exact_estimates(t.requested);  // the same as reading it again with runtime estimates
      if (t.requested.jobs.empty()) {
        notes_.push_back(fmt::format("{}: left out: no job to simulate", t.name));
        continue;
      }
      for (const auto& other : traces_)
        if (other.name == t.name) throw InputError(fmt::format("{}: two traces named {} (name them apart)", t.path, t.name));
      traces_.push_back(std::move(t));
    }
    if (traces_.empty()) throw InputError("backfilling: none of the traces has a job to simulate");
    if (options.quick)
      notes_.push_back(fmt::format("--quick: the first {} records of each trace; about {} sampled windows a run",
                                   settings_.quick_records, settings_.windows_per_quick_run));
  }

  const Described& info() const override { return info_; }
  std::vector<std::string> notes() const override { return notes_; }

  std::vector<Point> points() const override {
    std::vector<Point> points;
    for (std::size_t t = 0; t < traces_.size(); ++t)
      for (const std::string& estimates : settings_.estimates)
        for (const std::string& model : settings_.models)
          for (const Variant& v : settings_.policies)
            for (std::uint64_t seed = 1; seed <= seeds_; ++seed) {
              Point p;
              p.parameters = {{"trace", traces_[t].name}, {"policy", variant_name(v)},
                              {"pivots", cluster::value_text(v.pivots)}, {"estimates", estimates}, {"model", model}};
              p.seed = seed;
              p.input = t;
              p.weight = static_cast<double>(traces_[t].requested.jobs.size()) * (model == "processors" ? 2.0 : 1.0);
              const workload::Workload& w = estimates == "runtime" ? traces_[t].runtime : traces_[t].requested;
              const workload::ReadOptions& read = traces_[t].read;
              const std::size_t every = window_every(w);
              p.reproduce = fmt::format(
                  "schedcheck simulate --trace {}{}{} --policy {}{} --estimates {} --model {} --check --check-windows {}:{}{}",
                  shell_quoted(traces_[t].path), read.processors ? fmt::format(" --processors {}", *read.processors) : "",
                  read.processor_field == workload::ProcessorField::kRequested ? " --processor-field requested" : "",
                  v.policy, cluster::param_flags(variant_policy(v)),
                  estimates, model, settings_.window_jobs, every, seed > 1 ? fmt::format(":{}", seed - 1) : "");
              points.push_back(std::move(p));
            }
    return points;
  }

  RunRecord run(const Point& point) const override {
    const Trace& trace = traces_[point.input];
    const bool exact = point.parameter("estimates") == "runtime";
    const workload::Workload& w = exact ? trace.runtime : trace.requested;
    const Variant& variant = variant_of(point);
    runcheck::RunRequest request;
    request.load = [&](long long) { return w; };
    request.trace = trace.path;
    request.estimates = point.parameter("estimates");
    request.policy = variant.policy;
    request.params.push_back({"sweep.policies.pivots", "pivots=" + cluster::value_text(variant.pivots), true});
    request.model = point.parameter("model");
    request.run.check = true;
    runcheck::WindowSettings windows;
    windows.jobs = settings_.window_jobs;
    windows.every = window_every(w);
    windows.offset = static_cast<std::size_t>(point.seed - 1);
    windows.objective = window::Objective::kBoundedSlowdown;
    windows.solve.timeout_ms = settings_.window_timeout_ms;
    windows.solve.effort = settings_.window_effort;
    windows.keep_worst = 1;
    request.run.windows = windows;
    request.run.record_allocations = false;
    const runcheck::RunPlan plan = runcheck::plan_run(request);
    const runcheck::TraceRun r = runcheck::run_trace(plan.workload, plan.spec, registry_);

    RunRecord record;
    record.interrupted = r.result.interrupted;
    record.wall_seconds = r.result.wall_seconds;
    const sim::RunSummary& s = r.summary;
    const auto& probe = r.windows->probe();
    const Stats gaps = probe.gaps();
    record.metrics = {{"jobs", static_cast<double>(s.simulated)},
                      {"finished", static_cast<double>(s.finished)},
                      {"killed", static_cast<double>(s.killed)},
                      {"mean_wait", s.wait.mean},
                      {"p95_wait", s.wait.p95},
                      {"mean_bounded_slowdown", s.slowdown.mean},
                      {"p95_bounded_slowdown", s.slowdown.p95},
                      {"utilisation", s.utilisation},
                      {"makespan", s.makespan},
                      {"backfilled", static_cast<double>(s.backfilled)},
                      {"decisions_checked", static_cast<double>(r.invariants->decisions())},
                      {"violations", static_cast<double>(r.invariants->total())},
                      {"windows", static_cast<double>(probe.counts().checked)},
                      {"windows_proven", static_cast<double>(probe.counts().proven)},
                      {"windows_at_optimum", static_cast<double>(probe.counts().at_optimum)},
                      {"window_gap_mean", gaps.mean},
                      {"window_gap_median", gaps.median},
                      {"window_gap_p95", gaps.p95},
                      {"window_gap_max", gaps.max}};
    record.decisions = r.invariants->decisions();
    record.violations = r.invariants->counts();
    record.checks = probe.to_json();
    record.data["gaps"] = probe.gap_values();
    if (!probe.worst().empty() && probe.worst().front().report.gap) {
      const auto& worst = probe.worst().front();
      record.data["worst"] = {{"time", worst.time},
                              {"gap", *worst.report.gap},
                              {"policy", worst.report.heuristic.objective},
                              {"optimum", worst.report.optimum.objective},
                              {"instance", window::write_instance(worst.instance)}};
    }
    return record;
  }

  std::vector<Figure> figures(const std::vector<Point>& points,
                              const std::vector<std::optional<RunRecord>>& records) const override {
    std::vector<Figure> out;
    // Mean bounded slowdown per trace and policy (bars, the standard deviation over seeds), one figure for each
    // estimate reading and model worth a look.
    std::vector<std::pair<std::string, std::string>> views;
    for (const auto& [e, m] : {std::pair<std::string, std::string>{"requested", "count"}, {"runtime", "count"},
                               {"requested", "processors"}})
      if (std::count(settings_.estimates.begin(), settings_.estimates.end(), e) &&
          std::count(settings_.models.begin(), settings_.models.end(), m))
        views.emplace_back(e, m);
    if (views.empty()) views.emplace_back(settings_.estimates.front(), settings_.models.front());
    for (const auto& [estimates, model] : views) {
      Figure f;
      f.stem = fmt::format("slowdown-{}-{}", estimates == "runtime" ? "exact" : "requested", model);
      f.caption = fmt::format("mean bounded slowdown (bound 10 s) per trace and policy, {} estimates, {} model",
                              estimates == "runtime" ? "exact (run time)" : "requested", model);
      f.header = {"trace", "policy", "estimates", "model", "runs", "mean_bounded_slowdown", "stddev_over_seeds",
                  "mean_wait", "p95_wait", "utilisation", "killed"};
      report::BarChart chart;
      chart.title = f.caption;
      chart.x_label = "trace";
      chart.y_label = "mean bounded slowdown (log scale)";
      chart.log_y = true;
      for (const auto& name : series_names()) chart.series.push_back({name, {}, {}});
      for (const Trace& t : traces_) {
        chart.categories.push_back(t.name);
        for (std::size_t s = 0; s < chart.series.size(); ++s) {
          std::vector<double> bsld, wait, p95, util, killed;
          for (std::size_t i = 0; i < points.size(); ++i) {
            const Point& p = points[i];
            if (!records[i] || p.parameter("trace") != t.name || p.parameter("estimates") != estimates ||
                p.parameter("model") != model || p.parameter("policy") != chart.series[s].name)
              continue;
            bsld.push_back(records[i]->metric("mean_bounded_slowdown"));
            wait.push_back(records[i]->metric("mean_wait"));
            p95.push_back(records[i]->metric("p95_wait"));
            util.push_back(records[i]->metric("utilisation"));
            killed.push_back(records[i]->metric("killed"));
          }
          const Stats b = statistics(bsld);
          const double sd = stddev(bsld);
          chart.series[s].values.push_back(bsld.empty() ? NAN : b.mean);
          chart.series[s].errors.push_back(sd);
          if (bsld.empty()) continue;
          f.rows.push_back({t.name, chart.series[s].name, estimates, model, std::to_string(bsld.size()), csv_number(b.mean), csv_number(sd),
                            csv_number(statistics(wait).mean), csv_number(statistics(p95).mean), csv_number(statistics(util).mean),
                            csv_number(statistics(killed).mean)});
        }
      }
      if (seeds_ == 1)
        for (auto& series : chart.series) series.errors.clear();
      f.plot = report::bar_plot(chart);
      out.push_back(std::move(f));
    }
    // The window-gap distribution per policy (CDF), over every trace, estimate reading and model.
    {
      Figure f;
      f.stem = "window-gaps";
      f.caption = fmt::format("gap of the policy restarted on a queue window of {} jobs to the window's exact optimum "
                              "(bounded-slowdown sum), pooled over every run of each policy",
                              settings_.window_jobs);
      f.header = {"policy", "windows_proven", "at_optimum", "share_at_optimum", "gap_mean", "gap_median", "gap_p95",
                  "gap_max"};
      report::CdfChart chart;
      chart.title = "queue-window gap to the optimum, per policy (x: relative gap, log scale; the legend counts the gaps of 0, which a log axis cannot show)";
      chart.x_label = "relative gap (policy - optimum) / optimum";
      chart.log_x = true;
      for (const auto& name : series_names()) {
        std::vector<double> gaps;
        for (std::size_t i = 0; i < points.size(); ++i)
          if (records[i] && points[i].parameter("policy") == name && records[i]->data.contains("gaps"))
            for (const auto& g : records[i]->data["gaps"]) gaps.push_back(g.get<double>());
        const std::size_t at = static_cast<std::size_t>(std::count_if(gaps.begin(), gaps.end(), [](double g) { return g <= 1e-9; }));
        const Stats g = statistics(gaps);
        f.rows.push_back({name, std::to_string(gaps.size()), std::to_string(at),
                          csv_number(gaps.empty() ? 0.0 : static_cast<double>(at) / static_cast<double>(gaps.size())), csv_number(g.mean),
                          csv_number(g.median), csv_number(g.p95), csv_number(g.max)});
        chart.series.push_back({name, std::move(gaps)});
      }
      f.plot = report::cdf_plot(chart);
      out.push_back(std::move(f));
    }
    // Every run in one table (no plot).
    {
      Figure f;
      f.stem = "runs-table";
      f.caption = "every run: its parameters and main metrics, one row a run";
      f.header = {"trace", "policy", "pivots", "estimates", "model", "seed", "jobs", "mean_wait", "p95_wait",
                  "mean_bounded_slowdown", "utilisation", "killed", "decisions_checked", "violations", "windows",
                  "windows_proven", "windows_at_optimum", "window_gap_mean", "window_gap_p95", "reproduce"};
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (!records[i]) continue;
        const auto& p = points[i];
        const auto& r = *records[i];
        std::vector<std::string> row = {p.parameter("trace"), p.parameter("policy"), p.parameter("pivots"),
                                        p.parameter("estimates"), p.parameter("model"), std::to_string(p.seed)};
        for (const char* m : {"jobs", "mean_wait", "p95_wait", "mean_bounded_slowdown", "utilisation", "killed",
                              "decisions_checked", "violations", "windows", "windows_proven", "windows_at_optimum",
                              "window_gap_mean", "window_gap_p95"})
          row.push_back(csv_number(r.metric(m)));
        row.push_back(p.reproduce);
        f.rows.push_back(std::move(row));
      }
      out.push_back(std::move(f));
    }
    return out;
  }

  // The worst window of the sweep (largest gap; the first in point order on ties): the policy's and the optimum's
  // schedules as Gantt charts, and the window as a corpus file when a registered queue-window policy takes the run's
  // decision (every policy but EASY with 4 pivots).
  std::vector<std::string> extras(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records,
                                  const std::string& dir, std::vector<std::string>& skipped) const override {
    std::size_t best = points.size();
    double worst_gap = -1;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (records[i] && records[i]->data.contains("worst") && records[i]->data["worst"]["gap"].get<double>() > worst_gap) {
        worst_gap = records[i]->data["worst"]["gap"].get<double>();
        best = i;
      }
    if (best == points.size()) return {};
    const Point& p = points[best];
    const nlohmann::json& worst = records[best]->data["worst"];
    const auto& problem = registry_.typed<window::Instance, window::Schedule>("queue-window");
    const window::Instance instance = problem.spec().read(worst["instance"], "worst window");
    const cluster::ClusterPolicy policy = policy_of(p);
    std::vector<std::string> files;
    auto chart = [&](const window::Schedule& schedule, const std::string& side, const std::string& stem) {
      report::GanttOptions options;
      options.processors = instance.processors;
      options.source = instance.name;
      options.title = fmt::format("worst window: {} on {}, {} ({} model, {} estimates): {}", instance.name,
                                  p.parameter("trace"), cluster::label(policy), p.parameter("model"),
                                  p.parameter("estimates"), side);
      const std::string path = (fs::path(dir) / (stem + ".png")).string();
      if (!report::gnuplot_available()) return;
      const std::string cut_short = stem + ".png: not drawn: the run was stopped and its time to finish is up";
      if (finishing_time_up()) {
        skipped.push_back(cut_short);
        return;
      }
      if (report::draw_gantt(jobs_csv::schedule_rows(sim::window_rows(instance, schedule)), options, path).empty())
        files.push_back(path);
      else if (finishing_time_up())
        skipped.push_back(cut_short);
    };
    const window::Schedule mine = sim::play_forward(instance, policy);
    chart(mine, fmt::format("the policy played forward, bounded-slowdown sum {:g}", window::objective(instance, mine)),
          "worst-window-policy");
    SolveOptions solve;
    solve.timeout_ms = settings_.window_timeout_ms;
    solve.effort = settings_.window_effort;
    const auto optimum = problem.solve(instance, "", solve, {mine});
    if (optimum.decision)
      chart(*optimum.decision, fmt::format("the exact optimum ({}), bounded-slowdown sum {:g}",
                                           to_string(optimum.status), optimum.objective),
            "worst-window-optimum");
    // A corpus file records the verdict of a check; cut short by a stop request, the check would record "unknown".
    const bool registered = cluster::param(policy, "pivots").value_or(1) == 1;  // the registered policies' one pivot
    if (registered && stop_requested())
      skipped.push_back("worst-window.json: not written: the run was stopped before the window was re-checked");
    if (registered && !stop_requested()) {
      const std::string path = (fs::path(dir) / "worst-window.json").string();
      CheckRequest request;
      request.policy = policy.name;
      request.solve = solve;
      const nlohmann::json document = problem.spec().write(instance);
      const Report checked = problem.check(document, path, request);
      write_file_atomically(
          path, problem.corpus_text(corpus_document(
                    document, checked, "queue-window", request, instance.name,
                    fmt::format("{} (the worst sampled window of `schedcheck experiment backfilling`: pass at t={:g}, gap "
                                "{:.6f})", p.reproduce, worst["time"].get<double>(), worst_gap),
                    path)));
      files.push_back(path);
    }
    return files;
  }

  std::string text(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records) const override {
    // Mean bounded slowdown per trace and policy, requested estimates, count model; then the window gaps.
    std::string out = fmt::format("{:<34}", "mean bounded slowdown (requested, count)");
    for (const auto& name : series_names()) out += fmt::format(" {:>13}", name);
    out += "\n";
    for (const Trace& t : traces_) {
      out += fmt::format("  {:<32}", t.name);
      for (const auto& name : series_names()) {
        std::vector<double> v;
        for (std::size_t i = 0; i < points.size(); ++i)
          if (records[i] && points[i].parameter("trace") == t.name && points[i].parameter("policy") == name &&
              points[i].parameter("estimates") == "requested" && points[i].parameter("model") == "count")
            v.push_back(records[i]->metric("mean_bounded_slowdown"));
        out += v.empty() ? fmt::format(" {:>13}", "-") : fmt::format(" {:>13.2f}", statistics(v).mean);
      }
      out += "\n";
    }
    return out;
  }

private:
  static double stddev(const std::vector<double>& v) {
    if (v.size() < 2) return 0;
    double mean = 0, sq = 0;
    for (const double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    for (const double x : v) sq += (x - mean) * (x - mean);
    return std::sqrt(sq / static_cast<double>(v.size() - 1));
  }
  // Sample about windows_per_run windows of a run (the eligible passes are about as many as the jobs, or fewer), and
  // never fewer than one pass in `seeds`: seed s samples from the (s-1)-th eligible pass on, so the seeds' samples are
  // disjoint.
  std::size_t window_every(const workload::Workload& w) const {
    const std::size_t target = options_.quick ? settings_.windows_per_quick_run : settings_.windows_per_run;
    return std::max<std::size_t>({1, w.jobs.size() / target, seeds_});
  }

  // The series names, in figure order.
  std::vector<std::string> series_names() const {
    std::vector<std::string> names;
    for (const Variant& v : settings_.policies) names.push_back(variant_name(v));
    return names;
  }
  const Variant& variant_of(const Point& point) const {
    for (const Variant& v : settings_.policies)
      if (variant_name(v) == point.parameter("policy")) return v;
    throw std::logic_error("backfilling: a point of no policy of the sweep");
  }
  cluster::ClusterPolicy policy_of(const Point& point) const { return variant_policy(variant_of(point)); }

  ExperimentOptions options_;
  const Registry& registry_;
  Described info_;
  Settings settings_;
  std::size_t seeds_ = 1;
  std::vector<Trace> traces_;
  std::vector<std::string> notes_;
};

}  // namespace
}  // namespace backfilling_run

CatalogueEntry backfilling_experiment() {
  return catalogue_entry<backfilling_run::Backfilling>(
      {"backfilling", "Mu'alem & Feitelson, IEEE TPDS 12(6) 2001; Lifka 1995 (EASY); papers 002 and 004 (the policies)",
       "FCFS, EASY (1 and 4 pivots) and conservative backfilling over every trace, requested and exact "
       "estimates, count and processors models: wait, bounded slowdown, utilisation, every invariant on "
       "every decision, and the gap to the exact optimum of sampled queue windows"},
      "--scenario FILE (default: examples/scenarios/backfilling.json, every shared trace), or --traces DIR "
      "and/or --trace FILE[:P] (repeatable; :P for a header without a machine size); --seeds N: the "
      "sampling phase of the windows (the runs are deterministic), default 1; --quick: the first 2000 "
      "records of each trace");
}

}  // namespace schedcheck::experiments
