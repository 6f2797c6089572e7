// `schedcheck audit` and `schedcheck compare-runs` (see audit.hpp). Our own. The audit's checks are the library's
// (properties/audit.hpp); this file reads the options and renders the verdict.
#include "cli/audit.hpp"

#include "cli/trace_options.hpp"
#include "cli/validators.hpp"
#include "model/input.hpp"
#include "model/job_metrics.hpp"
#include "model/jobs_csv.hpp"
#include "properties/audit.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace schedcheck::cli {

namespace {

void add_column_options(CLI::App* command, jobs_csv::Columns& c, std::string& delimiter) {
  command->add_option("--delimiter", delimiter,
                      "what separates the fields: comma, or tab (Alea's completed_jobs CSV); a schedule named .swf or "
                      ".swf.gz is read as SWF (predictsim's pyss) whatever this says")
      ->capture_default_str()
      ->check(CLI::IsMember({"comma", "tab"}));
  command->add_option("--id-column", c.id, "column of the job id (matched to the trace's field 1)")->capture_default_str();
  command->add_option("--start-column", c.start, "column of the start time")->capture_default_str();
  command->add_option("--finish-column", c.finish, "column of the finish time")->capture_default_str();
  command->add_option("--submit-column", c.submit, "column of the submit time")->capture_default_str();
  command->add_option("--processors-column", c.allocated,
                      "column of the processors (Batsim interval syntax \"0-3 7\"; optional)")
      ->capture_default_str();
  command->add_option("--cluster-column", c.cluster,
                      "column of the cluster a job ran on (an index from 0; optional: a run of several clusters)")
      ->capture_default_str();
  command->add_option("--arrival-column", c.arrival,
                      "column of the time a job reached its cluster's queue (optional; absent: its submit time)")
      ->capture_default_str();
}

struct AuditArgs {
  TraceArgs trace;
  std::string schedule;
  std::string policy;
  std::string pivots = "1";               // --pivots N: a synonym of --policy-param pivots=N
  bool pivots_given = false;
  std::vector<std::string> policy_params;  // --policy-param NAME=VALUE, each
  jobs_csv::Columns columns;
  std::string delimiter = "comma";
  std::string time_origin = "trace";  // or first-submit: the schedule's times count from the first job's submission
  std::string clusters;     // P1,P2,...: a schedule of several clusters
  double latency = 0;       // the broker's, for rows without an arrival column
  bool json = false, strict = false;
  std::size_t show = 10;
};

int run_audit(const AuditArgs& a) {
  TraceArgs trace = a.trace;
  const std::vector<int> sizes = a.clusters.empty() ? std::vector<int>{} : cluster_sizes(a.clusters);
  if (!sizes.empty()) {  // as simulate reads the trace for these clusters: a job too wide for all of them is skipped
    if (trace.processors > 0) throw InputError("--clusters: give the cluster sizes or --processors, not both");
    trace.processors = *std::max_element(sizes.begin(), sizes.end());
  }
  const workload::Workload w = load(trace);
  jobs_csv::Columns columns = a.columns;
  columns.delimiter = a.delimiter == "tab" ? '\t' : ',';
  auto rows = jobs_csv::read_schedule(a.schedule, columns, false);
  // Alea's SWFLoader counts time from the first job's submission: its times shifted back onto the trace's.
  const double origin = a.time_origin == "first-submit" && !w.jobs.empty() ? w.jobs.front().submit : 0;
  if (origin != 0)
    for (auto& row : rows) {
      row.start += origin;
      row.finish += origin;
      if (row.submit) *row.submit += origin;
      if (row.arrival) *row.arrival += origin;
    }
  const std::vector<std::string> policies = per_cluster("--policy", a.policy, sizes.size(), cluster::cluster_policy_names());
  const std::vector<std::string> models = per_cluster("--model", a.trace.model, sizes.size(), {"count", "processors"});
  // The policies audited, with their parameters as simulate reads them (--pivots applies where a policy declares it).
  std::vector<runcheck::RunRequest::Assignment> params;
  if (a.pivots_given) params.push_back({"--pivots", "pivots=" + a.pivots, true});
  for (const std::string& p : a.policy_params) params.push_back({"--policy-param", p, false});
  const std::vector<cluster::ClusterPolicy> audited = runcheck::configured_policies(policies, params);
  runcheck::AuditOptions options;
  options.policy = audited.front();
  options.model = model_of(models.front());
  for (std::size_t c = 0; c < sizes.size(); ++c)
    options.clusters.push_back(runcheck::AuditCluster{sizes[c], audited[c], model_of(models[c])});
  options.keep = a.show;
  options.schedule = a.schedule;
  options.processors_column = a.columns.allocated;
  options.cluster_column = a.columns.cluster;
  options.pass_per_event = a.trace.passes == "event";
  options.latency = a.latency;
  const runcheck::AuditResult r = runcheck::audit_schedule(w, rows, options);
  const auto pivoted = std::find_if(audited.begin(), audited.end(),
                                    [](const cluster::ClusterPolicy& p) { return cluster::param(p, "pivots").has_value(); });
  std::string labels;  // "easy (1 pivot)", or one label per cluster
  for (const cluster::ClusterPolicy& p : audited)
    if (labels.empty() || audited.size() > 1) labels += (labels.empty() ? "" : ",") + cluster::label(p);
  const std::size_t total = r.total(), differences = r.total_differences(), uncertain = r.total_uncertain();
  const int code = total || (a.strict && (differences || uncertain)) ? 1 : 0;

  if (a.json) {
    nlohmann::json out = runcheck::to_json(r, a.show);
    out["trace"] = w.name;
    out["schedule"] = a.schedule;
    out["policy"] = a.policy;
    out["pivots"] = pivoted != audited.end() ? cluster::param_json(*pivoted, "pivots") : nlohmann::json(nullptr);
    out["clusters"] = sizes;
    out["model"] = a.trace.model;
    out["conventions"] = workload::describe(read_options(a.trace).conventions);
    out["pass_convention"] = a.trace.passes;
    out["time_origin"] = origin;
    out["strict"] = a.strict;
    out["exit_code"] = process_exit_code(code);
    std::cout << json_text(out) << "\n";
  } else {
    std::string out = fmt::format("audit     {} against {} on {} ({}, model {}, estimates {})\n", a.schedule,
                                  labels, w.name,
                                  sizes.empty() ? fmt::format("{} processors", w.processors)
                                                : fmt::format("clusters of {} processors", a.clusters),
                                  a.trace.model, a.trace.estimates);
    if (const auto conventions = read_options(a.trace).conventions; conventions.any())
      out += fmt::format("times     as the audited simulator's: {}\n", workload::describe(conventions));
    if (a.trace.passes == "event")
      out += "passes    the replay decides after every arrival and every completion (--passes event)\n";
    if (origin != 0)
      out += fmt::format("origin    the schedule's times count from the first job's submission: {} added to each "
                         "(--time-origin first-submit)\n", origin);
    out += fmt::format("jobs      {} in the trace, {} rows in the schedule; {} ran past their estimate (not killed)\n",
                       r.jobs, r.rows, r.overran);
    if (r.reconstructed)
      out += "processors the schedule names none: each job given the lowest-numbered processors free at its start (the "
             "rule GridSim and Alea allocate by); the certain verdicts do not depend on which (k processors free at an "
             "instant stay free while only running jobs hold any), the replay's differences do; processor exclusivity "
             "not checked\n";
    out += "certain   violations whatever legal choices the scheduler made (one pass per instant or per event, the "
           "completions of an instant in any order, any compression order; submissions of one instant in trace order)\n";
    // Each invariant's count (`none` when 0, else `many` with the count), then the first `--show` findings and the
    // first of every other invariant.
    auto section = [&](const std::map<std::string, std::size_t>& counts, const std::vector<runcheck::Violation>& found,
                       const char* none, const char* many, const char* word) {
      for (const auto& [name, count] : counts)
        out += fmt::format("  {:<27} {}\n", name, count == 0 ? std::string(none) : fmt::format(fmt::runtime(many), count));
      for (const runcheck::Violation* v : runcheck::shown(found, a.show))
        out += fmt::format("  {} {} at t={}{}: {}\n", word, v->invariant, v->time,
                           v->job >= 0 ? fmt::format(" (job {})", v->job) : "", v->detail);
    };
    section(r.counts, r.violations, "holds", "VIOLATED {} times", "VIOLATION");
    if (uncertain) {
      out += "uncertain findings that rest on jobs the schedule does not show (a job without a row, a record the "
             "reading rules skip, a row of no job): they may have waited or run then; never counted as certain\n";
      section(r.uncertain_counts, r.uncertain, "none", "{} not certain", "NOT CERTAIN");
    }
    out += "replay    differences from schedcheck's own reservations around these starts (another legal order of "
           "passes or of compression may explain them)\n";
    section(r.difference_counts, r.differences, "agrees", "{} differences", "DIFFERENCE");
    for (const auto& why : r.unchecked) out += fmt::format("  no certain check: {}\n", why);
    const std::string differ =
        (differences ? fmt::format("; {} differences from schedcheck's replay", differences) : "") +
        (uncertain ? fmt::format("; {} findings not certain", uncertain) : "");
    out += total                       ? fmt::format("verdict   {} certain violations{} (exit 1)\n", total, differ)
           : differences || uncertain ? fmt::format("verdict   no certain violation{} (exit {})\n", differ, code)
                                      : std::string("verdict   every invariant holds\n");
    std::cout << out;
  }
  return code;
}

struct CompareArgs {
  std::string base, candidate;
  jobs_csv::Columns columns;
  std::string delimiter = "comma";
  bool json = false, csv = false;
};

struct RunStats {
  std::size_t jobs = 0;
  double mean_wait = 0, max_wait = 0, mean_slowdown = 0, makespan = 0;
};

RunStats stats_of(const std::vector<jobs_csv::ScheduleRow>& rows) {
  RunStats r;
  r.jobs = rows.size();
  if (rows.empty()) return r;
  double first = kForever, last = 0;
  for (const auto& row : rows) {
    const double wait = row.start - *row.submit;
    r.mean_wait += wait;
    r.max_wait = std::max(r.max_wait, wait);
    r.mean_slowdown += bounded_slowdown(wait, row.finish - row.start);
    first = std::min(first, *row.submit);
    last = std::max(last, row.finish);
  }
  r.mean_wait /= static_cast<double>(rows.size());
  r.mean_slowdown /= static_cast<double>(rows.size());
  r.makespan = last - first;
  return r;
}

// The workloads a run's rows name (its workload_name column), "" when the column is absent or empty.
std::string workloads_of(const std::vector<jobs_csv::ScheduleRow>& rows) {
  std::set<std::string> names;
  for (const auto& row : rows)
    if (row.workload && !row.workload->empty()) names.insert(*row.workload);
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + quoted_text(name, 60);
  return out;
}

int run_compare(const CompareArgs& a) {
  jobs_csv::Columns columns = a.columns;
  columns.delimiter = a.delimiter == "tab" ? '\t' : ',';
  const auto base = jobs_csv::read_schedule(a.base, columns, true);
  const auto candidate = jobs_csv::read_schedule(a.candidate, columns, true);
  // Two runs of one workload, or nothing to say: an empty run, or another trace (a job submitted at another time in
  // each) is refused rather than compared job id by job id. The workload names only explain: one trace read as
  // .swf and as .swf.gz, or converted to JSON, is named differently and is still the same jobs.
  for (const auto* side : {&a.base, &a.candidate})
    if ((side == &a.base ? base : candidate).empty())
      throw InputError(fmt::format("{}: no job rows (a header only): compare-runs needs two runs of the same jobs",
                                   *side));
  const std::string base_workloads = workloads_of(base), new_workloads = workloads_of(candidate);
  const std::string named = !base_workloads.empty() && !new_workloads.empty() && base_workloads != new_workloads
                                ? fmt::format(" (workload {} against {})", base_workloads, new_workloads)
                                : "";
  std::unordered_map<std::string, const jobs_csv::ScheduleRow*> by_id;
  for (const auto& row : base) by_id.emplace(row.id, &row);
  std::vector<double> ratios;
  std::size_t better = 0, worse = 0;
  for (const auto& row : candidate) {
    const auto it = by_id.find(row.id);
    if (it == by_id.end()) continue;
    const auto& b = *it->second;
    if (std::fabs(*b.submit - *row.submit) > kTimeTolerance)
      throw InputError(fmt::format("compare-runs: job {} was submitted at {} in {} (line {}) and at {} in {} (line {}){}: "
                                   "expected two runs of the same workload",
                                   quoted_text(row.id, 40), *b.submit, a.base, b.line,
                                   *row.submit, a.candidate, row.line, named));
    const double s_base = bounded_slowdown(b.start - *b.submit, b.finish - b.start);
    const double s_new = bounded_slowdown(row.start - *row.submit, row.finish - row.start);
    const double r = improvement_ratio(s_base, s_new);
    ratios.push_back(r);
    better += r > 0;
    worse += r < 0;
  }
  const Stats r = statistics(ratios);
  const RunStats x = stats_of(base), y = stats_of(candidate);
  if (a.json) {
    auto side = [](const RunStats& s) {
      return nlohmann::json{{"jobs", s.jobs}, {"mean_wait", s.mean_wait}, {"max_wait", s.max_wait},
                            {"mean_bounded_slowdown", s.mean_slowdown}, {"makespan", s.makespan}};
    };
    const nlohmann::json out = {{"base", a.base},
                                {"new", a.candidate},
                                {"matched", ratios.size()},
                                {"R", {{"mean", r.mean}, {"median", r.median}, {"p95", r.p95}, {"max", r.max}}},
                                {"jobs_better", better},
                                {"jobs_worse", worse},
                                {"base_metrics", side(x)},
                                {"new_metrics", side(y)}};
    std::cout << json_text(out) << "\n";
  } else if (a.csv) {
    std::cout << "base,new,matched,R_mean,R_median,jobs_better,jobs_worse,base_mean_wait,new_mean_wait,base_mean_bsld,"
                 "new_mean_bsld,base_max_wait,new_max_wait,base_makespan,new_makespan\n";
    std::cout << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", a.base, a.candidate, ratios.size(), r.mean,
                             r.median, better, worse, x.mean_wait, y.mean_wait, x.mean_slowdown, y.mean_slowdown, x.max_wait,
                             y.max_wait, x.makespan, y.makespan);
  } else {
    std::string out = fmt::format("compare   base {} ({} jobs) with new {} ({} jobs): {} jobs in both\n", a.base, x.jobs,
                                  a.candidate, y.jobs, ratios.size());
    out += fmt::format("R         {:.4f} (paper 002 Eq. 2, (s_base - s_new) / min(s_base, s_new) per job, averaged; "
                       "median {:.4f}); {} jobs better, {} worse\n",
                       r.mean, r.median, better, worse);
    out += fmt::format("  {:<24} {:>14} {:>14} {:>14}\n", "metric", "base", "new", "new - base");
    auto line = [&](const char* name, double p, double q) {
      out += fmt::format("  {:<24} {:>14.4f} {:>14.4f} {:>+14.4f}\n", name, p, q, q - p);
    };
    line("mean wait (s)", x.mean_wait, y.mean_wait);
    line("max wait (s)", x.max_wait, y.max_wait);
    line("mean bounded slowdown", x.mean_slowdown, y.mean_slowdown);
    line("makespan (s)", x.makespan, y.makespan);
    std::cout << out;
  }
  return 0;
}

}  // namespace

std::function<int()> add_audit_commands(CLI::App& app) {
  auto audit_args = std::make_shared<AuditArgs>();
  auto* audit = app.add_subcommand(
      "audit", "check a schedule another simulator produced (Batsim's out_jobs.csv, or any CSV with job id, start and "
               "finish columns) against the invariants of fcfs, easy or conservative: certain violations (exit 1) apart "
               "from differences with schedcheck's own replay (exit 0 unless --strict); explains the first of each");
  add_trace_options(audit, audit_args->trace);
  audit->add_option("--schedule,-s", audit_args->schedule, "the schedule to check (CSV with a header line)")->required();
  audit->add_option("--policy,-p", audit_args->policy,
                    "the policy the schedule claims to follow: " + choices(cluster::cluster_policy_names()) +
                        "; with --clusters, one for all or one per cluster (easy,conservative,...)")
      ->required()
      ->check(names_in(cluster::cluster_policy_names()));
  audit->add_option("--clusters", audit_args->clusters,
                    "P1,P2,...: the schedule ran on clusters of these sizes (its cluster column gives each job's, from "
                    "0); each is audited apart against its size and policy (replaces --processors)");
  audit->add_option("--latency", audit_args->latency,
                    "seconds from a job's submission to its arrival at its cluster (the broker's, as simulate "
                    "--latency), for a schedule without an arrival column")
      ->check(finite_range(0.0, 1e9));
  auto* pivots = audit->add_option("--pivots", audit_args->pivots,
                                   "easy: the pivots it claims (`inf` = conservative); the same as --policy-param pivots=N")
                     ->capture_default_str();
  audit->add_option("--policy-param", audit_args->policy_params,
                    "NAME=VALUE: a parameter of the policy the schedule claims (repeatable); the policies' parameters:\n" +
                        cluster::params_help())
      ->allow_extra_args(false);
  add_column_options(audit, audit_args->columns, audit_args->delimiter);
  audit->add_option("--time-origin", audit_args->time_origin,
                    "trace (the schedule's times are the trace's) | first-submit (they count from the first job's "
                    "submission, as Alea's SWFLoader does)")
      ->capture_default_str()
      ->check(CLI::IsMember({"trace", "first-submit"}));
  audit->add_option("--show", audit_args->show, "violations to explain")->capture_default_str();
  audit->add_flag("--json", audit_args->json, "print the verdict as JSON");
  audit->add_flag("--strict", audit_args->strict,
                  "exit 1 on differences from schedcheck's replay and on findings that are not certain too, not only "
                  "on certain violations (for schedules that should match schedcheck's own, pass for pass)");

  auto compare_args = std::make_shared<CompareArgs>();
  auto* compare = app.add_subcommand(
      "compare-runs", "the improvement ratio R of paper 002 (Eq. 2, per job, averaged) and per-metric differences "
                      "between two per-job CSVs (BASE, then NEW)");
  compare->add_option("base", compare_args->base, "the base run's per-job CSV (e.g. simulate --jobs-csv)")->required();
  compare->add_option("new", compare_args->candidate, "the new run's per-job CSV")->required();
  add_column_options(compare, compare_args->columns, compare_args->delimiter);
  auto* json = compare->add_flag("--json", compare_args->json, "print JSON");
  compare->add_flag("--csv", compare_args->csv, "print CSV (header + one row)")->excludes(json);

  return [=]() -> int {
    if (audit->parsed()) {
      audit_args->pivots_given = pivots->count() > 0;
      return run_audit(*audit_args);
    }
    if (compare->parsed()) return run_compare(*compare_args);
    return -1;
  };
}

}  // namespace schedcheck::cli
