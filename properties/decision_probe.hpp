// Checking decisions taken inside a run against a registered problem's oracle. At a decision point an actor (or an
// observer of one) makes its snapshot that problem's instance and its decision that problem's decision; every k-th
// decision offered is checked through the problem's one check flow (the validator recomputes the objective, the exact
// method solves the instance within its time limit and is re-validated, every property is checked), and the run keeps
// the counts, the distribution of the gap to the optimum, the failing properties and the worst cases, which write as
// corpus files that `schedcheck check` reproduces. Our own. Cost: one exact solve per checked decision. During a run
// the optimality of a decision is measured (its gap), not judged: properties that compare with the optimum within a
// tolerance use ProbeSettings::tolerance (default: any gap), and the corpus files re-check at tolerance 0.
#pragma once

#include "model/job_metrics.hpp"
#include "properties/corpus.hpp"
#include "properties/registry.hpp"
#include "support/files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace schedcheck {

struct ProbeSettings {
  std::string exact;               // exact method ("" = the problem's default)
  SolveOptions solve;              // its time limit, for each checked decision
  std::size_t every = 1;           // check every EVERY-th decision offered ...
  std::size_t offset = 0;          // ... from the (offset % every)-th on, counting from 0 (a sampling phase)
  std::size_t keep_worst = 5;      // worst cases kept: failing ones first, then the largest gaps
  double tolerance = std::numeric_limits<double>::infinity();  // of properties such as optimal-within, in the run
  // Properties whose failures the run measures rather than judges (a gateway's choice on stale slots is infeasible
  // on the true profiles by design: `choice-feasible`): a decision that fails only these, and that the validator
  // may reject, counts as `measured`, not as `failing` or `invalid` (which a run reports as violations).
  std::vector<std::string> measured = {};
};

// The counts over a run.
struct ProbeCounts {
  std::size_t offered = 0;         // decisions offered to the probe
  std::size_t checked = 0;         // ... of which checked (every EVERY-th)
  std::size_t proven = 0;          // the exact side proved its answer (optimal, or infeasible)
  std::size_t undecided = 0;       // it did not within its time limit
  std::size_t at_optimum = 0;      // proven, and the decision's gap is 0
  std::size_t invalid = 0;         // decisions the validator rejects
  std::size_t failing = 0;         // decisions on which some property fails (beyond the measured ones)
  std::size_t measured = 0;        // decisions that fail only measured properties (ProbeSettings::measured)
  std::map<std::string, std::size_t> failing_by_property;  // every failing property, the measured ones too
  double solve_seconds = 0;        // exact solves, in all
};

// A checked decision kept among the worst.
template <class I>
struct ProbeCase {
  double time = 0;
  std::string where;               // which actor took it ("cluster c0", "GFA 3")
  I instance;
  Report report;                   // heuristic = the decision taken in the run
};

template <class I, class D>
class DecisionProbe {
public:
  DecisionProbe(const TypedProblem<I, D>& problem, ProbeSettings settings)
      : problem_(problem), settings_(std::move(settings)) {
    if (settings_.every < 1) throw std::invalid_argument("a decision check needs EVERY >= 1");
  }

  // Offers the next decision: true when it is to be checked (the caller then builds the instance and calls check).
  bool sample() { return (counts_.offered++ + settings_.every - settings_.offset % settings_.every) % settings_.every == 0; }

  // Checks a decision taken at `time` by `where` (after sample() said so) with the rule `name`: a policy registered
  // for the problem that takes the same decision on the instance, so that corpus files can re-check it.
  const Report& check(double time, const std::string& where, I instance, const D& decision, const std::string& name) {
    CheckRequest request;
    request.exact = settings_.exact;
    request.solve = settings_.solve;
    request.tolerance = settings_.tolerance;
    last_ = problem_.check_decision(instance, decision, name, request);
    ++counts_.checked;
    counts_.solve_seconds += last_.optimum.seconds;
    const bool proven = last_.optimum.status == "optimal" || last_.optimum.status == "infeasible";
    ++(proven ? counts_.proven : counts_.undecided);
    const auto failing = last_.failing();
    for (const auto& p : failing) ++counts_.failing_by_property[p];
    const bool judged = std::any_of(failing.begin(), failing.end(), [&](const std::string& p) {
      return std::find(settings_.measured.begin(), settings_.measured.end(), p) == settings_.measured.end();
    });
    const bool fails = judged || (!failing.empty() && settings_.measured.empty());
    if (fails) ++counts_.failing;
    else if (!failing.empty()) ++counts_.measured;
    if (last_.heuristic.status == "infeasible" && (fails || failing.empty())) ++counts_.invalid;
    if (last_.gap) {
      gaps_.push_back(*last_.gap);
      if (*last_.gap <= kObjectiveSlack) ++counts_.at_optimum;
    }
    keep(time, where, std::move(instance), !failing.empty());
    return last_;
  }

  const ProbeSettings& settings() const { return settings_; }
  const ProbeCounts& counts() const { return counts_; }
  const std::vector<double>& gap_values() const { return gaps_; }  // relative gaps of the proven, comparable ones
  Stats gaps() const { return statistics(gaps_); }
  const std::vector<ProbeCase<I>>& worst() const { return worst_; }  // failing first, then the largest gaps

  // The counts, the gap distribution and the worst cases (time, where, gap, objectives, failing properties).
  nlohmann::json to_json() const {
    const Stats g = gaps();
    nlohmann::json worst = nlohmann::json::array();
    for (const auto& c : worst_)
      worst.push_back({{"time", c.time},
                       {"where", c.where},
                       {"gap", c.report.gap ? nlohmann::json(*c.report.gap) : nlohmann::json(nullptr)},
                       {"decision", c.report.heuristic.objective},
                       {"optimum", c.report.optimum.objective},
                       {"optimum_status", c.report.optimum.status},
                       {"fails", c.report.failing()}});
    return {{"problem", problem_.info().name},
            {"exact", settings_.exact.empty() ? nlohmann::json(nullptr) : nlohmann::json(settings_.exact)},
            {"timeout_ms", settings_.solve.timeout_ms},
            {"effort", settings_.solve.effort},
            {"every", settings_.every},
            {"offered", counts_.offered},
            {"checked", counts_.checked},
            {"proven", counts_.proven},
            {"undecided", counts_.undecided},
            {"at_optimum", counts_.at_optimum},
            {"invalid", counts_.invalid},
            {"failing", counts_.failing},
            {"measured", counts_.measured},
            {"failing_by_property", counts_.failing_by_property},
            {"gap", {{"count", g.count}, {"mean", g.mean}, {"median", g.median}, {"p95", g.p95}, {"max", g.max}}},
            {"solve_seconds", counts_.solve_seconds},
            {"worst", worst}};
  }

  // Writes the worst cases into `dir` as corpus files re-checked with the policy that took them, at tolerance 0 (the
  // recorded verdict is that check's); `file_name` and `found_by` name each (the rank counts from 1). Returns the paths.
  std::vector<std::string> write_worst(const std::string& dir,
                                       const std::function<std::string(const ProbeCase<I>&, std::size_t)>& file_name,
                                       const std::function<std::string(const ProbeCase<I>&, std::size_t)>& found_by) const {
    std::vector<std::string> written;
    std::size_t rank = 0;
    for (const auto& c : worst_) {
      ++rank;
      const std::string path = (std::filesystem::path(dir) / file_name(c, rank)).string();
      CheckRequest request;
      request.policy = c.report.heuristic.name;
      request.exact = settings_.exact;
      request.solve = settings_.solve;
      const nlohmann::json instance = problem_.spec().write(c.instance);
      const Report checked = problem_.check(instance, path, request);  // the registered policy's verdict, reproducible
      write_file_atomically(path, problem_.corpus_text(corpus_document(instance, checked, problem_.info().name, request,
                                                                       problem_.spec().instance_name(c.instance),
                                                                       found_by(c, rank), path)));
      written.push_back(path);
    }
    return written;
  }

private:
  // A kept case becomes a corpus file, which is re-checked through the problem's own reader: a snapshot the reader
  // refuses is a bug of the actor that took it (InternalError, exit 4), found when it is kept, not after the sweep.
  void require_round_trip(double time, const std::string& where, const I& instance) const {
    try {
      (void)problem_.spec().read(problem_.spec().write(instance), "snapshot");
    } catch (const InputError& e) {
      throw InternalError(fmt::format("the {} snapshot {} took at time {} is refused by its own reader: {}",
                                      problem_.info().name, where, time, e.what()));
    }
  }

  // Keeps the case if it ranks among the worst: failing before not failing, then by gap (larger first); the earlier
  // case first among equals. A case with neither a failure nor a gap above 0 is never kept.
  void keep(double time, const std::string& where, I instance, bool fails) {
    const double gap = last_.gap ? *last_.gap : 0;
    if (!fails && gap <= kObjectiveSlack) return;
    auto rank = [](bool failing, double g) { return std::pair<int, double>{failing ? 1 : 0, g}; };
    const auto mine = rank(fails, gap);
    auto position = std::find_if(worst_.begin(), worst_.end(), [&](const ProbeCase<I>& c) {
      return rank(c.report.any_fails(), c.report.gap ? *c.report.gap : 0) < mine;
    });
    if (static_cast<std::size_t>(position - worst_.begin()) >= settings_.keep_worst) return;
    require_round_trip(time, where, instance);
    worst_.insert(position, ProbeCase<I>{time, where, std::move(instance), last_});
    if (worst_.size() > settings_.keep_worst) worst_.pop_back();
  }

  const TypedProblem<I, D>& problem_;
  ProbeSettings settings_;
  ProbeCounts counts_;
  std::vector<double> gaps_;
  std::vector<ProbeCase<I>> worst_;
  Report last_;
};

}  // namespace schedcheck
