// Random search for counterexamples, greedy shrinking, and corpus files, for any registered problem.
// Our own. Each trial t checks generate(trial_seed(seed, t), size); a failing instance is shrunk (candidates
// from the problem's generator, kept while the same property still fails) and written in the CLI's input format.
#pragma once

#include "properties/corpus.hpp"
#include "properties/registry.hpp"
#include "support/executor.hpp"
#include "support/files.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <ostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck {

struct SearchOptions {
  std::string problem;
  CheckRequest check;                    // policy, exact method, tolerance, time limit
  std::uint64_t seed = 1;
  std::size_t trials = 100;
  std::size_t size = 10;
  std::size_t max_counterexamples = 5;   // stop once this many are found and shrunk
  std::size_t max_shrink_checks = 2000;  // candidate checks spent on shrinking one counterexample
  bool exhaustive = false;               // every instance of `scope` instead of random trials (seed, trials, size unused)
  std::string scope;                     // the problem's scope string ("" = its default)
  std::size_t max_shrink_checks_after_stop = 50;  // once a stop is requested (support/stop.hpp): a short last shrink
  std::size_t jobs = 1;                  // workers (threads); 0: every core. Never changes a result
  Shard shard = {};                      // --shard I/N: only this shard's trials (support/executor.hpp)
};

struct Counterexample {
  std::size_t trial = 0;
  std::uint64_t trial_seed = 0;
  std::size_t original_size = 0;
  std::string property;                  // the failing property the shrinking preserved
  nlohmann::json instance;               // shrunk instance document
  Report report;                         // check of the shrunk instance
};

struct SearchProgress {
  std::size_t done = 0, total = 0, failing = 0, undecided = 0, unproven = 0;
  double seconds = 0;
};

struct SearchSummary {
  std::size_t checked = 0;
  std::size_t failing = 0;               // trials where some property failed
  std::size_t undecided = 0;             // trials no property failed on and some could not be decided
  std::size_t unproven = 0;              // trials whose exact side proved nothing in its time limit (failing or not)
  double seconds = 0;
  std::vector<Counterexample> counterexamples;
  std::map<std::string, std::size_t> failing_by_property;  // instances each property failed on (both modes)
  // A stop was requested (SIGINT/SIGTERM, support/stop.hpp): the counts cover the trials finished before it (the one
  // being checked when it came is not counted), and the counterexamples kept were shrunk no further than it allowed.
  bool interrupted = false;
  std::size_t workers = 1;               // the threads that ran the trials
};

using ProgressFn = std::function<void(const SearchProgress&)>;
// Called once per counterexample as soon as it is shrunk (e.g. to write its corpus file at once, so that a run
// killed later keeps it). May throw: the search stops and the exception propagates.
using FoundFn = std::function<void(const Counterexample&)>;

// The trials run on `executor` (default: options.jobs threads, options.shard's trials only) in chunks; whatever
// runs them, the counts, the counterexamples (the first max_counterexamples failing trials in trial order, each
// shrunk the same way) and so every file and line are the same. `progress` about once a second, combined over workers.
SearchSummary search(const Problem& problem, const SearchOptions& options, const ProgressFn& progress = {},
                     const FoundFn& found = {}, Executor* executor = nullptr);
// Exhaustive mode: checks every instance of options.scope (Problem::scope_cursor, one cursor a worker); the first
// max_counterexamples failures in enumeration order are shrunk as in search(). Counterexample::trial is the
// instance's position in the enumeration.
SearchSummary exhaustive_search(const Problem& problem, const SearchOptions& options, const FoundFn& found = {},
                                Executor* executor = nullptr, const ProgressFn& progress = {});

// Workers a shrink may borrow to check several candidates of a round at once: take(k) lends at most k (those idle
// now), give_back(k) returns them.
struct ShrinkHelpers {
  std::function<std::size_t(std::size_t)> take;
  std::function<void(std::size_t)> give_back;
};

// Shrinks `document` while `property` still fails under `request`; returns the smallest found and its report.
// Each round takes the first of the smaller candidates that still fails, checking at most max_checks in all. With
// `helpers`, the next candidates of a round are checked at once on the workers lent, and used in their order: the
// instance found and the checks counted are those of checking one at a time.
// Stops early once a stop is requested (the checks it would run are cut short by then).
std::pair<nlohmann::json, Report> shrink(const Problem& problem, nlohmann::json document, const CheckRequest& request,
                                         const std::string& property, std::size_t max_checks,
                                         const ShrinkHelpers* helpers = nullptr);

// The corpus file for a counterexample: the instance plus a "schedcheck" block with the recorded verdict,
// the search that found it and the command that reproduces it (docs/formats.md).
nlohmann::json corpus_document(const Counterexample& found, const SearchOptions& options, const std::string& path);
std::string corpus_file_name(const Counterexample& found, const SearchOptions& options, const std::string& extension = ".json");

// Writes the counterexample's corpus file into `dir` (atomically) and returns its path; throws InputError.
std::string write_counterexample(const Problem& problem, const Counterexample& found, const SearchOptions& options,
                                 const std::string& dir);
// The corpus files of one search (`search --out`, the Python module's `out`): each counterexample written as it comes,
// until a write fails (disk full, the directory gone); from then on nothing is written and `error` says why (the
// summary's `write_error`). A policy failure of the re-check is not a write failure: it is thrown (the search ends).
struct CorpusWriter {
  std::string error;  // "" while every write succeeded
  // The path written, or nullopt when this write failed or an earlier one did.
  std::optional<std::string> write(const Problem& problem, const Counterexample& found, const SearchOptions& options,
                                   const std::string& dir);
  nlohmann::json error_json() const;  // `write_error`: null, or the error
};
// JSON of a search for programs (`search --json`, the Python module): the options, the counts, the rate,
// `interrupted`; and of one counterexample (property, trial, sizes, gap). Callers add files and instances.
nlohmann::json summary_json(const SearchSummary& summary, const SearchOptions& options);
nlohmann::json counterexample_json(const Counterexample& found);

// The shards of one search (`search --shard I/N --out DIR`, a batch job array's tasks): each writes DIR/shard.json
// (what search it is, its counts, its counterexamples in full) beside its corpus files. `merge_search_shards` reads
// them back: every shard 1..N given once and of the same search (InputError naming the missing or foreign one), the
// counts added up and the first max_counterexamples counterexamples in trial order kept, as one process finds them;
// a shard a stop cut short is refused.
constexpr const char* kSearchShardFile = "shard.json";
nlohmann::json search_shard_json(const SearchSummary& summary, const SearchOptions& options);
struct MergedSearch {
  SearchOptions options;        // the search's (shard: none)
  SearchSummary summary;        // seconds: the longest shard's
};
MergedSearch merge_search_shards(const std::vector<std::string>& dirs);


}  // namespace schedcheck
