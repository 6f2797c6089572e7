// Suite `registry`: the check flow's own guarantees on a toy problem (pick the largest value of a list), with exact
// methods that give up, answer worse than the policy, or start from the policy's decision: an unproven answer is
// never worse than the validated policy decision, a proven one is kept as it is, solve_from receives the incumbent
// only when it is valid and comparable, and chain / phases / core reach the report's JSON. Our own.
#include "properties/registry.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_registry {

using namespace schedcheck;

namespace {

struct Toy {
  std::vector<int> values;
};
struct Pick {
  int index = 0;
};

ProblemSpec<Toy, Pick> toy_spec() {
  ProblemSpec<Toy, Pick> spec;
  spec.name = "toy";
  spec.sense = Sense::kMaximise;
  spec.objective_name = "value picked";
  spec.read = [](const nlohmann::json& d, const std::string&) { return Toy{d.at("values").get<std::vector<int>>()}; };
  spec.write = [](const Toy& t) { return nlohmann::json{{"values", t.values}}; };
  spec.validate = [](const Toy& t, const Pick& p) {
    Verdict v;
    v.feasible = p.index >= 0 && p.index < static_cast<int>(t.values.size()) && t.values[p.index] >= 0;
    v.objective = v.feasible ? t.values[p.index] : 0;
    if (!v.feasible) v.reason = "index out of range or a negative value";
    return v;
  };
  spec.describe = [](const Toy&, const Pick& p) { return nlohmann::json{{"index", p.index}}; };
  spec.size = [](const Toy& t) { return t.values.size(); };
  spec.instance_name = [](const Toy&) { return std::string("toy"); };
  spec.policies = {{{"first", "our own", "index 0"}, [](const Toy&) { return Pick{0}; }},
                   {{"invalid", "our own", "index -1"}, [](const Toy&) { return Pick{-1}; }}};
  auto result = [](ExactStatus status, std::optional<Pick> pick, double objective) {
    ExactResult<Pick> r;
    r.status = status;
    r.decision = pick;
    r.objective = objective;
    return r;
  };
  spec.exact = {
      {{"gives-up", "our own", "unknown, no decision"},
       [=](const Toy&, const SolveOptions&) { return result(ExactStatus::kUnknown, std::nullopt, 0); }},
      {{"worse", "our own", "feasible, index 2"},
       [=](const Toy& t, const SolveOptions&) { return result(ExactStatus::kFeasible, Pick{2}, t.values[2]); }},
      {{"proves", "our own", "optimal, the true maximum, with a chain, phases"},
       [=](const Toy& t, const SolveOptions&) {
         int best = 0;
         for (int i = 0; i < static_cast<int>(t.values.size()); ++i)
           if (t.values[i] > t.values[best]) best = i;
         ExactResult<Pick> r = result(ExactStatus::kOptimal, Pick{best}, t.values[best]);
         r.chain = {{"scan", "every value is an integer", "optimal", 0.001}};
         r.phase_seconds = {{"scan", 0.001}, {"proof", 0.0}};
         return r;
       }},
      {{"refuses", "our own", "infeasible with a core"},
       [=](const Toy&, const SolveOptions&) {
         ExactResult<Pick> r = result(ExactStatus::kInfeasible, std::nullopt, 0);
         r.core = {"value 0", "value 1"};
         r.core_minimal = true;
         return r;
       }},
  };
  ExactSpec<Toy, Pick> counting{{"from", "our own", "records the incumbents it is given"}, {}, {}};
  counting.solve_from = [=](const Toy&, const SolveOptions&, const std::vector<Pick>& incumbents) {
    ExactResult<Pick> r = result(ExactStatus::kUnknown, std::nullopt, 0);
    r.detail = "given " + std::to_string(incumbents.size());
    return r;
  };
  spec.exact.push_back(counting);
  return spec;
}

Report run(const std::string& policy, const std::string& exact) {
  const TypedProblem<Toy, Pick> problem(toy_spec());
  CheckRequest request;
  request.policy = policy;
  request.exact = exact;
  return problem.check(nlohmann::json{{"values", {5, 9, 1, 7}}}, "toy.json", request);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(unproven_answer_never_worse_than_the_policy) {
  const Report none = run("first", "gives-up");
  BOOST_TEST(none.optimum.status == "feasible");
  BOOST_TEST(none.optimum.objective == 5);
  BOOST_TEST(none.optimum.detail.find("best known: the policy's decision") != std::string::npos, none.optimum.detail);
  BOOST_TEST(!none.gap.has_value());  // no gap against an unproven answer
  BOOST_TEST(none.exit_code() == 3);  // still undecided
  BOOST_TEST(none.exact_unproven());

  const Report worse = run("first", "worse");
  BOOST_TEST(worse.optimum.status == "feasible");
  BOOST_TEST(worse.optimum.objective == 5);  // 1 (index 2) replaced by the policy's 5
  BOOST_TEST(worse.optimum.decision["index"] == 0);

  const Report invalid = run("invalid", "gives-up");  // an invalid decision is no incumbent
  BOOST_TEST(invalid.optimum.status == "unknown");
  BOOST_TEST(invalid.optimum.decision.is_null());
  BOOST_TEST(invalid.exact_unproven());
}

BOOST_AUTO_TEST_CASE(proven_answers_stay_and_carry_their_explanations) {
  const Report proven = run("first", "proves");
  BOOST_TEST(proven.optimum.status == "optimal");
  BOOST_TEST(!proven.exact_unproven());
  BOOST_TEST(proven.optimum.objective == 9);
  BOOST_TEST_REQUIRE(proven.gap.has_value());
  BOOST_TEST(*proven.gap == (9.0 - 5.0) / 9.0, boost::test_tools::tolerance(1e-12));
  const nlohmann::json json = proven.to_json();
  BOOST_TEST(json["optimum"]["chain"][0]["method"] == "scan");
  BOOST_TEST(json["optimum"]["phases"]["scan"] == 0.001);
  BOOST_TEST(!json["optimum"].contains("core"));

  const Report refused = run("first", "refuses");
  BOOST_TEST(refused.optimum.status == "infeasible");  // a proof: the policy's decision does not replace it
  BOOST_TEST(!refused.exact_unproven());
  BOOST_TEST(refused.optimum.decision.is_null());
  const nlohmann::json core = refused.to_json()["optimum"]["core"];
  BOOST_TEST(core["ids"].size() == 2u);
  BOOST_TEST(core["minimal"] == true);
}

// refute_core (optional): an `infeasible` answer is re-checked by its core like a decision is re-validated; a core
// the check refutes is a schedcheck bug (InternalError), a confirmed one passes unchanged.
BOOST_AUTO_TEST_CASE(infeasible_answers_are_rechecked_by_their_core) {
  ProblemSpec<Toy, Pick> spec = toy_spec();
  spec.refute_core = [](const Toy& t, const std::vector<std::string>& core) -> std::string {
    return t.values.size() == 4 && core.size() == 2 ? "" : "the core does not explain it";
  };
  const TypedProblem<Toy, Pick> confirms(spec);
  CheckRequest request;
  request.exact = "refuses";
  BOOST_TEST(confirms.check(nlohmann::json{{"values", {5, 9, 1, 7}}}, "toy.json", request).optimum.status == "infeasible");
  BOOST_CHECK_THROW(confirms.check(nlohmann::json{{"values", {5, 9}}}, "toy.json", request), InternalError);
}

BOOST_AUTO_TEST_CASE(solve_from_receives_valid_incumbents_only) {
  BOOST_TEST(run("first", "from").optimum.detail.find("given 1") == 0u);
  BOOST_TEST(run("invalid", "from").optimum.detail == "given 0");
  BOOST_TEST(run("", "from").optimum.detail == "given 0");  // solve: no policy
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_registry
