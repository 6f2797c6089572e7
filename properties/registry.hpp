// The problem registry: for each problem, its instance type, policies, exact methods, properties and
// generator, and the one check flow (policy -> validator -> exact -> validator -> properties) shared by all.
// Our own. Public API: register your own policy with TypedProblem::add_policy and check it (docs/api.md).
#pragma once

#include "model/input.hpp"
#include "support/stop.hpp"
#include "model/verdict.hpp"
#include "solver/result.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace schedcheck {

enum class Sense { kMaximise, kMinimise };
// undecided: needs an optimum nobody proved; not applicable: the property speaks of something the policy does not
// promise or the decision does not have (e.g. fcfs-order for a policy other than fcfs): neither a pass nor a failure.
enum class PropertyStatus { kHolds, kFails, kUndecided, kNotApplicable };

struct PropertyResult {
  std::string name;
  PropertyStatus status = PropertyStatus::kHolds;
  std::string detail;
};

// Name, source (paper and section, or "our own") and a one-line summary: what `schedcheck list` shows.
struct Described {
  std::string name;
  std::string source;
  std::string summary;
};

// What a property sees. `optimum` is null when no exact method was run.
template <class I, class D>
struct CheckContext {
  const I& instance;
  const D& decision;
  double objective;  // the heuristic's objective, recomputed by the validator
  const ExactResult<D>* optimum;
  double tolerance;
  Sense sense;
  bool feasible = true;  // the validator accepts the decision (else `objective` means nothing)
};

template <class I, class D>
struct PolicySpec : Described {
  std::function<D(const I&)> decide;
  // Non-empty: the policy answers only instances holding this top-level member (a decision recorded in a run:
  // "recorded"); `suite` runs it on those only, and `list --json` says so.
  std::string only_with = {};
};
// A policy outside C++ (a process speaking docs/protocol.md, a Python callable): one request in, one decision out,
// both JSON. The request is {"problem": NAME, "instance": <the problem's instance document>} (cluster-run: one
// {"problem", "snapshot"} request a scheduling pass). Throws InputError when the policy fails or answers nonsense.
using JsonPolicy = std::function<nlohmann::json(const nlohmann::json& request)>;
template <class I, class D>
struct ExactSpec : Described {
  std::function<ExactResult<D>(const I&, const SolveOptions&)> solve;
  // Optional: the same solve, given valid decisions at hand (the policy's, validated and comparable) to start from:
  // a bound to prune with, a first incumbent. When set, the registry calls it instead of `solve`. Whatever the
  // method, the registry never reports an answer worse than such a decision (see check_instance).
  std::function<ExactResult<D>(const I&, const SolveOptions&, const std::vector<D>& incumbents)> solve_from = {};
};
template <class I, class D>
struct PropertySpec : Described {
  bool needs_optimum = false;
  std::function<PropertyResult(const CheckContext<I, D>&)> check;
};
template <class I>
struct GeneratorSpec {
  std::string settings;                                 // documented settings, shown by `list` and in docs
  std::function<I(std::uint64_t seed, std::size_t size)> generate;
  std::function<std::vector<I>(const I&)> shrink;       // simpler candidates, most aggressive first
};

template <class I, class D>
struct ProblemSpec : Described {
  std::string instance_kind;  // the "kind" field of instance files this problem reads
  Sense sense = Sense::kMaximise;
  std::string objective_name;
  std::function<I(const nlohmann::json&, const std::string& file)> read;  // throws InputError
  std::function<nlohmann::json(const I&)> write;
  std::function<Verdict(const I&, const D&)> validate;
  std::function<nlohmann::json(const I&, const D&)> describe;  // decision as JSON ({"accepted": [...], ...})
  std::function<std::size_t(const I&)> size;                  // the "n" of an instance (bids, jobs, ...)
  std::function<std::string(const I&)> instance_name;        // shown in reports
  std::vector<PolicySpec<I, D>> policies;
  std::vector<ExactSpec<I, D>> exact;  // the first one is the default oracle
  std::vector<PropertySpec<I, D>> properties;
  GeneratorSpec<I> generator;
  // Optional: re-checks an exact method's `infeasible` answer by its core (ExactResult::core), independently of the
  // method: "" when confirmed (or too large to check), else why the core is wrong (a schedcheck bug, as a rejected
  // decision is).
  std::function<std::string(const I&, const std::vector<std::string>& core)> refute_core;
  // Optional: per-side metrics shown beside the objective by `check` (JSON object of numbers).
  std::function<nlohmann::json(const I&, const D&)> metrics;
  // Optional: every instance within a scope (a problem-defined string, "" = its default; throws InputError on a bad
  // scope), for `search --exhaustive`. `enumerate_settings` documents the scope syntax.
  std::function<void(const std::string& scope, const std::function<void(const I&)>& visit)> enumerate;
  std::string enumerate_settings;
  // Optional. Why a heuristic decision's objective may not be compared with the optimum's, "" when it may (e.g. a
  // schedule that leaves jobs unassigned: its lower cost is not better; a decision outside what the exact method
  // optimises over). Unset: always comparable. Otherwise no gap, and the reason is the report's gap_note.
  std::function<std::string(const I&, const D&)> not_comparable;
  // Policies outside C++ (docs/protocol.md). `read_decision` reads a decision in the format `describe` writes
  // (keys it does not read but describe writes are allowed and ignored); strict otherwise, every error an InputError
  // naming `where` and the field path. `decide_external` (optional) replaces the default exchange (the instance
  // document in, a decision read by read_decision out): cluster-run asks at every scheduling pass instead.
  // `decision_schema`: the JSON Schema of the decision a policy returns (schedcheck protocol --schema).
  std::function<D(const I&, const nlohmann::json& decision, const std::string& where)> read_decision;
  std::function<D(const I&, const JsonPolicy&, const std::string& name)> decide_external;  // name: the policy's
  nlohmann::json decision_schema;
  // Optional: corpus files in another format than JSON (e.g. ".swf"): the file extension and the text made from the
  // corpus document (the instance plus its "schedcheck" block). Unset: JSON.
  std::string corpus_extension = ".json";
  std::function<std::string(const nlohmann::json& document)> corpus_text;
};

// ------------------------------------------------------------------ reports

struct CheckRequest {
  std::string policy;             // empty: no heuristic (solve)
  std::string policy_cmd;         // the command behind an external policy (--policy-cmd): recorded in corpus files
  std::string python_policy;      // the Python callable behind it (module.name, the Python module): likewise
  std::string exact;              // empty: the default; "none": no exact run
  SolveOptions solve;
  double tolerance = 0.0;         // optimal-within: allowed relative gap
};

struct SideReport {               // one side of a comparison: a heuristic or an exact method
  std::string name;
  bool ran = false;
  std::string status;             // heuristics: "done"; exact: optimal | feasible | unknown
  double objective = 0;
  double seconds = 0;
  std::string detail;
  nlohmann::json decision;        // null when there is none
  nlohmann::json metrics;         // null unless the problem defines metrics
  // Exact side only: the methods a chooser ran ({method, why, status, seconds}), named phases of the solve
  // ({name: seconds}), the infeasibility core ({ids, minimal}); null when the method gives none.
  nlohmann::json chain, phases, core;
};

struct Report {
  std::string problem;
  std::string instance;           // instance name
  std::string file;
  std::size_t size = 0;
  std::string objective_name;
  SideReport heuristic;
  SideReport optimum;
  std::optional<double> gap;      // relative: (opt - heur) / opt maximising, (heur - opt) / opt minimising; 0 if opt is 0
  std::string gap_note;           // why there is no gap although both sides ran ("" otherwise)
  std::vector<PropertyResult> properties;

  bool any_fails() const;
  bool any_undecided() const;
  // The exact side ran and proved nothing (status feasible or unknown): a failing instance may be one too.
  bool exact_unproven() const;
  // 0 all properties hold; 1 a property fails; 3 undecided (time limit) and none fails.
  int exit_code() const;
  nlohmann::json to_json() const;
  std::vector<std::string> failing() const;  // names of failing properties
};

const char* to_string(PropertyStatus status);
// A report as the executors carry it between threads, ranks and shards (support/executor.hpp): every member, so that
// report_from_record(report_record(r)) equals r (carried as CBOR, which keeps every double). Throws on a malformed one.
nlohmann::json report_record(const Report& report);
Report report_from_record(const nlohmann::json& record);
// Relative gap of a heuristic objective to an optimum, by sense; 0 when the optimum is 0.
double relative_gap(Sense sense, double heuristic, double optimum);

// One search trial on the typed path: the instance generated from (seed, size) and checked without going through its
// JSON; `document` (its JSON) only when some property fails, for shrinking and the corpus file.
struct GeneratedCheck {
  Report report;
  nlohmann::json document;
};

// Exhaustive mode, one worker's view of a scope: it walks the enumeration once, front to back, and checks the
// instances of each range it is asked for (ranges in increasing order, as executors hand out items). Each checked
// instance comes to `checked` with its index, its report and its JSON (made only when asked for).
class ScopeCursor {
public:
  using Checked = std::function<void(std::size_t index, Report&& report, const std::function<nlohmann::json()>& document)>;
  virtual ~ScopeCursor() = default;
  // Throws std::logic_error when `begin` is before the end of the previous range; StopRequested as a check does.
  virtual void check_range(std::size_t begin, std::size_t end, const CheckRequest& request, const Checked& checked) = 0;
};

// ------------------------------------------------------------------ type-erased problem

class Problem {
public:
  virtual ~Problem() = default;
  virtual const Described& info() const = 0;
  virtual const std::string& instance_kind() const = 0;
  virtual std::vector<Described> policies() const = 0;
  // The top-level member an instance must hold for `policy` to answer it ("" for any instance).
  virtual std::string policy_only_with(const std::string& policy) const = 0;
  virtual std::vector<Described> exact_methods() const = 0;
  virtual std::vector<Described> properties() const = 0;
  virtual const std::string& generator_settings() const = 0;

  // Reads the document (throws InputError), then runs what the request asks for.
  virtual Report check(const nlohmann::json& document, const std::string& file, const CheckRequest& request) const = 0;
  // Every exact method on one instance, each validated: for `solve --exact all`.
  virtual std::vector<Report> solve_all(const nlohmann::json& document, const std::string& file,
                                        const SolveOptions& options) const = 0;
  virtual nlohmann::json generate(std::uint64_t seed, std::size_t size) const = 0;
  virtual std::vector<nlohmann::json> shrink(const nlohmann::json& document) const = 0;
  virtual std::size_t size_of(const nlohmann::json& document) const = 0;
  // The document as the problem's writer writes what its reader reads (throws InputError like check). Reading it
  // again gives the same document: the round trip the fuzz targets check (fuzz/, docs/fuzzing.md).
  virtual nlohmann::json normalize(const nlohmann::json& document, const std::string& file) const = 0;
  // Exhaustive mode: empty settings = the problem cannot enumerate its instances.
  virtual const std::string& enumerate_settings() const = 0;
  // Corpus files: their extension and the text of a corpus document (default: JSON).
  virtual const std::string& corpus_extension() const = 0;
  virtual std::string corpus_text(const nlohmann::json& document) const = 0;
  // Registers a policy outside C++ under `described.name` (docs/protocol.md); throws std::invalid_argument when
  // the problem cannot read decisions or the name is taken. The decision it returns is validated, compared with the
  // optimum and checked by every property like a built-in policy's.
  virtual void add_external_policy(Described described, JsonPolicy policy) = 0;
  // The decision `policy` answers for the instance in `document`, taken as a policy registered by
  // add_external_policy under `name` takes it (throws InputError for the document, PolicyFailure for whatever is
  // wrong with the answer), as the problem writes decisions (`check --json`'s heuristic decision): what the
  // `protocol` fuzz target reads back (fuzz/, docs/fuzzing.md).
  virtual nlohmann::json external_decision(const nlohmann::json& document, const std::string& file,
                                           const JsonPolicy& policy, const std::string& name) const = 0;
  virtual bool accepts_external_policies() const = 0;
  virtual const nlohmann::json& decision_schema() const = 0;
  // One search trial, typed (see GeneratedCheck).
  virtual GeneratedCheck check_generated(std::uint64_t seed, std::size_t size, const CheckRequest& request) const = 0;
  // Exhaustive mode: how many instances `scope` holds (throws InputError on a bad scope), and a cursor over them.
  virtual std::size_t count_scope(const std::string& scope) const = 0;
  virtual std::unique_ptr<ScopeCursor> scope_cursor(const std::string& scope) const = 0;
};

template <class I, class D>
class TypedProblem final : public Problem {
public:
  explicit TypedProblem(ProblemSpec<I, D> spec) : spec_(std::move(spec)) {}

  const ProblemSpec<I, D>& spec() const { return spec_; }
  void add_policy(PolicySpec<I, D> policy) { spec_.policies.push_back(std::move(policy)); }
  void add_property(PropertySpec<I, D> property) { spec_.properties.push_back(std::move(property)); }

  const Described& info() const override { return spec_; }
  const std::string& instance_kind() const override { return spec_.instance_kind; }
  std::vector<Described> policies() const override { return names(spec_.policies); }
  std::string policy_only_with(const std::string& policy) const override {
    for (const auto& p : spec_.policies)
      if (p.name == policy) return p.only_with;
    return "";
  }
  std::vector<Described> exact_methods() const override { return names(spec_.exact); }
  std::vector<Described> properties() const override { return names(spec_.properties); }
  const std::string& generator_settings() const override { return spec_.generator.settings; }

  Report check(const nlohmann::json& document, const std::string& file, const CheckRequest& request) const override {
    Report report = check_instance(spec_.read(document, file), request);
    report.file = file;
    return report;
  }

  std::vector<Report> solve_all(const nlohmann::json& document, const std::string& file,
                                const SolveOptions& options) const override {
    const I instance = spec_.read(document, file);
    std::vector<Report> reports;
    for (const auto& method : spec_.exact) {
      CheckRequest request;
      request.exact = method.name;
      request.solve = options;
      reports.push_back(check_instance(instance, request));
      reports.back().file = file;
    }
    return reports;
  }

  nlohmann::json generate(std::uint64_t seed, std::size_t size) const override {
    return spec_.write(spec_.generator.generate(seed, size));
  }
  std::vector<nlohmann::json> shrink(const nlohmann::json& document) const override {
    std::vector<nlohmann::json> out;
    for (const I& candidate : spec_.generator.shrink(spec_.read(document, "(candidate)")))
      out.push_back(spec_.write(candidate));
    return out;
  }
  std::size_t size_of(const nlohmann::json& document) const override {
    return spec_.size(spec_.read(document, "(instance)"));
  }
  void add_external_policy(Described described, JsonPolicy policy) override {
    if (!accepts_external_policies())
      throw std::invalid_argument("problem " + spec_.name + " does not take policies outside C++");
    for (const auto& p : spec_.policies)
      if (p.name == described.name) throw std::invalid_argument("problem " + spec_.name + " has a policy " + p.name);
    PolicySpec<I, D> spec{std::move(described), {}};
    spec.decide = [this, policy = std::move(policy), name = spec.name](const I& instance) {
      return decide_external(instance, policy, name);
    };
    spec_.policies.push_back(std::move(spec));
  }
  nlohmann::json external_decision(const nlohmann::json& document, const std::string& file, const JsonPolicy& policy,
                                   const std::string& name) const override {
    if (!accepts_external_policies())
      throw std::invalid_argument("problem " + spec_.name + " does not take policies outside C++");
    const I instance = spec_.read(document, file);
    return spec_.describe(instance, decide_external(instance, policy, name));
  }
  bool accepts_external_policies() const override { return static_cast<bool>(spec_.read_decision) || static_cast<bool>(spec_.decide_external); }
  const nlohmann::json& decision_schema() const override { return spec_.decision_schema; }
  nlohmann::json normalize(const nlohmann::json& document, const std::string& file) const override {
    return spec_.write(spec_.read(document, file));
  }
  const std::string& enumerate_settings() const override { return spec_.enumerate_settings; }
  const std::string& corpus_extension() const override { return spec_.corpus_extension; }
  std::string corpus_text(const nlohmann::json& document) const override {
    return spec_.corpus_text ? spec_.corpus_text(document) : document.dump(2) + "\n";
  }
  GeneratedCheck check_generated(std::uint64_t seed, std::size_t size, const CheckRequest& request) const override {
    const I instance = spec_.generator.generate(seed, size);
    GeneratedCheck out{check_instance(instance, request), nullptr};
    out.report.file = "(generated)";
    if (out.report.any_fails()) out.document = spec_.write(instance);
    return out;
  }

  std::size_t count_scope(const std::string& scope) const override {
    if (!spec_.enumerate) throw std::invalid_argument("problem " + spec_.name + " has no exhaustive mode");
    std::size_t count = 0;
    spec_.enumerate(scope, [&](const I&) { ++count; });
    return count;
  }
  std::unique_ptr<ScopeCursor> scope_cursor(const std::string& scope) const override;

  // The check flow on a typed instance: what `run`, `solve` and `check` all do.
  Report check_instance(const I& instance, const CheckRequest& request) const {
    if (request.policy.empty()) return check_flow(instance, nullptr, "", 0, request);
    const auto& policy = find(spec_.policies, request.policy, "policy");
    const auto started = now();
    const D decision = policy.decide(instance);
    return check_flow(instance, &decision, policy.name, since(started), request);
  }

  // The exact side alone, typed (`exact` "" = the default method): the method's answer re-checked by the validator
  // (a rejected answer is an InternalError) and never worse than a valid incumbent at hand.
  ExactResult<D> solve(const I& instance, const std::string& exact, const SolveOptions& options,
                       const std::vector<D>& incumbents = {}) const {
    if (spec_.exact.empty()) throw std::invalid_argument("problem " + spec_.name + " has no exact method");
    const auto& method = exact.empty() ? spec_.exact.front() : find(spec_.exact, exact, "exact method");
    const auto started = now();
    ExactResult<D> result = method.solve_from ? method.solve_from(instance, options, incumbents) : method.solve(instance, options);
    result.seconds = since(started);  // the real time, Z3 context teardown included
    recheck(instance, method.name, result);
    keep_best_incumbent(instance, incumbents, result);
    return result;
  }

  // A decision taken elsewhere (inside a simulated run, by `name`) checked as a policy's decision is: validated,
  // compared with the exact optimum (request.exact, request.solve), and every property checked. request.policy is
  // not used.
  Report check_decision(const I& instance, const D& decision, const std::string& name, const CheckRequest& request) const {
    return check_flow(instance, &decision, name, 0, request);
  }

private:
  // A policy outside C++ decides: whatever goes wrong with the answer (the process, its line, the decision in it)
  // is the policy's failure, never a property of the instance: PolicyFailure ends the run (searches and shrinking
  // let it through).
  D decide_external(const I& instance, const JsonPolicy& policy, const std::string& name) const {
    try {
      if (spec_.decide_external) return spec_.decide_external(instance, policy, name);
      const nlohmann::json request = {{"problem", spec_.name}, {"instance", spec_.write(instance)}};
      return spec_.read_decision(instance, policy(request),
                                 "policy " + name + " on instance " + quoted_text(spec_.instance_name(instance)) +
                                     ": decision");
    } catch (const PolicyFailure&) {
      throw;
    } catch (const InputError& e) {
      throw PolicyFailure(e.what());
    }
  }
  Report check_flow(const I& instance, const D* given, const std::string& name, double seconds,
                    const CheckRequest& request) const {
    Report report;
    report.problem = spec_.name;
    report.size = spec_.size(instance);
    report.instance = spec_.instance_name(instance);
    report.objective_name = spec_.objective_name;

    const D* decision = given;
    Verdict verdict;
    if (decision) {
      report.heuristic.seconds = seconds;
      verdict = spec_.validate(instance, *decision);  // objective recomputed independently of the policy
      report.heuristic.name = name;
      report.heuristic.ran = true;
      report.heuristic.status = verdict.feasible ? "feasible" : "infeasible";
      report.heuristic.objective = verdict.objective;
      report.heuristic.detail = verdict.reason;
      report.heuristic.decision = spec_.describe(instance, *decision);
      if (spec_.metrics) report.heuristic.metrics = spec_.metrics(instance, *decision);
    }

    std::optional<ExactResult<D>> optimum;
    if (request.exact != "none" && !(spec_.exact.empty() && request.exact.empty())) {  // some problems have none
      const auto& method = request.exact.empty() ? spec_.exact.front() : find(spec_.exact, request.exact, "exact method");
      // The policy's decision is an incumbent when it is valid and comparable with the optimum (same problem).
      std::vector<D> incumbents;
      if (decision && verdict.feasible && (!spec_.not_comparable || spec_.not_comparable(instance, *decision).empty()))
        incumbents.push_back(*decision);
      optimum = solve(instance, method.name, request.solve, incumbents);
      report.optimum.name = method.name;
      report.optimum.ran = true;
      report.optimum.status = to_string(optimum->status);
      report.optimum.objective = optimum->objective;
      report.optimum.seconds = optimum->seconds;
      report.optimum.detail = optimum->detail;
      report.optimum.chain = chain_json(*optimum);
      report.optimum.phases = phases_json(*optimum);
      report.optimum.core = core_json(*optimum);
      if (optimum->decision) report.optimum.decision = spec_.describe(instance, *optimum->decision);
      if (optimum->decision && spec_.metrics) report.optimum.metrics = spec_.metrics(instance, *optimum->decision);
      if (decision && verdict.feasible && optimum->status == ExactStatus::kOptimal && optimum->decision) {
        report.gap_note = spec_.not_comparable ? spec_.not_comparable(instance, *decision) : "";
        if (report.gap_note.empty()) report.gap = relative_gap(spec_.sense, verdict.objective, optimum->objective);
        else report.gap_note = "not comparable: " + report.gap_note;
      }
    }

    if (decision) {
      const CheckContext<I, D> context{instance,          *decision,    verdict.objective, optimum ? &*optimum : nullptr,
                                       request.tolerance, spec_.sense, verdict.feasible};
      for (const auto& property : spec_.properties) {
        if (property.needs_optimum && !optimum) continue;
        PropertyResult result = property.check(context);
        result.name = property.name;
        report.properties.push_back(std::move(result));
      }
    }
    return report;
  }

  using Clock = std::chrono::steady_clock;
  static Clock::time_point now() { return Clock::now(); }
  static double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

  template <class Spec>
  static std::vector<Described> names(const std::vector<Spec>& specs) {
    std::vector<Described> out;
    for (const auto& s : specs) out.push_back(s);
    return out;
  }
  template <class Spec>
  const Spec& find(const std::vector<Spec>& specs, const std::string& name, const char* what) const {
    for (const auto& s : specs)
      if (s.name == name) return s;
    std::string known;
    for (const auto& s : specs) known += (known.empty() ? "" : ", ") + s.name;
    throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "' for problem " + spec_.name +
                                " (known: " + known + ")");
  }

  // Every exact answer is re-checked by the model's validator, and its objective recomputed, before anyone
  // sees it. A rejected answer is a schedcheck bug, never a result; except from a solve the time limit interrupted,
  // whose last model Z3 may never have finished (result.hpp): that one is dropped, and the answer is unknown.
  void recheck(const I& instance, const std::string& method, ExactResult<D>& result) const {
    if (result.status == ExactStatus::kInfeasible && spec_.refute_core) {
      const std::string why = spec_.refute_core(instance, result.core);
      if (!why.empty() && !result.interrupted) throw InternalError("exact method " + method + " claims infeasible: " + why);
      if (!why.empty())
        result = ExactResult<D>{ExactStatus::kUnknown, std::nullopt, 0, result.seconds,
                                "time limit reached; the interrupted solver's core was refuted (" + why + "), not kept",
                                true};
    }
    if (!result.decision) return;
    const Verdict verdict = spec_.validate(instance, *result.decision);
    std::string problem;
    if (!verdict.feasible)
      problem = "returned a decision the validator rejects: " + verdict.reason;
    else if (!close(verdict.objective, result.objective))
      problem = "reported objective " + std::to_string(result.objective) + " but the validator recomputes " +
                std::to_string(verdict.objective);
    if (problem.empty()) {
      result.objective = verdict.objective;
    } else if (result.interrupted) {
      result = ExactResult<D>{ExactStatus::kUnknown, std::nullopt, 0, result.seconds,
                              "time limit reached; the interrupted solver's last model was unfinished (" + problem +
                                  "), not kept",
                              true};
    } else {
      throw InternalError("exact method " + method + " " + problem);
    }
  }
  // An unproven answer (feasible, unknown) is never worse than a valid decision at hand: the best incumbent
  // replaces a worse or missing decision, as `feasible` (proven answers, optimal and infeasible, stay).
  void keep_best_incumbent(const I& instance, const std::vector<D>& incumbents, ExactResult<D>& result) const {
    if (result.status == ExactStatus::kOptimal || result.status == ExactStatus::kInfeasible) return;
    for (const D& incumbent : incumbents) {
      const double objective = spec_.validate(instance, incumbent).objective;
      const bool better = !result.decision || (spec_.sense == Sense::kMaximise ? objective > result.objective
                                                                                : objective < result.objective);
      if (!better) continue;
      result.decision = incumbent;
      result.objective = objective;
      result.status = ExactStatus::kFeasible;
      result.detail += std::string(result.detail.empty() ? "" : "; ") +
                       "best known: the policy's decision (the method found nothing better before it stopped)";
    }
  }
  static nlohmann::json chain_json(const ExactResult<D>& r) {
    if (r.chain.empty()) return nullptr;
    nlohmann::json out = nlohmann::json::array();
    for (const auto& step : r.chain)
      out.push_back({{"method", step.method}, {"why", step.why}, {"status", step.status}, {"seconds", step.seconds}});
    return out;
  }
  static nlohmann::json phases_json(const ExactResult<D>& r) {
    if (r.phase_seconds.empty()) return nullptr;
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, seconds] : r.phase_seconds) out[name] = seconds;
    return out;
  }
  static nlohmann::json core_json(const ExactResult<D>& r) {
    if (r.status != ExactStatus::kInfeasible || r.core.empty()) return nullptr;
    return {{"ids", r.core}, {"minimal", r.core_minimal}};
  }
  static bool close(double a, double b) { return std::abs(a - b) <= 1e-6 * std::max({1.0, std::abs(a), std::abs(b)}); }

  ProblemSpec<I, D> spec_;
};

// ------------------------------------------------------------------ generic properties

// A property that holds when a model check finds no violation ("" = none); the check's sentence is the detail.
template <class I, class D>
PropertySpec<I, D> violation_property(std::string name, std::string source, std::string summary,
                                      std::function<std::string(const I&, const D&)> violation) {
  PropertySpec<I, D> p;
  p.name = std::move(name);
  p.source = std::move(source);
  p.summary = std::move(summary);
  p.check = [violation = std::move(violation)](const CheckContext<I, D>& c) {
    PropertyResult r;
    const std::string why = violation(c.instance, c.decision);
    r.status = why.empty() ? PropertyStatus::kHolds : PropertyStatus::kFails;
    r.detail = why.empty() ? "ok" : why;
    return r;
  };
  return p;
}

// Relative slack for comparing objectives computed in double by different methods.
inline constexpr double kObjectiveSlack = 1e-9;

// A property that compares the heuristic with the exact side decides, or says it cannot, by one of two rules.
//
// Rule (a), "undecided unless the optimum is proven" (not-above-optimum, optimal-completion): the property needs
// the optimum itself, so without a proof it is undecided. The undecided result ("no proven optimum (<status>):
// <why>"), or nullopt when the optimum is proven and the property goes on to decide.
template <class D>
std::optional<PropertyResult> undecided_unless_proven(const ExactResult<D>& optimum) {
  if (optimum.status == ExactStatus::kOptimal) return std::nullopt;
  return PropertyResult{"", PropertyStatus::kUndecided,
                        "no proven optimum (" + std::string(to_string(optimum.status)) + "): " + optimum.detail};
}

// Rule (b), "fails when already worse than the best found, else undecided unless proven" (optimal-within and the
// like): a best found, proven or not, is a valid decision, so a heuristic worse than it is worse than the optimum.
// First, without any best found it is undecided ("no exact answer: <why>"; nullopt when there is one). This first
// step is also all that a property needing only an exact witness applies (edf-admits-when-feasible,
// all-assigned-when-feasible).
template <class D>
std::optional<PropertyResult> undecided_without_best_found(const ExactResult<D>& optimum) {
  if (optimum.decision) return std::nullopt;
  return PropertyResult{"", PropertyStatus::kUndecided, "no exact answer: " + optimum.detail};
}
// Then, `within` saying whether the heuristic is within the tolerance of that best: fails when it is not, holds
// when it is and the best is proven optimal, else undecided; `detail` gets " (against the best found, optimum not
// proven)" whenever the best is not proven.
template <class D>
PropertyResult against_best_found(const ExactResult<D>& optimum, bool within, std::string detail) {
  const bool proven = optimum.status == ExactStatus::kOptimal;
  if (!proven) detail += " (against the best found, optimum not proven)";
  const PropertyStatus status = !within ? PropertyStatus::kFails
                                : proven ? PropertyStatus::kHolds
                                         : PropertyStatus::kUndecided;
  return PropertyResult{"", status, std::move(detail)};
}

// A comparison with the optimum of a decision the validator refused: not applicable (the validator's property fails).
inline PropertyResult infeasible_decision() {
  return PropertyResult{"", PropertyStatus::kNotApplicable, "the decision is not feasible: nothing to compare"};
}

// not-above-optimum: a heuristic never beats a proven optimum (if it does, the encoding or validator is wrong).
template <class I, class D>
PropertySpec<I, D> not_above_optimum_property() {
  PropertySpec<I, D> p;
  p.name = "not-above-optimum";
  p.source = "our own";
  p.summary = "the heuristic never beats a proven optimum (else the encoding or the validator is wrong)";
  p.needs_optimum = true;
  p.check = [](const CheckContext<I, D>& c) {
    if (!c.feasible) return infeasible_decision();
    if (auto undecided = undecided_unless_proven(*c.optimum)) return *undecided;
    PropertyResult r;
    const double slack = kObjectiveSlack * std::max(1.0, std::abs(c.optimum->objective));
    const bool beats = c.sense == Sense::kMaximise ? c.objective > c.optimum->objective + slack
                                                   : c.objective < c.optimum->objective - slack;
    r.status = beats ? PropertyStatus::kFails : PropertyStatus::kHolds;
    r.detail = (beats ? "heuristic " : "") + std::to_string(c.objective) + (beats ? " beats the optimum " : " vs optimum ") +
               std::to_string(c.optimum->objective);
    return r;
  };
  return p;
}

// optimal-within: the relative gap to the optimum is at most the tolerance. Rule (b): with only a feasible (unproven)
// best, a heuristic already worse than that best by more than the tolerance fails; otherwise undecided.
template <class I, class D>
PropertySpec<I, D> optimal_within_property() {
  PropertySpec<I, D> p;
  p.name = "optimal-within";
  p.source = "our own";
  p.summary = "relative gap to the optimum at most --tolerance (produces counterexamples for heuristics)";
  p.needs_optimum = true;
  p.check = [](const CheckContext<I, D>& c) {
    if (!c.feasible) return infeasible_decision();
    if (auto undecided = undecided_without_best_found(*c.optimum)) return *undecided;
    const double gap = relative_gap(c.sense, c.objective, c.optimum->objective);
    const bool within = gap <= c.tolerance + kObjectiveSlack;
    return against_best_found(*c.optimum, within,
                              "gap " + std::to_string(gap) + (within ? " <= " : " > ") + "tolerance " +
                                  std::to_string(c.tolerance));
  };
  return p;
}

// ------------------------------------------------------------------ registry

// The cursor of a TypedProblem (see ScopeCursor): the problem's enumeration runs once, on a thread of its own, and
// hands over copies of the instances of each range asked for (the enumerator reuses its instance); the instances
// before a range are passed over uncopied. Destroying the cursor unwinds the enumeration where it waits.
template <class I, class D>
class TypedScopeCursor final : public ScopeCursor {
public:
  TypedScopeCursor(const TypedProblem<I, D>& problem, std::string scope) : problem_(problem), scope_(std::move(scope)) {}
  ~TypedScopeCursor() override {
    {
      const std::lock_guard<std::mutex> hold(lock_);
      abandon_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  TypedScopeCursor(const TypedScopeCursor&) = delete;
  TypedScopeCursor& operator=(const TypedScopeCursor&) = delete;

  void check_range(std::size_t begin, std::size_t end, const CheckRequest& request, const Checked& checked) override {
    if (begin < next_) throw std::logic_error("scope cursor: a range before the previous one's end");
    next_ = end;
    std::vector<I> batch;
    {
      std::unique_lock<std::mutex> hold(lock_);
      if (!finished_) {
        want_begin_ = begin;
        want_end_ = end;
        batch_.clear();
        ready_ = false;
        requested_ = true;
        if (!thread_.joinable()) thread_ = std::thread([this] { produce(); });
        wake_.notify_all();
        wake_.wait(hold, [&] { return ready_; });
        if (error_) std::rethrow_exception(error_);
        batch = std::move(batch_);
      }
    }
    for (std::size_t k = 0; k < batch.size(); ++k)
      checked(begin + k, problem_.check_instance(batch[k], request),
              [&] { return problem_.spec().write(batch[k]); });
  }

private:
  struct Abandoned {};
  void produce() {
    try {
      std::size_t index = 0;
      problem_.spec().enumerate(scope_, [&](const I& instance) {
        std::unique_lock<std::mutex> hold(lock_);
        wake_.wait(hold, [&] { return abandon_ || (requested_ && index < want_end_); });
        if (abandon_) throw Abandoned{};
        if (index >= want_begin_) batch_.push_back(instance);
        if (++index == want_end_) {
          ready_ = true;
          requested_ = false;
          hold.unlock();
          wake_.notify_all();
        }
      });
      const std::lock_guard<std::mutex> hold(lock_);
      finished_ = ready_ = true;  // a range past the scope's end holds what there was
    } catch (const Abandoned&) {
      return;
    } catch (...) {
      const std::lock_guard<std::mutex> hold(lock_);
      error_ = std::current_exception();
      finished_ = ready_ = true;
    }
    wake_.notify_all();
  }

  const TypedProblem<I, D>& problem_;
  std::string scope_;
  std::size_t next_ = 0;  // the caller's side: the end of the last range
  std::mutex lock_;       // guards what follows
  std::condition_variable wake_;
  std::size_t want_begin_ = 0, want_end_ = 0;
  std::vector<I> batch_;
  bool requested_ = false, ready_ = false, finished_ = false, abandon_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

template <class I, class D>
std::unique_ptr<ScopeCursor> TypedProblem<I, D>::scope_cursor(const std::string& scope) const {
  if (!spec_.enumerate) throw std::invalid_argument("problem " + spec_.name + " has no exhaustive mode");
  return std::make_unique<TypedScopeCursor<I, D>>(*this, scope);
}

// What `schedcheck list --json` shows of a problem (and the Python module's problems()): name, source, summary,
// instance kind, policies, exact methods and properties (each {name, source, summary}), generator settings, and
// whether it takes policies outside C++.
nlohmann::json problem_json(const Problem& problem);

class Registry {
public:
  void add(std::unique_ptr<Problem> problem);
  const Problem* find(const std::string& name) const;  // nullptr when unknown
  const Problem& get(const std::string& name) const;   // throws std::invalid_argument listing the known names
  Problem& get(const std::string& name) { return const_cast<Problem&>(std::as_const(*this).get(name)); }  // to add policies
  const std::vector<std::unique_ptr<Problem>>& problems() const { return problems_; }

  template <class I, class D>
  TypedProblem<I, D>& typed(const std::string& name) {
    return const_cast<TypedProblem<I, D>&>(std::as_const(*this).typed<I, D>(name));
  }
  template <class I, class D>
  const TypedProblem<I, D>& typed(const std::string& name) const {
    const auto* typed = dynamic_cast<const TypedProblem<I, D>*>(&get(name));
    if (!typed) throw std::invalid_argument("problem " + name + " has another instance or decision type");
    return *typed;
  }

private:
  std::vector<std::unique_ptr<Problem>> problems_;
};

}  // namespace schedcheck
