// `schedcheck conformance` (see conformance.hpp). Our own. The cases and the verdict are the library's
// (properties/conformance.hpp); this file writes the cases' folders, runs the user's command on each and renders the
// table.
#include "cli/conformance.hpp"

#include "cli/trace_options.hpp"
#include "model/input.hpp"
#include "model/jobs_csv.hpp"
#include "properties/conformance.hpp"
#include "support/child.hpp"
#include "support/files.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

namespace schedcheck::cli {

namespace {

namespace fs = std::filesystem;

struct ConformanceArgs {
  std::string dir;                     // export, check
  std::string command;                 // run --cmd
  std::string out;                     // run --out
  unsigned timeout_ms = 60'000;        // run: a case's time limit
  std::vector<std::string> only;       // --case NAME, each
  std::vector<std::string> policies;   // --policy P, each
  std::vector<std::string> skip;       // --skip TEXT, each
  bool json = false;
  bool quiet = false;
};

// The files a command may write for a case, in the order they are looked for: the per-job CSV (schedcheck's
// --jobs-csv, Batsim's out_jobs.csv columns) or an SWF of the run (pyss).
constexpr const char* kOutputs[] = {"output.csv", "out_jobs.csv", "output.swf"};

// The reading a case's options give, parsed by the options simulate and audit take.
TraceArgs trace_args(const conformance::Case& c, const std::string& trace_path) {
  CLI::App parser("the trace options of a conformance case");
  TraceArgs a;
  add_trace_options(&parser, a, false);
  std::vector<std::string> words;
  std::istringstream in(c.options);
  for (std::string word; in >> word;) words.push_back(word);
  std::reverse(words.begin(), words.end());
  parser.parse(words);  // the suite's own options: a parse error here is a bug (exit 4)
  a.trace = trace_path;
  return a;
}

std::string audit_command(const conformance::Case& c, const std::string& schedule) {
  std::string out = "schedcheck audit --trace trace.swf --policy " + c.policy;
  if (c.policy == "easy") out += fmt::format(" --pivots {}", c.pivots);
  if (!c.options.empty()) out += " " + c.options;
  return out + " --schedule " + schedule;
}

nlohmann::json case_json(const conformance::Case& c) {
  return {{"name", c.name},     {"policy", c.policy},   {"pivots", c.pivots}, {"reading", c.reading},
          {"options", c.options}, {"rule", c.rule},     {"why", c.why},       {"source", c.source}};
}

// The selected cases: --case names (each known), else every case; then only those of the --policy names.
std::vector<const conformance::Case*> selected(const ConformanceArgs& a) {
  std::vector<const conformance::Case*> out;
  if (a.only.empty())
    for (const conformance::Case& c : conformance::cases()) out.push_back(&c);
  else
    for (const std::string& name : a.only) out.push_back(&conformance::find(name));
  if (!a.policies.empty())
    std::erase_if(out, [&](const conformance::Case* c) {
      return std::find(a.policies.begin(), a.policies.end(), c->policy) == a.policies.end();
    });
  std::erase_if(out, [&](const conformance::Case* c) {
    return std::any_of(a.skip.begin(), a.skip.end(), [&](const std::string& t) { return c->name.find(t) != std::string::npos; });
  });
  return out;
}

// A case's folder: trace.swf, expected.csv (the certified schedule), case.json and README.md.
void write_case(const conformance::Case& c, const fs::path& dir) {
  fs::create_directories(dir);
  const std::string trace = (dir / "trace.swf").string();
  write_file_atomically(trace, c.swf);
  const TraceArgs a = trace_args(c, trace);
  const workload::Workload w = load(a);
  const auto rows = conformance::certified(c, w, a.passes == "event");
  write_file_atomically((dir / "expected.csv").string(), conformance::csv_text(rows));
  // Batsim's workload: the jobs as the case reads them (a job runs min(run, estimate); Batsim kills at the walltime);
  // none when a job that runs has estimate 0, which no walltime says (Batsim reads 0 or -1 as none).
  const bool overrun =
      std::any_of(w.jobs.begin(), w.jobs.end(), [](const workload::Job& j) { return j.estimate <= 0 && j.run > 0; });
  if (!overrun) write_file_atomically((dir / "workload.json").string(), json_text(workload::write_batsim(w)) + "\n");
  nlohmann::json j = case_json(c);
  j["processors"] = w.processors;
  j["jobs"] = w.jobs.size();
  j["conventions"] = workload::describe(read_options(a).conventions);
  j["passes"] = a.passes;
  j["kill_at_request"] = a.kill_at_request;
  j["estimates"] = a.estimates;
  j["files"] = {{"trace", "trace.swf"}, {"expected", "expected.csv"}, {"outputs", kOutputs}};
  j["files"]["batsim_workload"] = overrun ? nlohmann::json(nullptr) : nlohmann::json("workload.json");
  j["audit"] = audit_command(c, "output.csv");
  write_file_atomically((dir / "case.json").string(), json_text(j) + "\n");
  std::string md = fmt::format("# {}\n\n**Rule.** {}\n\n**Why.** {}\n\n", c.name, c.rule, c.why);
  md += fmt::format("- policy: `{}`{}\n- machine: {} processors, {} jobs (trace.swf, from: {})\n", c.policy,
                    c.policy == "easy" ? fmt::format(" with {} pivot{}", c.pivots, c.pivots == 1 ? "" : "s") : "",
                    w.processors, w.jobs.size(), c.source);
  md += fmt::format("- reading: {} (schedcheck's options: `{}`){}\n", c.reading,
                    c.options.empty() ? "none: the documented defaults" : c.options,
                    read_options(a).conventions.any()
                        ? "; times as " + workload::describe(read_options(a).conventions)
                        : "");
  md += overrun ? "- no Batsim workload: a job that runs has estimate 0, which no walltime can say\n"
                 : "- `workload.json`: the same jobs as Batsim's workload (delay profiles; walltime = estimate), as this "
                   "case reads them\n";
  md += fmt::format("- passes: {}\n\n", a.passes == "event" ? "a pass after every arrival and every completion"
                                                            : "one pass after all the events of an instant");
  if (!c.starts.empty()) {
    md += "Starts (hand-computed, and schedcheck's):\n\n| job | start |\n|---|---|\n";
    for (const auto& [id, start] : c.starts) md += fmt::format("| {} | {} |\n", id, start);
    md += "\n";
  }
  md += "`expected.csv` is the schedule schedcheck certifies, one row a job that runs (Batsim's out_jobs.csv "
        "columns). Run your scheduler on `trace.swf`, write its schedule here as `output.csv` (or `out_jobs.csv`, or "
        "an SWF `output.swf`: job id, start and finish are what is read) and check it:\n\n";
  md += fmt::format("    {}\n\nor, for every case of the suite at once, `schedcheck conformance check DIR`.\n",
                    audit_command(c, "output.csv"));
  write_file_atomically((dir / "README.md").string(), md);
}

std::string suite_readme(const std::vector<const conformance::Case*>& cases) {
  std::string md =
      "# schedcheck's conformance suite for FCFS, EASY(k) and conservative backfilling\n\n"
      "One folder a case: `trace.swf` (the jobs), `expected.csv` (the schedule schedcheck certifies), `case.json` (the "
      "policy, the reading of the trace, the rule and why the case exists) and a README. A scheduler passes a case "
      "when it starts and ends every job as `expected.csv` does; it fails when the audit finds a certain violation "
      "of the policy (a job that could have started, a reservation delayed, capacity exceeded); any other schedule "
      "differs: legal under another order of passes, another reading, or wrong in a way no certain check sees.\n\n"
      "Write each case's schedule as `NAME/output.csv` (per-job CSV with job_id, starting_time and finish_time "
      "columns, as Batsim's out_jobs.csv) and run `schedcheck conformance check .` here, or let schedcheck run your "
      "scheduler: `schedcheck conformance run --cmd 'your-sim --trace {trace} --policy {policy} --out {out}'`.\n\n"
      "| case | policy | reading | rule |\n|---|---|---|---|\n";
  for (const conformance::Case* c : cases)
    md += fmt::format("| {} | {}{} | {} | {} |\n", c->name, c->policy,
                      c->policy == "easy" ? fmt::format(" ({})", c->pivots) : "", c->reading, c->rule);
  return md;
}

int run_list(const ConformanceArgs& a) {
  const auto cases = selected(a);
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const conformance::Case* c : cases) out.push_back(case_json(*c));
    std::cout << json_text(out) << "\n";
    return 0;
  }
  std::string out;
  for (const conformance::Case* c : cases)
    out += fmt::format("{:<46} {:<13} {}\n  {}\n", c->name,
                       c->policy == "easy" ? fmt::format("easy({})", c->pivots) : c->policy, c->reading, c->rule);
  out += fmt::format("{} cases (`schedcheck conformance export DIR` writes them, with why each exists)\n", cases.size());
  std::cout << out;
  return 0;
}

// Writes the cases into a new folder `dir` whole or not at all: into a sibling first, renamed when complete.
void write_suite(const std::vector<const conformance::Case*>& cases, const fs::path& dir, const char* what) {
  if (fs::exists(dir))
    throw InputError(fmt::format("{} {}: the folder exists; give a new one (the suite is written whole or not at all)",
                                 what, quoted_text(dir.string(), 200)));
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  if (!fs::is_directory(parent))
    throw InputError(fmt::format("{} {}: no folder {} to write it in", what, quoted_text(dir.string(), 200),
                                 quoted_text(parent.string(), 200)));
  const fs::path partial = dir.string() + fmt::format(".partial-{}", ::getpid());
  try {
    prepare_output_directory(partial.string(), what);
    for (const conformance::Case* c : cases) write_case(*c, partial / c->name);
    write_file_atomically((partial / "README.md").string(), suite_readme(cases));
    nlohmann::json list = nlohmann::json::array();
    for (const conformance::Case* c : cases) list.push_back(case_json(*c));
    write_file_atomically((partial / "cases.json").string(), json_text(list) + "\n");
    fs::rename(partial, dir);
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(partial, ignored);
    throw;
  }
}

int run_export(const ConformanceArgs& a) {
  const auto cases = selected(a);
  write_suite(cases, a.dir, "conformance export");
  std::cout << fmt::format("wrote     {} cases in {} (README.md says how to run them)\n", cases.size(), a.dir);
  return 0;
}

struct Outcome {
  const conformance::Case* c = nullptr;
  std::string status;  // passed, differs, FAILED, error
  std::string detail;
  std::size_t moved = 0;
  double seconds = 0;
  std::string output;  // the file judged
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The verdict on the schedule a case's folder holds (its first file of kOutputs); an output that is absent, cannot
// be read or holds no row is an error of the scheduler's run, never a verdict on the policy.
Outcome judge_folder(const conformance::Case& c, const fs::path& dir) {
  Outcome o;
  o.c = &c;
  auto error = [&](std::string why) {
    o.status = "error";
    o.detail = std::move(why);
    return o;
  };
  const fs::path trace = dir / "trace.swf";
  if (!fs::is_regular_file(trace) || read_text(trace) != c.swf)
    return error(fmt::format("{} is not the suite's trace of this case (export the suite again)", trace.string()));
  for (const char* name : kOutputs)
    if (fs::is_regular_file(dir / name)) {
      o.output = (dir / name).string();
      break;
    }
  if (o.output.empty())
    return error(fmt::format("no schedule in {}: expected output.csv, out_jobs.csv or output.swf", dir.string()));
  const TraceArgs a = trace_args(c, trace.string());
  const workload::Workload w = load(a);
  std::vector<jobs_csv::ScheduleRow> rows;
  try {
    rows = jobs_csv::read_schedule(o.output, jobs_csv::Columns{}, false);
  } catch (const InputError& e) {
    return error(e.what());
  }
  const bool per_event = a.passes == "event";
  const auto expected = jobs_csv::schedule_rows(conformance::certified(c, w, per_event));
  if (rows.empty() && !expected.empty()) return error(fmt::format("{}: no job rows (a header only)", o.output));
  const conformance::Verdict v = conformance::judge(c, w, per_event, rows, expected);
  o.status = conformance::to_string(v.status);
  o.detail = v.detail;
  o.moved = v.moved;
  return o;
}

// The table (or JSON) of the outcomes and the exit code: 2 when a case could not be judged (the command failed, or
// its output is missing or unreadable: one line on stderr names the first), else 1 when a case failed, else 0.
int report(const std::vector<Outcome>& outcomes, const std::string& header, const ConformanceArgs& a) {
  std::size_t passed = 0, differs = 0, failed = 0, errors = 0;
  const Outcome* first_error = nullptr;
  for (const Outcome& o : outcomes) {
    passed += o.status == "passed";
    differs += o.status == "differs";
    failed += o.status == "FAILED";
    if (o.status == "error") {
      ++errors;
      if (!first_error) first_error = &o;
    }
  }
  const int code = errors ? 2 : failed ? 1 : 0;
  if (a.json) {
    nlohmann::json cases = nlohmann::json::array();
    for (const Outcome& o : outcomes)
      cases.push_back({{"name", o.c->name}, {"policy", o.c->policy}, {"pivots", o.c->pivots},
                       {"reading", o.c->reading}, {"status", o.status == "FAILED" ? "failed" : o.status},
                       {"detail", o.detail}, {"moved", o.moved}, {"seconds", o.seconds}, {"output", o.output}});
    const nlohmann::json out = {{"cases", cases},     {"passed", passed}, {"differs", differs},
                                {"failed", failed},   {"errors", errors}, {"stopped", stop_requested()},
                                {"exit_code", process_exit_code(code)}};
    std::cout << json_text(out) << "\n";
  } else {
    std::string out = header;
    for (const Outcome& o : outcomes) {
      out += fmt::format("  {:<46} {:<13} {}\n", o.c->name,
                         o.c->policy == "easy" ? fmt::format("easy({})", o.c->pivots) : o.c->policy, o.status);
      if (!o.detail.empty()) out += "      " + printable_text(o.detail, 2000) + "\n";
    }
    out += fmt::format("verdict   {} passed, {} differ, {} FAILED, {} could not be judged{}\n", passed, differs,
                       failed, errors, code ? fmt::format(" (exit {})", code) : "");
    std::cout << out;
  }
  if (first_error)
    std::cerr << "schedcheck: conformance case " << first_error->c->name << ": "
              << printable_text(first_error->detail, 400)
              << (errors > 1 ? fmt::format(" (and {} more cases could not be judged)", errors - 1) : "") << "\n";
  if (stop_requested()) std::cerr << "schedcheck: " << stop_request_text() << ": the cases judged so far are above\n";
  return code;
}

// --cmd's placeholders, each replaced by its shell-quoted value ({options} by the flags as they are: several words).
std::string expand(const std::string& command, const conformance::Case& c, const fs::path& dir, long long processors) {
  const std::vector<std::pair<std::string, std::string>> values = {
      {"trace", (dir / "trace.swf").string()},  {"policy", c.policy},
      {"pivots", std::to_string(c.pivots)},     {"processors", std::to_string(processors)},
      {"out", (dir / "output.csv").string()},   {"case", c.name},
      {"dir", dir.string()},                    {"options", c.options}};
  std::string out;
  for (std::size_t at = 0; at < command.size();) {
    const std::size_t open = command.find('{', at);
    if (open == std::string::npos) {
      out += command.substr(at);
      break;
    }
    out += command.substr(at, open - at);
    const std::size_t close = command.find('}', open);
    const std::string name = close == std::string::npos ? "" : command.substr(open + 1, close - open - 1);
    const auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
    if (it == values.end()) {
      out += '{';
      at = open + 1;
      continue;
    }
    out += name == "options" ? it->second : shell_quoted(it->second);
    at = close + 1;
  }
  return out;
}

// A word in braces that looks like a placeholder but is none (a typo would reach the shell as it is).
void check_placeholders(const std::string& command) {
  static const std::set<std::string> known = {"trace", "policy", "pivots", "processors", "out", "case", "dir",
                                              "options"};
  if (command.find_first_not_of(" \t") == std::string::npos)
    throw InputError("conformance run --cmd: expected a command, got an empty string");
  for (std::size_t open = command.find('{'); open != std::string::npos; open = command.find('{', open + 1)) {
    const std::size_t close = command.find('}', open);
    if (close == std::string::npos || (open > 0 && command[open - 1] == '$')) continue;  // ${VAR} is the shell's
    const std::string name = command.substr(open + 1, close - open - 1);
    if (!name.empty() && std::all_of(name.begin(), name.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; }) &&
        !known.contains(name))
      throw InputError(fmt::format("conformance run --cmd: unknown placeholder {{{}}} (known: {{trace}} {{policy}} "
                                   "{{pivots}} {{processors}} {{out}} {{case}} {{dir}} {{options}})",
                                   name));
  }
}

std::string last_line(const fs::path& path) {
  std::string text = read_text(path);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const std::size_t newline = text.rfind('\n');
  return newline == std::string::npos ? text : text.substr(newline + 1);
}

int run_command(const ConformanceArgs& a) {
  check_placeholders(a.command);
  const auto cases = selected(a);
  // The cases' folders: under --out, kept; else in a temporary folder removed at the end.
  fs::path root;
  bool temporary = false;
  if (!a.out.empty()) {
    write_suite(cases, a.out, "conformance run --out");
    root = a.out;
  } else {
    std::string pattern = (fs::temp_directory_path() / "schedcheck-conformance-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw InputError(fmt::format("conformance run: cannot create a temporary folder in {}",
                                   fs::temp_directory_path().string()));
    fs::remove(pattern);
    write_suite(cases, pattern, "conformance run");
    root = pattern;
    temporary = true;
  }
  const bool progress = ::isatty(2) && !a.json && !a.quiet;
  std::vector<Outcome> outcomes;
  for (std::size_t k = 0; k < cases.size() && !stop_requested(); ++k) {
    const conformance::Case& c = *cases[k];
    const fs::path dir = fs::absolute(root / c.name);
    const workload::Workload w = load(trace_args(c, (dir / "trace.swf").string()));
    if (progress) std::cerr << fmt::format("\rconformance case {}/{} {:<50}", k + 1, cases.size(), c.name) << std::flush;
    const ChildEnd end = run_shell_command(expand(a.command, c, dir, w.processors), fs::current_path().string(),
                                           (dir / "stdout.txt").string(), (dir / "stderr.txt").string(), a.timeout_ms / 1000.0);
    if (end.how == ChildEnd::How::kStopped) break;
    Outcome o;
    if (end.how == ChildEnd::How::kExited && end.code == 0) {
      o = judge_folder(c, dir);
    } else {
      o.c = &c;
      o.status = "error";
      const std::string said = last_line(dir / "stderr.txt");
      o.detail = fmt::format("the command ended: {}{}", describe(end, a.timeout_ms / 1000.0),
                             said.empty() ? "" : "; its stderr ends: " + said);
    }
    o.seconds = end.seconds;
    outcomes.push_back(std::move(o));
  }
  if (progress) std::cerr << "\r" << std::string(80, ' ') << "\r";
  const int code = report(outcomes,
                          fmt::format("conformance {} cases against {} ({} s a case at most{})\n", cases.size(),
                                      printable_text(a.command, 200), a.timeout_ms / 1000.0,
                                      temporary ? "" : "; each case's folder, with the command's output, in " + a.out),
                          a);
  if (temporary) {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  return code;
}

int run_check(const ConformanceArgs& a) {
  if (!fs::is_directory(a.dir))
    throw InputError(fmt::format("conformance check {}: no such folder", quoted_text(a.dir, 200)));
  std::vector<const conformance::Case*> cases = selected(a);
  if (a.only.empty())  // every case whose folder is there
    std::erase_if(cases, [&](const conformance::Case* c) { return !fs::is_directory(fs::path(a.dir) / c->name); });
  if (cases.empty())
    throw InputError(fmt::format("conformance check {}: no folder of a case in it (`schedcheck conformance export "
                                 "DIR` writes them)",
                                 quoted_text(a.dir, 200)));
  std::vector<Outcome> outcomes;
  for (const conformance::Case* c : cases) {
    const fs::path dir = fs::path(a.dir) / c->name;
    if (!fs::is_directory(dir)) {
      Outcome o;
      o.c = c;
      o.status = "error";
      o.detail = fmt::format("no folder {}", dir.string());
      outcomes.push_back(std::move(o));
      continue;
    }
    outcomes.push_back(judge_folder(*c, dir));
  }
  return report(outcomes, fmt::format("conformance {} cases in {}\n", cases.size(), a.dir), a);
}

void add_selection(CLI::App* command, ConformanceArgs& a) {
  command->add_option("--case", a.only, "only this case (repeatable; `schedcheck conformance list` names them)");
  command->add_option("--policy", a.policies, "only the cases of this policy (repeatable): fcfs, easy, conservative")
      ->check(CLI::IsMember({"fcfs", "easy", "conservative"}));
  command->add_option("--skip", a.skip, "leave out the cases whose name holds this text (repeatable; e.g. --skip pyss "
                                        "--skip pass-per-event for a scheduler without those readings)");
}

}  // namespace

std::function<int()> add_conformance_command(CLI::App& app) {
  auto args = std::make_shared<ConformanceArgs>();
  auto* conformance = app.add_subcommand(
      "conformance", "the conformance suite of FCFS, EASY(k) and conservative backfilling: hand-computed cases of each "
                     "rule and windows of real traces, each with the schedule schedcheck certifies; list them, export "
                     "them for another project's CI, or run a scheduler on each and audit what it wrote");
  conformance->require_subcommand(1);
  auto* list = conformance->add_subcommand("list", "the cases: name, policy, reading of the trace, the rule it tests");
  add_selection(list, *args);
  list->add_flag("--json", args->json, "every field of every case as JSON, why each exists included");
  auto* exported = conformance->add_subcommand(
      "export", "write every case into a new folder DIR: NAME/trace.swf, expected.csv, case.json, README.md");
  exported->add_option("DIR", args->dir, "the folder to create (refused when it exists)")->required();
  add_selection(exported, *args);
  auto* run = conformance->add_subcommand(
      "run", "run a scheduler on every case and audit the schedule it writes: passed (the certified schedule), FAILED "
             "(a certain violation, the job to blame named), differs (another schedule no certain check refutes); "
             "exit 1 when a case fails, 2 when the command fails or writes no readable schedule");
  run->add_option("--cmd", args->command,
                  "the shell command run for each case (in the current folder; {dir} is the case's); placeholders (shell-quoted): {trace} the "
                  "SWF, {policy} fcfs|easy|conservative, {pivots} easy's reservation depth, {processors}, {out} the "
                  "per-job CSV to write (output.csv; out_jobs.csv or output.swf beside it are read too), {case}, "
                  "{dir}, {options} the case's reading as schedcheck's trace options. E.g. `schedcheck simulate "
                  "--trace {trace} --policy {policy} --pivots {pivots} {options} --jobs-csv {out}`")
      ->required();
  run->add_flag("--quiet,-q", args->quiet, "no progress line on stderr");
  run->add_option("--out", args->out, "keep every case's folder, with the command's output, stdout.txt and stderr.txt, "
                                      "in this new folder (default: a temporary folder, removed)");
  run->add_option("--timeout-ms", args->timeout_ms, "time limit of the command on each case, ms (killed past it: the "
                                                    "case could not be judged)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 86'400'000u));
  add_selection(run, *args);
  run->add_flag("--json", args->json, "the verdicts as JSON");
  auto* check = conformance->add_subcommand(
      "check", "audit schedules already written into an exported suite: NAME/output.csv (or out_jobs.csv, "
               "output.swf) of every case folder in DIR; the verdicts and exit codes of `run`");
  check->add_option("DIR", args->dir, "the exported suite")->required();
  add_selection(check, *args);
  check->add_flag("--json", args->json, "the verdicts as JSON");
  return [=]() -> int {
    if (!conformance->parsed()) return -1;
    if (list->parsed()) return run_list(*args);
    if (exported->parsed()) return run_export(*args);
    if (run->parsed()) return run_command(*args);
    return run_check(*args);
  };
}

}  // namespace schedcheck::cli
