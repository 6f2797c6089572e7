// Tests of provider offer generation (paper 000 section III) and deadline feasibility: the two hand-computed
// examples, Delta rounding and step-4 merging, every reader rule, differential tests (z3 vs sequences, EDF vs
// exact) with stated size limits, and rapidcheck properties over the seeded generator. Runtime ~ tens of seconds.
#include "counterexamples/builtin.hpp"
#include "counterexamples/offers_generator.hpp"
#include "model/offers.hpp"
#include "reference/offers_policies.hpp"
#include "solver/offers_bnb.hpp"
#include "solver/offers_exact.hpp"
#include "solver/offers_z3.hpp"
#include "tests/offers_support.hpp"

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <cmath>
#include <string>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_offers {

using namespace schedcheck;
using namespace schedcheck::offers;
using namespace schedcheck::offers::test;

namespace {

const std::string kSource = SCHEDCHECK_SOURCE_DIR;

Instance example(const std::string& name) {
  const std::string file = kSource + "/examples/" + name;
  return read_instance(read_json_file(file), file, true);
}

std::vector<double> exact_quotes(const Instance& instance, bool z3) {
  SolveOptions options;
  options.timeout_ms = 20'000;
  const auto result = z3 ? exact_offers(instance, [&](const Instance& i, long long k, double lb) {
    return earliest_completion_z3(i, k, lb, options);
  })
                         : exact_offers(instance, [&](const Instance& i, long long k, double lb) {
                             return earliest_completion_sequences(i, k, lb, options);
                           });
  BOOST_REQUIRE(result.decision);
  BOOST_CHECK_EQUAL(to_string(result.status), "optimal");
  BOOST_CHECK_EQUAL(validate_offers(instance, *result.decision).reason, "");
  return quotes(*result.decision);
}

// A valid base document; each bad-input case changes one field.
nlohmann::json base_document() {
  return nlohmann::json::parse(R"({
    "kind": "provider-offers",
    "provider": {"processors": 4, "now": 10},
    "running": [{"id": "r1", "procs": 2, "remaining": 5}],
    "waiting": [{"id": "L", "type": "local", "procs": 2, "runtime": 10, "deadline": 40},
                {"id": "B", "type": "bot", "tasks": 2, "task_runtime": 5, "deadline": 30}],
    "bot": {"id": "new", "tasks": 4, "task_runtime": 5, "deadline": 50}
  })");
}

std::string read_error(const nlohmann::json& document, bool require_bot = true) {
  try {
    read_instance(document, "case.json", require_bot);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(offers)

BOOST_AUTO_TEST_CASE(delta_counts_round_half_away_and_at_least_one) {
  // 512: 51.2 -> 51, 128, 256, 384, 512. 6: 0.6 -> 1, 1.5 -> 2, 3, 4.5 -> 5, 6. 1: every share -> 1.
  BOOST_CHECK((delta_counts(512) == std::vector<long long>{51, 128, 256, 384, 512}));
  BOOST_CHECK((delta_counts(6) == std::vector<long long>{1, 2, 3, 5, 6}));
  BOOST_CHECK((delta_counts(4) == std::vector<long long>{1, 2, 3, 4}));
  BOOST_CHECK((delta_counts(1) == std::vector<long long>{1}));
}

// The truncation reading (edf-delta-trunc). 6: 6, 4.5 -> 4, 3, 1.5 -> 1, 0.6 -> 0 raised to 1: {1, 3, 4, 6}
// (rounded: {1, 2, 3, 5, 6}). 30: 30, 22.5 -> 22, 15, 7.5 -> 7, 0.1 x 30 = 3 (3.0000000000000004 as a double) -> 3.
// 512: 51.2 -> 51, the rest whole: the same as rounded.
BOOST_AUTO_TEST_CASE(delta_counts_truncated) {
  const auto trunc = DeltaRounding::kTruncate;
  BOOST_CHECK((delta_counts(6, trunc) == std::vector<long long>{1, 3, 4, 6}));
  BOOST_CHECK((delta_counts(30, trunc) == std::vector<long long>{3, 7, 15, 22, 30}));
  BOOST_CHECK((delta_counts(30) == std::vector<long long>{3, 8, 15, 23, 30}));
  BOOST_CHECK((delta_counts(512, trunc) == delta_counts(512)));
}

// The three genOffer readings, each on its hand-computed example (arithmetic in the files' comments), the default
// policy beside the alternative; every list is valid under its own reading and the exact quotes are the default's.
BOOST_AUTO_TEST_CASE(genoffer_readings_decide_differently) {
  GenOfferReading truncated, rigid, strict;
  truncated.delta = DeltaRounding::kTruncate;
  rigid.rigid_bot = true;
  strict.strict_order = true;
  const auto counts = [](const OfferList& list) {
    std::vector<long long> out;
    for (const auto& o : list.per_count) out.push_back(o.tasks);
    return out;
  };
  {  // Delta, n = 6, P = 4, D = 10: rounded 1@10 2@10 3@10 5@20 6@20 -> (3, 10) (6, 20); truncated 1 3 4 @10, 6@20.
    const Instance instance = example("offers-reading-delta.json");
    const OfferList dflt = edf_offers(instance), alt = edf_offers(instance, truncated);
    BOOST_CHECK((counts(dflt) == std::vector<long long>{1, 2, 3, 5, 6}));
    BOOST_CHECK((quotes(dflt) == std::vector<double>{10, 10, 10, 20, 20}));
    BOOST_CHECK((counts(alt) == std::vector<long long>{1, 3, 4, 6}));
    BOOST_CHECK((quotes(alt) == std::vector<double>{10, 10, 10, 20}));
    BOOST_CHECK_EQUAL(dflt.staircase.front().tasks, 3);
    BOOST_CHECK_EQUAL(alt.staircase.front().tasks, 4);
    BOOST_CHECK_EQUAL(validate_offers(instance, alt).reason, "");
    OfferList mislabelled = alt;  // the truncated counts under the default reading's label do not validate
    mislabelled.reading = {};
    BOOST_CHECK(!validate_offers(instance, mislabelled).feasible);
  }
  {  // Rigid: P = 2, R on 1 processor until 10, 2 tasks of 5, D = 10: tasks 10, 10; rigid job [10,15): 10, 15.
    const Instance instance = example("offers-reading-rigid.json");
    BOOST_CHECK((quotes(edf_offers(instance)) == std::vector<double>{10, 10}));
    const OfferList alt = edf_offers(instance, rigid);
    BOOST_CHECK((quotes(alt) == std::vector<double>{10, 15}));
    BOOST_CHECK((alt.per_count[1].schedule.new_tasks == std::vector<double>{10, 10}));
    BOOST_CHECK(alt.per_count[1].feedback);
    BOOST_CHECK_EQUAL(validate_offers(instance, alt).reason, "");
    BOOST_CHECK((exact_quotes(instance, false) == std::vector<double>{10, 10}));
  }
  {  // Strict order: A (2 processors, [10,15)) before the new task in EDF order; backfilled [0,5): 16; strict
     // [15,20): 20.
    const Instance instance = example("offers-reading-strict-order.json");
    BOOST_CHECK((quotes(edf_offers(instance)) == std::vector<double>{16}));
    const OfferList alt = edf_offers(instance, strict);
    BOOST_CHECK((quotes(alt) == std::vector<double>{20}));
    BOOST_CHECK((alt.per_count[0].schedule.new_tasks == std::vector<double>{15}));
    BOOST_CHECK_EQUAL(validate_offers(instance, alt).reason, "");
    BOOST_CHECK((exact_quotes(instance, false) == std::vector<double>{16}));
  }
}

// A rigid BoT wider than the provider: P = 2, nothing else, 3 tasks of 5, D = 5; Delta for 3: 3, 2.25 -> 2,
// 1.5 -> 2, 0.75 -> 1, 0.3 -> 1: {1, 2, 3}. k = 3 > P: a wave of 2 [0,5), then 1 [5,10): quote 10; k = 1, 2: 5.
BOOST_AUTO_TEST_CASE(rigid_bot_wider_than_the_provider_runs_in_waves) {
  Instance instance;
  instance.processors = 2;
  instance.bot = NewBot{"new", 3, 5, 5};
  GenOfferReading rigid;
  rigid.rigid_bot = true;
  const OfferList list = edf_offers(instance, rigid);
  BOOST_CHECK((quotes(list) == std::vector<double>{5, 5, 10}));
  BOOST_CHECK((list.per_count[2].schedule.new_tasks == std::vector<double>{0, 0, 5}));
  BOOST_CHECK_EQUAL(validate_offers(instance, list).reason, "");
}

BOOST_AUTO_TEST_CASE(merge_raises_equal_completions_and_appends_later_ones) {
  // Step 4: (64,40) then (128,40): the same completion raises the count; (512,100) is appended.
  std::vector<CountOffer> per_count(3);
  per_count[0].tasks = 64, per_count[0].completion = 40;
  per_count[1].tasks = 128, per_count[1].completion = 40;
  per_count[2].tasks = 512, per_count[2].completion = 100;
  const auto merged = merge_offers(per_count);
  BOOST_REQUIRE_EQUAL(merged.size(), 2U);
  BOOST_CHECK_EQUAL(merged[0].tasks, 128);
  BOOST_CHECK_EQUAL(merged[1].tasks, 512);
  BOOST_CHECK_EQUAL(merged[1].completion, 100);
  BOOST_CHECK_EQUAL(staircase_violation(merged), "");
}

BOOST_AUTO_TEST_CASE(hand_computed_feedback_example) {
  // examples/offers-feedback.json (arithmetic in its comment): EDF 1@20 2@20 3@30 4@30, FEEDBACK for 3 and 4.
  const Instance instance = example("offers-feedback.json");
  const OfferList edf = edf_offers(instance);
  BOOST_CHECK((quotes(edf) == std::vector<double>{20, 20, 30, 30}));
  BOOST_CHECK(!edf.per_count[1].feedback);
  BOOST_CHECK(edf.per_count[2].feedback);
  BOOST_CHECK_EQUAL(edf.per_count[2].position, 1);  // after L
  BOOST_REQUIRE_EQUAL(edf.staircase.size(), 2U);
  BOOST_CHECK_EQUAL(edf.staircase[0].tasks, 2);
  BOOST_CHECK_EQUAL(edf.staircase[1].tasks, 4);
  BOOST_CHECK_EQUAL(validate_offers(instance, edf).reason, "");
  // Exact: c* = 10, 10, 30, 30 -> quotes 20, 20, 30, 30 by both exact methods.
  BOOST_CHECK((exact_quotes(instance, false) == std::vector<double>{20, 20, 30, 30}));
  BOOST_CHECK((exact_quotes(instance, true) == std::vector<double>{20, 20, 30, 30}));
  // free-time-slots: 2 processors on [0,10) and 4 from 20 on.
  const OfferList slots = free_time_slot_offers(instance);
  BOOST_REQUIRE_EQUAL(slots.published.size(), 2U);
  BOOST_CHECK_EQUAL(slots.published[0].processors, 2);
  BOOST_CHECK_EQUAL(slots.published[0].end, 10);
  BOOST_CHECK_EQUAL(slots.published[1].start, 20);
  BOOST_CHECK(std::isinf(slots.published[1].end));
  BOOST_CHECK((quotes(slots) == std::vector<double>{20, 20, 30, 30}));
}

BOOST_AUTO_TEST_CASE(hand_computed_position_quote_example) {
  // examples/offers-position-quote.json: EDF must quote 60 for 6 tasks (the deadline that keeps the new job behind
  // b4), though it then finishes them at 54 and a schedule meets D = 57.
  const Instance instance = example("offers-position-quote.json");
  const OfferList edf = edf_offers(instance);
  BOOST_CHECK((quotes(edf) == std::vector<double>{57, 57, 57, 57, 60}));
  BOOST_CHECK_EQUAL(new_tasks_finish(instance, edf.per_count[4].schedule), 54);
  BOOST_CHECK((exact_quotes(instance, false) == std::vector<double>{57, 57, 57, 57, 57}));
  BOOST_CHECK((exact_quotes(instance, true) == std::vector<double>{57, 57, 57, 57, 57}));
  // Through the registry: the failure is reported by the named properties.
  const Registry registry = make_builtin_registry();
  CheckRequest request;
  request.policy = "edf";
  request.exact = "sequences";
  const std::string file = kSource + "/examples/offers-position-quote.json";
  const Report report = registry.get("offers").check(read_json_file(file), file, request);
  const auto failing = report.failing();
  BOOST_CHECK((failing == std::vector<std::string>{"edf-admits-when-feasible", "offer-optimal-within"}));
}

BOOST_AUTO_TEST_CASE(every_reader_rule_names_its_field) {
  BOOST_CHECK_EQUAL(read_error(base_document()), "");
  struct Case {
    const char* what;
    std::function<void(nlohmann::json&)> change;
    const char* expected;  // a substring of the one-line error
  };
  const std::vector<Case> cases = {
      {"unknown top-level field", [](auto& d) { d["bots"] = 1; }, "case.json: bots: unknown field"},
      {"wrong kind", [](auto& d) { d["kind"] = "sla-site"; }, "kind: expected \"provider-offers\""},
      {"processors 0", [](auto& d) { d["provider"]["processors"] = 0; }, "provider.processors: expected an integer in [1, 1000000]"},
      {"now negative", [](auto& d) { d["provider"]["now"] = -1; }, "provider.now: expected a finite number >= 0"},
      {"running over P", [](auto& d) { d["running"][0]["procs"] = 5; }, "running[0].procs: expected an integer in [1, 4]"},
      {"running total over P",
       [](auto& d) { d["running"].push_back({{"id", "r2"}, {"procs", 3}, {"remaining", 1}}); },
       "running[1].procs: expected running jobs to use at most provider.processors = 4 in total"},
      {"local processors above P", [](auto& d) { d["waiting"][0]["procs"] = 8; }, "waiting[0].procs: expected an integer in [1, 4]"},
      {"deadline before now", [](auto& d) { d["waiting"][0]["deadline"] = 5; }, "waiting[0].deadline: expected a deadline >= provider.now = 10"},
      {"local runtime longer than the window", [](auto& d) { d["waiting"][0]["runtime"] = 31; },
       "waiting[0].runtime: expected a runtime <= deadline - now = 30"},
      {"task longer than the window", [](auto& d) { d["waiting"][1]["task_runtime"] = 21; },
       "waiting[1].task_runtime: expected a runtime <= deadline - now = 20"},
      {"unknown job type", [](auto& d) { d["waiting"][0]["type"] = "rigid"; }, "waiting[0].type: expected \"local\""},
      {"bot field on a local job", [](auto& d) { d["waiting"][0]["tasks"] = 2; }, "waiting[0].tasks: unknown field"},
      {"zero tasks", [](auto& d) { d["waiting"][1]["tasks"] = 0; }, "waiting[1].tasks: expected an integer in [1, 1000000]"},
      {"duplicate id", [](auto& d) { d["waiting"][1]["id"] = "L"; }, "waiting[1].id: expected an id not used by another job"},
      {"new BoT deadline before now", [](auto& d) { d["bot"]["deadline"] = 9; }, "bot.deadline: expected a deadline >= provider.now = 10"},
      {"new BoT task longer than the window", [](auto& d) { d["bot"]["task_runtime"] = 41; },
       "bot.task_runtime: expected a runtime <= deadline - now = 40"},
      {"new BoT missing", [](auto& d) { d.erase("bot"); }, "case.json: bot: missing required field"},
      {"runtime not a number", [](auto& d) { d["waiting"][0]["runtime"] = "10"; }, "waiting[0].runtime: expected a positive number"},
      {"huge deadline", [](auto& d) { d["waiting"][0]["deadline"] = 1e13; }, "waiting[0].deadline: expected a number <= 1e+12"},
  };
  for (const auto& c : cases) {
    nlohmann::json document = base_document();
    c.change(document);
    const std::string error = read_error(document);
    BOOST_TEST_CONTEXT(c.what) {
      BOOST_CHECK_MESSAGE(error.find(c.expected) != std::string::npos, "got: " + error);
      BOOST_CHECK(error.find('\n') == std::string::npos);
    }
  }
  // deadline-feasibility reads the same files without a new BoT.
  nlohmann::json without_bot = base_document();
  without_bot.erase("bot");
  BOOST_CHECK_EQUAL(read_error(without_bot, false), "");
}

BOOST_AUTO_TEST_CASE(offers_reader_refuses_work_edf_cannot_keep) {
  nlohmann::json document = base_document();
  document["waiting"][0]["deadline"] = 20;  // L (2 procs, 10 s) and B both due early; EDF places B first
  document["waiting"][0]["runtime"] = 10;
  document["waiting"][1]["deadline"] = 15;
  document["running"][0]["procs"] = 4;  // nothing free until 15
  const Registry registry = make_builtin_registry();
  CheckRequest request;
  request.policy = "edf";
  BOOST_CHECK_EXCEPTION(registry.get("offers").check(document, "case.json", request), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("waiting: EDF cannot keep") != std::string::npos; });
}

BOOST_AUTO_TEST_CASE(infeasible_work_gets_a_core_both_methods_agree) {
  // P = 2, now 0: A (2 procs, 10 s, due 10) and B (2 procs, 10 s, due 15) cannot both meet their deadlines;
  // C (1 proc, 1 s, due 100) is not in any core.
  const nlohmann::json document = nlohmann::json::parse(R"({
    "provider": {"processors": 2},
    "waiting": [{"id": "A", "type": "local", "procs": 2, "runtime": 10, "deadline": 10},
                {"id": "C", "type": "local", "procs": 1, "runtime": 1, "deadline": 100},
                {"id": "B", "type": "local", "procs": 2, "runtime": 10, "deadline": 15}]})");
  const Instance instance = read_instance(document, "core.json", false);
  SolveOptions options;
  const auto z3 = feasibility_z3(instance, options);
  const auto sequences = feasibility_sequences(instance);
  const auto bnb = feasibility_bnb(instance, options);
  for (const auto* result : {&z3, &sequences, &bnb}) {
    BOOST_CHECK(!result->decision);
    BOOST_CHECK_EQUAL(to_string(result->status), "infeasible");
    BOOST_CHECK((result->core == std::vector<std::string>{"A", "B"}));
    BOOST_CHECK(result->core_minimal);
    BOOST_CHECK_EQUAL(core_shape_violation(instance, result->core), "");
    BOOST_CHECK(core_refutation(instance, result->core) == std::optional<std::string>(""));
  }
  // A core that can be met is refuted.
  BOOST_CHECK(!core_refutation(instance, {"A", "C"})->empty());
  const FeasibilityAnswer edf = edf_feasibility(instance);
  BOOST_CHECK(edf.answer == Feasibility::kNotFound);
  BOOST_CHECK_EQUAL(edf.missed, "B");
}

// Differential, z3 vs sequences: earliest completion for every Delta count on seeded instances with 3 waiting
// jobs (parts of <= 3 tasks, new BoT <= 4 tasks: within the sequence search's node budget).
BOOST_AUTO_TEST_CASE(differential_z3_vs_sequences) {
  GeneratorSettings settings;
  settings.max_part_tasks = 3;
  settings.max_bot_tasks = 4;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Instance instance = generate_instance(seed, 3, settings);
    const auto sequences = exact_quotes(instance, false);
    const auto z3 = exact_quotes(instance, true);
    BOOST_CHECK_MESSAGE(sequences == z3, "z3 and sequences disagree on " + write_instance(instance).dump());
  }
}

// Differential, z3 vs sequences on deadline feasibility of unrepaired instances (n = 4, may be infeasible).
BOOST_AUTO_TEST_CASE(differential_feasibility_z3_vs_sequences) {
  GeneratorSettings settings;
  settings.repair = false;
  settings.with_bot = false;
  settings.max_part_tasks = 3;
  int infeasible = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Instance instance = generate_instance(seed, 4, settings);
    const auto z3 = feasibility_z3(instance, SolveOptions{});
    const auto sequences = feasibility_sequences(instance);
    BOOST_REQUIRE(z3.status != ExactStatus::kUnknown && sequences.status != ExactStatus::kUnknown);
    BOOST_CHECK_MESSAGE(z3.status == sequences.status, "z3 and sequences disagree on " + write_instance(instance).dump());
    if (z3.decision) BOOST_CHECK_EQUAL(validate_feasibility(instance, *z3.decision).reason, "");
    if (z3.status == ExactStatus::kInfeasible) {
      ++infeasible;
      BOOST_CHECK(core_refutation(instance, z3.core) == std::optional<std::string>(""));
    }
  }
  BOOST_CHECK_GT(infeasible, 0);  // the unrepaired generator does produce infeasible work
}

// EDF vs exact (sequences): EDF's quotes are never below the exact ones; its decisions always validate.
// Size limit: 3 waiting jobs, new BoT <= 4 tasks.
RC_BOOST_PROP(edf_never_beats_exact_and_always_validates, (std::uint32_t seed)) {
  GeneratorSettings settings;
  settings.max_part_tasks = 3;
  settings.max_bot_tasks = 4;
  const Instance instance = generate_instance(seed, 3, settings);
  const OfferList edf = edf_offers(instance);
  RC_ASSERT(validate_offers(instance, edf).reason == "");
  RC_ASSERT(validate_offers(instance, free_time_slot_offers(instance)).reason == "");
  // The readings that keep the backfilling EDF's accepted work: rigid BoT, truncated Delta (edf-rigid,
  // edf-delta-trunc) always validate too; a rigid schedule is one of the exact side's schedules, never earlier.
  GenOfferReading rigid, truncated;
  rigid.rigid_bot = true;
  truncated.delta = DeltaRounding::kTruncate;
  const OfferList rigid_list = edf_offers(instance, rigid);
  RC_ASSERT(validate_offers(instance, rigid_list).reason == "");
  RC_ASSERT(validate_offers(instance, edf_offers(instance, truncated)).reason == "");
  const auto exact = exact_offers(instance, [](const Instance& i, long long k, double lb) {
    return earliest_completion_sequences(i, k, lb, SolveOptions{});
  });
  RC_ASSERT(exact.decision.has_value());
  for (std::size_t i = 0; i < edf.per_count.size(); ++i) {
    RC_LOG() << write_instance(instance).dump() << "\n";
    RC_ASSERT(edf.per_count[i].completion >= exact.decision->per_count[i].completion - kTimeTolerance);
    RC_ASSERT(rigid_list.per_count[i].completion >= exact.decision->per_count[i].completion - kTimeTolerance);
  }
}

// The generator's incremental admission (heuristic side: kept schedule, checks from the entry position on) against
// its definition (exact side: EDF over the whole accepted work for every job, edf_feasibility): the same jobs kept
// with the same deadlines. The job stream is the unrepaired instance of the same seed (the draws do not depend on
// admission). Sizes up to 300 jobs, machines of 4 to 64 processors.
BOOST_AUTO_TEST_CASE(generator_admission_matches_full_edf_runs) {
  int compared = 0, refused = 0, raised = 0;
  for (std::uint64_t seed = 1; seed <= 36; ++seed) {
    GeneratorSettings settings;
    settings.max_processors = seed % 3 == 0 ? 64 : 16;
    const std::size_t size = std::size_t{1} + (seed * 37) % 300;
    GeneratorSettings raw_settings = settings;
    raw_settings.repair = false;
    const Instance raw = generate_instance(seed, size, raw_settings);
    Instance expected = raw;
    expected.waiting.clear();
    for (const WaitingJob& job : raw.waiting) {
      expected.waiting.push_back(job);
      if (edf_accepted_work_violation(expected).empty()) continue;
      expected.waiting.back().deadline = kForever;
      const FeasibilityAnswer last = edf_feasibility(expected);
      double finish = 0;
      for (double start : last.schedule.starts.back()) finish = std::max(finish, start + job.runtime);
      expected.waiting.back().deadline = std::ceil(finish);
      ++raised;
      if (!edf_accepted_work_violation(expected).empty()) {
        expected.waiting.pop_back();
        ++refused;
      }
    }
    const Instance generated = generate_instance(seed, size, settings);
    BOOST_TEST_CONTEXT("seed " << seed << ", " << size << " jobs; the full-run admission gives "
                               << write_instance(expected).dump()) {
      BOOST_TEST_REQUIRE(generated.waiting.size() == expected.waiting.size());
      for (std::size_t i = 0; i < expected.waiting.size(); ++i) {
        BOOST_TEST(generated.waiting[i].id == expected.waiting[i].id);
        BOOST_TEST(generated.waiting[i].deadline == expected.waiting[i].deadline);
      }
    }
    ++compared;
  }
  // Both branches of the admission were taken: raised deadlines kept and jobs refused.
  BOOST_TEST(compared == 36);
  BOOST_TEST(refused > 100);
  BOOST_TEST(raised - refused > 100);
}

// FEEDBACK's quote keeps every deadline when EDF is rerun with it (n <= 8, larger BoTs).
RC_BOOST_PROP(feedback_quotes_are_kept_by_edf, (std::uint32_t seed)) {
  const Instance instance = generate_instance(seed, 8);
  for (const auto& offer : edf_offers(instance).per_count) {
    EdfScheduler edf(instance);
    const EdfRun run = edf.run(edf.position_of(offer.completion), offer.tasks, instance.bot->task_runtime);
    RC_ASSERT(run.first_late.empty());
    RC_ASSERT(run.new_finish <= offer.completion + kTimeTolerance);
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_offers
