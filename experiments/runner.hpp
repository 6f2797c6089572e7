// Running an experiment's sweep and writing its results. Our own. The points run through an Executor (serial, or N
// threads: support/executor.hpp); results come back in point order whatever order they finish in, so the files do
// not depend on --jobs. A stop request (SIGINT/SIGTERM) starts no further point; the points that finished are kept
// and written, and the summary says how many did.
#pragma once

#include "experiments/experiment.hpp"
#include "model/scenario.hpp"
#include "properties/decision_probe.hpp"
#include "support/executor.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::experiments {

struct SweepProgress {
  std::size_t done = 0, total = 0;
  double seconds = 0;
  double done_weight = 0, total_weight = 0;  // the points' weights: time left ~ seconds * (total - done) / done
};

struct Sweep {
  std::vector<Point> points;
  std::size_t owned = 0;                           // the points this process runs (all of them, or a shard's)
  std::vector<std::optional<RunRecord>> records;   // by point; null: not run, or cut short by a stop request
  std::size_t finished = 0;
  bool interrupted = false;
  double wall_seconds = 0;
  std::size_t workers = 1;                         // the threads that ran the points (fewer than --jobs under --memory-mb)
  std::size_t violations() const;                  // run invariants and decision-check properties violated
};

// The sweep's runs of the default reading (points with no reading), in point order: what the figures, the text and
// the extra files show (the readings' runs go to runs.csv and the claims).
struct DefaultRuns {
  std::vector<Point> points;
  std::vector<std::optional<RunRecord>> records;
};
DefaultRuns default_runs(const Sweep& sweep);

// Checks the options every experiment takes: seeds 0 (the default) or 1 to 100,000, jobs 1 to 1,024, and the
// --reading names among `entry`'s readings. InputError.
void check_options(const ExperimentOptions& options, const CatalogueEntry& entry);
// The catalogue as `experiment --list --json` prints it: name, paper, summary, options.
nlohmann::json catalogue_json();
// One CSV line (fields quoted as model/jobs_csv.hpp's field() does), with its newline.
std::string csv_line(const std::vector<std::string>& fields);
// A metric's value in a CSV: the shortest text that reads back the same double; empty for NaN and infinities.
std::string csv_number(double value);

// A point's record as the executors carry it (CBOR of RunRecord::to_json: NaN and the infinities kept), and back.
std::string record_bytes(const RunRecord& record);
RunRecord record_from_bytes(const std::string& bytes);

// Where finished points are kept as they come (a resumable sweep, a shard's output): `load(i)` gives the record of
// point i an earlier run kept (nullopt: run it), `save(i, bytes)` keeps one. Either may be empty.
struct RecordStore {
  std::function<std::optional<std::string>(std::size_t)> load;
  std::function<void(std::size_t, const std::string&)> save;
};

// Runs every point the executor owns (a point the store holds is taken from it, not run again); `progress`
// (optional) as each finishes, one call at a time. The records arrive in point order through the executor, as bytes.
Sweep run_sweep(const Experiment& experiment, Executor& executor,
                const std::function<void(const SweepProgress&)>& progress = {}, const RecordStore& store = {});

// Refuses, when the scenario is read, an exact method `name` that `problem` does not have ("" is its default, "none"
// checks no optimum): InputError "FILE: FIELD: expected an exact method of PROBLEM (its methods), got NAME".
void require_exact_method(const Problem& problem, const std::string& name, const std::string& file,
                          const std::string& field);

// The scenario of an experiment whose system comes from one scenario file (its clusters connected by the experiment,
// no router): --scenario FILE, else `default_file` (examples/scenarios/NAME.json). Throws InputError, the message
// starting with `experiment`, for --trace or --traces, a missing file, or a scenario the reader refuses.
scenario::Scenario system_scenario(const std::string& experiment, const ExperimentOptions& options,
                                   const std::string& default_file);

// Keeps a run's decision checks for the figures and write_worst_decisions: under `gaps_key` the positive gaps and
// under gaps_key + "_at_zero" how many were 0 (the gap CDF's data, compactly: nearly all are 0); under `worst_key` the
// probe's worst cases {time, where, policy, gap, fails, instance}, each instance written by `write`.
template <class I, class D, class Write>
void keep_probe_data(RunRecord& record, const DecisionProbe<I, D>& probe, const std::string& gaps_key,
                     const std::string& worst_key, Write write) {
  std::vector<double> positive;
  for (const double g : probe.gap_values())
    if (g > kObjectiveSlack) positive.push_back(g);
  record.data[gaps_key] = positive;
  record.data[gaps_key + "_at_zero"] = probe.gap_values().size() - positive.size();
  nlohmann::json worst = nlohmann::json::array();
  for (const auto& c : probe.worst())
    worst.push_back({{"time", c.time},
                     {"where", c.where},
                     {"policy", c.report.heuristic.name},
                     {"gap", c.report.gap ? *c.report.gap : 0.0},
                     {"fails", !c.report.failing().empty()},
                     {"instance", write(c.instance)}});
  record.data[worst_key] = worst;
}

// The worst decisions the runs kept in their data under `key` (objects {time, where, policy, gap, fails, instance}):
// failing first, then the largest gaps, at most `keep`, written as DIR/STEM-K.json corpus files of `problem`, each
// re-checked with its own policy and `request`'s exact method and time limit (the recorded verdict is that check's).
// `found_by(point, worst)` says where each came from. After a stop request none is re-checked: a line in `skipped`
// names those left out. Returns the paths.
std::vector<std::string> write_worst_decisions(
    const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records, const std::string& key,
    const Problem& problem, CheckRequest request, std::size_t keep, const std::string& dir, const std::string& stem,
    const std::function<std::string(const Point&, const nlohmann::json&)>& found_by, std::vector<std::string>& skipped);

struct Written {
  std::vector<std::string> files;                  // every file written, in order
  std::string claims_text;                         // the claims of the default reading, one line each (the text summary)
  std::vector<std::string> plot_failures;          // figures whose plot could not be drawn (the CSV is there)
  std::vector<std::string> skipped;                // "FILE: why" for each plot or corpus file a stop left out
  nlohmann::json summary;                          // what summary.json holds
};

// Whether a file name is of a kind an experiment writes into --out: a table (.csv), a plot (.png, .svg), claims.md,
// summary.json, a corpus file worst-*.json, or the temporary NAME.tmp of one of them.
bool is_result_file(const std::string& name);
// Makes `dir` this run's output folder, before any run: creates it (refused when it cannot be written) and removes
// the files of the kinds is_result_file names that an earlier run left there, so that nothing in it is another run's.
// Any other file is refused (InputError naming it), unless `force`: then such files are kept. Subfolders are left
// alone. Returns the names removed.
std::vector<std::string> claim_output_directory(const std::string& dir, const std::string& option, bool force);

// Writes into `dir` (created, checked writable first): runs.csv (one row per run and metric, the parameters as
// columns, and the reading when readings ran), one CSV and one plot per figure (STEM.csv, STEM.png), the experiment's
// extra files, the claims (claims.csv, claims.md, and claims-readings.csv when readings ran; experiments/claims.hpp),
// and summary.json (parameters, properties checked and violated, decision-check statistics, the claims' verdicts
// counted, wall time, `command`). After a stop request (support/stop.hpp) the tables and summary.json are always
// written, each plot only while the time to finish is not up (finishing_time_up), each one left out named in
// `skipped`; a figure with no data from an interrupted sweep is skipped with a note, not drawn as a failure.
// Ends by removing any file of the result kinds in `dir` that this run did not write.
Written write_results(const Experiment& experiment, const ExperimentOptions& options, const Sweep& sweep,
                      const std::string& dir, const std::string& command);

}  // namespace schedcheck::experiments
