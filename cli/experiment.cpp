// `schedcheck experiment` (see experiment.hpp): reads the options, makes the experiment from the catalogue, runs its
// sweep with progress on stderr, and renders what was written. Our own.
#include "cli/experiment.hpp"

#include "cli/policy_process.hpp"
#include "experiments/claims.hpp"
#include "experiments/runner.hpp"
#include "experiments/sweep_folder.hpp"
#include "model/input.hpp"
#include "support/files.hpp"
#include "support/memory.hpp"
#include "support/process_group.hpp"
#include "support/signals.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

namespace schedcheck::cli {

namespace {

struct ExperimentArgs {
  bool list = false;
  std::string name;
  std::string out;
  experiments::ExperimentOptions options;
  bool json = false, quiet = false, force = false, resume = false;
  std::string shard;                     // --shard I/N
  std::string policy_cmd;                // --policy-cmd
  unsigned policy_timeout_ms = 10'000;   // --policy-timeout-ms
};

std::string duration(double seconds) {
  if (!std::isfinite(seconds)) return "?";
  if (seconds >= 3600) return fmt::format("{:.1f} h", seconds / 3600);
  if (seconds >= 120) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.0f} s", seconds);
}

int list(bool json) {
  if (json) {
    std::cout << json_text(experiments::catalogue_json()) << "\n";
    return 0;
  }
  for (const auto& e : experiments::catalogue()) {
    std::cout << fmt::format("{:<14} {}\n{:<14} paper: {}\n{:<14} options: {}\n", e.name, e.summary, "", e.source, "",
                             e.options);
    for (const auto& r : e.readings)
      std::cout << fmt::format("{:<14} reading {}: {} (scenario: {})\n", "", r.name, r.what, r.scenario);
  }
  return 0;
}

int run(const ExperimentArgs& a, const Registry& registry, const std::string& command) {
  if (a.list) return list(a.json);
  if (a.name.empty()) throw InputError("experiment: name one (schedcheck experiment --list), or give --list");
  if (a.out.empty()) throw InputError("experiment: --out DIR is required (the tables, plots and summary.json go there)");
  const auto& entry = experiments::find(a.name);
  experiments::ExperimentOptions options = a.options;
  options.jobs = jobs_from_option(options.jobs);  // --jobs 0: every core
  // --policy-cmd: one process a worker thread, each asked by the runs of its thread in turn.
  std::shared_ptr<PolicyProcesses> process;
  if (!a.policy_cmd.empty()) {
    process = std::make_shared<PolicyProcesses>(a.policy_cmd, a.policy_timeout_ms);
    options.ask_outside = [process](const nlohmann::json& request, const std::string& about) {
      return process->ask(request, about);
    };
  }
  experiments::check_options(options, entry);
  // The inputs first (a bad one is refused with nothing written), then the output folder (refused before any run).
  const std::unique_ptr<experiments::Experiment> experiment = entry.make(options, registry);
  const Shard shard = a.shard.empty() ? Shard{} : parse_shard(a.shard);
  // Each point is kept in OUT/points as it finishes: a cut sweep resumes from there, and shards hand theirs over.
  const experiments::PointFolder folder(a.out, experiments::sweep_identity(a.name, options, experiment->points()),
                                        command, shard, a.resume);
  // Under mpirun rank 0 alone owns the folders and writes; the other ranks run the points it hands out.
  const bool root = process_group().root();
  // --corpus first: refused, it leaves no --out folder behind.
  if (!a.options.corpus.empty() && root) prepare_output_directory(a.options.corpus, "--corpus");
  const bool out_existed = std::filesystem::exists(a.out);
  const std::vector<std::string> removed =
      root ? experiments::claim_output_directory(a.out, "--out", a.force) : std::vector<std::string>{};
  if (!removed.empty())
    std::cerr << fmt::format("schedcheck: --out {}: removed {} files of an earlier run ({}{})\n", printable_text(a.out),
                             removed.size(), printable_text(removed.front(), 60), removed.size() > 1 ? ", ..." : "");
  // From here a second SIGINT or SIGTERM still leaves summary.json and no temporary (support/signals.hpp).
  const FinishingSection finishing;
  if (folder.kept() > 0 && !a.quiet && root)
    std::cerr << fmt::format("schedcheck: --resume: {} points kept from an earlier run ({}); the others run now\n",
                             folder.kept(), printable_text(folder.path()));
  if (root) folder.open();
  const std::unique_ptr<Executor> executor = make_executor(options.jobs, shard);
  double last = -1;
  const auto progress = [&](const experiments::SweepProgress& p) {
    if (a.quiet || (p.seconds - last < 1 && p.done < p.total)) return;
    last = p.seconds;
    const double rate = static_cast<double>(p.done) / std::max(p.seconds, 1e-9);
    const double left = p.seconds * (p.total_weight - p.done_weight) / std::max(p.done_weight, 1e-9);
    std::cerr << fmt::format("experiment {}: {}/{} points, {:.2f} points/s, about {} left\n", a.name, p.done, p.total,
                             rate, duration(left));
  };
  // A sweep that fails (a --policy-cmd process that breaks, a bug) leaves no --out folder it created behind.
  const auto sweep = [&] {
    try {
      return experiments::run_sweep(*experiment, *executor, progress, folder.store());
    } catch (...) {
      std::error_code ignored;
      if (!out_existed && root) std::filesystem::remove_all(a.out, ignored);  // it holds this run's points/ alone
      throw;
    }
  }();
  if (memory_limit_mb() > 0 && sweep.workers < std::min(options.jobs, sweep.points.size()))
    std::cerr << fmt::format("schedcheck: --jobs {}: {} worker{} ran the points (under --memory-mb {} the stacks of "
                             "more threads would take over half of the memory left)\n", options.jobs, sweep.workers,
                             sweep.workers == 1 ? "" : "s", memory_limit_mb());
  if (!root) return 0;  // rank 0 writes the results and says how the run ended
  if (shard.given()) {  // a shard writes its points only; `schedcheck merge` writes the results of the whole sweep
    std::cout << fmt::format("experiment {}: shard {}/{}: {} of {} points finished in {:.1f} s, kept in {}; "
                             "`schedcheck merge --out DIR` with every shard's --out folder writes the results\n",
                             a.name, shard.index, shard.count, sweep.finished, sweep.owned, sweep.wall_seconds,
                             printable_text(folder.path()));
    if (sweep.interrupted || stop_requested()) return interrupted_exit_code();
    return sweep.violations() ? 1 : 0;
  }
  const experiments::Written written = experiments::write_results(*experiment, options, sweep, a.out, command);
  for (const auto& failure : written.plot_failures) std::cerr << "schedcheck: plot not drawn: " << failure << "\n";
  for (const auto& skipped : written.skipped) std::cerr << "schedcheck: skipped " << skipped << "\n";
  if (sweep.interrupted || stop_requested())
    std::cerr << fmt::format("schedcheck: experiment {} {}: {} of {} points finished; their results are written in {}\n",
                             a.name, stop_request_text(), sweep.finished, sweep.points.size(), a.out);
  if (a.json) {
    std::cout << json_text(written.summary) << "\n";
  } else {
    std::string out = fmt::format("experiment {}: {}\n", a.name, experiment->info().summary);
    out += fmt::format("points     {} of {} finished in {:.1f} s ({} at a time)\n", sweep.finished, sweep.points.size(),
                       sweep.wall_seconds, executor->workers());
    for (const auto& note : experiment->notes()) out += "note       " + note + "\n";
    const experiments::DefaultRuns shown = experiments::default_runs(sweep);
    out += experiment->text(shown.points, shown.records);
    const auto& inv = written.summary["invariants"];
    std::size_t total = 0;
    for (const auto& [name, count] : inv["violations_by_invariant"].items()) total += count.get<std::size_t>();
    out += fmt::format("checks     {} run properties on {} decisions: {} violations\n", inv["checked"].size(),
                       inv["decisions"].get<std::size_t>(), total);
    if (written.summary["violations_by_reading"].is_object())
      for (const auto& [reading, r] : written.summary["violations_by_reading"].items()) {
        std::string which;
        for (const auto& [name, count] : r["by_invariant"].items())
          which += fmt::format("{}{} {}", which.empty() ? ": " : ", ", name, count.get<std::size_t>());
        out += fmt::format("           reading {}: {} runs, {} violations{}\n", reading, r["runs"].get<std::size_t>(),
                           r["violations"].get<std::size_t>(), which);
      }
    for (const auto& dc : written.summary["decision_checks_by_problem"]) {
      const std::size_t measured = dc.value("measured", std::size_t{0});
      out += fmt::format("           {} decisions checked against the exact optimum ({}): {} proven, {} undecided, {} at "
                         "the optimum; gap mean {:.4f}, median {:.4f}, p95 {:.4f}, max {:.4f}; {} invalid, {} failing{}\n",
                         dc["checked"].get<std::size_t>(), dc["problem"].get<std::string>(), dc["proven"].get<std::size_t>(),
                         dc["undecided"].get<std::size_t>(), dc["at_optimum"].get<std::size_t>(),
                         dc["gap"]["mean"].get<double>(), dc["gap"]["median"].get<double>(), dc["gap"]["p95"].get<double>(),
                         dc["gap"]["max"].get<double>(), dc["invalid"].get<std::size_t>(), dc["failing"].get<std::size_t>(),
                         measured ? fmt::format(" ({} failing only measured properties)", measured) : "");
    }
    for (const auto& f : written.summary["figures"])
      out += fmt::format("figure     {}{}: {}\n", f["csv"].get<std::string>(),
                         f["plot"].is_null() ? "" : " + " + f["plot"].get<std::string>(), f["caption"].get<std::string>());
    out += written.claims_text;
    if (!written.summary["claims"].is_null()) {
      const auto counted = [](const nlohmann::json& c) {
        return fmt::format("{} agree, {} partly, {} disagree, {} not measured", c["agrees"].get<int>(), c["partly"].get<int>(),
                           c["disagrees"].get<int>(), c["not measured"].get<int>());
      };
      const auto total = [](const nlohmann::json& c) {
        int n = 0;
        for (const auto& [verdict, count] : c.items()) n += count.get<int>();
        return n;
      };
      const auto& c = written.summary["claims"];
      out += fmt::format("claims     {} of the paper's statements about its results: {}", total(c["counts"]), counted(c["counts"]));
      if (total(c["inputs"]) > 0)
        out += fmt::format("; {} about its inputs: {}", total(c["inputs"]), counted(c["inputs"]));
      out += fmt::format(" (claims.csv, claims.md{})\n",
                         c["by_reading"].size() > 1 ? "; under each reading: claims-readings.csv" : "");
    }
    out += fmt::format("wrote      {} files in {} (summary.json lists them)\n", written.files.size(), a.out);
    out += sweep.violations() ? fmt::format("verdict    {} violations (exit 1)\n", sweep.violations())
                              : "verdict    no violation\n";
    std::cout << printable_lines(out);  // cluster and trace names: escaped, never raw on a terminal
  }
  return sweep.violations() ? 1 : 0;
}

}  // namespace

std::function<int()> add_experiment_command(CLI::App& app, const Registry& registry, const std::string& command) {
  auto a = std::make_shared<ExperimentArgs>();
  auto* experiment = app.add_subcommand(
      "experiment", "run a paper's experiment (a sweep of policies x parameters x seeds, every run checked) and write "
                    "its tables (CSV), plots (PNG) and summary.json; --list names them (docs/experiments.md)");
  experiment->add_flag("--list", a->list, "name every experiment with its paper, and what its options mean");
  experiment->add_option("name", a->name, "the experiment (see --list)");
  experiment->add_option("--out", a->out, "directory for the results (created; refused before any work if unwritable)");
  experiment->add_option("--seeds", a->options.seeds, "seeds per point (default: the experiment's; see --list)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}));
  experiment->add_option("--jobs", a->options.jobs, "points run at once, on as many threads (0: every core)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{1024}));
  experiment->add_flag("--quick", a->options.quick, "the small form: under a minute (what CI runs)");
  experiment->add_option("--trace", a->options.traces, "a trace of your own (repeatable; see --list)");
  experiment->add_option("--traces", a->options.traces_dir, "a folder of traces (see --list)");
  experiment->add_option("--scenario", a->options.scenario,
                         "a scenario file: the experiment's inputs and sweep as data (examples/scenarios/; see --list)");
  experiment->add_option("--corpus", a->options.corpus,
                         "where the worst decisions go as corpus files that `schedcheck check` reproduces (default: --out)");
  experiment->add_flag("--readings", a->options.readings,
                       "also run every reading of the model that a claim of the paper depends on, and judge each claim "
                       "under each (claims-readings.csv; --list names the readings)");
  experiment->add_option("--reading", a->options.reading_names,
                         "run this reading too (repeatable; --list names each experiment's readings)");
  experiment->add_flag("--force", a->force,
                       "write into an --out folder that holds files other than an experiment's results (kept)");
  experiment->add_option("--policy-cmd", a->policy_cmd,
                         "a policy outside C++ (JSON lines, docs/protocol.md) deciding for the actors --policy-for names, "
                         "in experiments that take one (--list)");
  experiment->add_option("--policy-for", a->options.outside_for,
                         "an actor the --policy-cmd process decides for (repeatable; auction: a user's name)");
  experiment->add_option("--policy-name", a->options.outside_name, "how reports call the --policy-cmd policy")
      ->default_str("external");
  experiment->add_option("--policy-timeout-ms", a->policy_timeout_ms, "the longest wait for one decision")
      ->capture_default_str();
  experiment->add_option("--shard", a->shard,
                         "I/N: run every N-th point only, from the I-th (a batch job array's task); its points go to "
                         "OUT/points, and `schedcheck merge --out DIR OUT...` writes the whole sweep's results");
  experiment->add_flag("--resume", a->resume,
                       "keep the points an earlier run of the same command finished (OUT/points) and run the others");
  experiment->add_flag("--json", a->json, "print summary.json on stdout instead of the text summary");
  experiment->add_flag("--quiet,-q", a->quiet, "no progress lines on stderr");
  auto claims_file = std::make_shared<std::string>();
  auto markdown = std::make_shared<bool>(false);
  auto* claims = app.add_subcommand(
      "claims", "show the claims of an experiment's results (its claims.csv): each statement of the paper, the numbers "
                "measured, and whether they agree, under each reading run");
  claims->add_option("file", *claims_file, "an experiment's claims.csv, or its --out folder")->required();
  claims->add_flag("--markdown", *markdown, "the tables docs/policies.md shows, in Markdown");
  return [=, &registry, &command]() -> int {
    if (claims->parsed()) {
      std::string file = *claims_file;
      if (std::filesystem::is_directory(file)) file = (std::filesystem::path(file) / "claims.csv").string();
      const std::vector<experiments::ClaimRow> rows = experiments::read_claims_csv(file);
      if (*markdown) {
        std::cout << experiments::claims_markdown(rows);
        return 0;
      }
      for (const auto& r : rows)
        std::cout << fmt::format("{:<13} {:<40} [{}] {}\n", experiments::to_string(r.verdict), r.id, r.reading, r.measured);
      return 0;
    }
    if (!experiment->parsed()) return -1;
    return run(*a, registry, command);
  };
}

}  // namespace schedcheck::cli
