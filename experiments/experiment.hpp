// What an experiment is: a sweep of points (policies x parameters x seeds), a run per point that shares nothing
// mutable with the others (so any thread may run it, later any MPI rank), and figures (one CSV and one plot each)
// made from the finished runs. Our own, after the sketch in the design notes; a paper's system lives in a folder of
// its own under experiments/ and registers one Experiment in the catalogue (experiments/catalogue.cpp).
#pragma once

#include "properties/registry.hpp"
#include "report/plot.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::experiments {

// The command line every experiment takes (`schedcheck experiment NAME --out DIR ...`), plus inputs some take.
struct ExperimentOptions {
  std::size_t seeds = 0;               // 0: the experiment's default
  std::size_t jobs = 1;                // points run at once (threads)
  bool quick = false;                  // the small form: under a minute, run in CI
  std::vector<std::string> traces;     // --trace FILE (repeatable): the user's own traces, where the experiment takes them
  std::string traces_dir;              // --traces DIR: a folder of traces, where the experiment takes one
  std::string scenario;                // --scenario FILE: a scenario file (examples/scenarios/), where it takes one
  std::string corpus;                  // --corpus DIR: where worst decisions go as corpus files (default: --out)
  bool readings = false;               // --readings: also run every reading a claim of the paper depends on
  std::vector<std::string> reading_names;  // --reading NAME (repeatable): run these readings only
  // --policy-cmd with --policy-for NAME (repeatable): a policy outside C++ that decides for the named actors of an
  // experiment that takes one (CatalogueEntry::takes_policy_cmd): `ask` sends a request and returns the answer line.
  std::function<nlohmann::json(const nlohmann::json& request, const std::string& about)> ask_outside = {};
  std::string outside_name;                // --policy-name
  std::vector<std::string> outside_for;    // --policy-for
  // Whether the reading named `name` is to be run (--readings, or named by --reading).
  bool wants_reading(const std::string& name) const;
};

// One run of the sweep: its parameters, in column order (they become the CSV columns), and its seed.
struct Point {
  std::vector<std::pair<std::string, std::string>> parameters;
  std::uint64_t seed = 1;
  std::size_t input = 0;               // the experiment's own index of the input it runs on (a trace, a scenario)
  double weight = 1;                   // its expected cost relative to the others (e.g. jobs): the progress's time left
  std::string reproduce;               // a command that runs this point alone (as far as one exists), or ""
  std::string reading;                 // "": the default reading; else the reading's name (--readings)
  std::string parameter(const std::string& name) const;  // "" when absent
};

// What a run gives back: its metrics (one CSV row each), what was checked, and data the figures need.
struct RunRecord {
  std::vector<std::pair<std::string, double>> metrics;
  std::size_t decisions = 0;                       // decisions the run invariants were checked on
  std::map<std::string, std::size_t> violations;   // per invariant or property checked (0: it held)
  nlohmann::json checks;                           // decision checks (a DecisionProbe's to_json), or null
  nlohmann::json data;                             // anything else the figures read (samples, the worst case)
  bool interrupted = false;                        // a stop request cut the run: it does not count
  double wall_seconds = 0;
  std::size_t violated() const;                    // violations in all
  double metric(const std::string& name) const;    // NaN when absent
  nlohmann::json to_json() const;                  // every member; the metrics as [name, value] pairs in order
  static RunRecord from_json(const nlohmann::json& j);
};

// Mean and sample standard deviation of a value over runs (seeds), as the papers' bars show them; NaN when empty, a
// standard deviation of 0 for one value.
struct Spread {
  std::size_t count = 0;
  double mean = NAN, stddev = NAN;
};
Spread spread(const std::vector<double>& values);

struct Claim;    // experiments/claims.hpp

// A reading the paper's claims may depend on: a named alternative to one of the experiment's default choices,
// selected by a line of its scenario file (so that it can be run alone too).
struct Reading {
  std::string name;      // "pricing-wall-clock"
  std::string scenario;  // the scenario line that selects it: "sweep": {"pricing": "wall-clock"}
  std::string what;      // what it changes, one line
  bool needs_runs = true;  // false: it changes only how the default runs are read (a policy's role), no run of its own
};

// A figure: its data as a CSV table and its chart (null plot: a table alone).
struct Figure {
  std::string stem;                                // STEM.csv, STEM.png
  std::string caption;                             // one line: what it shows
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::optional<report::Plot> plot;
};

class Experiment {
public:
  virtual ~Experiment() = default;
  virtual const Described& info() const = 0;       // name, paper and section, one-line summary
  virtual std::vector<Point> points() const = 0;   // the sweep, in report order (the options chose its size)
  virtual RunRecord run(const Point& point) const = 0;  // no shared mutable state: any thread
  // The figures from the finished runs (`records[i]` is points()[i]'s, null when it did not finish).
  virtual std::vector<Figure> figures(const std::vector<Point>& points,
                                      const std::vector<std::optional<RunRecord>>& records) const = 0;
  // The paper's checkable statements about its results (claims.csv), and the readings they may depend on (run by
  // --readings: points() then adds, for each reading, the points it changes, with Point::reading set). Default: none.
  virtual std::vector<Claim> claims() const;
  virtual std::vector<Reading> readings() const;
  // Lines about the inputs and readings a reader of the results should know (a trace skipped and why).
  virtual std::vector<std::string> notes() const { return {}; }
  // A short human summary of the finished runs (printed unless --json).
  virtual std::string text(const std::vector<Point>&, const std::vector<std::optional<RunRecord>>&) const { return ""; }
  // Further files (charts of single cases, corpus files) written into `dir`; their paths. After a stop request a
  // file that would need a check or more time than is left (finishing_time_up) is left out, with a line "FILE: why"
  // in `skipped`.
  virtual std::vector<std::string> extras(const std::vector<Point>&, const std::vector<std::optional<RunRecord>>&,
                                          const std::string& /*dir*/, std::vector<std::string>& /*skipped*/) const {
    return {};
  }
};

// An experiment of the catalogue: how to make it from the options (reading its inputs: throws InputError on bad
// ones, before any run) and the registry of problems its decision checks use.
struct CatalogueEntry : Described {
  std::string options;                             // what --trace, --traces and --seeds mean for it
  std::vector<Reading> readings;                   // what --readings runs (Experiment::readings())
  bool takes_policy_cmd = false;                   // --policy-cmd / --policy-for decide for some of its actors
  std::function<std::unique_ptr<Experiment>(const ExperimentOptions&, const Registry&)> make;
};
// The entry of an experiment class E made as E(options, registry, entry's Described): what each folder's entry
// function returns.
template <class E>
CatalogueEntry catalogue_entry(Described described, std::string options, std::vector<Reading> readings = {}) {
  CatalogueEntry entry;
  static_cast<Described&>(entry) = std::move(described);
  entry.options = std::move(options);
  entry.readings = std::move(readings);
  entry.make = [info = static_cast<Described>(entry)](const ExperimentOptions& o, const Registry& registry) {
    return std::unique_ptr<Experiment>(std::make_unique<E>(o, registry, info));
  };
  return entry;
}
const std::vector<CatalogueEntry>& catalogue();
const CatalogueEntry& find(const std::string& name);  // throws std::invalid_argument naming the known ones

}  // namespace schedcheck::experiments
