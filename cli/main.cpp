// The schedcheck command line: list | run | solve | check | search | suite | generate.
// Our own. Exit codes: 0 all properties hold; 1 a property fails; 2 bad input or usage;
// 3 the exact method could not decide within its time limit; 4 internal error (a schedcheck bug).
#include "cli/output.hpp"
#include "cli/conformance.hpp"
#include "cli/experiment.hpp"
#include "cli/external_policy.hpp"
#include "cli/gantt.hpp"
#include "solver/z3_support.hpp"
#include "support/executor.hpp"
#include "support/process_group.hpp"
#include "support/files.hpp"
#include "support/memory.hpp"
#include "support/signals.hpp"
#include "cli/simulate.hpp"
#include "cli/validators.hpp"
#include "counterexamples/builtin.hpp"
#include "counterexamples/grid_trace_generator.hpp"
#include "counterexamples/lublin_generator.hpp"
#include "counterexamples/search.hpp"
#include "experiments/sweep_folder.hpp"
#include "model/input.hpp"
#include "model/scenario.hpp"
#include "experiments/experiment.hpp"
#include "reference/cluster_policies.hpp"
#include "model/auction_scenario.hpp"
#include "reference/auction_brokers.hpp"
#include "reference/router_policies.hpp"
#include "support/stop.hpp"
#include "model/workload.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <iostream>

namespace {

using namespace schedcheck;
namespace fs = std::filesystem;

constexpr int kExitBadInput = 2;
constexpr int kExitLimit = 3;
constexpr int kExitInternal = 4;

struct OutputFlags {
  bool json = false;
  bool csv = false;
  cli::Format format() const { return json ? cli::Format::kJson : csv ? cli::Format::kCsv : cli::Format::kTable; }
};

void add_output_flags(CLI::App* command, OutputFlags& flags) {
  auto* json = command->add_flag("--json", flags.json, "print one JSON object (fields: docs/cli.md)");
  command->add_flag("--csv", flags.csv, "print CSV (header + one row)")->excludes(json);
}

// --jobs and --shard, as every parallel command takes them (support/executor.hpp).
void add_parallel_flags(CLI::App* command, std::size_t& jobs, std::string& shard) {
  command->add_option("--jobs,-j", jobs, "worker threads (0: one a core); the results do not depend on it")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{1024}));
  command->add_option("--shard", shard,
                      "I/N: run shard I of N only (a batch job array's task), every N-th item; `schedcheck merge` "
                      "combines the shards' --out folders into what one run writes");
}

// --timeout-ms and --effort. With `budget` (search and suite), --effort goes there and defaults to
// default_effort(--timeout-ms) (solver/result.hpp; budget_by_default sets it once the flags are parsed), so that every
// thread, rank and shard proves the same instances; else it defaults to none.
void add_solve_flags(CLI::App* command, CheckRequest& request, std::optional<std::uint64_t>* budget = nullptr) {
  command->add_option("--timeout-ms", request.solve.timeout_ms,
                      budget ? "time limit of the exact method, milliseconds (a safety net: the effort budget ends a "
                               "solve first)"
                             : "time limit of the exact method, milliseconds")
      ->capture_default_str()
      ->check(CLI::Range(1u, 86'400'000u));
  const std::string effort = "effort budget of the exact method in machine-independent units (search nodes, solver "
                             "conflicts, Z3 resource units: docs/cli.md), so that what is proven is the same on any "
                             "machine and under any load; 0: none. ";
  const CLI::Range units(std::uint64_t{0}, std::uint64_t{1} << 62);
  if (budget)
    command->add_option("--effort", *budget, effort + "Default: a tenth of what --timeout-ms is worth (10 s: 250000)")
        ->check(units);
  else
    command->add_option("--effort", request.solve.effort, effort + "--timeout-ms stays as a safety net")
        ->capture_default_str()
        ->check(units);
}

void budget_by_default(CheckRequest& request, const std::optional<std::uint64_t>& effort) {
  request.solve.effort = effort.value_or(default_effort(request.solve.timeout_ms));
}

std::string list_text(const Registry& registry, bool json) {
  if (json) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& p : registry.problems()) all.push_back(problem_json(*p));
    return json_text(all) + "\n";
  }
  std::string out;
  for (const auto& p : registry.problems()) {
    out += fmt::format("problem  {:<22} {}  [{}]\n", p->info().name, p->info().summary, p->info().source);
    auto section = [&](const char* label, const std::vector<Described>& items) {
      for (const auto& d : items) out += fmt::format("  {:<10}{:<20} {}  [{}]\n", label, d.name, d.summary, d.source);
    };
    section("policy", p->policies());
    section("exact", p->exact_methods());
    section("property", p->properties());
    out += fmt::format("  {:<10}{}\n", "generator", p->generator_settings());
  }
  out += "\nexact methods: the first listed is the default oracle; choose another with --exact.\n";
  // The catalogues of the trace-driven commands (the names simulate, audit and experiment take).
  out += "\ncluster policies (simulate --policy, audit --policy; their parameters: simulate --policy-param NAME=VALUE):\n";
  for (const auto& p : cluster::cluster_policies()) {
    std::string promises;
    for (const auto& name : p.promises) promises += (promises.empty() ? "" : ", ") + name;
    out += fmt::format("  {:<14} {}  [{}]; promises {}\n", p.name, p.summary, p.source, promises);
    for (const auto& spec : p.params)  // its parameters (simulate --policy-param NAME=VALUE)
      out += fmt::format("  {:<14} parameter {}\n", "", cluster::describe(spec));
  }
  out += "routers (simulate --broker):\n";
  for (const auto& r : router::router_policies())
    out += fmt::format("  {:<14} {}  [{}]{}\n", r.name, r.summary, r.source, r.needs_status_reports ? "; needs status reports" : "");
  out += "auction brokers (a user's \"policy\" in an auction scenario, experiment auction):\n";
  for (const auto& b : auction::broker_policies())
    out += fmt::format("  {:<14} {}  [{}]{}\n", b.name, b.summary, b.source, b.needs_bid ? "; bids the user's fixed bid" : "");
  out += "auctioneer rules (an auction scenario's fields; the first value of each is the default):\n";
  for (const auto& r : auction::auctioneer_rules())
    out += fmt::format("  {:<14} {}  [{}]\n", r.key + ": " + r.value, r.summary, r.source);
  out += "experiments (schedcheck experiment NAME; --list for their options):\n";
  for (const auto& e : experiments::catalogue()) out += fmt::format("  {:<14} {}  [{}]\n", e.name, e.summary, e.source);
  return out;
}

// Instance files named on the command line, or every *.json under a directory, sorted.
std::vector<std::string> instance_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    if (fs::is_directory(path)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::recursive_directory_iterator(path))
        if (entry.is_regular_file() && (entry.path().extension() == ".json" || entry.path().extension() == ".swf"))
          found.push_back(entry.path().string());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(path);
    }
  }
  return files;
}

// One suite file's checks, as an executor item gives them back: the reports (report_record) and whether every check
// of the file finished; a bad file's message in `error`, raised when its turn comes (files are reported in order).
struct SuiteFile {
  std::vector<Report> reports;
  bool complete = true;
  std::string error;
};

std::string suite_file_bytes(const SuiteFile& f) {
  nlohmann::json reports = nlohmann::json::array();
  for (const auto& r : f.reports) reports.push_back(report_record(r));
  const std::vector<std::uint8_t> bytes =
      nlohmann::json::to_cbor({{"reports", reports}, {"complete", f.complete}, {"error", f.error}});
  return std::string(bytes.begin(), bytes.end());
}

SuiteFile suite_file_from_bytes(const std::string& bytes) {
  const nlohmann::json j = nlohmann::json::from_cbor(bytes);
  SuiteFile f;
  for (const auto& r : j.at("reports")) f.reports.push_back(report_from_record(r));
  f.complete = j.at("complete").get<bool>();
  f.error = j.at("error").get<std::string>();
  return f;
}

// Every check of one file: each policy of each problem that reads its kind (see run_suite).
SuiteFile check_suite_file(const Registry& registry, const std::string& file, const CheckRequest& base,
                           const std::string& only_policy, const std::vector<std::string>& problems) {
  SuiteFile out;
  try {
    const nlohmann::json document = workload::read_instance_file(file);
    const std::string kind = document.is_object() && document.contains("kind") && document["kind"].is_string()
                                 ? document["kind"].get<std::string>()
                                 : "";
    if (kind.empty()) throw InputError(fmt::format("{}: kind: missing required field (which problem family the file "
                                                   "is for, e.g. \"sla-site\"; see docs/formats.md)", file));
    if (kind == scenario::kInstanceKind || kind == auction::kScenarioKind) return out;  // a system to simulate
    bool matched = false;
    for (const auto& problem : registry.problems()) {
      if (problem->instance_kind() != kind) continue;
      matched = true;
      if (!problems.empty() && std::find(problems.begin(), problems.end(), problem->info().name) == problems.end())
        continue;  // --problem: a file of a kind the chosen problems do not read is skipped
      for (const auto& policy : problem->policies()) {
        if (!only_policy.empty() && policy.name != only_policy) continue;
        // A policy that answers a decision the instance records (a run's) runs only where one is recorded.
        if (const std::string member = problem->policy_only_with(policy.name);
            only_policy.empty() && !member.empty() && !document.contains(member))
          continue;
        CheckRequest request = base;
        request.policy = policy.name;
        Report report;
        try {
          report = problem->check(document, file, request);
        } catch (const StopRequested&) {
          out.complete = false;
          return out;
        }
        if (stop_requested()) {  // this check may have been cut short: not reported
          out.complete = false;
          return out;
        }
        out.reports.push_back(std::move(report));
      }
    }
    if (!matched) throw InputError(fmt::format("{}: kind: no registered problem reads {} (see `schedcheck list`)", file, quoted_text(kind)));
  } catch (const PolicyFailure&) {
    throw;  // the policy's failure ends the suite at once
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

// What `suite --shard I/N --out DIR` writes into DIR for `schedcheck merge`: CBOR (every double exact), the suite's
// identity (its files, options and problems), the shard, and the reports of each of its files.
constexpr const char* kSuiteShardFile = "suite-shard.cbor";

nlohmann::json suite_identity(const std::vector<std::string>& files, const CheckRequest& base,
                              const std::string& only_policy, const std::vector<std::string>& problems) {
  return {{"files", files},           {"policy", only_policy},      {"policy_cmd", base.policy_cmd},
          {"exact", base.exact},      {"tolerance", base.tolerance}, {"timeout_ms", base.solve.timeout_ms},
          {"effort", base.solve.effort}, {"problems", problems}};
}

// A suite's rows and exit code from its reports in file order, as `suite` prints them.
int print_suite_rows(const std::vector<Report>& reports, const OutputFlags& out) {
  int exit_code = 0;
  for (const auto& report : reports) {
    exit_code = std::max(exit_code, report.exit_code() == 3 ? 3 : 0);
    if (report.exit_code() == 1) exit_code = 1;
  }
  std::cout << cli::render_rows(reports, out.format());
  return exit_code;
}

// `only_policy` (--policy-cmd): check that policy alone, else every policy of each file's problem.
// `problems` (--problem): only these problems (empty: every problem that reads a file's kind).
// The files are checked on `jobs` workers (or the ranks of mpirun, or one shard's files) and reported in file order
// (the first bad file in that order ends it).
int run_suite(const Registry& registry, const std::vector<std::string>& paths, const CheckRequest& base,
              const OutputFlags& out, const std::string& only_policy, const std::vector<std::string>& problems,
              std::size_t jobs, const Shard& shard, const std::string& out_dir) {
  if (shard.given() && out_dir.empty()) throw InputError("suite --shard: expected --out DIR (where `schedcheck merge` "
                                                         "finds the shard's results)");
  if (!out_dir.empty() && process_group().root()) prepare_output_directory(out_dir, "--out");
  std::vector<Report> reports;
  nlohmann::json by_file = nlohmann::json::array();  // [file index, [report records]] of the files delivered
  const std::vector<std::string> files = instance_files(paths);
  std::size_t files_done = 0;
  const std::unique_ptr<Executor> executor = make_executor(jobs, shard);
  executor->run(
      files.size(),
      [&](std::size_t k) {
        return suite_file_bytes(check_suite_file(registry, files[k], base, only_policy, problems));
      },
      [&](std::size_t k, std::string&& bytes) {
        SuiteFile f = suite_file_from_bytes(bytes);
        if (!f.error.empty()) throw InputError(f.error);
        nlohmann::json records = nlohmann::json::array();
        for (auto& report : f.reports) {
          records.push_back(report_record(report));
          reports.push_back(std::move(report));
        }
        if (f.complete) by_file.push_back(nlohmann::json::array({k, std::move(records)}));
        files_done += f.complete;
      });
  const int exit_code = print_suite_rows(reports, out);
  if (!out_dir.empty() && process_group().root()) {
    const nlohmann::json shard_file = {
        {"kind", "suite-shard"}, {"shard", {shard.given() ? shard.index : 1, shard.given() ? shard.count : 1}},
        {"suite", suite_identity(files, base, only_policy, problems)}, {"interrupted", stop_requested()},
        {"files_done", files_done}, {"reports", std::move(by_file)}};
    const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(shard_file);
    write_file_atomically((std::filesystem::path(out_dir) / kSuiteShardFile).string(),
                          std::string(cbor.begin(), cbor.end()));
  }
  if (stop_requested()) {  // the rows above are the checks that finished; say what was left out
    std::cerr << fmt::format("schedcheck: suite {} after {} of {} files ({} checks reported)\n", stop_request_text(),
                             files_done, files.size(), reports.size());
    return interrupted_exit_code();
  }
  return exit_code;
}

bool has_suite_shard(const std::string& dir) {
  return std::filesystem::exists(std::filesystem::path(dir) / kSuiteShardFile);
}

// `schedcheck merge` of `suite --shard` folders: every shard of one suite, none stopped; prints the rows one suite
// run prints, in file order, and writes them as OUT/rows.csv.
int merge_suite_shards(const std::vector<std::string>& dirs, const std::string& out_dir, const OutputFlags& out) {
  nlohmann::json identity;
  ShardSet given;
  std::map<std::size_t, std::vector<Report>> by_file;
  for (const auto& dir : dirs) {
    const std::string path = (std::filesystem::path(dir) / kSuiteShardFile).string();
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("{}: expected a shard's --out folder ({} of `suite ... --shard I/N --out DIR`)",
                                          dir, kSuiteShardFile));
    try {
      const nlohmann::json shard = nlohmann::json::from_cbor(in);
      const Shard which{shard.at("shard").at(0).get<std::size_t>(), shard.at("shard").at(1).get<std::size_t>()};
      if (identity.is_null()) identity = shard.at("suite");
      else if (shard.at("suite") != identity)
        throw InputError(fmt::format("merge: {} is a shard of another suite than {} (other files, policy or option)",
                                     dir, dirs.front()));
      if (shard.at("interrupted").get<bool>())
        throw InputError(fmt::format("merge: {}: shard {}/{} was stopped after {} files; run it again (a merge of a "
                                     "cut shard would not be the suite's result)", dir, which.index, which.count,
                                     shard.at("files_done").get<std::size_t>()));
      given.add(which, dir);
      for (const auto& entry : shard.at("reports")) {
        std::vector<Report>& reports = by_file[entry.at(0).get<std::size_t>()];
        for (const auto& r : entry.at(1)) reports.push_back(report_from_record(r));
      }
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{}: expected the CBOR `suite --shard` writes ({})", path, e.what()));
    }
  }
  given.require_all();
  std::vector<Report> reports;
  for (auto& [file, file_reports] : by_file)
    for (auto& r : file_reports) reports.push_back(std::move(r));
  prepare_output_directory(out_dir, "--out");
  write_file_atomically((std::filesystem::path(out_dir) / "rows.csv").string(), cli::render_rows(reports, cli::Format::kCsv));
  return print_suite_rows(reports, out);
}

int print_search(const Problem& problem, const SearchOptions& options, const SearchSummary& summary,
                 const nlohmann::json& written, const CorpusWriter& writer, const OutputFlags& out);

int run_search(const Problem& problem, SearchOptions options, const std::string& out_dir, bool quiet,
               const OutputFlags& out) {
  // refused before any time is spent (exit 2); under mpirun rank 0 alone writes
  if (process_group().root()) prepare_output_directory(out_dir, "--out");
  const auto progress = [&](const SearchProgress& p) {
    if (quiet || !process_group().root()) return;
    std::cerr << fmt::format("search {} {}: {}/{} checked, {} failing, {} undecided, exact unproven on {}, {:.0f} "
                             "checks/s\n",
                             options.problem, options.check.policy, p.done, p.total, p.failing, p.undecided,
                             p.unproven, static_cast<double>(p.done) / std::max(p.seconds, 1e-9));
  };
  // Each counterexample is written (atomically: temporary file, then rename) as soon as it is shrunk, so a run
  // stopped or killed later keeps it. A write failure (disk full, the directory removed) stops the writing; the
  // summary is still printed, then exit 2.
  nlohmann::json written = nlohmann::json::array();
  CorpusWriter writer;
  const auto write = [&](const Counterexample& found) {
    const std::optional<std::string> file = writer.write(problem, found, options, out_dir);
    if (!file) return;
    nlohmann::json entry = counterexample_json(found);
    entry["file"] = *file;
    written.push_back(std::move(entry));
  };
  const SearchSummary summary =
      options.exhaustive ? exhaustive_search(problem, options, write, nullptr, progress)
                         : search(problem, options, progress, write);
  if (options.shard.given() && process_group().root())  // what `schedcheck merge` reads (the corpus files beside it are this shard's)
    write_file_atomically((std::filesystem::path(out_dir) / kSearchShardFile).string(),
                          json_text(search_shard_json(summary, options)) + "\n");
  return print_search(problem, options, summary, written, writer, out);
}

// What `search` prints (and `merge` of its shards): the summary, the properties that failed, the files written.
int print_search(const Problem& problem, const SearchOptions& options, const SearchSummary& summary,
                 const nlohmann::json& written, const CorpusWriter& writer, const OutputFlags& out) {
  const double rate = static_cast<double>(summary.checked) / std::max(summary.seconds, 1e-9);
  if (out.json) {
    nlohmann::json json = summary_json(summary, options);
    json["counterexamples"] = written;
    json["write_error"] = writer.error_json();
    std::cout << json_text(json) << "\n";
  } else {
    if (options.exhaustive)
      std::cout << fmt::format("checked every instance of {} within scope {}: {} instances in {:.2f} s ({:.0f} "
                               "checks/s), policy {}: {} failing, {} undecided; exact side unproven on {}\n",
                               options.problem,
                               options.scope.empty() ? "the default, " + problem.enumerate_settings() : options.scope,
                               summary.checked, summary.seconds, rate, options.check.policy, summary.failing,
                               summary.undecided, summary.unproven);
    else
      std::cout << fmt::format("checked {} instances of {} (n = {}, seed {}) in {:.2f} s ({:.0f} checks/s): {} "
                               "failing, {} undecided; exact side unproven on {}\n",
                               summary.checked, options.problem, options.size, options.seed, summary.seconds, rate,
                               summary.failing, summary.undecided, summary.unproven);
    if (summary.interrupted)
      std::cout << fmt::format("interrupted ({}) after {} checked instances; the counts cover those\n",
                               stop_request_text(), summary.checked);
    if (summary.failing == 0 && summary.undecided == 0)
      std::cout << fmt::format("no property failed on {} instances\n", summary.checked);
    for (const auto& [property, count] : summary.failing_by_property)
      std::cout << fmt::format("  {} fails on {} of {} instances\n", property, count, summary.checked);
    for (const auto& w : written)
      std::cout << fmt::format("  wrote {}  ({} fails; shrunk from {} to {} items)\n", w["file"].get<std::string>(),
                               w["property"].get<std::string>(), w["original_size"].get<std::size_t>(),
                               w["shrunk_size"].get<std::size_t>());
  }
  if (!writer.error.empty()) {
    std::cerr << "schedcheck: " << printable_text(writer.error) << "\n";
    return kExitBadInput;
  }
  if (summary.interrupted) return interrupted_exit_code();
  if (summary.failing > 0) return 1;
  return summary.undecided > 0 ? 3 : 0;
}

// `schedcheck merge --out OUT DIR...`: the shards of one search or one experiment sweep, combined into what one run
// writes and prints.
int run_merge(const Registry& registry, const std::vector<std::string>& dirs, const std::string& out_dir, bool force,
              const OutputFlags& out) {
  if (!dirs.empty() && has_suite_shard(dirs.front())) return merge_suite_shards(dirs, out_dir, out);
  if (!dirs.empty() && experiments::has_point_folder(dirs.front())) {
    const experiments::MergedSweep m = experiments::merge_sweep_shards(dirs, out_dir, force, registry);
    for (const auto& failure : m.written.plot_failures) std::cerr << "schedcheck: plot not drawn: " << failure << "\n";
    if (out.json) std::cout << json_text(m.written.summary) << "\n";
    else
      std::cout << printable_lines(fmt::format(
          "merge: experiment {}: {} points from {} shards; wrote {} files in {} (summary.json lists them){}\n",
          m.experiment, m.points, m.shards, m.written.files.size(), out_dir,
          m.violations ? fmt::format("; {} violations (exit 1)", m.violations) : std::string()));
    return m.violations ? 1 : 0;
  }
  const MergedSearch m = merge_search_shards(dirs);
  const Problem& problem = registry.get(m.options.problem);
  prepare_output_directory(out_dir, "--out");
  nlohmann::json written = nlohmann::json::array();
  CorpusWriter writer;
  for (const auto& found : m.summary.counterexamples) {
    const std::optional<std::string> file = writer.write(problem, found, m.options, out_dir);
    if (!file) break;
    nlohmann::json entry = counterexample_json(found);
    entry["file"] = *file;
    written.push_back(std::move(entry));
  }
  return print_search(problem, m.options, m.summary, written, writer, out);
}

int run_cli(int argc, char** argv) {
  Registry registry = make_builtin_registry();

  CLI::App app{"schedcheck: scheduling policies of five grid/cloud papers, checked against exact optima.\n"
               "Exit codes: 0 all properties hold, 1 a property fails, 2 bad input or usage,\n"
               "3 the exact method could not decide within its time limit (or --memory-mb was reached),\n"
               "4 internal error.\n"
               "Docs: README.md, docs/cli.md, docs/formats.md."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every command");

  std::string problem_name, instance_file, out_dir;
  bool quiet = false, list_json = false;
  std::vector<std::string> suite_paths, suite_problems;
  std::size_t suite_jobs = 1;
  OutputFlags out;
  CheckRequest request;
  SearchOptions search_options;
  std::string search_shard;
  cli::ExternalPolicyOptions external;

  auto* list = app.add_subcommand("list", "problems, policies, exact methods and properties, with their sources");
  list->add_flag("--json", list_json, "print JSON");

  auto* run = app.add_subcommand("run", "run one policy on an instance and check the properties that need no optimum");
  auto* solve = app.add_subcommand("solve", "solve an instance exactly (exit 3 if not proven within the time limit)");
  auto* check = app.add_subcommand("check", "run a policy and an exact method, compare, and check every property");
  for (auto* command : {run, solve, check}) {
    command->add_option("problem", problem_name, "problem name (see `schedcheck list`)")->required();
    command->add_option("--instance,-i", instance_file, "instance file (JSON, docs/formats.md; cluster-run also reads .swf traces)")->required();
    add_output_flags(command, out);
  }
  for (auto* command : {run, check})
    cli::add_external_policy_options(command, external,
                                command->add_option("--policy,-p", request.policy, "policy name (see `schedcheck list`)"));
  for (auto* command : {solve, check}) {
    command->add_option("--exact,-e", request.exact,
                        command == solve ? "exact method, or `all` to run and compare every one (default: the first "
                                           "listed by `schedcheck list`)"
                                         : "exact method (default: the first listed by `schedcheck list`)");
    add_solve_flags(command, request);
  }
  check->add_option("--tolerance", request.tolerance, "optimal-within: allowed relative gap to the optimum")
      ->capture_default_str()
      ->check(cli::finite_range(0.0, 1.0));

  auto* search_cmd = app.add_subcommand("search", "random instances from a seeded generator, each checked; failures "
                                                  "are shrunk and written as corpus files");
  search_cmd->add_option("problem", search_options.problem, "problem name")->required();
  cli::add_external_policy_options(search_cmd, external,
                              search_cmd->add_option("--policy,-p", search_options.check.policy, "policy to check"));
  search_cmd->add_option("--trials", search_options.trials, "instances to generate and check")
      ->capture_default_str()->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  search_cmd->add_option("--seed", search_options.seed, "seed; the same seed gives the same instances everywhere")
      ->capture_default_str();
  search_cmd->add_option("--size", search_options.size, "items per instance (e.g. bids)")
      ->capture_default_str()->check(CLI::Range(std::size_t{0}, std::size_t{100'000}));
  search_cmd->add_option("--tolerance", search_options.check.tolerance, "optimal-within: allowed relative gap")
      ->capture_default_str()->check(cli::finite_range(0.0, 1.0));
  search_cmd->add_option("--exact,-e", search_options.check.exact, "exact method (default: the problem's first)");
  std::optional<std::uint64_t> search_effort;
  add_solve_flags(search_cmd, search_options.check, &search_effort);
  search_cmd->add_option("--max-counterexamples", search_options.max_counterexamples,
                         "stop shrinking and writing after this many")->capture_default_str();
  search_cmd->add_option("--out", out_dir, "directory for the counterexample files")->required();
  search_cmd->add_flag("--quiet,-q", quiet, "no progress lines on stderr");
  search_cmd->add_flag("--exhaustive", search_options.exhaustive,
                       "check every instance within --scope instead of random trials (problems that can enumerate)");
  search_cmd->add_option("--scope", search_options.scope,
                         "exhaustive scope, problem-defined (offer-composition: providers=P,offers=K,max=V)");
  search_cmd->add_flag("--json", out.json, "print the summary as JSON");
  add_parallel_flags(search_cmd, search_options.jobs, search_shard);

  std::vector<std::string> merge_dirs;
  std::string merge_out;
  bool merge_force = false;
  auto* merge = app.add_subcommand("merge", "combine the --out folders of a search's, a suite's or an experiment's "
                                            "shards (--shard 1/N .. N/N) into what one run writes");
  merge->add_option("dirs", merge_dirs, "every shard's --out folder")->required();
  merge->add_option("--out", merge_out, "where the combined results go")->required();
  merge->add_flag("--force", merge_force, "an experiment's --out that holds other files: keep them");
  auto* merge_json = merge->add_flag("--json", out.json, "print the summary (a suite's: its rows) as JSON");
  merge->add_flag("--csv", out.csv, "a suite's shards: print the rows as CSV")->excludes(merge_json);

  auto* suite = app.add_subcommand("suite", "check every policy of every problem on instance files or directories");
  suite->add_option("paths", suite_paths, "instance files or directories of *.json")->required();
  suite->add_option("--tolerance", request.tolerance, "optimal-within: allowed relative gap")
      ->capture_default_str()->check(cli::finite_range(0.0, 1.0));
  std::optional<std::uint64_t> suite_effort;
  add_solve_flags(suite, request, &suite_effort);
  add_output_flags(suite, out);
  cli::add_external_policy_options(suite, external, nullptr);
  std::string suite_shard, suite_out;
  add_parallel_flags(suite, suite_jobs, suite_shard);
  suite->add_option("--out", suite_out, "also write the rows' reports here (with --shard: what `schedcheck merge` "
                                        "combines)");
  suite->add_option("--problem", suite_problems, "only these problems (repeatable; default: every problem that reads "
                                                 "a file's kind)");

  std::string schema_problem;
  auto* protocol = app.add_subcommand("protocol", "the JSON Schema of the decision a policy outside C++ returns "
                                                  "(--policy-cmd; docs/protocol.md)");
  protocol->add_option("--schema", schema_problem, "problem name (default: every problem, as one object)");

  std::uint64_t generate_seed = 1;
  std::size_t generate_size = 10;
  auto* generate = app.add_subcommand("generate", "print a random instance from the problem's seeded generator");
  generate->add_option("problem", problem_name, "problem name")->required();
  generate->add_option("--seed", generate_seed, "seed")->capture_default_str();
  generate->add_option("--size", generate_size, "items (e.g. bids)")->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{100'000}));

  workload::GridTraceSettings grid;
  std::string grid_out;
  auto* generate_trace = app.add_subcommand(
      "generate-trace", "write a synthetic grid workload as SWF (seeded): serial jobs in bursts at a chosen offered "
                        "load, run times and queue limits shaped after LPC-EGEE-2004 (docs/simulation.md)");
  generate_trace->add_option("--seed", grid.seed, "seed")->capture_default_str();
  generate_trace->add_option("--jobs", grid.jobs, "jobs")->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10'000'000}));
  generate_trace->add_option("--processors", grid.processors, "processors of the machine (the header's MaxProcs)")
      ->capture_default_str()->check(CLI::Range(1, 10'000'000));
  generate_trace->add_option("--load", grid.load, "offered load: total run time / (processors x submission span)")
      ->capture_default_str()->check(CLI::Range(1e-6, 100.0));
  generate_trace->add_option("--bag-mean", grid.bag_mean, "jobs a burst on average (bursts share a submit second)")
      ->capture_default_str()->check(CLI::Range(1.0, 1e7));
  generate_trace->add_option("--out", grid_out, "write the trace to this file (default: stdout)");

  workload::LublinSettings lublin;
  std::string workload_model, lublin_type = "all", lublin_out;
  auto* generate_workload = app.add_subcommand(
      "generate-workload", "write a synthetic workload of a published model as SWF (seeded): lublin, the Lublin & "
                           "Feitelson (2003) model of rigid parallel jobs (docs/simulation.md)");
  generate_workload->add_option("model", workload_model, "the model: lublin")->required()
      ->check(CLI::IsMember({"lublin"}));
  generate_workload->add_option("--processors", lublin.processors, "processors of the machine (the header's MaxProcs)")
      ->required()->check(CLI::Range(1, static_cast<int>(workload::kMaxProcessors)));
  auto* lublin_jobs = generate_workload->add_option("--jobs", lublin.jobs, "this many jobs")
      ->check(CLI::Range(std::size_t{1}, workload::kLublinMaxJobs));
  generate_workload->add_option("--days", lublin.days, "every job submitted within this many days")
      ->check(cli::finite_range(0, workload::kLublinMaxDays, true))->excludes(lublin_jobs);
  generate_workload->add_option("--seed", lublin.seed, "seed")->required();
  generate_workload->add_option("--type", lublin_type, "the model's parameters: all (typeless, the default), batch, "
                                                       "interactive, or both (batch and interactive arrivals merged)")
      ->capture_default_str()->check(CLI::IsMember(workload::lublin_type_names()));
  generate_workload->add_option("--out", lublin_out, "write the trace to this file (default: stdout)");

  const auto run_trace_command = cli::add_trace_commands(app, registry);
  const auto run_gantt_command = cli::add_gantt_command(app, registry);
  const auto run_conformance_command = cli::add_conformance_command(app);
  // The command an experiment records (summary.json): as one process would run it, without --shard and --resume, so
  // that the shards of a sweep and its resumed runs record the command of the whole sweep.
  std::string command_line = "schedcheck";
  for (int k = 1; k < argc; ++k) {
    const std::string_view word = argv[k];
    if (word == "--resume" || word.starts_with("--shard=")) continue;
    if (word == "--shard") {
      ++k;
      continue;
    }
    command_line += " " + shell_quoted(argv[k]);
  }
  const auto run_experiment_command = cli::add_experiment_command(app, registry, command_line);

  // Every command: the memory ceiling (support/memory.hpp).
  std::uint64_t memory_mb = 0;
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    command->add_option("--memory-mb", memory_mb,
                        "memory ceiling in MB (heap and thread stacks); past it the run stops with exit 3 "
                        "(default: none)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // one line, like every other input error
    std::cerr << "schedcheck: " << printable_text(e.what()) << " (see `schedcheck --help` or `schedcheck COMMAND --help`)\n";
    return kExitBadInput;
  }

  if (memory_mb > 0) {
    limit_memory_mb(memory_mb);
    z3support::limit_memory_mb(static_cast<unsigned>(memory_mb));
  }
  if (*list) {
    std::cout << list_text(registry, list_json);
    return 0;
  }
  if (*protocol) {
    nlohmann::json schemas = nlohmann::json::object();
    for (const auto& problem : registry.problems())
      if (problem->accepts_external_policies() && (schema_problem.empty() || problem->info().name == schema_problem))
        schemas[problem->info().name] = problem->decision_schema();
    if (!schema_problem.empty() && schemas.empty()) {
      if (!registry.get(schema_problem).accepts_external_policies())  // throws on an unknown name
        throw InputError(fmt::format("protocol --schema: problem {} takes no policies outside C++", schema_problem));
    }
    std::cout << json_text(schema_problem.empty() ? schemas : schemas[schema_problem]) << "\n";
    return 0;
  }
  if (const int code = run_trace_command(); code >= 0) return code;
  if (const int code = run_gantt_command(); code >= 0) return code;
  if (const int code = run_conformance_command(); code >= 0) return code;
  if (const int code = run_experiment_command(); code >= 0) return code;
  // --policy-cmd: one process for the whole run, registered on each problem the command is asked about.
  std::optional<cli::ExternalPolicy> policy_process;
  auto use_external = [&](Problem& problem, CheckRequest& into) {
    if (!external.given()) return;
    if (!policy_process) policy_process.emplace(external);
    policy_process->register_with(problem);
    into.policy = external.name;
    into.policy_cmd = external.command;
  };
  for (auto* command : {run, check, search_cmd})
    if (*command && !external.given() && (command == search_cmd ? search_options.check.policy : request.policy).empty())
      throw InputError(fmt::format("{}: expected --policy NAME (see `schedcheck list`) or --policy-cmd COMMAND", command->get_name()));
  if (*suite) {
    budget_by_default(request, suite_effort);
    for (const auto& name : suite_problems) (void)registry.get(name);  // known names?
    if (external.given())
      for (const auto& problem : registry.problems()) {
        const std::string& name = problem->info().name;
        const bool chosen = suite_problems.empty() ||
                            std::find(suite_problems.begin(), suite_problems.end(), name) != suite_problems.end();
        if (chosen && problem->accepts_external_policies()) use_external(registry.get(name), request);
      }
    return run_suite(registry, suite_paths, request, out, external.given() ? external.name : "", suite_problems,
                     suite_jobs, suite_shard.empty() ? Shard{} : parse_shard(suite_shard), suite_out);
  }
  if (*generate) {
    std::cout << json_text(registry.get(problem_name).generate(generate_seed, generate_size)) << "\n";
    return 0;
  }
  if (*generate_trace) {
    if (grid.bag_mean > static_cast<double>(grid.jobs))
      throw std::invalid_argument("--bag-mean: expected at most --jobs (" + std::to_string(grid.jobs) + ")");
    const workload::Workload w = workload::generate_grid_trace(grid);
    const std::string text = workload::write_swf(
        w, {fmt::format("Note: synthetic grid workload: schedcheck generate-trace --seed {} --jobs {} --processors {} "
                        "--load {} --bag-mean {}", grid.seed, grid.jobs, grid.processors, grid.load, grid.bag_mean)});
    if (grid_out.empty()) std::cout << text;
    else write_file_atomically(grid_out, text);
    return 0;
  }
  if (*generate_workload) {
    if (lublin.jobs == 0 && lublin.days == 0)
      throw std::invalid_argument("generate-workload: expected --jobs M or --days D");
    lublin.type = *workload::lublin_type(lublin_type);
    const std::string text = workload::lublin_swf(lublin);
    if (lublin_out.empty()) std::cout << text;
    else write_file_atomically(lublin_out, text);
    return 0;
  }
  if (*merge) return run_merge(registry, merge_dirs, merge_out, merge_force, out);
  if (*search_cmd) {
    budget_by_default(search_options.check, search_effort);
    Problem& problem = registry.get(search_options.problem);
    use_external(problem, search_options.check);
    try {  // names valid? (a policy process, the property and method names)
      (void)problem.check(problem.generate(search_options.seed, 0), "(probe)", search_options.check);
    } catch (const StopRequested&) {
      // stopped while the probe's policy was asked (e.g. SIGTERM to the whole job): the search below starts no
      // trial and prints its summary, as after a stop at any later point
    }
    if (!search_shard.empty()) search_options.shard = parse_shard(search_shard);
    search_options.jobs = jobs_from_option(search_options.jobs);
    if (search_options.exhaustive && problem.enumerate_settings().empty())
      throw std::invalid_argument("problem " + search_options.problem + " has no exhaustive mode (--exhaustive)");
    return run_search(problem, search_options, out_dir, quiet, out);
  }

  Problem& problem = registry.get(problem_name);
  if (*solve && problem.exact_methods().empty())
    throw InputError(fmt::format("solve {}: this problem has no exact method; "
                                 "its policies are checked by their properties: schedcheck check {} --policy P -i FILE",
                                 problem_name, problem_name));
  const nlohmann::json document = workload::read_instance_file(instance_file);
  if (*run || *check) use_external(problem, request);
  if (*run) request.exact = "none";
  if (*solve && request.exact == "all") {
    const auto reports = problem.solve_all(document, instance_file, request.solve);
    std::cout << cli::render_rows(reports, out.format());
    int code = 0;
    for (const auto& r : reports) code = std::max(code, r.exit_code());
    // The methods that proved an optimum must agree on its value.
    for (const auto& a : reports)
      for (const auto& b : reports)
        if (a.optimum.status == "optimal" && b.optimum.status == "optimal" &&
            std::abs(a.optimum.objective - b.optimum.objective) >
                1e-6 * std::max({1.0, std::abs(a.optimum.objective), std::abs(b.optimum.objective)}))
          throw InternalError(fmt::format("exact methods disagree: {} proves {}, {} proves {}", a.optimum.name,
                                          a.optimum.objective, b.optimum.name, b.optimum.objective));
    return code;
  }
  const Report report = problem.check(document, instance_file, request);
  std::cout << cli::render_report(report, out.format());
  return report.exit_code();
}

}  // namespace

// Every message is one line on stderr whatever it holds (a hostile file name or option value): printable_text
// escapes control characters and bytes that are not UTF-8 (user text inside a message is already quoted_text).
// A run stopped by SIGINT or SIGTERM (support/signals.hpp) ends with 128 + the signal, after printing what it did.
namespace {
int run_main(int argc, char** argv) {
  try {
    const int code = run_cli(argc, argv);
    if (const int interrupted = interrupted_exit_code()) return interrupted;
    return code;
  } catch (const StopRequested& e) {  // a check cut short where nothing else is left to report
    std::cerr << "schedcheck: " << e.what() << "\n";
    return interrupted_exit_code();
  } catch (const InputError& e) {
    std::cerr << "schedcheck: " << printable_text(e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {  // unknown problem, policy or method
    std::cerr << "schedcheck: " << printable_text(e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {  // past --memory-mb (or the machine's memory): a limit, like the time limit
    if (const auto megabytes = memory_limit_mb())
      std::cerr << "schedcheck: memory limit of " << megabytes << " MB reached (--memory-mb); nothing more was decided\n";
    else
      std::cerr << "schedcheck: out of memory; nothing more was decided\n";
    return kExitLimit;
  } catch (const InternalError& e) {
    std::cerr << "schedcheck: internal error (please report): " << printable_text(e.what()) << "\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "schedcheck: error: " << printable_text(e.what()) << "\n";
    return kExitInternal;
  }
}
}  // namespace

// Under mpirun or srun every rank runs the same command (support/process_group.hpp); rank 0 alone prints and writes.
// The stop signals are blocked before MPI starts its threads, so that theirs are blocked too (support/signals.hpp).
int main(int argc, char** argv) {
  schedcheck::install_stop_signals();
  schedcheck::start_process_group(argc, argv);
  return schedcheck::end_process_group(run_main(argc, argv));
}
