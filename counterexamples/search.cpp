// Search, shrinking and corpus files (see search.hpp). Our own.
#include "counterexamples/search.hpp"

#include "counterexamples/rng.hpp"
#include "properties/corpus.hpp"
#include "model/input.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <chrono>
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
                                         const std::string& property, std::size_t max_checks) {
  Report report = problem.check(document, "(shrinking)", request);
  std::size_t checks = 0;
  bool progress = true;
  while (progress && checks < max_checks && !stop_requested()) {
    progress = false;
    for (const auto& candidate : problem.shrink(document)) {
      if (++checks > max_checks || stop_requested()) break;
      Report candidate_report;
      try {
        candidate_report = problem.check(candidate, "(shrinking)", request);
      } catch (const PolicyFailure&) {
        throw;  // the policy's failure, not the candidate's: the search ends (exit 2)
      } catch (const InputError&) {
        continue;  // a candidate the reader rejects is not simpler, just wrong
      } catch (const StopRequested&) {
        return {document, report};  // the smallest confirmed so far
      }
      if (still_fails(candidate_report, property)) {
        document = candidate;
        report = std::move(candidate_report);
        progress = true;
        break;  // restart from the most aggressive candidates of the smaller instance
      }
    }
  }
  return {document, report};
}

namespace {
// Shrinks one failing instance into a counterexample and hands it to `found`. After a stop request the original
// report is kept as it is: every check from then on is cut short, so shrinking could not confirm a candidate.
Counterexample make_counterexample(const Problem& problem, const SearchOptions& options, std::size_t trial,
                                   std::uint64_t seed, const nlohmann::json& document, const Report& report,
                                   const FoundFn& found) {
  Counterexample c;
  c.trial = trial;
  c.trial_seed = seed;
  c.original_size = report.size;
  c.property = report.failing().front();
  if (stop_requested()) {
    c.instance = document;
    c.report = report;
  } else {
    std::tie(c.instance, c.report) = shrink(problem, document, options.check, c.property, options.max_shrink_checks);
  }
  if (found) found(c);
  return c;
}
}  // namespace

SearchSummary search(const Problem& problem, const SearchOptions& options, const ProgressFn& progress,
                     const FoundFn& found) {
  SearchSummary summary;
  const auto started = Clock::now();
  auto last_progress = started;
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  for (std::size_t trial = 0; trial < options.trials; ++trial) {
    if (stop_requested()) break;
    const std::uint64_t seed = trial_seed(options.seed, trial);
    nlohmann::json document;
    Report report;
    try {  // generating may stop too (offers admits jobs one at a time: large sizes take minutes)
      document = problem.generate(seed, options.size);
      report = problem.check(document, "(generated)", options.check);
    } catch (const StopRequested&) {
      break;
    }
    if (stop_requested()) break;  // this check may have been cut short: not counted
    ++summary.checked;
    summary.unproven += report.exact_unproven();
    if (report.any_fails()) {
      ++summary.failing;
      for (const std::string& property : report.failing()) ++summary.failing_by_property[property];
      if (summary.counterexamples.size() < options.max_counterexamples)
        summary.counterexamples.push_back(make_counterexample(problem, options, trial, seed, document, report, found));
    } else if (report.exit_code() == 3) {
      ++summary.undecided;
    }
    if (progress && std::chrono::duration<double>(Clock::now() - last_progress).count() >= kProgressEverySeconds) {
      last_progress = Clock::now();
      progress(SearchProgress{trial + 1, options.trials, summary.failing, summary.undecided, summary.unproven,
                              elapsed()});
    }
  }
  summary.interrupted = stop_requested();
  summary.seconds = elapsed();
  return summary;
}

SearchSummary exhaustive_search(const Problem& problem, const SearchOptions& options, const FoundFn& found) {
  const auto started = Clock::now();
  SearchSummary summary;
  // Each failure is shrunk and handed on as soon as the enumeration meets it (check_every calls back in order).
  EnumerationSummary every = problem.check_every(
      options.scope, options.check, options.max_counterexamples, [&](const EnumerationSummary::Failure& failure) {
        summary.counterexamples.push_back(
            make_counterexample(problem, options, failure.index, 0, failure.instance, failure.report, found));
      });
  summary.checked = every.checked;
  summary.failing = every.failing;
  summary.undecided = every.undecided;
  summary.unproven = every.unproven;
  summary.failing_by_property = every.failing_by_property;
  summary.interrupted = every.interrupted;
  summary.seconds = std::chrono::duration<double>(Clock::now() - started).count();
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

}  // namespace schedcheck
