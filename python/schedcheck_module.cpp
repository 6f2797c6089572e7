// The Python module `schedcheck` (pybind11): the registry from Python. List problems, read and generate instances,
// run built-in policies, check a policy written in Python (a callable: instance dict in, decision dict out, the
// format of docs/protocol.md) against the exact optimum, and search / shrink with it. Our own (issue 13).
// Limits: one policy call at a time (the GIL); results are dicts (the JSON of `schedcheck ... --json`).
#include "counterexamples/builtin.hpp"
#include "counterexamples/search.hpp"
#include "model/input.hpp"
#include "model/stop.hpp"
#include "model/workload.hpp"

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <limits>
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

nlohmann::json from_python(py::handle o, const std::string& where) {
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
  if (py::isinstance<py::dict>(o)) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : o.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) throw InputError(where + ": expected string keys, got " + py::repr(key).cast<std::string>());
      const std::string k = key.cast<std::string>();
      out[k] = from_python(value, where + "." + k);
    }
    return out;
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    nlohmann::json out = nlohmann::json::array();
    std::size_t i = 0;
    for (const auto& item : o) out.push_back(from_python(item, where + "[" + std::to_string(i++) + "]"));
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

CheckRequest request_of(const std::optional<std::string>& exact, double tolerance, unsigned timeout_ms) {
  CheckRequest request;
  request.exact = exact.value_or("");
  request.tolerance = tolerance;
  request.solve.timeout_ms = timeout_ms;
  return request;
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
                    const std::optional<std::string>& exact, double tolerance, unsigned timeout_ms) {
    CheckRequest request = request_of(exact, tolerance, timeout_ms);
    const nlohmann::json document = instance_json(instance);
    const UsePolicy use(policy, request, problem);
    return to_python(state().registry.get(problem).check(document, "(python)", request).to_json());
  }, py::arg("problem"), py::arg("instance"), py::arg("policy"), py::arg("exact") = py::none(),
     py::arg("tolerance") = 0.0, py::arg("timeout_ms") = 10000,
     "Runs `policy` (a built-in name, or a callable: instance dict -> decision dict) on the instance, the exact method "
     "(`exact`, default the problem's first; 'none' for none), and every property. Returns the report "
     "(as `schedcheck check --json`: heuristic, optimum, gap, properties, exit_code).");

  m.def("solve", [](const std::string& problem, const py::object& instance, const std::optional<std::string>& exact,
                    unsigned timeout_ms) {
    const CheckRequest request = request_of(exact, 0.0, timeout_ms);
    return to_python(state().registry.get(problem).check(instance_json(instance), "(python)", request).to_json());
  }, py::arg("problem"), py::arg("instance"), py::arg("exact") = py::none(), py::arg("timeout_ms") = 10000,
     "The exact method alone (as `schedcheck solve --json`).");

  m.def("shrink", [](const std::string& problem, const py::object& instance, const py::object& policy,
                     const std::string& property, double tolerance, const std::optional<std::string>& exact,
                     unsigned timeout_ms, std::size_t max_checks) {
    CheckRequest request = request_of(exact, tolerance, timeout_ms);
    const nlohmann::json document = instance_json(instance);
    const UsePolicy use(policy, request, problem);
    const auto [smallest, report] = schedcheck::shrink(state().registry.get(problem), document, request, property, max_checks);
    return to_python(nlohmann::json{{"instance", smallest}, {"report", report.to_json()}});
  }, py::arg("problem"), py::arg("instance"), py::arg("policy"), py::arg("property"), py::arg("tolerance") = 0.0,
     py::arg("exact") = py::none(), py::arg("timeout_ms") = 10000, py::arg("max_checks") = 2000,
     "Shrinks a failing instance while `property` still fails with `policy`: the smallest found and its report.");

  m.def("search", [](const std::string& problem, const py::object& policy, std::size_t trials, std::uint64_t seed,
                     std::size_t size, double tolerance, const std::optional<std::string>& exact, unsigned timeout_ms,
                     std::size_t max_counterexamples, const std::optional<std::string>& out, bool exhaustive,
                     const std::string& scope) {
    SearchOptions options;
    options.problem = problem;
    options.trials = trials;
    options.seed = seed;
    options.size = size;
    options.check = request_of(exact, tolerance, timeout_ms);
    options.max_counterexamples = max_counterexamples;
    options.exhaustive = exhaustive;
    options.scope = scope;
    const Problem& p = state().registry.get(problem);
    const UsePolicy use(policy, options.check, problem);
    if (out) prepare_output_directory(*out, "out");
    nlohmann::json found = nlohmann::json::array();
    const FoundFn keep = [&](const Counterexample& c) {
      nlohmann::json entry = counterexample_json(c);
      entry["instance"] = c.instance;
      entry["report"] = c.report.to_json();
      entry["file"] = out ? nlohmann::json(write_counterexample(p, c, options, *out)) : nlohmann::json(nullptr);
      found.push_back(std::move(entry));
    };
    const SearchSummary summary = exhaustive ? exhaustive_search(p, options, keep) : schedcheck::search(p, options, {}, keep);
    nlohmann::json result = summary_json(summary, options);
    result["counterexamples"] = std::move(found);
    return to_python(result);
  }, py::arg("problem"), py::arg("policy"), py::arg("trials") = 1000, py::arg("seed") = 1, py::arg("size") = 10,
     py::arg("tolerance") = 0.0, py::arg("exact") = py::none(), py::arg("timeout_ms") = 10000,
     py::arg("max_counterexamples") = 5, py::arg("out") = py::none(), py::arg("exhaustive") = false,
     py::arg("scope") = "",
     "Random (or, with exhaustive=True, every) instances checked with `policy`; the first `max_counterexamples` "
     "failures are shrunk and returned (instance, report), and written as corpus files into `out` when given. "
     "Returns the summary (as `schedcheck search --json`).");
}
