// The Python module `schedcheck` (pybind11): the registry from Python. List problems, read and generate instances,
// run built-in policies, check a policy written in Python (a callable: instance dict in, decision dict out, the
// format of docs/protocol.md) against the exact optimum, and search / shrink with it. Our own.
// Also the trace-driven simulation: simulate a trace (a built-in cluster policy or a callable), audit a schedule,
// run an experiment. Limits: one policy call at a time (the GIL); results are dicts (the JSON of `schedcheck ...
// --json`) and lists of per-job records.
#include "counterexamples/builtin.hpp"
#include "counterexamples/search.hpp"
#include "experiments/runner.hpp"
#include "model/input.hpp"
#include "model/jobs_csv.hpp"
#include "model/workload.hpp"
#include "properties/audit.hpp"
#include "properties/run_properties.hpp"
#include "properties/trace_run.hpp"
#include "simulation/summary.hpp"
#include "support/executor.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <exception>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <thread>
#include <optional>
#include <string>

namespace py = pybind11;
using namespace schedcheck;

namespace {

constexpr const char* kPythonPolicy = "python";  // the name a callable policy gets in reports and corpus files

// ---- JSON <-> Python, both ways (no text in between)
py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list out(j.size());
      for (std::size_t i = 0; i < j.size(); ++i) out[i] = to_python(j[i]);
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [key, value] : j.items()) out[py::str(key)] = to_python(value);
      return out;
    }
    default: return py::none();
  }
}

// ---- Ctrl-C while only C++ runs
// Python's own SIGINT handler only sets a flag that Python code looks at, so a search of a built-in policy would not
// stop. For the length of a call, a C-level handler turns SIGINT into schedcheck's stop request (support/stop.hpp:
// every loop and solve stops within about a second and keeps what it found); the call then raises KeyboardInterrupt
// with what was found so far as its second argument. The previous handler comes back after the call.
class CtrlC {
public:
  CtrlC() {
    (void)stop_signal();  // the flag's static exists before a handler may touch it
    struct sigaction action {};
    action.sa_handler = [](int) { request_stop(SIGINT); };  // one lock-free atomic store: safe in a handler
    sigemptyset(&action.sa_mask);
    struct sigaction current {};
    if (::sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) return;  // ignored: stays so
    installed_ = ::sigaction(SIGINT, &action, &previous_) == 0;
  }
  ~CtrlC() {
    if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
  }
  CtrlC(const CtrlC&) = delete;
  CtrlC& operator=(const CtrlC&) = delete;

private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

// Runs `call` (returning the result as JSON) under CtrlC, on a thread of its own without the GIL: other Python
// threads run meanwhile (a policy written in Python takes the GIL for each call), and this thread looks for Python's
// signals every kSignalPoll (PyErr_CheckSignals: a SIGINT another thread raised, _thread.interrupt_main), each one a
// stop request. After a stop request raises KeyboardInterrupt(message, the partial result) and clears the request,
// so that the next call starts afresh.
constexpr std::chrono::milliseconds kSignalPoll{20};
template <class Call>
py::object interruptible(Call call) {
  nlohmann::json result;
  {
    const CtrlC bridge;
    std::exception_ptr error;
    std::atomic<bool> done{false};
    {
      const py::gil_scoped_release release;
      std::thread worker([&] {
        try {
          result = call();
        } catch (const StopRequested&) {  // cut short where nothing is left to report
          result = nullptr;
        } catch (...) {
          error = std::current_exception();
        }
        done.store(true);
      });
      while (!done.load()) {
        std::this_thread::sleep_for(kSignalPoll);
        if (done.load() || stop_requested()) continue;
        const py::gil_scoped_acquire hold;
        if (PyErr_CheckSignals() != 0) {
          PyErr_Clear();
          request_stop(SIGINT);
        }
      }
      worker.join();
    }
    if (error) std::rethrow_exception(error);
  }
  if (!stop_requested()) return to_python(result);
  const std::string message = stop_request_text();
  clear_stop_request();
  PyErr_SetObject(PyExc_KeyboardInterrupt, py::make_tuple(message, to_python(result)).ptr());
  throw py::error_already_set();
}

// Python values as JSON, nested at most kMaxJsonDepth deep (as a file may be): a dict or list that contains itself
// is refused at that depth, not followed for ever.
nlohmann::json from_python(py::handle o, const std::string& where, std::size_t depth = 0) {
  if (o.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(o)) return o.cast<bool>();
  if (py::isinstance<py::int_>(o)) {
    try {
      return o.cast<std::int64_t>();
    } catch (const py::cast_error&) {
      throw InputError(where + ": expected an integer within 64 bits, got " + py::str(o).cast<std::string>().substr(0, 40));
    }
  }
  if (py::isinstance<py::float_>(o)) return o.cast<double>();
  if (py::isinstance<py::str>(o)) return o.cast<std::string>();
  const bool nested = py::isinstance<py::dict>(o) || py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o);
  if (nested && depth >= kMaxJsonDepth)
    throw InputError(fmt::format("{}: nested deeper than {} levels (dicts and lists inside one another, or one that "
                                 "contains itself); expected at most {}", printable_text(where, 120), kMaxJsonDepth,
                                 kMaxJsonDepth));
  if (py::isinstance<py::dict>(o)) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : o.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) throw InputError(where + ": expected string keys, got " + py::repr(key).cast<std::string>());
      const std::string k = key.cast<std::string>();
      out[k] = from_python(value, where + "." + k, depth + 1);
    }
    return out;
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    nlohmann::json out = nlohmann::json::array();
    std::size_t i = 0;
    for (const auto& item : o) out.push_back(from_python(item, where + "[" + std::to_string(i++) + "]", depth + 1));
    return out;
  }
  throw InputError(where + ": expected JSON-like values (dict, list, str, int, float, bool, None), got " +
                   py::str(o.get_type().attr("__name__")).cast<std::string>());
}

// ---- the registry, with one "python" policy per problem that calls whichever callable the current call gave
struct State {
  Registry registry = make_builtin_registry();
  py::object policy;  // the callable of the check / search in progress
  State() {
    for (const auto& problem : registry.problems()) {
      if (!problem->accepts_external_policies()) continue;
      registry.get(problem->info().name)
          .add_external_policy({kPythonPolicy, "a Python callable (schedcheck module)", "instance dict in, decision dict out"},
                               [this](const nlohmann::json& request) {
                                 const auto it = request.find("instance");
                                 const nlohmann::json& argument = it != request.end() ? *it : request.at("snapshot");
                                 const py::gil_scoped_acquire hold;  // called from the thread of interruptible()
                                 py::object answer = policy(to_python(argument));
                                 return from_python(answer, "the policy's decision");
                               });
    }
  }
};
State& state() {
  static State* s = new State();  // never destroyed: it holds Python objects past interpreter shutdown otherwise
  return *s;
}

// While a call runs: the callable it gave (restored afterwards, so a policy may itself call schedcheck).
class UsePolicy {
public:
  UsePolicy(const py::object& policy, CheckRequest& request, const std::string& problem) : saved_(state().policy) {
    if (py::isinstance<py::str>(policy)) {
      request.policy = policy.cast<std::string>();
      return;
    }
    if (!PyCallable_Check(policy.ptr())) throw py::type_error("policy: expected a built-in policy name or a callable");
    if (!state().registry.get(problem).accepts_external_policies())
      throw py::value_error("problem " + problem + " takes no policies outside C++ (see problems())");
    state().policy = policy;
    request.policy = kPythonPolicy;
    // Its name for corpus files' reproduce lines: module.qualname when it has them (a lambda: <lambda>).
    const py::object module = py::getattr(policy, "__module__", py::none());
    const py::object name = py::getattr(policy, "__qualname__", py::getattr(policy, "__name__", py::str("policy")));
    request.python_policy = (module.is_none() ? "" : py::str(module).cast<std::string>() + ".") + py::str(name).cast<std::string>();
  }
  ~UsePolicy() { state().policy = saved_; }

private:
  py::object saved_;
};

nlohmann::json instance_json(const py::object& instance) {
  if (py::isinstance<py::str>(instance)) return workload::read_instance_file(instance.cast<std::string>());
  return from_python(instance, "instance");
}

CheckRequest request_of(const std::optional<std::string>& exact, double tolerance, unsigned timeout_ms,
                        std::uint64_t effort) {
  CheckRequest request;
  request.exact = exact.value_or("");
  request.tolerance = tolerance;
  request.solve.timeout_ms = timeout_ms;
  request.solve.effort = effort;
  return request;
}

// A workload: a trace file (.swf, .swf.gz, or the JSON workload form) read by the documented rules, or a dict in the
// JSON workload form.
// "a", "b", "c": the names an argument takes, for its error message.
std::string quoted_names(const std::vector<std::string>& names) { return joined(names, ", ", "\""); }

// conventions={"round": "floor", "run_offset": 1, ...}: another simulator's reading rules, keyed as the command line's
// convention flags (docs/simulation.md), with underscores.
workload::Conventions conventions_of(const py::object& conventions) {
  workload::Conventions c;
  if (conventions.is_none()) return c;
  const nlohmann::json given = from_python(conventions, "conventions");
  const Field f(given, "conventions");
  f.only_keys({"round", "run_offset", "estimate_offset", "min_time", "estimate_at_least_run", "run_is_estimate",
               "kill_at_request", "invalid_records"});
  auto named = [&](const char* key, auto parse, auto names, auto& into) {
    if (!f.has(key)) return;
    const Field value = f.at(key);
    const auto v = parse(value.as_string());
    if (!v) value.fail("one of " + quoted_names(names()));
    into = *v;
  };
  named("round", workload::rounding, workload::rounding_names, c.rounding);
  named("invalid_records", workload::invalid_records, workload::invalid_records_names, c.invalid);
  if (f.has("run_offset")) c.run_offset = f.at("run_offset").as_number(-1e9, 1e9);
  if (f.has("estimate_offset")) c.estimate_offset = f.at("estimate_offset").as_number(-1e9, 1e9);
  if (f.has("min_time")) c.floor = f.at("min_time").as_number(0, 1e12);
  if (f.has("estimate_at_least_run")) c.estimate_at_least_run = f.at("estimate_at_least_run").as_bool();
  if (f.has("run_is_estimate")) c.run_is_estimate = f.at("run_is_estimate").as_bool();
  if (f.has("kill_at_request")) c.kill_at_request = f.at("kill_at_request").as_bool();
  return c;
}

workload::Workload workload_of(const py::object& trace, const std::string& estimates, std::optional<long long> processors,
                               const std::string& processor_field = "allocated",
                               const py::object& conventions = py::none()) {
  const auto source = workload::estimate_source(estimates);
  if (!source)
    throw InputError("estimates: expected one of " + quoted_names(workload::estimate_source_names()) + ", got " +
                     quoted_text(estimates));
  if (processors && (*processors < 1 || *processors > workload::kMaxProcessors))
    throw InputError("processors: expected 1 to " + std::to_string(workload::kMaxProcessors));
  workload::ReadOptions options;
  options.estimates = *source;
  options.processors = processors;
  const auto field = workload::processor_field(processor_field);
  if (!field)
    throw InputError("processor_field: expected one of " + quoted_names(workload::processor_field_names()) + ", got " +
                     quoted_text(processor_field));
  options.processor_field = *field;
  options.conventions = conventions_of(conventions);
  if (py::isinstance<py::str>(trace)) return workload::load(trace.cast<std::string>(), options);
  return workload::load(from_python(trace, "trace"), "trace", options);
}

cluster::ResourceModel model_of(const std::string& model) {
  const auto m = cluster::resource_model(model);
  if (!m) throw InputError("model: expected \"count\" or \"processors\", got " + quoted_text(model));
  return *m;
}

// passes="instant" | "event": when the scheduler decides (sim::ClusterSetup::pass_per_event).
bool per_event(const std::string& passes) {
  if (passes != "instant" && passes != "event")
    throw InputError("passes: expected \"instant\" or \"event\", got " + quoted_text(passes));
  return passes == "event";
}

// The finished jobs of a run as per-job records (the columns of `simulate --jobs-csv`).
nlohmann::json job_records(const workload::Workload& w, const sim::RunResult& r) {
  nlohmann::json jobs = nlohmann::json::array();
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    if (r.records[j].state != sim::JobState::kFinished) continue;
    const jobs_csv::Row row = sim::job_row(w.jobs[j], r.records[j], w.name);
    jobs.push_back({{"job_id", row.job_id}, {"submission_time", row.submission_time},
                    {"requested_number_of_resources", row.requested_number_of_resources},
                    {"requested_time", row.requested_time}, {"success", row.success},
                    {"starting_time", row.starting_time}, {"execution_time", row.execution_time},
                    {"finish_time", row.finish_time}, {"waiting_time", row.starting_time - row.submission_time},
                    {"allocated_resources", row.allocated_resources}, {"bounded_slowdown", row.bounded_slowdown},
                    {"cluster", r.records[j].cluster}, {"arrival_time", r.records[j].arrival}});
  }
  return jobs;
}

}  // namespace

PYBIND11_MODULE(schedcheck, m) {
  m.doc() = "schedcheck: scheduling policies checked against exact optima (docs/python.md)";
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      input_error(printable_text(e.what()).c_str());
    } catch (const StopRequested& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });

  m.def("problems", [] {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& p : state().registry.problems()) all.push_back(problem_json(*p));
    return to_python(all);
  }, "Every problem: name, source, summary, policies, exact methods, properties, generator (as `schedcheck list --json`).");

  m.def("generate", [](const std::string& problem, std::uint64_t seed, std::size_t size) {
    return to_python(state().registry.get(problem).generate(seed, size));
  }, py::arg("problem"), py::arg("seed") = 1, py::arg("size") = 10,
     "A random instance from the problem's seeded generator (the same as `schedcheck generate`).");

  m.def("read_instance", [](const std::string& problem, const py::object& instance) {
    return to_python(state().registry.get(problem).normalize(instance_json(instance), "instance"));
  }, py::arg("problem"), py::arg("instance"),
     "Reads an instance (a file path, or a dict) with the problem's strict reader; returns it as schedcheck writes it. "
     "Raises schedcheck.InputError (a ValueError) naming the field.");

  m.def("decision_schema", [](const std::string& problem) { return to_python(state().registry.get(problem).decision_schema()); },
        py::arg("problem"), "The JSON Schema of the decision a policy returns (docs/protocol.md).");

  m.def("check", [](const std::string& problem, const py::object& instance, const py::object& policy,
                    const std::optional<std::string>& exact, double tolerance, unsigned timeout_ms,
                    std::uint64_t effort) {
    CheckRequest request = request_of(exact, tolerance, timeout_ms, effort);
    const nlohmann::json document = instance_json(instance);
    const UsePolicy use(policy, request, problem);
    return interruptible([&] { return state().registry.get(problem).check(document, "(python)", request).to_json(); });
  }, py::arg("problem"), py::arg("instance"), py::arg("policy"), py::arg("exact") = py::none(),
     py::arg("tolerance") = 0.0, py::arg("timeout_ms") = 10000, py::arg("effort") = 0,
     "Runs `policy` (a built-in name, or a callable: instance dict -> decision dict) on the instance, the exact method "
     "(`exact`, default the problem's first; 'none' for none), and every property. Returns the report "
     "(as `schedcheck check --json`: heuristic, optimum, gap, properties, exit_code).");

  m.def("solve", [](const std::string& problem, const py::object& instance, const std::optional<std::string>& exact,
                    unsigned timeout_ms, std::uint64_t effort) {
    const CheckRequest request = request_of(exact, 0.0, timeout_ms, effort);
    const nlohmann::json document = instance_json(instance);
    return interruptible([&] { return state().registry.get(problem).check(document, "(python)", request).to_json(); });
  }, py::arg("problem"), py::arg("instance"), py::arg("exact") = py::none(), py::arg("timeout_ms") = 10000,
     py::arg("effort") = 0, "The exact method alone (as `schedcheck solve --json`).");

  m.def("shrink", [](const std::string& problem, const py::object& instance, const py::object& policy,
                     const std::string& property, double tolerance, const std::optional<std::string>& exact,
                     unsigned timeout_ms, std::size_t max_checks, std::uint64_t effort) {
    CheckRequest request = request_of(exact, tolerance, timeout_ms, effort);
    const nlohmann::json document = instance_json(instance);
    const UsePolicy use(policy, request, problem);
    return interruptible([&] {
      const auto [smallest, report] =
          schedcheck::shrink(state().registry.get(problem), document, request, property, max_checks);
      return nlohmann::json{{"instance", smallest}, {"report", report.to_json()}};
    });
  }, py::arg("problem"), py::arg("instance"), py::arg("policy"), py::arg("property"), py::arg("tolerance") = 0.0,
     py::arg("exact") = py::none(), py::arg("timeout_ms") = 10000, py::arg("max_checks") = 2000, py::arg("effort") = 0,
     "Shrinks a failing instance while `property` still fails with `policy`: the smallest found and its report.");

  m.def("search", [](const std::string& problem, const py::object& policy, std::size_t trials, std::uint64_t seed,
                     std::size_t size, double tolerance, const std::optional<std::string>& exact, unsigned timeout_ms,
                     std::size_t max_counterexamples, const std::optional<std::string>& out, bool exhaustive,
                     const std::string& scope, std::optional<std::uint64_t> effort, std::size_t jobs) {
    if (jobs != 1 && !py::isinstance<py::str>(policy))
      throw py::value_error("jobs: a Python policy is checked on one thread (jobs=1); jobs > 1 or 0 takes a built-in "
                            "policy name");
    SearchOptions options;
    options.jobs = jobs_from_option(jobs);
    options.problem = problem;
    options.trials = trials;
    options.seed = seed;
    options.size = size;
    options.check = request_of(exact, tolerance, timeout_ms, effort.value_or(default_effort(timeout_ms)));
    options.max_counterexamples = max_counterexamples;
    options.exhaustive = exhaustive;
    options.scope = scope;
    const Problem& p = state().registry.get(problem);
    const UsePolicy use(policy, options.check, problem);
    if (out) prepare_output_directory(*out, "out");
    nlohmann::json found = nlohmann::json::array();
    CorpusWriter writer;  // a failed write stops the writing, not the search: every counterexample is still returned
    const FoundFn keep = [&](const Counterexample& c) {
      nlohmann::json entry = counterexample_json(c);
      entry["instance"] = c.instance;
      entry["report"] = c.report.to_json();
      const std::optional<std::string> file = out ? writer.write(p, c, options, *out) : std::nullopt;
      entry["file"] = file ? nlohmann::json(*file) : nlohmann::json(nullptr);
      found.push_back(std::move(entry));
    };
    return interruptible([&] {
      const SearchSummary summary =
          exhaustive ? exhaustive_search(p, options, keep) : schedcheck::search(p, options, {}, keep);
      nlohmann::json result = summary_json(summary, options);
      result["counterexamples"] = std::move(found);
      result["write_error"] = writer.error_json();
      return result;
    });
  }, py::arg("problem"), py::arg("policy"), py::arg("trials") = 1000, py::arg("seed") = 1, py::arg("size") = 10,
     py::arg("tolerance") = 0.0, py::arg("exact") = py::none(), py::arg("timeout_ms") = 10000,
     py::arg("max_counterexamples") = 5, py::arg("out") = py::none(), py::arg("exhaustive") = false,
     py::arg("scope") = "", py::arg("effort") = py::none(), py::arg("jobs") = 1,
     "Random (or, with exhaustive=True, every) instances checked with `policy`; the first `max_counterexamples` "
     "failures are shrunk and returned (instance, report), and written as corpus files into `out` when given. "
     "`effort`: each solve's budget (None: a tenth of what `timeout_ms` is worth, as `schedcheck search`; 0: none). "
     "`jobs`: worker threads for a built-in policy (0: one a core), the results the same whatever it is. "
     "Returns the summary (as `schedcheck search --json`).");

  // `pivots=N` (lenient: where a policy declares it) and `policy_params={name: value}`, as the run request reads them.
  const auto param_assignments = [](std::optional<std::size_t> pivots, const py::object& policy_params) {
    std::vector<runcheck::RunRequest::Assignment> params;
    if (pivots) params.push_back({"pivots", "pivots=" + std::to_string(*pivots), true});
    if (policy_params.is_none()) return params;
    if (!py::isinstance<py::dict>(policy_params)) throw InputError("policy_params: expected a dict {name: value}");
    for (const auto& [key, value] : policy_params.cast<py::dict>()) {
      const std::string name = py::str(key).cast<std::string>();
      if (!py::isinstance<py::int_>(value) && !py::isinstance<py::str>(value))
        throw InputError("policy_params: " + name + ": expected a whole number or \"inf\"");
      params.push_back({"policy_params", name + "=" + py::str(value).cast<std::string>(), false});
    }
    return params;
  };

  m.def("simulate", [param_assignments](const py::object& trace, const py::object& policy, std::optional<std::size_t> pivots,
                       const py::object& policy_params, const std::string& model,
                       const std::string& estimates, std::optional<long long> processors,
                       const std::optional<std::vector<int>>& clusters, const std::string& broker, double latency,
                       double status_period, bool check, std::optional<std::size_t> check_windows,
                       std::size_t windows_every, double warmup, bool stop_at_last_arrival,
                       const std::string& passes, const std::string& processor_field, const py::object& conventions) {
    runcheck::RunRequest request;
    request.words = {"policy", "model", "clusters", "processors"};
    if (clusters)
      for (const int c : *clusters)
        if (c < 1 || c > workload::kMaxProcessors) throw InputError("clusters: each size from 1 to " + std::to_string(workload::kMaxProcessors));
    if (clusters) request.clusters = *clusters;
    request.processors = processors.value_or(0);
    request.load = [&](long long size) {
      return workload_of(trace, estimates, size == 0 && !processors ? std::nullopt : std::optional<long long>(size),
                         processor_field, conventions);
    };
    request.estimates = estimates;
    request.params = param_assignments(pivots, policy_params);
    py::object saved = state().policy;
    if (py::isinstance<py::str>(policy)) {
      request.policy = policy.cast<std::string>();
    } else {
      if (!PyCallable_Check(policy.ptr())) throw py::type_error("policy: expected a built-in policy name or a callable");
      if (check_windows) throw InputError("check_windows plays the run's policy forward: built-in policies only");
      state().policy = policy;
      request.external = [](const workload::Workload& w) {
        return runcheck::external_cluster_policy(w, [](const nlohmann::json& request) {
          const py::gil_scoped_acquire hold;  // called from the thread of interruptible()
          return from_python(state().policy(to_python(request.at("snapshot"))), "the policy's decision");
        }, kPythonPolicy);
      };
    }
    request.model = model;
    request.router = broker;
    request.latency = latency;
    request.status_period = status_period;
    request.run.check = check;
    if (check_windows) {
      runcheck::WindowSettings windows;
      windows.jobs = *check_windows;
      windows.every = windows_every;
      request.run.windows = windows;
    }
    request.run.metrics = sim::MetricsWindow{warmup, stop_at_last_arrival};
    request.run.pass_per_event = per_event(passes);
    struct Restore {  // the module's policy slot, whatever happens
      decltype(saved)& slot;
      decltype(saved) value;
      ~Restore() { slot = value; }
    } restore{state().policy, saved};
    const runcheck::RunPlan plan = runcheck::plan_run(request);
    const workload::Workload& w = plan.workload;
    return interruptible([&] {
      const runcheck::TraceRun run = runcheck::run_trace(w, plan.spec, state().registry);
      nlohmann::json summary = runcheck::to_json(w, run);
      summary["estimates"] = estimates;
      summary["exit_code"] = process_exit_code(run.violations() ? 1 : 0);
      return nlohmann::json{{"summary", summary}, {"jobs", job_records(w, run.result)}};
    });
  }, py::arg("trace"), py::arg("policy") = "easy", py::arg("pivots") = py::none(), py::arg("policy_params") = py::none(),
     py::arg("model") = "count", py::arg("estimates") = "requested", py::arg("processors") = py::none(),
     py::arg("clusters") = py::none(),
     py::arg("broker") = "least-loaded", py::arg("latency") = 0.0, py::arg("status_period") = 600.0,
     py::arg("check") = true, py::arg("check_windows") = py::none(), py::arg("windows_every") = 1,
     py::arg("warmup") = 0.0, py::arg("stop_at_last_arrival") = false, py::arg("passes") = "instant",
     py::arg("processor_field") = "allocated", py::arg("conventions") = py::none(),
     "Replays a trace (a path: .swf, .swf.gz or the JSON workload form; or a workload dict) through a cluster policy "
     "(a built-in name, or a callable: snapshot dict -> decision dict, docs/protocol.md) with its parameters "
     "(`policy_params={'pivots': 3}`; `pivots=3` the same), on one cluster or on "
     "`clusters` behind a `broker`, with every invariant checked (`check`) and, with `check_windows=K`, every "
     "`windows_every`-th queue window of K jobs solved exactly. Returns {'summary': as `simulate --json`, 'jobs': one "
     "dict a finished job (the per-job CSV's columns, plus its cluster and when it reached it)}.");

  m.def("audit", [param_assignments](const py::object& trace, const py::object& schedule, const std::string& policy,
                    std::optional<std::size_t> pivots, const py::object& policy_params, const std::string& model, const std::string& estimates, std::optional<long long> processors,
                    std::size_t show, const std::string& passes, const std::string& processor_field,
                    const py::object& conventions) {
    const workload::Workload w = workload_of(trace, estimates, processors, processor_field, conventions);
    std::vector<jobs_csv::ScheduleRow> rows;
    std::string name = "schedule";
    if (py::isinstance<py::str>(schedule)) {
      name = schedule.cast<std::string>();
      rows = jobs_csv::read_schedule(name, jobs_csv::Columns{}, false);
    } else {
      const nlohmann::json list = from_python(schedule, "schedule");
      const Field root(list, "schedule");
      std::size_t line = 1;
      for (const Field& item : root.items()) {
        item.only_keys({"job_id", "starting_time", "finish_time", "allocated_resources"});
        jobs_csv::ScheduleRow row;
        const Field id = item.at("job_id");
        row.id = id.raw().is_string() ? id.raw().get<std::string>() : std::to_string(id.as_int(0, std::numeric_limits<std::int64_t>::max()));
        row.start = item.at("starting_time").as_number(0, 1e15);
        row.finish = item.at("finish_time").as_number(row.start, 1e15);
        if (item.has("allocated_resources")) {
          const Field allocated = item.at("allocated_resources");
          if (!allocated.raw().is_string()) allocated.fail("processors in Batsim's interval syntax (\"0-3 7\")");
          row.allocated = allocated.raw().get<std::string>();
        }
        row.line = ++line;
        rows.push_back(std::move(row));
      }
    }
    runcheck::AuditOptions options;
    options.policy = runcheck::configured_policies({policy}, param_assignments(pivots, policy_params)).front();
    options.model = model_of(model);
    options.keep = show;
    options.schedule = name;
    options.pass_per_event = per_event(passes);
    const runcheck::AuditResult r = runcheck::audit_schedule(w, rows, options);
    nlohmann::json out = runcheck::to_json(r, show);
    out["policy"] = policy;
    out["exit_code"] = r.total() ? 1 : 0;
    return to_python(out);
  }, py::arg("trace"), py::arg("schedule"), py::arg("policy"), py::arg("pivots") = py::none(),
     py::arg("policy_params") = py::none(), py::arg("model") = "count",
     py::arg("estimates") = "requested", py::arg("processors") = py::none(), py::arg("show") = 10,
     py::arg("passes") = "instant", py::arg("processor_field") = "allocated", py::arg("conventions") = py::none(),
     "Audits a schedule another simulator produced (a per-job CSV path, or a list of dicts with job_id, starting_time, "
     "finish_time and optionally allocated_resources) against the invariants of `policy` with its parameters (`policy_params`, `pivots` as for `simulate`; as `schedcheck audit --json`). The trace is read as the "
     "simulator read it: `processor_field` and `conventions` (a dict keyed as the command line's convention flags, "
     "e.g. {'round': 'floor', 'min_time': 1, 'estimate_at_least_run': True, 'invalid_records': 'unit-job'}).");

  m.def("experiments", [] { return to_python(experiments::catalogue_json()); },
        "Every experiment (as `schedcheck experiment --list --json`).");

  m.def("experiment", [](const std::string& name, const std::string& out, std::optional<std::size_t> seeds,
                         std::size_t jobs, bool quick, const std::vector<std::string>& traces,
                         const std::optional<std::string>& traces_dir, const std::optional<std::string>& scenario,
                         const std::optional<std::string>& corpus, const std::vector<std::string>& readings,
                         bool force, const py::dict& policies, const std::string& policy_name) {
    experiments::ExperimentOptions options;
    // policies={"U2": callable}: a Python policy deciding for those actors (docs/protocol.md's requests: the callable
    // gets the request's "instance", the broker's snapshot, and returns the decision). The runs go one at a time.
    if (!policies.empty()) {
      auto callables = std::make_shared<std::map<std::string, py::object>>();
      for (const auto& [key, value] : policies) {
        if (!py::isinstance<py::str>(key)) throw InputError("policies: expected actor names as keys");
        if (!PyCallable_Check(value.ptr())) throw InputError("policies: the value for " + py::str(key).cast<std::string>() + " is not callable");
        callables->emplace(py::str(key).cast<std::string>(), py::reinterpret_borrow<py::object>(value));
        options.outside_for.push_back(py::str(key).cast<std::string>());
      }
      options.outside_name = policy_name;
      options.ask_outside = [callables](const nlohmann::json& request, const std::string& about) {
        const py::gil_scoped_acquire hold;  // the sweep runs with the GIL released
        try {
          const py::object answer = callables->at(request.at("user").get<std::string>())(to_python(request.at("instance")));
          return from_python(answer, "the Python policy's decision for " + about);
        } catch (py::error_already_set& e) {
          const std::string what = e.what();
          throw PolicyFailure("the Python policy on " + about + " raised: " + what.substr(0, what.find('\n')));
        }
      };
    }
    options.seeds = seeds.value_or(0);
    options.jobs = jobs_from_option(jobs);  // 0: every core
    options.quick = quick;
    options.traces = traces;
    options.traces_dir = traces_dir.value_or("");
    options.scenario = scenario.value_or("");
    options.corpus = corpus.value_or("");
    const bool all_readings = readings.size() == 1 && readings.front() == "all";
    options.readings = all_readings;
    if (!all_readings) options.reading_names = readings;
    if (seeds && *seeds == 0) throw InputError("seeds: expected 1 to 100000, got 0");
    const auto& entry = experiments::find(name);
    experiments::check_options(options, entry);
    const auto experiment = entry.make(options, state().registry);
    if (!options.corpus.empty()) prepare_output_directory(options.corpus, "corpus");
    const bool out_existed = std::filesystem::exists(out);
    experiments::claim_output_directory(out, "out", force);
    const auto executor = make_executor(options.jobs);
    experiments::Sweep sweep;
    {
      // The runs share no Python object. Ctrl-C: the main thread looks for Python's signal after each point it
      // finishes, and turns it into a stop request (no further point starts); KeyboardInterrupt follows.
      py::gil_scoped_release release;
      const auto main = std::this_thread::get_id();
      try {
        sweep = experiments::run_sweep(*experiment, *executor, [&](const experiments::SweepProgress&) {
          if (std::this_thread::get_id() != main) return;
          py::gil_scoped_acquire hold;
          if (PyErr_CheckSignals() != 0) {
            PyErr_Clear();
            request_stop(2);
          }
        });
      } catch (...) {  // a failed sweep (a Python policy that raised) leaves no `out` folder it created
        std::error_code ignored;
        if (!out_existed && std::filesystem::is_empty(out, ignored)) std::filesystem::remove(out, ignored);
        throw;
      }
    }
    const bool interrupted = stop_requested();
    const auto written = experiments::write_results(*experiment, options, sweep, out, "python3: schedcheck.experiment(" +
                                                    nlohmann::json(name).dump() + ", ...)");
    nlohmann::json runs = nlohmann::json::array();
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
      if (!sweep.records[i]) continue;
      nlohmann::json run = nlohmann::json::object();
      for (const auto& [key, value] : sweep.points[i].parameters) run[key] = value;
      run["seed"] = sweep.points[i].seed;
      run["reading"] = sweep.points[i].reading.empty() ? "default" : sweep.points[i].reading;
      for (const auto& [metric, value] : sweep.records[i]->metrics) run[metric] = value;
      runs.push_back(std::move(run));
    }
    if (interrupted) {  // the finished points are written (summary.json says "interrupted"); then KeyboardInterrupt
      const StopRequested stop;
      clear_stop_request();
      throw stop;
    }
    nlohmann::json result = written.summary;
    result["runs"] = std::move(runs);
    return to_python(result);
  }, py::arg("name"), py::arg("out"), py::arg("seeds") = py::none(), py::arg("jobs") = 1, py::arg("quick") = false,
     py::arg("traces") = std::vector<std::string>{}, py::arg("traces_dir") = py::none(), py::arg("scenario") = py::none(),
     py::arg("corpus") = py::none(), py::arg("readings") = std::vector<std::string>{}, py::arg("force") = false,
     py::arg("policies") = py::dict(), py::arg("policy_name") = "python",
     "Runs an experiment (see experiments()) and writes its tables, plots, claims and summary.json into `out`; "
     "returns the summary (as summary.json) with 'runs': one dict a finished run (its parameters, reading and "
     "metrics). `readings`: names of readings of the model to run too (the paper's claims are judged under each), or "
     "[\"all\"]. `out` is the run's own: an earlier run's tables, plots and corpus files there are removed, and any other "
     "file is refused unless force=True (then kept). `policies`: {actor: callable} for experiments that take policies outside C++ (auction: a user's broker, called with its snapshot dict, returning the decision dict of docs/protocol.md), named `policy_name` in the results. Ctrl-C stops it after the point being run: the finished points are written, then KeyboardInterrupt.");
}
