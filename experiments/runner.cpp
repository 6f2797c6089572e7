// Running a sweep and writing its results (see runner.hpp). Our own.
#include "experiments/runner.hpp"

#include "experiments/claims.hpp"

#include "model/input.hpp"
#include "model/job_metrics.hpp"
#include "model/jobs_csv.hpp"
#include "properties/corpus.hpp"
#include "support/files.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

namespace schedcheck::experiments {

bool ExperimentOptions::wants_reading(const std::string& name) const {
  return readings || std::find(reading_names.begin(), reading_names.end(), name) != reading_names.end();
}

void check_options(const ExperimentOptions& options, const CatalogueEntry& entry) {
  for (const auto& name : options.reading_names)
    if (std::none_of(entry.readings.begin(), entry.readings.end(), [&](const Reading& r) { return r.name == name; })) {
      std::string known;
      for (const auto& r : entry.readings) known += (known.empty() ? "" : ", ") + r.name;
      throw InputError(fmt::format("--reading: experiment {} has no reading {} (its readings: {})", entry.name,
                                   quoted_text(name, 40), known.empty() ? "none" : known));
    }
  if (options.ask_outside && !entry.takes_policy_cmd)
    throw InputError(fmt::format("--policy-cmd: experiment {} takes no policy outside C++ (experiment --list says "
                                 "which do)", entry.name));
  if (options.ask_outside && options.outside_for.empty())
    throw InputError("--policy-cmd: name the actors it decides for with --policy-for NAME (repeatable)");
  if (!options.ask_outside && !options.outside_for.empty())
    throw InputError("--policy-for: needs --policy-cmd (the process that decides for them)");
  if (options.seeds > 100'000)
    throw InputError(fmt::format("seeds: expected 1 to 100000, got {}", options.seeds));
  if (options.jobs < 1 || options.jobs > 1024) throw InputError(fmt::format("jobs: expected 1 to 1024, got {}", options.jobs));
}

nlohmann::json catalogue_json() {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& e : catalogue()) {
    nlohmann::json readings = nlohmann::json::array();
    for (const auto& r : e.readings) readings.push_back({{"name", r.name}, {"scenario", r.scenario}, {"what", r.what}});
    all.push_back({{"name", e.name}, {"paper", e.source}, {"summary", e.summary}, {"options", e.options},
                   {"readings", readings}});
  }
  return all;
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (k) line += ',';
    line += jobs_csv::text_field(fields[k]);
  }
  return line + "\n";
}

std::string csv_number(double x) { return std::isfinite(x) ? fmt::format("{}", x) : ""; }

Spread spread(const std::vector<double>& v) {
  Spread s;
  s.count = v.size();
  if (v.empty()) return s;
  double sum = 0;
  for (const double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double sq = 0;
  for (const double x : v) sq += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0.0;
  return s;
}

DefaultRuns default_runs(const Sweep& sweep) {
  DefaultRuns d;
  for (std::size_t i = 0; i < sweep.points.size(); ++i)
    if (sweep.points[i].reading.empty()) {
      d.points.push_back(sweep.points[i]);
      d.records.push_back(sweep.records[i]);
    }
  return d;
}

std::string Point::parameter(const std::string& name) const {
  for (const auto& [key, value] : parameters)
    if (key == name) return value;
  return "";
}

std::size_t RunRecord::violated() const {
  std::size_t n = 0;
  for (const auto& [name, count] : violations) n += count;
  for (const auto& c : checks.is_array() ? checks : nlohmann::json::array({checks}))
    if (c.is_object()) n += c.value("invalid", std::size_t{0}) + c.value("failing", std::size_t{0});
  return n;
}

double RunRecord::metric(const std::string& name) const {
  for (const auto& [key, value] : metrics)
    if (key == name) return value;
  return std::numeric_limits<double>::quiet_NaN();
}

std::size_t Sweep::violations() const {
  std::size_t n = 0;
  for (const auto& r : records)
    if (r) n += r->violated();
  return n;
}

nlohmann::json RunRecord::to_json() const {
  nlohmann::json m = nlohmann::json::array();
  for (const auto& [name, value] : metrics) m.push_back({name, value});  // NaN stays NaN in CBOR (record_bytes)
  return {{"metrics", m},         {"decisions", decisions},       {"violations", violations}, {"checks", checks},
          {"data", data},         {"interrupted", interrupted},   {"wall_seconds", wall_seconds}};
}

RunRecord RunRecord::from_json(const nlohmann::json& j) {
  RunRecord r;
  for (const auto& pair : j.at("metrics")) r.metrics.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<double>());
  r.decisions = j.at("decisions").get<std::size_t>();
  r.violations = j.at("violations").get<std::map<std::string, std::size_t>>();
  r.checks = j.at("checks");
  r.data = j.at("data");
  r.interrupted = j.at("interrupted").get<bool>();
  r.wall_seconds = j.at("wall_seconds").get<double>();
  return r;
}

std::string record_bytes(const RunRecord& record) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(record.to_json());
  return std::string(bytes.begin(), bytes.end());
}

RunRecord record_from_bytes(const std::string& bytes) {
  return RunRecord::from_json(nlohmann::json::from_cbor(bytes));
}

Sweep run_sweep(const Experiment& experiment, Executor& executor, const std::function<void(const SweepProgress&)>& progress,
                const RecordStore& store) {
  const auto started = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  Sweep sweep;
  sweep.points = experiment.points();
  sweep.records.resize(sweep.points.size());
  double total_weight = 0, done_weight = 0;
  std::size_t done = 0;
  for (std::size_t i = 0; i < sweep.points.size(); ++i)
    if (executor.owns(i)) {
      total_weight += sweep.points[i].weight;
      ++sweep.owned;
    }
  std::vector<char> ran(sweep.points.size(), 0);     // each slot written by the one worker that ran the point
  std::vector<char> loaded(sweep.points.size(), 0);  // likewise: taken from the store
  executor.run(
      sweep.points.size(),
      [&](std::size_t i) {
        if (store.load)
          if (std::optional<std::string> kept = store.load(i)) {  // finished by an earlier run of the same sweep
            ran[i] = loaded[i] = 1;
            return *kept;
          }
        RunRecord record = experiment.run(sweep.points[i]);
        if (record.interrupted) return std::string();  // cut short by a stop request: it does not count
        ran[i] = 1;
        return record_bytes(record);
      },
      [&](std::size_t i, std::string&& bytes) {  // in point order, one call at a time
        if (bytes.empty()) return;
        if (store.save && !loaded[i]) store.save(i, bytes);
        sweep.records[i] = record_from_bytes(bytes);
        ++sweep.finished;
      },
      [&](std::size_t i) {  // as points finish, one call at a time
        if (!ran[i]) return;
        ++done;
        done_weight += sweep.points[i].weight;
        if (progress) progress(SweepProgress{done, sweep.owned, seconds(), done_weight, total_weight});
      });
  sweep.interrupted = stop_requested() || sweep.finished < sweep.owned;
  sweep.wall_seconds = seconds();
  sweep.workers = executor.workers();
  return sweep;
}

namespace {

namespace fs = std::filesystem;

// The decision checks of every finished run, added up (counts) and pooled (gaps), one entry a problem. A run's checks
// are one probe's JSON or an array of them; each probe's gaps are in the run's data under its "data_gaps" key
// (default "gaps": the positive gaps) and KEY_at_zero (how many were 0).
nlohmann::json pooled_checks(const Sweep& sweep) {
  nlohmann::json all = nlohmann::json::array();
  std::vector<std::vector<double>> gaps;
  for (const auto& r : sweep.records) {
    if (!r) continue;
    const nlohmann::json probes = r->checks.is_array() ? r->checks : nlohmann::json::array({r->checks});
    for (const auto& c : probes) {
      if (!c.is_object()) continue;
      const std::string problem = c.value("problem", "");
      std::size_t k = 0;
      while (k < all.size() && all[k]["problem"] != problem) ++k;
      if (k == all.size()) {
        all.push_back({{"problem", problem}, {"checked", 0}, {"proven", 0}, {"undecided", 0}, {"at_optimum", 0},
                       {"invalid", 0}, {"failing", 0}, {"measured", 0}, {"failing_by_property", nlohmann::json::object()},
                       {"solve_seconds", 0.0}});
        gaps.emplace_back();
      }
      nlohmann::json& out = all[k];
      for (const char* key : {"checked", "proven", "undecided", "at_optimum", "invalid", "failing", "measured"})
        out[key] = out[key].get<std::size_t>() + c.value(key, std::size_t{0});
      out["solve_seconds"] = out["solve_seconds"].get<double>() + c.value("solve_seconds", 0.0);
      const nlohmann::json by_property = c.value("failing_by_property", nlohmann::json::object());
      for (const auto& [name, count] : by_property.items())  // items() of a temporary would dangle
        out["failing_by_property"][name] = out["failing_by_property"].value(name, std::size_t{0}) + count.get<std::size_t>();
      const std::string key = c.value("data_gaps", std::string("gaps"));
      if (r->data.contains(key))
        for (const auto& g : r->data[key]) gaps[k].push_back(g.get<double>());
      if (r->data.contains(key + "_at_zero")) gaps[k].resize(gaps[k].size() + r->data[key + "_at_zero"].get<std::size_t>(), 0.0);
    }
  }
  for (std::size_t k = 0; k < all.size(); ++k) {
    const Stats g = statistics(std::move(gaps[k]));
    all[k]["gap"] = {{"count", g.count}, {"mean", g.mean}, {"median", g.median}, {"p95", g.p95}, {"max", g.max}};
  }
  return all;
}

}  // namespace

void require_exact_method(const Problem& problem, const std::string& name, const std::string& file,
                          const std::string& field) {
  if (name.empty() || name == "none") return;
  std::string known;
  for (const auto& m : problem.exact_methods()) {
    if (m.name == name) return;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw InputError(fmt::format("{}: {}: expected an exact method of {} ({}, or \"none\"), got {}", file, field,
                               problem.info().name, known, quoted_text(name)));
}

scenario::Scenario system_scenario(const std::string& experiment, const ExperimentOptions& options,
                                   const std::string& default_file) {
  if (!options.traces.empty() || !options.traces_dir.empty())
    throw InputError(fmt::format("{}: the clusters and their traces come from a scenario file (--scenario FILE; default "
                                 "examples/scenarios/{}.json), not --trace or --traces", experiment, experiment));
  const std::string file = options.scenario.empty() ? default_file : options.scenario;
  std::error_code error;
  if (file.empty() || !fs::exists(file, error))
    throw InputError(fmt::format("{}: {}: no such scenario file (give --scenario FILE)", experiment, file));
  scenario::Names names;
  names.router_needed = false;
  return scenario::read_file(file, names);
}

std::vector<std::string> write_worst_decisions(
    const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records, const std::string& key,
    const Problem& problem, CheckRequest request, std::size_t keep, const std::string& dir, const std::string& stem,
    const std::function<std::string(const Point&, const nlohmann::json&)>& found_by, std::vector<std::string>& skipped) {
  struct Candidate {
    bool fails;
    double gap;
    std::size_t point;
    const nlohmann::json* worst;
  };
  std::vector<Candidate> all;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (records[i] && records[i]->data.contains(key))
      for (const auto& w : records[i]->data[key]) all.push_back({w["fails"].get<bool>(), w["gap"].get<double>(), i, &w});
  std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
    return std::pair(a.fails, a.gap) > std::pair(b.fails, b.gap);
  });
  all.resize(std::min(all.size(), keep));
  std::vector<std::string> files;
  std::size_t rank = 0;
  for (const Candidate& c : all) {
    if (stop_requested()) {  // its verdict would be the interrupted check's: left out, and said so
      skipped.push_back(fmt::format("{}-{}.json{}: not written: the run was stopped before it was re-checked", stem,
                                    rank + 1, rank + 1 < all.size() ? fmt::format(" to {}-{}.json", stem, all.size()) : ""));
      break;
    }
    const nlohmann::json& w = *c.worst;
    const std::string path = (fs::path(dir) / fmt::format("{}-{}.json", stem, ++rank)).string();
    request.policy = w["policy"].get<std::string>();
    const Report checked = problem.check(w["instance"], path, request);
    write_file_atomically(path, problem.corpus_text(corpus_document(w["instance"], checked, problem.info().name, request,
                                                                    w["instance"]["name"].get<std::string>(),
                                                                    found_by(points[c.point], w), path)));
    files.push_back(path);
  }
  return files;
}

bool is_result_file(const std::string& name) {
  std::string base = name;
  if (base.size() > 4 && base.ends_with(".tmp")) base.resize(base.size() - 4);
  if (base.starts_with(".schedcheck-probe-")) return true;
  if (base == "summary.json" || base == "claims.md") return true;
  if (base.starts_with("worst-") && base.ends_with(".json")) return true;
  const std::string ext = fs::path(base).extension().string();
  return ext == ".csv" || ext == ".png" || ext == ".svg";
}

namespace {

// The regular files directly in `dir`, by name.
std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file(error) || it->is_symlink(error)) names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Removes the result files in `dir` not among `keep` (full paths); returns their names.
std::vector<std::string> remove_other_results(const std::string& dir, const std::vector<std::string>& keep) {
  std::set<std::string> kept;
  for (const auto& file : keep)
    if (fs::path(file).parent_path() == fs::path(dir)) kept.insert(fs::path(file).filename().string());
  std::vector<std::string> removed;
  for (const auto& name : files_in(dir)) {
    if (!is_result_file(name) || kept.count(name)) continue;
    std::error_code error;
    if (fs::remove(fs::path(dir) / name, error)) removed.push_back(name);
  }
  return removed;
}

}  // namespace

std::vector<std::string> claim_output_directory(const std::string& dir, const std::string& option, bool force) {
  std::error_code error;
  if (!force && fs::is_directory(dir, error))
    for (const auto& name : files_in(dir))
      if (!is_result_file(name))
        throw InputError(fmt::format("{}: {}: holds {}, which is not an experiment's result (a run owns its folder and "
                                     "removes the tables, plots and corpus files an earlier run left there); expected a "
                                     "new or empty folder, or --force to keep such files", dir, option,
                                     quoted_text(name)));
  prepare_output_directory(dir, option);
  return remove_other_results(dir, {});
}

Written write_results(const Experiment& experiment, const ExperimentOptions& options, const Sweep& sweep,
                      const std::string& dir, const std::string& command) {
  prepare_output_directory(dir, "--out");
  Written w;
  auto path = [&](const std::string& name) { return (fs::path(dir) / name).string(); };

  // runs.csv: one row per finished run and metric, the parameters as columns.
  const bool readings = std::any_of(sweep.points.begin(), sweep.points.end(), [](const Point& p) { return !p.reading.empty(); });
  std::vector<std::string> header;
  if (!sweep.points.empty())
    for (const auto& [key, value] : sweep.points.front().parameters) header.push_back(key);
  if (readings) header.push_back("reading");
  header.insert(header.end(), {"seed", "metric", "value"});
  std::string runs = csv_line(header);
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    if (!sweep.records[i]) continue;
    std::vector<std::string> fixed;
    for (const auto& [key, value] : sweep.points[i].parameters) fixed.push_back(value);
    if (readings) fixed.push_back(sweep.points[i].reading.empty() ? "default" : sweep.points[i].reading);
    fixed.push_back(std::to_string(sweep.points[i].seed));
    for (const auto& [metric, value] : sweep.records[i]->metrics) {
      std::vector<std::string> row = fixed;
      row.push_back(metric);
      row.push_back(csv_number(value));
      runs += csv_line(row);
    }
  }
  write_file_atomically(path("runs.csv"), runs);
  w.files.push_back(path("runs.csv"));

  // The figures: STEM.csv and STEM.png each.
  nlohmann::json figures = nlohmann::json::array();
  const bool can_plot = report::gnuplot_available();
  const DefaultRuns shown = default_runs(sweep);
  for (const Figure& f : experiment.figures(shown.points, shown.records)) {
    std::string text = csv_line(f.header);
    for (const auto& row : f.rows) text += csv_line(row);
    write_file_atomically(path(f.stem + ".csv"), text);
    w.files.push_back(path(f.stem + ".csv"));
    nlohmann::json entry = {{"stem", f.stem}, {"caption", f.caption}, {"csv", f.stem + ".csv"}, {"plot", nullptr}};
    const auto skip = [&](const std::string& why) {
      entry["plot_skipped"] = why;
      w.skipped.push_back(f.stem + ".png: " + why);
    };
    if (f.plot && (sweep.finished == 0 || f.rows.empty())) {  // nothing to draw: the CSV says so by its rows
      skip(sweep.interrupted ? "not drawn: no data (the runs it shows did not finish before the stop)"
                             : "not drawn: no data");
    } else if (f.plot && finishing_time_up()) {
      skip("not drawn: the run was stopped and its time to finish is up (the CSV is written)");
    } else if (f.plot) {
      std::string failed = can_plot ? report::draw(*f.plot, path(f.stem + ".png"))
                                    : "gnuplot: not found on PATH; install the Debian package gnuplot-nox";
      const bool no_data = failed.find("No valid points") != std::string::npos ||
                           failed.find("all points undefined") != std::string::npos;
      if (failed.empty()) {
        entry["plot"] = f.stem + ".png";
        w.files.push_back(path(f.stem + ".png"));
      } else if (finishing_time_up()) {
        skip("not drawn: the run was stopped and its time to finish is up (the CSV is written)");
      } else if (no_data && sweep.interrupted) {
        skip("not drawn: no data (the runs it shows did not finish before the stop)");
      } else {
        entry["plot_error"] = failed;
        w.plot_failures.push_back(f.stem + ".png: " + failed);
      }
    }
    figures.push_back(entry);
  }
  for (const auto& file : experiment.extras(shown.points, shown.records, dir, w.skipped)) w.files.push_back(file);

  // The claims: claims.csv, claims.md, claims-readings.csv (readings only).
  const std::vector<Reading> all_readings = experiment.readings();
  const std::vector<ClaimRow> claim_rows = evaluate_claims(experiment.claims(), all_readings, sweep.points, sweep.records);
  nlohmann::json claims = nullptr;
  if (!claim_rows.empty()) {
    write_file_atomically(path("claims.csv"), claims_csv(claim_rows));
    w.files.push_back(path("claims.csv"));
    if (std::any_of(claim_rows.begin(), claim_rows.end(), [](const ClaimRow& r) { return r.reading != "default"; })) {
      write_file_atomically(path("claims-readings.csv"), claims_readings_csv(claim_rows));
      w.files.push_back(path("claims-readings.csv"));
    }
    write_file_atomically(path("claims.md"), claims_markdown(claim_rows, all_readings));
    w.files.push_back(path("claims.md"));
    claims = {{"counts", claims_counts(claim_rows, "default")}, {"inputs", claims_counts(claim_rows, "default", true)},
              {"by_reading", nlohmann::json::object()}, {"readings", nlohmann::json::array()}};
    for (const ClaimRow& r : claim_rows) {
      if (!claims["by_reading"].contains(r.reading)) claims["by_reading"][r.reading] = claims_counts(claim_rows, r.reading);
      if (r.reading == "default")
        w.claims_text += fmt::format("{}  {:<13} {} ({}): {}\n", r.input ? "input claim" : "claim      ", to_string(r.verdict),
                                     r.id, r.where, r.measured);
    }
    for (const Reading& r : all_readings)
      claims["readings"].push_back({{"name", r.name}, {"scenario", r.scenario}, {"what", r.what},
                                    {"ran", claims["by_reading"].contains(r.name)}});
  }

  // summary.json.
  std::set<std::string> checked;
  std::map<std::string, std::size_t> violated;
  std::size_t decisions = 0;
  for (const auto& r : sweep.records) {
    if (!r) continue;
    decisions += r->decisions;
    for (const auto& [name, count] : r->violations) {
      checked.insert(name);
      violated[name] += count;
    }
  }
  const nlohmann::json checks = pooled_checks(sweep);
  nlohmann::json by_reading = nlohmann::json::object();  // violations of each reading's runs (readings only)
  if (readings)
    for (std::size_t i = 0; i < sweep.points.size(); ++i)
      if (sweep.records[i]) {
        const std::string name = sweep.points[i].reading.empty() ? "default" : sweep.points[i].reading;
        nlohmann::json& r = by_reading[name];
        if (r.is_null()) r = {{"runs", 0}, {"violations", 0}, {"by_invariant", nlohmann::json::object()}};
        r["runs"] = r["runs"].get<std::size_t>() + 1;
        r["violations"] = r["violations"].get<std::size_t>() + sweep.records[i]->violated();
        for (const auto& [name, count] : sweep.records[i]->violations)
          if (count) r["by_invariant"][name] = r["by_invariant"].value(name, std::size_t{0}) + count;
      }
  const Described& info = experiment.info();
  nlohmann::json summary = {
      {"experiment", info.name},
      {"paper", info.source},
      {"summary", info.summary},
      {"command", command},
      {"options", {{"seeds", options.seeds == 0 ? nlohmann::json("default") : nlohmann::json(options.seeds)},
                   {"jobs", options.jobs}, {"workers", sweep.workers}, {"quick", options.quick}, {"readings", options.readings},
                   {"reading", options.reading_names},
                   {"traces", options.traces},
                   {"traces_dir", options.traces_dir.empty() ? nlohmann::json(nullptr) : nlohmann::json(options.traces_dir)},
                   {"scenario", options.scenario.empty() ? nlohmann::json(nullptr) : nlohmann::json(options.scenario)}}},
      {"notes", experiment.notes()},
      {"points", sweep.points.size()},
      {"finished", sweep.finished},
      {"interrupted", sweep.interrupted || stop_requested()},  // a stop while writing counts too (exit 130)
      {"skipped", w.skipped},
      {"wall_seconds", sweep.wall_seconds},
      {"invariants", {{"checked", checked}, {"decisions", decisions}, {"violations_by_invariant", violated}}},
      {"decision_checks", checks.empty() ? nlohmann::json(nullptr) : checks[0]},
      {"decision_checks_by_problem", checks},
      {"violations", sweep.violations()},
      {"violations_by_reading", readings ? by_reading : nlohmann::json(nullptr)},
      {"figures", figures},
      {"claims", claims},
      {"files", nlohmann::json::array()},
      {"exit_code", process_exit_code(sweep.violations() ? 1 : 0)}};
  for (const auto& file : w.files) summary["files"].push_back(fs::path(file).filename().string());
  summary["files"].push_back("summary.json");
  write_file_atomically(path("summary.json"), json_text(summary) + "\n");
  w.files.push_back(path("summary.json"));
  remove_other_results(dir, w.files);
  w.summary = std::move(summary);
  return w;
}

}  // namespace schedcheck::experiments
