// Search, shrinking and corpus files (see search.hpp). Our own.
#include "counterexamples/search.hpp"

#include "counterexamples/rng.hpp"
#include "properties/corpus.hpp"
#include "model/input.hpp"
#include "support/errors.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace schedcheck {

namespace {
using Clock = std::chrono::steady_clock;
constexpr double kProgressEverySeconds = 1.0;

bool still_fails(const Report& report, const std::string& property) {
  for (const auto& p : report.properties)
    if (p.name == property && p.status == PropertyStatus::kFails) return true;
  return false;
}

}  // namespace

std::pair<nlohmann::json, Report> shrink(const Problem& problem, nlohmann::json document, const CheckRequest& request,
                                         const std::string& property, std::size_t max_checks,
                                         const ShrinkHelpers* helpers) {
  Report report = problem.check(document, "(shrinking)", request);
  std::size_t checks = 0;
  bool progress = true;
  struct Outcome {
    Report report;
    std::exception_ptr error;  // what the check threw: used when its turn comes, as if it had run then
  };
  while (progress && checks < max_checks && !stop_requested()) {
    progress = false;
    const std::vector<nlohmann::json> candidates = problem.shrink(document);
    for (std::size_t at = 0; at < candidates.size() && !progress && checks < max_checks && !stop_requested();) {
      const std::size_t room = std::min(candidates.size() - at, max_checks - checks);
      const std::size_t lent = helpers && room > 1 ? helpers->take(room - 1) : 0;
      std::vector<Outcome> outcomes(1 + lent);
      const auto check = [&](std::size_t j) {
        try {
          outcomes[j].report = problem.check(candidates[at + j], "(shrinking)", request);
        } catch (...) {
          outcomes[j].error = std::current_exception();
        }
      };
      std::vector<std::thread> threads;
      std::vector<std::size_t> here = {0};
      for (std::size_t j = 1; j <= lent; ++j) {
        try {
          threads.emplace_back(check, j);
        } catch (const std::system_error&) {  // no thread to be had (e.g. over --memory-mb): checked on this one
          here.push_back(j);
        }
      }
      for (std::size_t j : here) check(j);
      for (auto& thread : threads) thread.join();
      if (lent > 0) helpers->give_back(lent);
      if (stop_requested()) break;  // some of these checks were cut short: the smallest confirmed so far
      for (std::size_t j = 0; j < outcomes.size(); ++j) {
        ++checks;
        if (outcomes[j].error) {
          try {
            std::rethrow_exception(outcomes[j].error);
          } catch (const PolicyFailure&) {
            throw;  // the policy's failure, not the candidate's: the search ends (exit 2)
          } catch (const InputError&) {
            continue;  // a candidate the reader rejects is not simpler, just wrong
          } catch (const StopRequested&) {
            return {document, report};  // the smallest confirmed so far
          }
        }
        if (still_fails(outcomes[j].report, property)) {
          document = candidates[at + j];
          report = std::move(outcomes[j].report);
          progress = true;
          break;  // restart from the most aggressive candidates of the smaller instance
        }
      }
      at += outcomes.size();
    }
  }
  return {document, report};
}

namespace {

// A failing instance a worker found, as the chunk's result carries it: shrunk already when the worker could.
struct ChunkFailure {
  std::size_t trial = 0;
  std::uint64_t trial_seed = 0;
  std::size_t original_size = 0;
  std::string property;
  nlohmann::json instance;  // shrunk when `shrunk`
  Report report;            // of `instance`
  bool shrunk = false;
};

// What one item (a chunk of trials or of a scope's instances) gives back: its counts and its first failures.
struct ChunkResult {
  std::size_t checked = 0, failing = 0, undecided = 0, unproven = 0;
  std::map<std::string, std::size_t> failing_by_property;
  std::vector<ChunkFailure> failures;
};

std::string chunk_bytes(const ChunkResult& c) {
  nlohmann::json failures = nlohmann::json::array();
  for (const auto& f : c.failures)
    failures.push_back({{"trial", f.trial}, {"trial_seed", f.trial_seed}, {"original_size", f.original_size},
                        {"property", f.property}, {"instance", f.instance}, {"report", report_record(f.report)},
                        {"shrunk", f.shrunk}});
  const nlohmann::json j = {{"checked", c.checked},     {"failing", c.failing}, {"undecided", c.undecided},
                            {"unproven", c.unproven},   {"by_property", c.failing_by_property},
                            {"failures", failures}};
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

ChunkResult chunk_from_bytes(const std::string& bytes) {
  const nlohmann::json j = nlohmann::json::from_cbor(bytes);
  ChunkResult c;
  c.checked = j.at("checked").get<std::size_t>();
  c.failing = j.at("failing").get<std::size_t>();
  c.undecided = j.at("undecided").get<std::size_t>();
  c.unproven = j.at("unproven").get<std::size_t>();
  c.failing_by_property = j.at("by_property").get<std::map<std::string, std::size_t>>();
  for (const auto& f : j.at("failures"))
    c.failures.push_back({f.at("trial").get<std::size_t>(), f.at("trial_seed").get<std::uint64_t>(),
                          f.at("original_size").get<std::size_t>(), f.at("property").get<std::string>(),
                          f.at("instance"), report_from_record(f.at("report")), f.at("shrunk").get<bool>()});
  return c;
}

// The items of `total` trials or instances: first single ones, one for each of the first 16 x workers trials, so
// that the first failures (the ones shrunk, a slow chain of checks each) are found and shrunk by different workers;
// then chunks small enough that every worker gets many (instances vary in cost) and large enough that handing them
// out costs nothing (at most `largest`). The chunking never shows in the results.
class Chunks {
public:
  Chunks(std::size_t total, std::size_t workers, std::size_t largest)
      : total_(total), head_(std::min(total, 16 * std::max<std::size_t>(workers, 1))),
        size_(std::clamp<std::size_t>(total / (std::max<std::size_t>(workers, 1) * 64), 1, largest)) {}
  std::size_t count() const { return head_ + (total_ - head_ + size_ - 1) / size_; }
  std::size_t begin(std::size_t c) const { return c < head_ ? c : head_ + (c - head_) * size_; }
  std::size_t end(std::size_t c) const { return std::min(total_, c < head_ ? c + 1 : begin(c) + size_); }

private:
  std::size_t total_, head_, size_;
};

// One search (random or exhaustive) on an executor: the workers check their chunks; the chunks' results arrive in
// index order and are added up; the first max_counterexamples failures in that order are shrunk and handed on.
class SearchRun {
public:
  // `processes`: how many processes share the search (MPI ranks); each shrinks at most its share of the
  // max_counterexamples first failures it finds, since it cannot know which are the first overall. In one process
  // of `workers` threads, a shrink borrows the threads idle at the time to check candidates at once (not for a
  // policy outside C++, whose process or interpreter a thread of its own would need).
  SearchRun(const Problem& problem, const SearchOptions& options, const ProgressFn& progress, const FoundFn& found,
            const Executor& executor)
      : problem_(problem), options_(options), progress_(progress), found_(found),
        quota_((options.max_counterexamples + executor.processes() - 1) / std::max<std::size_t>(executor.processes(), 1)),
        workers_(executor.processes() == 1 && options.check.policy_cmd.empty() && options.check.python_policy.empty()
                     ? executor.workers()
                     : 1) {
    helpers_.take = [this](std::size_t wanted) {
      std::size_t busy = busy_.load();
      for (;;) {
        const std::size_t lend = std::min(wanted, workers_ > busy ? workers_ - busy : 0);
        if (lend == 0 || busy_.compare_exchange_weak(busy, busy + lend)) return lend;
      }
    };
    helpers_.give_back = [this](std::size_t lent) { busy_.fetch_sub(lent); };
  }

  // A worker's item (or a delivery's shrinking) in progress, for the count of idle workers.
  class Busy {
  public:
    explicit Busy(SearchRun& run) : run_(run) { run_.busy_.fetch_add(1); }
    ~Busy() { run_.busy_.fetch_sub(1); }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;

  private:
    SearchRun& run_;
  };

  // One checked trial or instance, on a worker: counted, and when it fails and is among the chunk's first, kept.
  void count(ChunkResult& chunk, std::size_t index, std::uint64_t seed, Report&& report,
             const std::function<nlohmann::json()>& document) {
    ++chunk.checked;
    chunk.unproven += report.exact_unproven();
    if (report.any_fails()) {
      ++chunk.failing;
      for (const std::string& property : report.failing()) ++chunk.failing_by_property[property];
      if (chunk.failures.size() < options_.max_counterexamples) chunk.failures.push_back(failure(index, seed, document(), report));
      failing_.fetch_add(1);
    } else if (report.exit_code() == 3) {
      ++chunk.undecided;
      undecided_.fetch_add(1);
    }
    unproven_.fetch_add(report.exact_unproven());
    done_.fetch_add(1);
    report_progress();
  }

  // A chunk's result, in index order: added to the summary; its failures kept while fewer than max_counterexamples
  // are, each shrunk here if its worker did not.
  void deliver(std::string&& bytes, SearchSummary& summary) {
    ChunkResult chunk = chunk_from_bytes(bytes);
    summary.checked += chunk.checked;
    summary.failing += chunk.failing;
    summary.undecided += chunk.undecided;
    summary.unproven += chunk.unproven;
    for (const auto& [property, n] : chunk.failing_by_property) summary.failing_by_property[property] += n;
    for (ChunkFailure& f : chunk.failures) {
      if (summary.counterexamples.size() >= options_.max_counterexamples) break;
      if (!f.shrunk) {
        const Busy busy(*this);
        shrink_failure(f);
      }
      Counterexample c{f.trial, f.trial_seed, f.original_size, f.property, std::move(f.instance), std::move(f.report)};
      if (found_) found_(c);
      summary.counterexamples.push_back(std::move(c));
    }
  }

  void set_total(std::size_t total) { total_ = total; }

private:
  // The failing instance's JSON read back must fail as the instance did (the writer and reader agree), when both
  // checks proved their optimum; then it is shrunk while this process has shrinks to spare (its quota; a later one's
  // is done at delivery), unless a stop was requested (every check from then on is cut short: kept as found).
  ChunkFailure failure(std::size_t index, std::uint64_t seed, nlohmann::json document, const Report& report) {
    Report again = problem_.check(document, "(generated)", options_.check);
    if (!again.exact_unproven() && !report.exact_unproven() && again.failing() != report.failing())
      throw InternalError(fmt::format("search {}: instance {}: read back from its JSON it fails {{{}}}, generated it "
                                      "fails {{{}}}: the problem's writer and reader disagree",
                                      options_.problem, index, fmt::join(again.failing(), ", "),
                                      fmt::join(report.failing(), ", ")));
    ChunkFailure f{index, seed, report.size, report.failing().front(), std::move(document), report, false};
    if (shrinks_.fetch_add(1) < quota_) shrink_failure(f);
    return f;
  }

  void shrink_failure(ChunkFailure& f) {
    f.shrunk = true;
    if (stop_requested()) return;
    std::tie(f.instance, f.report) =
        shrink(problem_, f.instance, options_.check, f.property, options_.max_shrink_checks, &helpers_);
  }

  void report_progress() {
    if (!progress_) return;
    const std::unique_lock<std::mutex> turn(progress_lock_, std::try_to_lock);
    if (!turn.owns_lock()) return;
    const double now = seconds();
    if (now - last_progress_ < kProgressEverySeconds) return;
    last_progress_ = now;
    progress_(SearchProgress{done_.load(), total_, failing_.load(), undecided_.load(), unproven_.load(), now});
  }

public:
  double seconds() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }

private:
  const Problem& problem_;
  const SearchOptions& options_;
  const ProgressFn& progress_;
  const FoundFn& found_;
  const Clock::time_point started_ = Clock::now();
  std::size_t total_ = 0;
  const std::size_t quota_, workers_;
  std::atomic<std::size_t> busy_{0};  // workers' items, deliveries shrinking and helpers lent, running now
  ShrinkHelpers helpers_;
  std::atomic<std::size_t> shrinks_{0}, done_{0}, failing_{0}, undecided_{0}, unproven_{0};
  std::mutex progress_lock_;
  double last_progress_ = 0;
};

std::unique_ptr<Executor> executor_for(const SearchOptions& options, Executor* given) {
  return given ? nullptr : make_executor(options.jobs, options.shard);
}

}  // namespace

SearchSummary search(const Problem& problem, const SearchOptions& options, const ProgressFn& progress,
                     const FoundFn& found, Executor* given) {
  const std::unique_ptr<Executor> own = executor_for(options, given);
  Executor& executor = given ? *given : *own;
  SearchRun run(problem, options, progress, found, executor);
  run.set_total(options.trials);
  SearchSummary summary;
  const Chunks chunks(options.trials, executor.workers(), 256);
  executor.run(
      chunks.count(),
      [&](std::size_t c) {
        const SearchRun::Busy busy(run);
        ChunkResult chunk;
        for (std::size_t trial = chunks.begin(c); trial < chunks.end(c); ++trial) {
          if (stop_requested()) break;
          const std::uint64_t seed = trial_seed(options.seed, trial);
          GeneratedCheck g;
          try {  // generating may stop too (offers admits jobs one at a time: large sizes take minutes)
            g = problem.check_generated(seed, options.size, options.check);
          } catch (const StopRequested&) {
            break;
          }
          if (stop_requested()) break;  // this check may have been cut short: not counted
          run.count(chunk, trial, seed, std::move(g.report), [&] { return std::move(g.document); });
        }
        return chunk_bytes(chunk);
      },
      [&](std::size_t, std::string&& bytes) { run.deliver(std::move(bytes), summary); });
  summary.interrupted = stop_requested();
  summary.seconds = run.seconds();
  summary.workers = executor.workers();
  return summary;
}

SearchSummary exhaustive_search(const Problem& problem, const SearchOptions& options, const FoundFn& found,
                                Executor* given, const ProgressFn& progress) {
  const std::size_t total = problem.count_scope(options.scope);  // a bad scope is refused before any check
  const std::unique_ptr<Executor> own = executor_for(options, given);
  Executor& executor = given ? *given : *own;
  SearchRun run(problem, options, progress, found, executor);
  run.set_total(total);
  SearchSummary summary;
  const Chunks chunks(total, executor.workers(), 4096);
  // One cursor a worker thread: each walks the scope once, front to back, as its chunks come in increasing order.
  std::mutex cursors_lock;
  std::map<std::thread::id, std::unique_ptr<ScopeCursor>> cursors;
  const auto cursor = [&]() -> ScopeCursor& {
    const std::lock_guard<std::mutex> hold(cursors_lock);
    auto& mine = cursors[std::this_thread::get_id()];
    if (!mine) mine = problem.scope_cursor(options.scope);
    return *mine;
  };
  executor.run(
      chunks.count(),
      [&](std::size_t c) {
        const SearchRun::Busy busy(run);
        ChunkResult chunk;
        if (stop_requested()) return chunk_bytes(chunk);
        try {
          cursor().check_range(chunks.begin(c), chunks.end(c), options.check,
                               [&](std::size_t index, Report&& report, const std::function<nlohmann::json()>& document) {
                                 if (stop_requested()) throw StopRequested();  // cut short: not counted
                                 run.count(chunk, index, 0, std::move(report), document);
                               });
        } catch (const StopRequested&) {
          // the instances checked before the stop count; the rest of the chunk is not checked
        }
        return chunk_bytes(chunk);
      },
      [&](std::size_t, std::string&& bytes) { run.deliver(std::move(bytes), summary); });
  summary.interrupted = stop_requested();
  summary.seconds = run.seconds();
  summary.workers = executor.workers();
  return summary;
}

std::string corpus_file_name(const Counterexample& found, const SearchOptions& options, const std::string& extension) {
  if (options.exhaustive)
    return fmt::format("{}-{}-exhaustive-{}{}", options.problem, options.check.policy, found.trial, extension);
  return fmt::format("{}-{}-seed{}-trial{}{}", options.problem, options.check.policy, options.seed, found.trial, extension);
}

nlohmann::json corpus_document(const Counterexample& found, const SearchOptions& options, const std::string& path) {
  std::string search_command = fmt::format(
      "schedcheck search {} {} --seed {} --trials {} --size {} --tolerance {}", options.problem,
      policy_options(options.check), options.seed, options.trials, options.size, format_number(options.check.tolerance));
  if (options.exhaustive)
    search_command = fmt::format("schedcheck search {} {} --exhaustive --scope {} --tolerance {}", options.problem,
                                 policy_options(options.check), options.scope.empty() ? "(default)" : options.scope,
                                 format_number(options.check.tolerance));
  if (!options.check.exact.empty()) search_command += " --exact " + options.check.exact;
  search_command += " --effort " + std::to_string(options.check.solve.effort);
  if (!options.check.python_policy.empty())
    search_command = fmt::format("python3: schedcheck.search({}, {}, trials={}, seed={}, size={}, tolerance={}{})",
                                 nlohmann::json(options.problem).dump(), options.check.python_policy, options.trials,
                                 options.seed, options.size, format_number(options.check.tolerance),
                                 options.exhaustive ? ", exhaustive=True" : "");
  const std::string origin = options.exhaustive ? fmt::format("instance #{} of the enumeration", found.trial)
                                                : fmt::format("trial {}, trial seed {}", found.trial, found.trial_seed);
  return corpus_document(found.instance, found.report, options.problem, options.check,
                         fmt::format("{}: {} fails {} (seed {}, trial {})", options.problem, options.check.policy,
                                     found.property, options.seed, found.trial),
                         fmt::format("{} ({}; shrunk from {} to {})", search_command, origin, found.original_size,
                                     found.report.size),
                         path);
}

std::string write_counterexample(const Problem& problem, const Counterexample& found, const SearchOptions& options,
                                 const std::string& dir) {
  const std::string path =
      (std::filesystem::path(dir) / corpus_file_name(found, options, problem.corpus_extension())).string();
  write_file_atomically(path, problem.corpus_text(corpus_document(found, options, path)));
  return path;
}

std::optional<std::string> CorpusWriter::write(const Problem& problem, const Counterexample& found,
                                               const SearchOptions& options, const std::string& dir) {
  if (!error.empty()) return std::nullopt;
  try {
    return write_counterexample(problem, found, options, dir);
  } catch (const PolicyFailure&) {
    throw;  // the re-check's policy failed: the search ends (exit 2)
  } catch (const InputError& e) {
    error = e.what();
    return std::nullopt;
  }
}

nlohmann::json CorpusWriter::error_json() const {
  return error.empty() ? nlohmann::json(nullptr) : nlohmann::json(error);
}

nlohmann::json summary_json(const SearchSummary& summary, const SearchOptions& options) {
  return {{"problem", options.problem},
          {"policy", options.check.policy},
          {"seed", options.seed},
          {"trials", options.trials},
          {"size", options.size},
          {"tolerance", options.check.tolerance},
          {"checked", summary.checked},
          {"failing", summary.failing},
          {"undecided", summary.undecided},
          {"exact_unproven", summary.unproven},
          {"seconds", summary.seconds},
          {"checks_per_second", static_cast<double>(summary.checked) / std::max(summary.seconds, 1e-9)},
          {"exhaustive", options.exhaustive},
          {"scope", options.scope},
          {"failing_by_property", summary.failing_by_property},
          {"interrupted", summary.interrupted}};
}

nlohmann::json counterexample_json(const Counterexample& found) {
  return {{"property", found.property},
          {"trial", found.trial},
          {"original_size", found.original_size},
          {"shrunk_size", found.report.size},
          {"gap", found.report.gap ? nlohmann::json(*found.report.gap) : nlohmann::json(nullptr)}};
}

namespace {
// What makes two runs the same search: every option that decides the trials and their checks.
nlohmann::json search_identity(const SearchOptions& o) {
  return {{"problem", o.problem},           {"policy", o.check.policy},        {"policy_cmd", o.check.policy_cmd},
          {"exact", o.check.exact},         {"tolerance", o.check.tolerance},  {"timeout_ms", o.check.solve.timeout_ms},
          {"effort", o.check.solve.effort},
          {"seed", o.seed},                 {"trials", o.trials},              {"size", o.size},
          {"exhaustive", o.exhaustive},     {"scope", o.scope},                {"max_counterexamples", o.max_counterexamples},
          {"max_shrink_checks", o.max_shrink_checks}};
}
SearchOptions options_of(const nlohmann::json& id) {
  SearchOptions o;
  o.problem = id.at("problem").get<std::string>();
  o.check.policy = id.at("policy").get<std::string>();
  o.check.policy_cmd = id.at("policy_cmd").get<std::string>();
  o.check.exact = id.at("exact").get<std::string>();
  o.check.tolerance = id.at("tolerance").get<double>();
  o.check.solve.timeout_ms = id.at("timeout_ms").get<unsigned>();
  o.check.solve.effort = id.at("effort").get<std::uint64_t>();
  o.seed = id.at("seed").get<std::uint64_t>();
  o.trials = id.at("trials").get<std::size_t>();
  o.size = id.at("size").get<std::size_t>();
  o.exhaustive = id.at("exhaustive").get<bool>();
  o.scope = id.at("scope").get<std::string>();
  o.max_counterexamples = id.at("max_counterexamples").get<std::size_t>();
  o.max_shrink_checks = id.at("max_shrink_checks").get<std::size_t>();
  return o;
}
}  // namespace

nlohmann::json search_shard_json(const SearchSummary& summary, const SearchOptions& options) {
  nlohmann::json found = nlohmann::json::array();
  for (const auto& c : summary.counterexamples)
    found.push_back({{"trial", c.trial}, {"trial_seed", c.trial_seed}, {"original_size", c.original_size},
                     {"property", c.property}, {"instance", c.instance}, {"report", report_record(c.report)}});
  return {{"search", search_identity(options)},
          {"shard", {options.shard.index, options.shard.count}},
          {"checked", summary.checked},
          {"failing", summary.failing},
          {"undecided", summary.undecided},
          {"exact_unproven", summary.unproven},
          {"failing_by_property", summary.failing_by_property},
          {"seconds", summary.seconds},
          {"interrupted", summary.interrupted},
          {"counterexamples", found}};
}

MergedSearch merge_search_shards(const std::vector<std::string>& dirs) {
  if (dirs.empty()) throw InputError("merge: expected the shards' --out folders");
  MergedSearch merged;
  nlohmann::json identity;
  ShardSet given;
  for (const auto& dir : dirs) {
    const std::string path = (std::filesystem::path(dir) / kSearchShardFile).string();
    nlohmann::json shard;
    try {
      std::ifstream in(path);
      if (!in) throw InputError(fmt::format("{}: expected a shard's --out folder (shard.json of `search ... --shard "
                                            "I/N`, or points/sweep.json of `experiment ... --shard I/N`)", dir));
      shard = nlohmann::json::parse(in);
      const Shard which{shard.at("shard").at(0).get<std::size_t>(), shard.at("shard").at(1).get<std::size_t>()};
      if (identity.is_null()) {
        identity = shard.at("search");
        merged.options = options_of(identity);
      } else if (shard.at("search") != identity) {
        throw InputError(fmt::format("merge: {} is a shard of another search than {} (another problem, policy, seed "
                                     "or option)", dir, dirs.front()));
      }
      given.add(which, dir);
      SearchSummary& sum = merged.summary;
      sum.checked += shard.at("checked").get<std::size_t>();
      sum.failing += shard.at("failing").get<std::size_t>();
      sum.undecided += shard.at("undecided").get<std::size_t>();
      sum.unproven += shard.at("exact_unproven").get<std::size_t>();
      for (const auto& [property, k] : shard.at("failing_by_property").items())
        sum.failing_by_property[property] += k.get<std::size_t>();
      sum.seconds = std::max(sum.seconds, shard.at("seconds").get<double>());
      if (shard.at("interrupted").get<bool>())
        throw InputError(fmt::format("merge: {}: shard {}/{} was stopped after {} checked trials; run it again (a "
                                     "merge of a cut shard would not be the search's result)", dir, which.index, which.count,
                                     shard.at("checked").get<std::size_t>()));
      for (const auto& c : shard.at("counterexamples"))
        sum.counterexamples.push_back({c.at("trial").get<std::size_t>(), c.at("trial_seed").get<std::uint64_t>(),
                                       c.at("original_size").get<std::size_t>(), c.at("property").get<std::string>(),
                                       c.at("instance"), report_from_record(c.at("report"))});
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{}: expected the JSON `search --shard` writes ({})", path, e.what()));
    }
  }
  given.require_all();
  auto& found = merged.summary.counterexamples;
  std::sort(found.begin(), found.end(), [](const Counterexample& a, const Counterexample& b) { return a.trial < b.trial; });
  if (found.size() > merged.options.max_counterexamples) found.resize(merged.options.max_counterexamples);
  return merged;
}

}  // namespace schedcheck
