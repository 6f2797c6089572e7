// `schedcheck simulate | audit | compare-runs`: trace-driven simulation of one cluster (or several behind a
// broker), invariants on every decision, per-job CSV in Batsim's columns, the audit of another simulator's
// schedule, and the improvement ratio R of paper 002 between two runs. Our own.
#include "cli/simulate.hpp"

#include "cli/external_policy.hpp"

#include "cli/audit.hpp"
#include "cli/trace_options.hpp"
#include "cli/validators.hpp"

#include "model/input.hpp"
#include "model/job_metrics.hpp"
#include "model/jobs_csv.hpp"
#include "model/scenario.hpp"
#include "properties/registry.hpp"
#include "properties/run_properties.hpp"
#include "properties/trace_run.hpp"
#include "reference/router_policies.hpp"
#include "simulation/summary.hpp"
#include "support/files.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <unordered_map>

namespace schedcheck::cli {

namespace {

namespace fs = std::filesystem;

struct SimulateArgs {
  TraceArgs trace;
  std::string policy;
  ExternalPolicyOptions external;       // --policy-cmd: a cluster policy outside C++
  std::string pivots = "1";             // --pivots N: a synonym of --policy-param pivots=N
  std::vector<std::string> policy_params;  // --policy-param NAME=VALUE, each
  bool check = false;
  std::string jobs_csv;
  bool json = false, csv = false, quiet = false;
  double warmup = 0;
  bool stop_at_last_arrival = false;
  std::string check_windows;            // K[:EVERY[:PHASE]]
  std::string window_objective = "bounded-slowdown";
  std::string window_exact;
  unsigned window_timeout_ms = 2000;
  std::uint64_t window_effort = 0;      // --effort: each window's effort budget (0: none)
  std::string windows_out;
  std::string scenario;                 // --scenario FILE: the workload, policy, model, clusters and router as data
  bool pivots_given = false;            // --pivots was on the command line
  std::string clusters;                 // P1,P2,...: several clusters behind a broker
  std::string broker = "least-loaded";
  double latency = 0;
  double status_period = 600;
};

runcheck::WindowSettings window_settings(const SimulateArgs& a) {
  runcheck::WindowSettings s;
  std::vector<std::string> parts;  // K[:EVERY[:PHASE]]
  for (std::size_t at = 0;;) {
    const auto colon = a.check_windows.find(':', at);
    parts.push_back(a.check_windows.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  auto number = [&](const std::string& text, const char* what, std::size_t least) {
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (parts.size() > 3 || ec != std::errc() || end != text.data() + text.size() || value < least)
      throw InputError(fmt::format("--check-windows: expected K[:EVERY[:PHASE]] with K >= 2, EVERY >= 1 and PHASE < "
                                   "EVERY, got {} ({})", quoted_text(a.check_windows), what));
    return value;
  };
  s.jobs = number(parts[0], "K", 2);
  if (parts.size() > 1) s.every = number(parts[1], "EVERY", 1);
  if (parts.size() > 2) {
    s.offset = number(parts[2], "PHASE", 0);
    if (s.offset >= s.every) number("", "PHASE", 0);  // throws: a phase of EVERY or more
  }
  s.objective = a.window_objective == "wait" ? window::Objective::kWait
                : a.window_objective == "makespan" ? window::Objective::kMakespan
                                                   : window::Objective::kBoundedSlowdown;
  s.exact = a.window_exact;
  s.solve.timeout_ms = a.window_timeout_ms;
  s.solve.effort = a.window_effort;
  return s;
}

std::string human_time(double seconds) {
  if (seconds >= 2 * 86400) return fmt::format("{:.1f} days", seconds / 86400);
  if (seconds >= 2 * 3600) return fmt::format("{:.1f} h", seconds / 3600);
  return fmt::format("{} s", seconds);
}

// Writes PATH.tmp row by row, then renames: a reader never sees a half-written file. A run of several clusters adds
// the columns `cluster` (each job's cluster index; its processors are numbered within that cluster) and
// `arrival_time` (when the job reached that cluster, after the broker's latency).
void write_jobs_csv(const std::string& path, const workload::Workload& w, const sim::RunResult& r) {
  const std::string name = fs::path(w.name).filename().string();
  const bool several = r.clusters.size() > 1;
  try {
    write_file_atomically(path, [&](std::ostream& out) {
      out << jobs_csv::header(several);
      for (std::size_t j = 0; j < w.jobs.size(); ++j) {
        if (r.records[j].state != sim::JobState::kFinished) continue;
        jobs_csv::Row row = sim::job_row(w.jobs[j], r.records[j], name);
        if (several) {
          row.cluster = r.records[j].cluster;
          row.arrival = r.records[j].arrival;
        }
        out << jobs_csv::format(row);
      }
    });
  } catch (const std::runtime_error& e) {
    throw InputError(std::string("--jobs-csv: ") + e.what());
  }
}

// Refuses an output destination before the run spends any time: a directory to create (--windows-out), or a file
// whose directory must exist and which must not be a directory (--jobs-csv).
void check_outputs(const SimulateArgs& a) {
  if (!a.jobs_csv.empty()) {
    const fs::path path(a.jobs_csv);
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code error;
    if (fs::is_directory(path, error)) throw InputError(fmt::format("{}: --jobs-csv: is a directory; name a file", a.jobs_csv));
    if (!fs::is_directory(dir, error))
      throw InputError(fmt::format("{}: --jobs-csv: the directory {} does not exist{}", a.jobs_csv, dir.string(),
                                   error ? " (" + error.message() + ")" : ""));
  }
  if (!a.windows_out.empty()) prepare_output_directory(a.windows_out, "--windows-out");
}

std::string stats_line(const char* label, const Stats& s) {
  return fmt::format("  {:<18} mean {:>12.2f}  median {:>10.2f}  p95 {:>12.2f}  max {:>12.2f}\n", label, s.mean, s.median,
                     s.p95, s.max);
}

std::string skipped_text(const workload::Workload& w) {
  std::string out;
  for (std::size_t k = 0; k < w.skipped.size(); ++k)
    if (w.skipped[k]) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", w.skipped[k], workload::to_string(static_cast<workload::Skip>(k)));
  out = out.empty() ? "none skipped" : out;
  if (w.invalid_read) out += fmt::format(" ({} records the rules skip read by --invalid-records)", w.invalid_read);
  return out;
}

int run_simulate(const SimulateArgs& a, const Registry& registry) {
  check_outputs(a);
  // --policy-cmd: the process decides every pass; its decisions are always checked (--check on).
  std::optional<ExternalPolicy> external;
  runcheck::RunRequest request;
  if (a.external.given()) {
    for (const auto& builtin : cluster::cluster_policies())
      if (builtin.name == a.external.name)
        throw InputError(fmt::format("--policy-name {}: a built-in policy has that name (choose another)", a.external.name));
    if (!a.check_windows.empty())
      throw InputError("--check-windows plays the run's policy forward in each window: built-in policies only, not --policy-cmd");
    external.emplace(a.external);
    request.external = [&](const workload::Workload& w) {
      return runcheck::external_cluster_policy(w, external->json_policy(), a.external.name);
    };
  }
  request.scenario = a.scenario;
  if (!a.trace.trace.empty())
    request.load = [&](long long processors) {
      TraceArgs trace = a.trace;
      trace.processors = processors;
      return load(trace);
    };
  request.trace = a.trace.trace;
  request.estimates = a.trace.estimates;
  request.processors = a.trace.processors;
  request.policy = a.policy;
  if (a.pivots_given) request.params.push_back({"--pivots", "pivots=" + a.pivots, true});
  for (const std::string& p : a.policy_params) request.params.push_back({"--policy-param", p, false});
  request.model = a.trace.model;
  if (!a.clusters.empty()) request.clusters = cluster_sizes(a.clusters);
  request.router = a.broker;
  request.latency = a.latency;
  request.status_period = a.status_period;
  request.run.check = a.check;
  if (!a.check_windows.empty()) request.run.windows = window_settings(a);
  request.run.metrics = sim::MetricsWindow{a.warmup, a.stop_at_last_arrival};
  request.run.record_allocations = !a.jobs_csv.empty();
  request.run.pass_per_event = a.trace.passes == "event";
  runcheck::RunPlan plan = runcheck::plan_run(request);
  runcheck::TraceRunSpec& spec = plan.spec;
  const workload::Workload& w = plan.workload;
  const std::optional<scenario::Scenario>& sc = plan.scenario;
  const std::string& trace_path = plan.trace;
  const std::string& processors_from = plan.processors_from;
  const std::string& estimates_name = plan.estimates;
  const std::string cluster_name = spec.clusters.empty()        ? fs::path(w.name).filename().string()
                                   : spec.cluster_names.empty() ? "c0"
                                                                : spec.cluster_names.front();
  if (!a.quiet)
    spec.progress = [&](const sim::Progress& p, const runcheck::WindowChecker* windows) {
      if (p.wall_seconds < 1) return;
      std::cerr << fmt::format("simulate {}: {}/{} jobs finished, simulated time {}, {:.1f} s{}\n", printable_text(cluster_name),
                               p.finished, p.total, human_time(p.now - (w.jobs.empty() ? 0 : w.jobs.front().submit)),
                               p.wall_seconds,
                               windows ? fmt::format("; {} windows solved ({} undecided)", windows->cut(), windows->undecided()) : "");
    };
  const runcheck::TraceRun run = runcheck::run_trace(w, spec, registry);
  const sim::RunResult& result = run.result;
  const sim::RunSummary& s = run.summary;
  const std::string policies = runcheck::policies_text(run.clusters), models = runcheck::models_text(run.clusters);
  // An interrupted run writes no per-job CSV (it would miss jobs): the file is complete or absent, never truncated.
  // An older file under that name is removed, so that it is not read as this run's.
  const bool write_csv = !a.jobs_csv.empty() && !result.interrupted;
  if (write_csv) write_jobs_csv(a.jobs_csv, w, result);
  bool removed_older = false;
  if (!a.jobs_csv.empty() && result.interrupted) {
    std::error_code error;
    removed_older = fs::is_regular_file(a.jobs_csv, error) && fs::remove(a.jobs_csv, error);
  }
  std::vector<std::string> window_files;
  if (run.windows && !a.windows_out.empty())
    window_files = run.windows->write_worst(
        a.windows_out, fs::path(trace_path).stem().string(),
        sc ? fmt::format("schedcheck simulate --scenario {} --check-windows {}", a.scenario, a.check_windows)
           : fmt::format("schedcheck simulate --trace {}{} --policy {}{} --model {} --estimates {}{} --check-windows {}",
                         trace_path,
                         a.clusters.empty() ? ""
                                            : fmt::format(" --clusters {} --broker {} --latency {} --status-period {}",
                                                          a.clusters, a.broker, a.latency, a.status_period),
                         plan.policy, runcheck::param_flags(run.clusters), plan.model,
                         estimates_name, convention_flags(a.trace), a.check_windows));
  const std::size_t violations = run.violations();
  const auto& checker = run.invariants;
  const auto& windows = run.windows;

  if (a.json) {
    nlohmann::json out = runcheck::to_json(w, run);
    out["processors_from"] = processors_from;
    out["estimates"] = estimates_name;
    out["conventions"] = workload::describe(read_options(a.trace).conventions);
    out["pass_convention"] = a.trace.passes;
    out["invalid_records_read"] = w.invalid_read;
    if (sc) out["scenario"] = a.scenario;
    out["jobs_csv"] = write_csv ? nlohmann::json(a.jobs_csv) : nlohmann::json(nullptr);
    if (windows) out["windows"]["files"] = window_files;
    out["exit_code"] = process_exit_code(violations ? 1 : 0);
    std::cout << json_text(out) << "\n";
  } else if (a.csv) {
    std::string skipped_header, skipped_values;
    for (std::size_t k = 0; k < w.skipped.size(); ++k) {
      skipped_header += fmt::format(",skipped_{}", workload::to_string(static_cast<workload::Skip>(k)));
      skipped_values += fmt::format(",{}", w.skipped[k]);
    }
    std::cout << "trace,policy,pivots,model,estimates,processors,records,simulated" << skipped_header
              << ",finished,killed,measured,makespan,utilisation,wait_mean,wait_median,wait_p95,wait_max,response_mean,"
                 "bsld_mean,bsld_median,bsld_p95,bsld_max,invariants_checked,violations,wall_seconds,jobs_per_second\n";
    std::cout << fmt::format("{},{},{},{},{},{},{},{}{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", jobs_csv::text_field(w.name),
                             jobs_csv::text_field(policies), runcheck::param_text(run.clusters, "pivots"), jobs_csv::text_field(models), estimates_name,
                             run.processors, s.records, s.simulated, skipped_values, s.finished, s.killed, s.measured,
                             s.makespan, s.utilisation, s.wait.mean, s.wait.median, s.wait.p95, s.wait.max,
                             s.response.mean, s.slowdown.mean, s.slowdown.median, s.slowdown.p95, s.slowdown.max,
                             checker ? checker->checked().size() : 0, violations, s.wall_seconds,
                             s.wall_seconds > 0 ? static_cast<double>(s.simulated) / s.wall_seconds : 0.0);
  } else {
    std::string out;
    out += fmt::format("trace     {} ({} processors from {}), policy {}, model {}, estimates {}\n", w.name, run.processors,
                       processors_from, runcheck::policies_text(run.clusters, true), models, estimates_name);
    if (const auto conventions = read_options(a.trace).conventions; conventions.any())
      out += fmt::format("times     as another simulator's: {}\n", workload::describe(conventions));
    if (a.trace.passes == "event") out += "passes    one after every arrival and every completion (--passes event)\n";
    if (run.router) {
      out += fmt::format("broker    {} over {} clusters, latency {} s, status every {} s: {} job messages, {} status "
                         "messages\n", run.router->policy.name, spec.clusters.size(), run.router->latency,
                         run.router->status_period,
                         result.job_messages, result.status_messages);
      for (std::size_t c = 0; c < result.clusters.size(); ++c)
        out += fmt::format("  cluster {} ({} processors, {}, model {}): {} jobs started, {} backfilled, max queue {}\n",
                           run.clusters[c].name, run.clusters[c].processors, cluster::label(run.clusters[c].policy),
                           cluster::to_string(run.clusters[c].model), result.clusters[c].starts,
                           result.clusters[c].backfilled, result.clusters[c].max_queue);
    }
    out += fmt::format("jobs      {} records: {} simulated, {}\n", s.records, s.simulated, skipped_text(w));
    out += fmt::format("          {} finished ({} killed at their estimate){}{}\n", s.finished, s.killed,
                       s.rejected ? fmt::format(", {} rejected by the policy", s.rejected) : "",
                       s.stopped ? fmt::format("; run stopped at the last arrival with {} waiting, {} running", s.waiting, s.running) : "");
    if (!w.first_malformed.empty()) out += fmt::format("          first malformed line: {}\n", w.first_malformed);
    out += fmt::format("metrics   over {} jobs submitted in [{}, {}]: makespan {} s, utilisation {:.2f}%\n", s.measured,
                       s.window_from, s.window_to, s.makespan, 100 * s.utilisation);
    out += stats_line("wait (s)", s.wait);
    out += stats_line("response (s)", s.response);
    out += stats_line("bounded slowdown", s.slowdown);
    if (checker) {
      std::string names;
      for (const auto& n : checker->checked()) names += (names.empty() ? "" : ", ") + n;
      out += fmt::format("checks    {} invariants on {} decisions: {} violation{} ({})\n", checker->checked().size(),
                         checker->decisions(), violations, violations == 1 ? "" : "s", names);
      for (const auto& [name, count] : checker->counts())
        if (count) out += fmt::format("  {} violated {} times\n", name, count);
      for (const auto& v : checker->violations())
        out += fmt::format("  VIOLATION {} at t={} ({}): {}\n", v.invariant, v.time, v.event, v.detail);
    } else {
      out += "checks    none (add --check to check every decision)\n";
    }
    out += fmt::format("speed     {} jobs in {:.3f} s ({:.0f} jobs/s); {} events, {} passes, {} backfilled, max queue {}\n",
                       s.simulated, s.wall_seconds, s.wall_seconds > 0 ? static_cast<double>(s.simulated) / s.wall_seconds : 0.0,
                       s.events, s.passes, s.backfilled, s.max_queue);
    if (windows) {
      const Stats g = windows->gaps();
      const auto& ws = windows->settings();
      out += fmt::format("windows   {} windows of the first {} waiting jobs (every {} pass{} with 2+ waiting; objective {}, "
                         "exact {} at {} ms each, {:.1f} s in all)\n",
                         windows->cut(), ws.jobs, ws.every, ws.every == 1 ? "" : "es", window::to_string(ws.objective),
                         ws.exact.empty() ? "bnb" : ws.exact, ws.solve.timeout_ms, windows->solve_seconds());
      out += fmt::format("          {} proven, {} undecided; {} at the optimum ({:.1f}% of proven); gap to the optimum: "
                         "mean {:.4f}%, median {:.4f}%, p95 {:.4f}%, max {:.4f}%\n",
                         windows->proven(), windows->undecided(), windows->at_optimum(),
                         windows->proven() ? 100.0 * static_cast<double>(windows->at_optimum()) / static_cast<double>(windows->proven()) : 0.0,
                         100 * g.mean, 100 * g.median, 100 * g.p95, 100 * g.max);
      for (const auto& r : windows->worst())
        out += fmt::format("  worst window at t={}{}: {} waiting, {} running; {} {} vs optimum {} (gap {:.4f}%)\n", r.time,
                           run.clusters.size() > 1 ? " on " + r.where : "", r.instance.waiting.size(),
                           r.instance.running.size(), r.report.heuristic.name, r.report.heuristic.objective,
                           r.report.optimum.objective, 100 * r.report.gap.value_or(0));
      for (const auto& f : window_files) out += fmt::format("  wrote {}\n", f);
    }
    if (write_csv) out += fmt::format("wrote     {} (one row a finished job, Batsim's columns)\n", a.jobs_csv);
    if (result.interrupted)
      out += fmt::format("interrupted: {} at simulated time {}; the figures cover the jobs finished by then{}{}\n",
                         stop_request_text(), human_time(result.end_time - (w.jobs.empty() ? 0 : w.jobs.front().submit)),
                         a.jobs_csv.empty() ? "" : "; no --jobs-csv written (it would miss jobs)",
                         removed_older ? ", the older file of that name removed" : "");
    std::cout << printable_lines(out);  // names from the trace and the scenario: escaped, never raw on a terminal
  }
  return violations ? 1 : 0;
}

}  // namespace

std::function<int()> add_trace_commands(CLI::App& app, const Registry& registry) {
  auto simulate_args = std::make_shared<SimulateArgs>();
  auto* simulate = app.add_subcommand(
      "simulate", "replay an SWF trace through fcfs, easy or conservative backfilling; metrics, per-job CSV, and with "
                  "--check every invariant on every decision (exit 1 on a violation)");
  const TraceOptions trace = add_trace_options(simulate, simulate_args->trace, false);
  auto* policy = simulate->add_option("--policy,-p", simulate_args->policy,
                                      choices(cluster::cluster_policy_names()) +
                                          "; with --clusters, one for all or one per cluster (easy,conservative,...)")
                     ->check(names_in(cluster::cluster_policy_names()));
  add_external_policy_options(simulate, simulate_args->external, policy);
  auto* pivots = simulate->add_option("--pivots", simulate_args->pivots,
                                      "easy: jobs holding reservations (MAUI's reservation depth; `inf` = conservative); "
                                      "the same as --policy-param pivots=N")
                    ->capture_default_str();
  simulate->add_option("--policy-param", simulate_args->policy_params,
                       "NAME=VALUE: a parameter of the policy (repeatable); the policies' parameters:\n" +
                           cluster::params_help())
      ->allow_extra_args(false);
  simulate->add_flag("--check", simulate_args->check,
                     "check the policy's invariants on every decision and report each violation (exit 1)");
  simulate->add_option("--jobs-csv", simulate_args->jobs_csv,
                       "write one row a job in Batsim's out_jobs.csv columns (+ bounded_slowdown)");
  simulate->add_option("--warmup", simulate_args->warmup,
                       "seconds after the first submission whose jobs are not measured (paper 002: 1209600, two weeks)")
      ->check(finite_range(0.0, 1e12));
  simulate->add_flag("--stop-at-last-arrival", simulate_args->stop_at_last_arrival,
                     "end the run at the last submission, as paper 002 does (jobs then waiting or running are not measured)");
  auto* json = simulate->add_flag("--json", simulate_args->json, "print the summary as JSON (fields: docs/cli.md)");
  simulate->add_flag("--csv", simulate_args->csv, "print the summary as CSV (header + one row)")->excludes(json);
  simulate->add_flag("--quiet,-q", simulate_args->quiet, "no progress lines on stderr");
  simulate->add_option("--clusters", simulate_args->clusters,
                       "P1,P2,...: several clusters of these sizes behind a broker (replaces --processors; a job too "
                       "wide for all of them is skipped)");
  simulate->add_option("--broker", simulate_args->broker,
                       "with --clusters: round-robin, or least-loaded (paper 002's gateway: the lowest load, busy and "
                       "queued processors in the last status reports plus those sent since, over the cluster's; "
                       "docs/policies.md)")
      ->capture_default_str()
      ->check(CLI::IsMember(router::router_policy_names()));
  simulate->add_option("--latency", simulate_args->latency, "with --clusters: seconds a broker message takes")
      ->capture_default_str()
      ->check(finite_range(0.0, 1e9));
  simulate->add_option("--status-period", simulate_args->status_period,
                       "with --clusters: seconds between status reports from the clusters (0: none)")
      ->capture_default_str()
      ->check(finite_range(0.0, 1e12));
  auto* scenario = simulate->add_option(
      "--scenario", simulate_args->scenario,
      "a scenario file (JSON, examples/scenarios/, docs/experiments.md): the workload and how it is read, the policy, "
      "the model, the clusters and their router, as data (instead of --trace and those options)");
  for (const char* name : {"--clusters", "--broker", "--latency", "--status-period"}) scenario->excludes(simulate->get_option(name));
  for (CLI::Option* option : {trace.trace, trace.processors, trace.estimates, trace.processor_field, trace.model,
                               trace.lenient})
    scenario->excludes(option);
  for (CLI::Option* option : trace.conventions) scenario->excludes(option);
  simulate->add_option("--check-windows", simulate_args->check_windows,
                       "K[:EVERY[:PHASE]]: at every EVERY-th pass with 2+ waiting jobs (from the PHASE-th on, counting "
                       "from 0), cut the first K into a queue-window instance, solve it exactly and report the policy's "
                       "gap to the optimum over the run");
  simulate->add_option("--window-objective", simulate_args->window_objective, "objective of the windows")
      ->capture_default_str()
      ->check(CLI::IsMember({"bounded-slowdown", "wait", "makespan"}));
  simulate->add_option("--window-exact", simulate_args->window_exact,
                       "exact method of the windows (default: bnb; see `schedcheck list`)");
  simulate->add_option("--timeout-ms", simulate_args->window_timeout_ms, "time limit of each window's exact solve")
      ->capture_default_str()
      ->check(CLI::Range(1u, 86'400'000u));
  simulate->add_option("--effort", simulate_args->window_effort,
                       "effort budget of each window's exact solve, machine-independent (docs/cli.md); 0: none. "
                       "--timeout-ms stays as a safety net")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 62));
  simulate->add_option("--windows-out", simulate_args->windows_out,
                       "write the worst windows (largest gap) as queue-window corpus files in this directory");

  const auto run_audit_command = add_audit_commands(app);
  return [=, &registry]() -> int {
    if (simulate->parsed()) {
      simulate_args->pivots_given = pivots->count() > 0;
      return run_simulate(*simulate_args, registry);
    }
    return run_audit_command();
  };
}

}  // namespace schedcheck::cli
