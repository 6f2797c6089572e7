// A paper's checkable statements about its results as executable checks: each claim a predicate over an experiment's
// finished runs (an order between policies on a metric, a direction along a swept parameter, a number within a stated
// tolerance) with the paper's words and where they stand, evaluated under the default reading and under every reading
// the sweep ran (`--readings`). Our own. Limits: a claim judges the runs it is given; what a reading changes is the
// experiment's (its points carry the reading's name, its runs apply it).
#pragma once

#include "experiments/experiment.hpp"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::experiments {

enum class Agreement { kAgrees, kPartly, kDisagrees, kUnmeasured };
const char* to_string(Agreement agreement);          // "agrees", "partly", "disagrees", "not measured"
Agreement agreement_named(const std::string& name);  // the inverse; throws std::invalid_argument

// What a claim's check found: its verdict and the numbers behind it, in words ("0%: 2.75e9, 50%: 2.76e9 (+0.4%)").
struct Finding {
  Agreement verdict = Agreement::kUnmeasured;
  std::string measured;
};

// Parameters a run must have: (name, value) pairs, every one matched.
using Where = std::vector<std::pair<std::string, std::string>>;

// One reading's view of a sweep: the runs of the default points (reading ""), each replaced by the run with the same
// parameters and seed under `reading` when the sweep ran one. A claim reads the runs through it.
class Results {
public:
  Results(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records, std::string reading);
  const std::string& reading() const { return reading_; }  // "" for the default
  // The finished runs whose parameters match `where`, in point order.
  std::vector<const RunRecord*> runs(const Where& where = {}) const;
  // A value of those runs (`of` may give NaN: left out) over the seeds: count, mean, standard deviation.
  Spread value(const Where& where, const std::function<double(const RunRecord&)>& of) const;
  Spread metric(const Where& where, const std::string& metric) const;  // value() of a metric
  // The value of each run that matches `where`, by seed (NaN left out).
  std::map<std::uint64_t, double> per_seed(const Where& where, const std::function<double(const RunRecord&)>& of) const;

private:
  std::string reading_;
  std::vector<std::pair<const Point*, const RunRecord*>> runs_;
};

struct Claim {
  std::string id;      // stable, short: "fig4a-earnings-rise"
  std::string where;   // in the paper: "sec. 4.4.1, Fig. 4(a)"
  std::string words;   // the paper's sentence, quoted from the text
  std::string test;    // the predicate and its tolerance, in words
  std::function<Finding(const Results&)> check;
  // A statement about the experiment's inputs (the workload the paper says it used: job counts, loads), not about
  // its results: a check that the reproduction runs what the paper ran, counted apart from the results' claims.
  bool input = false;
};

// One claim under one reading.
struct ClaimRow {
  std::string id, where, words, test;
  bool input = false;    // Claim::input (claims.csv: kind "input", else "result")
  std::string reading;   // "default" or a reading's name
  Agreement verdict = Agreement::kUnmeasured;
  std::string measured;
};

// Every claim under the default reading, then under each reading the points ran (and each that needs no runs), in the
// order of `readings` (readings without a run are left out). A check that throws is reported as not measured, with its message.
std::vector<ClaimRow> evaluate_claims(const std::vector<Claim>& claims, const std::vector<Reading>& readings,
                                      const std::vector<Point>& points,
                                      const std::vector<std::optional<RunRecord>>& records);

// The files of the claims: claims.csv (one row a claim and reading: claim, where, paper, test, reading, verdict,
// measured), and, when readings ran, claims-readings.csv (one row a claim, one verdict column a reading).
std::string claims_csv(const std::vector<ClaimRow>& rows);
std::string claims_readings_csv(const std::vector<ClaimRow>& rows);
// claims.csv read back (model/jobs_csv.hpp's reader); throws InputError naming the file, line and column.
std::vector<ClaimRow> read_claims_csv(const std::string& path);
// The claims as Markdown (docs/policies.md's tables): one table of the default reading's verdicts with the paper's
// words and the numbers; with readings, the claims x readings table of verdicts and the numbers of each verdict a
// reading changes.
std::string claims_markdown(const std::vector<ClaimRow>& rows, const std::vector<Reading>& readings = {});
// The count of each verdict under one reading ("default" or a reading's name): {"agrees": n, ...}, of the claims about
// the results (or, with `inputs`, of those about the inputs).
nlohmann::json claims_counts(const std::vector<ClaimRow>& rows, const std::string& reading, bool inputs = false);

// ---- building blocks of claims ----
// A relative change (b - a) / |a| as "+12.3%"; "n/a" when a is 0 or either is NaN.
double relative_change(double a, double b);
std::string percent_change(double a, double b);
// A number in a claim's words: 4 significant digits, in exponent form from 1e4 ("2.75e9", "1.183e4").
std::string number(double x);
// A value against the paper's: agrees within `close` (relative: |measured / paper - 1| <= close), partly within a
// factor of `factor` (paper / factor <= measured <= paper x factor), else disagrees.
Finding near(double measured, double paper, double close, double factor, const std::string& what);
// a - b over the seeds: paired (the same seed on both sides: the same jobs and deadlines) when both sides have runs of
// the same seeds, else the difference of the means; with the standard error of that difference (0 for one seed).
struct Difference {
  std::size_t count = 0;   // seeds (paired) or the smaller side's runs
  double mean = NAN, standard_error = NAN;
  bool paired = false;
};
Difference difference(const std::map<std::uint64_t, double>& a, const std::map<std::uint64_t, double>& b);
// How many of `checks` hold: all -> agrees, some -> partly, none -> disagrees (none to check: not measured).
Agreement share_holding(std::size_t holding, std::size_t checked);
// The checks of one claim as they are made: how many hold, and the numbers of each (a check that does not hold is
// marked "(not)"), joined by `separator`.
class Checks {
public:
  explicit Checks(std::string separator = "; ") : separator_(std::move(separator)) {}
  void add(bool holds, const std::string& numbers);
  std::size_t holding() const { return holding_; }
  std::size_t checked() const { return checked_; }
  const std::string& text() const { return text_; }
  Agreement verdict() const { return share_holding(holding_, checked_); }
  // "K of N hold: the numbers"; not measured when nothing was checked.
  Finding finding() const;

private:
  std::string separator_, text_;
  std::size_t holding_ = 0, checked_ = 0;
};

}  // namespace schedcheck::experiments
