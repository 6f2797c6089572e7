// Suite `gateway_choice`: the gateway's earliest-start choice (reference/gateway_policies.hpp, paper 002 sec. 4) on
// hand-computed providers (arithmetic in comments), the view a gateway rebuilds from published slots against the
// true profile, the two exact methods against each other and against the policy on fresh information, and the
// property that explains misses by stale slots, failing on a choice no staleness explains. Source: our own.
#include "counterexamples/builtin.hpp"
#include "counterexamples/gateway_choice_generator.hpp"
#include "model/gateway_choice.hpp"
#include "properties/decision_probe.hpp"
#include "reference/gateway_policies.hpp"
#include "solver/gateway_choice_exact.hpp"
#include "tests/helpers.hpp"

#include <boost/test/unit_test.hpp>

namespace test_gateway_choice {

using namespace schedcheck;
using namespace schedcheck::gateway;

namespace {

Instance read_text(const std::string& text) { return read_instance(parse_json_text(text, "g.json"), "g.json"); }
std::string dump(const Instance& i) { return write_instance(i).dump(); }

const TypedProblem<Instance, Choice>& problem() {
  static const Registry registry = make_builtin_registry();
  return dynamic_cast<const TypedProblem<Instance, Choice>&>(registry.get("gateway-choice"));
}

Report check(const Instance& i, const std::string& exact = "") {
  CheckRequest request;
  request.policy = "earliest-start";
  request.exact = exact;
  return problem().check_instance(i, request);
}

std::string status(const Report& r, const std::string& property) {
  for (const auto& p : r.properties)
    if (p.name == property) return to_string(p.status);
  return "absent";
}

// Now 100; the job: 4 processors for 50 s. p1 (4 processors): 2 busy until 150, so it starts at 150. p2 (8): all 8
// busy until 120, so at 120: the gateway picks p2 at 120.
const char* kTwo = R"({"kind": "gateway-choice", "now": 100, "job": {"procs": 4, "duration": 50},
  "providers": [{"name": "p1", "processors": 4, "holds": [{"start": 0, "end": 150, "processors": 2}]},
                {"name": "p2", "processors": 8, "holds": [{"start": 50, "end": 120, "processors": 8}]}]})";
// p2 published before its hold came: all 8 free from 100 on; the gateway picks p2 at 100, where the job cannot run.
const char* kStale = R"({"kind": "gateway-choice", "now": 100, "job": {"procs": 4, "duration": 50},
  "providers": [{"name": "p1", "processors": 4, "holds": [{"start": 0, "end": 150, "processors": 2}]},
                {"name": "p2", "processors": 8, "holds": [{"start": 50, "end": 120, "processors": 8}],
                 "published": [{"start": 100, "end": null, "processors": 8}]}]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(gateway_choice)

// kStale's choice (p2 at 100) is infeasible on the true profiles. A run's probe that judges every property counts it
// invalid and failing (a violation); one that measures choice-feasible (ProbeSettings::measured: a gateway on stale
// slots) counts it measured, since miss-explained-by-staleness holds. kTwo's choice fails nothing either way.
BOOST_AUTO_TEST_CASE(a_probe_measures_stale_misses_instead_of_reporting_them) {
  const Instance stale = read_text(kStale), fresh = read_text(kTwo);
  const Choice picked{1, 100}, right{1, 120};
  DecisionProbe<Instance, Choice> judging(problem(), ProbeSettings{});
  ProbeSettings settings;
  settings.measured = {"choice-feasible"};
  DecisionProbe<Instance, Choice> measuring(problem(), settings);
  for (auto* probe : {&judging, &measuring}) {
    BOOST_TEST(probe->sample());
    probe->check(100, "gateway", stale, picked, "earliest-start");
    BOOST_TEST(probe->sample());
    probe->check(100, "gateway", fresh, right, "earliest-start");
  }
  BOOST_TEST(judging.counts().failing == 1u);
  BOOST_TEST(judging.counts().invalid == 1u);
  BOOST_TEST(judging.counts().measured == 0u);
  BOOST_TEST(measuring.counts().failing == 0u);
  BOOST_TEST(measuring.counts().invalid == 0u);
  BOOST_TEST(measuring.counts().measured == 1u);
  BOOST_TEST(measuring.counts().failing_by_property.at("choice-feasible") == 1u);
  BOOST_TEST(measuring.to_json()["measured"] == 1u);
  BOOST_REQUIRE(measuring.worst().size() == 1u);  // the stale miss is kept among the worst (a gap of 0 is not)
  BOOST_TEST(measuring.worst().front().report.failing() == std::vector<std::string>{"choice-feasible"});
}

BOOST_AUTO_TEST_CASE(earliest_start_by_hand_and_the_first_provider_on_a_tie) {
  const Report r = check(read_text(kTwo));
  BOOST_TEST(r.heuristic.decision["provider"] == "p2");
  BOOST_TEST(r.heuristic.objective == 120.0);
  BOOST_TEST(r.optimum.objective == 120.0);
  BOOST_TEST(r.exit_code() == 0);
  // Both free at now: p1, the first.
  Instance tie = read_text(kTwo);
  tie.providers[0].holds.clear();
  tie.providers[1].holds.clear();
  const Report t = check(tie);
  BOOST_TEST(t.heuristic.decision["provider"] == "p1");
  BOOST_TEST(t.heuristic.objective == 100.0);
}

BOOST_AUTO_TEST_CASE(a_stale_report_gives_an_infeasible_choice_that_staleness_explains) {
  const Report r = check(read_text(kStale));
  BOOST_TEST(r.heuristic.decision["provider"] == "p2");
  BOOST_TEST(r.heuristic.decision["start"] == 100.0);
  BOOST_TEST(status(r, "choice-feasible") == "fails");
  BOOST_TEST(status(r, "miss-explained-by-staleness") == "holds");
  BOOST_TEST(status(r, "not-above-optimum") == "not applicable");
  BOOST_TEST(r.optimum.objective == 120.0);
}

BOOST_AUTO_TEST_CASE(a_miss_on_fresh_information_is_not_explained) {
  const Instance i = read_text(kTwo);
  const Choice wrong{0, 100};  // p1 at now: only 2 of its 4 processors are free
  const Verdict v = validate(i, wrong);
  BOOST_TEST(!v.feasible);
  BOOST_TEST(v.reason == "p1 has 2 processors free at some instant over [100, 150), the job asks 4");
  const ExactResult<Choice> optimum = solve_profiles(i, {});
  for (const auto& spec : problem().spec().properties)
    if (spec.name == "miss-explained-by-staleness") {
      const CheckContext<Instance, Choice> c{i, wrong, 0, &optimum, 0.0, Sense::kMinimise, false};
      const PropertyResult result = spec.check(c);
      BOOST_TEST(to_string(result.status) == "fails");
      BOOST_TEST(result.detail.find("every provider's published slots are its slots now") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(bad_instances_name_the_field) {
  BOOST_CHECK_THROW(read_text(R"({"kind": "gateway-choice", "now": 0, "job": {"procs": 9, "duration": 5},
    "providers": [{"name": "a", "processors": 8}]})"), InputError);
  BOOST_CHECK_THROW(read_text(R"({"kind": "gateway-choice", "now": 0, "job": {"procs": 1, "duration": 0},
    "providers": [{"name": "a", "processors": 8}]})"), InputError);
  BOOST_CHECK_THROW(read_text(R"({"kind": "gateway-choice", "now": 0, "job": {"procs": 1, "duration": 5},
    "providers": [{"name": "a", "processors": 8}, {"name": "a", "processors": 4}]})"), InputError);
  try {  // two published slots over the same processor-seconds
    read_text(R"({"kind": "gateway-choice", "now": 0, "job": {"procs": 1, "duration": 5},
      "providers": [{"name": "a", "processors": 2, "published": [{"start": 0, "end": 10, "processors": 2},
                                                                {"start": 5, "end": null, "processors": 1}]}]})");
    BOOST_FAIL("overlapping slots read");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("providers[0].published") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_CASE(the_view_of_fresh_slots_is_the_true_profile_and_both_exact_methods_agree) {
  std::size_t stale = 0, missed = 0;
  for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
    Instance i = generate_instance(seed, seed % 12);
    const ExactResult<Choice> a = solve_profiles(i, {}), b = solve_scan(i, {});
    BOOST_TEST_REQUIRE(a.status == ExactStatus::kOptimal);
    BOOST_TEST_REQUIRE(b.status == ExactStatus::kOptimal);
    BOOST_TEST(a.objective == b.objective, "profiles against scan on " << dump(i));
    BOOST_TEST(a.decision->provider == b.decision->provider, "profiles against scan on " << dump(i));
    const Report with_stale = check(i);
    BOOST_TEST(status(with_stale, "miss-explained-by-staleness") == "holds", dump(i));
    stale += std::any_of(i.providers.begin(), i.providers.end(), [](const Provider& p) { return p.published.has_value(); });
    missed += with_stale.exit_code() != 0;
    for (auto& p : i.providers) p.published.reset();  // fresh: the policy is exact
    const Report fresh = check(i, "scan");
    BOOST_TEST(fresh.exit_code() == 0, dump(i));
    BOOST_TEST(fresh.heuristic.objective == b.objective, "earliest-start against scan on " << dump(i));
  }
  BOOST_TEST(stale > 500u);  // the generator makes stale reports ...
  BOOST_TEST(missed > 100u); // ... and some of them mislead the gateway
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_gateway_choice
