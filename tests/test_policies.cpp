// Suite `policies`: the admission policies on hand-computed instances: greedy-backfilling (STRICTGREEDY), FCFS
// decided on arrival and fcfs-blocking (ours), instant and timed, with and without the budget test, including the
// worked example examples/sla-greedy-vs-optimum.json. Source: paper 004 sec. 3.2 and Algorithm 2 (lines
// 1.36-1.48); FCFS baseline sec. 4.2; fcfs-blocking, the budget test and timed placement our own.
#include "counterexamples/builtin.hpp"
#include "model/input.hpp"
#include "model/sla.hpp"
#include "reference/sla_policies.hpp"
#include "solver/sla_bnb.hpp"
#include "solver/sla_exact.hpp"
#include "solver/sla_z3.hpp"
#include "helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_policies {

using namespace schedcheck;
using namespace schedcheck::sla;
using schedcheck::test::make_bid;
using schedcheck::test::make_site;

namespace {

const std::string kExample = std::string(SCHEDCHECK_SOURCE_DIR) + "/examples/sla-greedy-vs-optimum.json";

const std::string kBudgetExample = std::string(SCHEDCHECK_SOURCE_DIR) + "/examples/sla-budget-test.json";

Instance example() { return read_instance(read_json_file(kExample), kExample); }
Instance example_with_budget_test() { return read_instance(read_json_file(kBudgetExample), kBudgetExample); }

std::vector<std::string> ids(const Instance& s, const Admission& a) { return accepted_ids(s, a); }
using Ids = std::vector<std::string>;

double start_of(const Instance& s, const Admission& a, const std::string& id) {
  for (std::size_t i = 0; i < s.bids.size(); ++i)
    if (s.bids[i].id == id) return a.start[i];
  throw std::logic_error("no bid " + id);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(policies)

// ------------------------------------------------------------------ the worked example
// Numbers from the example's comment: p_m = r = 10, mu = 100, c = 2 per processor-second, alpha = 0.
//   exec: A 60000/(100*6) = 100, B 45000/(100*5) = 90, C 40000/(100*5) = 80, D 5000/(100*1) = 50
//   B(J,R) = 2 * l / mu: A 1200, B 900, C 800, D 100; D has budget 50 < 100, which matters only under the budget
//   test (examples/sla-budget-test.json is the same instance with site.budget_test = true).

BOOST_AUTO_TEST_CASE(example_incentives_match_comment) {
  const Instance s = example();
  BOOST_TEST_REQUIRE(s.bids.size() == 4u);
  BOOST_TEST(incentive(s.site, s.bids[0]) == 1200.0);
  BOOST_TEST(incentive(s.site, s.bids[1]) == 900.0);
  BOOST_TEST(incentive(s.site, s.bids[2]) == 800.0);
  BOOST_TEST(incentive(s.site, s.bids[3]) == 100.0);
  BOOST_TEST((s.site.pricing == Pricing::kProcessorTime));  // the default: the file does not say
  BOOST_TEST(!s.site.budget_test);
  BOOST_TEST(eligible(s.site, s.bids[3]));  // Algorithm 2 as written: de >= D only
  BOOST_TEST(!eligible(example_with_budget_test().site, s.bids[3]));
}

BOOST_AUTO_TEST_CASE(example_greedy_accepts_A_and_D_for_1300) {
  // Decreasing incentive A, B, C, D: A fits (6 <= 10, r = 4); B and C need 5 > 4; D fits (1 <= 4). 1200 + 100.
  const Instance s = example();
  const Admission a = greedy_backfilling(s);
  BOOST_TEST(ids(s, a) == (Ids{"A", "D"}), boost::test_tools::per_element());
  const Verdict v = validate_instant(s, a);
  BOOST_TEST(v.feasible, v.reason);
  BOOST_TEST(v.objective == 1300.0);
}

BOOST_AUTO_TEST_CASE(example_fcfs_decides_on_arrival_A_and_D_and_fcfs_blocking_only_A) {
  // FCFS decided on arrival (paper 004 sec. 4.2): A reserved (r = 4), B (5 > 4) rejected, C (5 > 4) rejected,
  // D (1 <= 4) reserved: 1300. fcfs-blocking (our own): A, then B blocks the queue: 1200.
  const Instance s = example();
  BOOST_TEST(ids(s, fcfs(s)) == (Ids{"A", "D"}), boost::test_tools::per_element());
  BOOST_TEST(validate_instant(s, fcfs(s)).objective == 1300.0);
  BOOST_TEST(ids(s, fcfs_blocking(s)) == Ids{"A"}, boost::test_tools::per_element());
  BOOST_TEST(validate_instant(s, fcfs_blocking(s)).objective == 1200.0);
}

BOOST_AUTO_TEST_CASE(example_optimum_is_B_plus_C_for_1700_by_every_method_with_and_without_budget_test) {
  // B + C: 5 + 5 = 10 processors, 900 + 800 = 1700 (A + D = 1300; D's eligibility does not change the optimum).
  for (const Instance& s : {example(), example_with_budget_test()}) {
    std::vector<std::pair<std::string, ExactResult<Admission>>> results;
    results.emplace_back("core", solve_instant_core(s, SolveOptions{}));
    results.emplace_back("core from greedy", solve_instant_core(s, SolveOptions{}, {greedy_backfilling(s)}));
    results.emplace_back("dp", solve_instant_dp(s));
    results.emplace_back("enumeration", solve_instant_enumeration(s));
    results.emplace_back("z3", solve_instant_z3(s, SolveOptions{}, KnapsackEngine::kLia));
    results.emplace_back("z3-wmax", solve_instant_z3(s, SolveOptions{}, KnapsackEngine::kWmax));
    results.emplace_back("z3-optimize", solve_instant_z3(s, SolveOptions{}, KnapsackEngine::kOptimize));
    for (const auto& [name, r] : results) {
      BOOST_TEST_CONTEXT(name << (s.site.budget_test ? " with budget test" : "")) {
        BOOST_TEST_REQUIRE(r.status == ExactStatus::kOptimal);
        BOOST_TEST(r.objective == 1700.0);
        BOOST_TEST(ids(s, *r.decision) == (Ids{"B", "C"}), boost::test_tools::per_element());
        BOOST_TEST(validate_instant(s, *r.decision).feasible);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(example_registry_check_reports_gap_and_optimal_within_failure) {
  auto registry = make_builtin_registry();
  const auto& problem = registry.get("sla-admission");
  CheckRequest request;
  request.policy = "greedy-backfilling";
  const Report r = problem.check(read_json_file(kExample), kExample, request);
  BOOST_TEST(r.heuristic.objective == 1300.0);
  BOOST_TEST(r.optimum.status == "optimal");
  BOOST_TEST(r.optimum.objective == 1700.0);
  BOOST_TEST_REQUIRE(r.gap.has_value());
  BOOST_TEST(*r.gap == (1700.0 - 1300.0) / 1700.0, boost::test_tools::tolerance(1e-12));  // 0.23529...
  BOOST_TEST(r.failing() == Ids{"optimal-within"}, boost::test_tools::per_element());
  BOOST_TEST(r.exit_code() == 1);
  // With a tolerance of 24% >= 23.53%, nothing fails.
  request.tolerance = 0.24;
  BOOST_TEST(problem.check(read_json_file(kExample), kExample, request).exit_code() == 0);
}

BOOST_AUTO_TEST_CASE(example_with_budget_test_greedy_accepts_only_A_for_1200_gap_29_percent) {
  // Under the budget test D (b = 50 < B = 100) is ineligible: greedy A (r = 4), B and C need 5: 1200; gap
  // (1700 - 1200) / 1700 = 29.41%. fcfs: A, B and C rejected on arrival, D ineligible: 1200 as well.
  auto registry = make_builtin_registry();
  const auto& problem = registry.get("sla-admission");
  const Instance s = example_with_budget_test();
  BOOST_TEST(ids(s, greedy_backfilling(s)) == Ids{"A"}, boost::test_tools::per_element());
  BOOST_TEST(ids(s, fcfs(s)) == Ids{"A"}, boost::test_tools::per_element());
  CheckRequest request;
  request.policy = "greedy-backfilling";
  const Report r = problem.check(read_json_file(kBudgetExample), kBudgetExample, request);
  BOOST_TEST(r.heuristic.objective == 1200.0);
  BOOST_TEST(r.optimum.objective == 1700.0);
  BOOST_TEST_REQUIRE(r.gap.has_value());
  BOOST_TEST(*r.gap == (1700.0 - 1200.0) / 1700.0, boost::test_tools::tolerance(1e-12));  // 0.29411...
}

BOOST_AUTO_TEST_CASE(example_timed_greedy_places_D_at_0_A_at_0_B_and_C_at_100_for_3000) {
  // A (6) runs [0,100); B (5) cannot start before 100 (4 free), finishes 190 <= 270; C (5) starts 100 on the other
  // 5, finishes 180 <= 240; D (1) fits beside A at 0, finishes 50 <= 150. Total 1200 + 900 + 800 + 100 = 3000.
  const Instance s = example();
  const Admission a = greedy_backfilling_timed(s);
  BOOST_TEST(ids(s, a) == (Ids{"A", "B", "C", "D"}), boost::test_tools::per_element());
  BOOST_TEST(start_of(s, a, "A") == 0.0);
  BOOST_TEST(start_of(s, a, "B") == 100.0);
  BOOST_TEST(start_of(s, a, "C") == 100.0);
  BOOST_TEST(start_of(s, a, "D") == 0.0);
  const Verdict v = validate_timed(s, a);
  BOOST_TEST(v.feasible, v.reason);
  BOOST_TEST(v.objective == 3000.0);
}

BOOST_AUTO_TEST_CASE(example_timed_fcfs_also_3000_and_timed_optimum_is_3000_or_2900_with_budget_test) {
  // Arrival order equals incentive order here, so FCFS places the same way. 3000 uses every bid: optimal. Under
  // the budget test D is ineligible: A, B, C for 2900, again every eligible bid.
  for (const Instance& s : {example(), example_with_budget_test()}) {
    const double expected = s.site.budget_test ? 2900.0 : 3000.0;
    BOOST_TEST_CONTEXT((s.site.budget_test ? "with budget test" : "as written")) {
      BOOST_TEST(validate_timed(s, fcfs_timed(s)).objective == expected);
      BOOST_TEST(validate_timed(s, fcfs_blocking_timed(s)).objective == expected);
      const auto seq = solve_timed_sequences(s);
      const auto z3 = solve_timed_z3(s, SolveOptions{});
      const auto bnb = solve_timed_bnb(s, SolveOptions{});
      BOOST_TEST_REQUIRE(seq.status == ExactStatus::kOptimal);
      BOOST_TEST_REQUIRE(z3.status == ExactStatus::kOptimal);
      BOOST_TEST_REQUIRE(bnb.status == ExactStatus::kOptimal);
      BOOST_TEST(seq.objective == expected);
      BOOST_TEST(z3.objective == expected);
      BOOST_TEST(bnb.objective == expected);
      BOOST_TEST(validate_timed(s, *z3.decision).feasible, validate_timed(s, *z3.decision).reason);
      BOOST_TEST(validate_timed(s, *bnb.decision).feasible, validate_timed(s, *bnb.decision).reason);
    }
  }
}

// ------------------------------------------------------------------ examples/sla-timed-running-jobs.json
// From its comment: p_m = 4, R holds 2 processors for [0, 50), mu = 1, c = 1 per processor-second, alpha = 0
// (incentive = processors x execution time, the MI here).
//   X: 4 procs, 400/(1*4) = 100 s, d 160, B 400;  Y: 2 procs, 120/(1*2) = 60 s, d 60, B 120;
//   Z: 2 procs, 110/(1*2) = 55 s, d 120, B 110.

BOOST_AUTO_TEST_CASE(running_example_timed_greedy_places_X_at_50_for_400) {
  // X first (400): needs all 4, earliest at 50, ends 150 <= 160. Y must run [0,60): X holds all 4 from 50. Z must
  // start by 120 - 55 = 65: X holds [50,150). Total 400.
  const std::string file = std::string(SCHEDCHECK_SOURCE_DIR) + "/examples/sla-timed-running-jobs.json";
  const Instance s = read_instance(read_json_file(file), file);
  const Admission g = greedy_backfilling_timed(s);
  BOOST_TEST(ids(s, g) == Ids{"X"}, boost::test_tools::per_element());
  BOOST_TEST(start_of(s, g, "X") == 50.0);
  BOOST_TEST(validate_timed(s, g).objective == 400.0);
  BOOST_TEST(validate_timed(s, fcfs_timed(s)).objective == 400.0);  // same order X, Y, Z
}

BOOST_AUTO_TEST_CASE(running_example_timed_optimum_is_Y_then_X_for_520) {
  // Y on [0,60) beside R (2 + 2 = 4), X on [60,160): 120 + 400 = 520 (X + Z = 510, Y + Z = 230).
  const std::string file = std::string(SCHEDCHECK_SOURCE_DIR) + "/examples/sla-timed-running-jobs.json";
  const Instance s = read_instance(read_json_file(file), file);
  // bnb also when it starts from greedy's decision (X alone, 400).
  for (const auto& r : {solve_timed_sequences(s), solve_timed_z3(s, SolveOptions{}), solve_timed_bnb(s, SolveOptions{}),
                        solve_timed_bnb(s, SolveOptions{}, {greedy_backfilling_timed(s)})}) {
    BOOST_TEST_REQUIRE(r.status == ExactStatus::kOptimal);
    BOOST_TEST(r.objective == 520.0);
    BOOST_TEST(ids(s, *r.decision) == (Ids{"X", "Y"}), boost::test_tools::per_element());
    BOOST_TEST(start_of(s, *r.decision, "Y") == 0.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(start_of(s, *r.decision, "X") == 60.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(validate_timed(s, *r.decision).feasible);
  }
}

BOOST_AUTO_TEST_CASE(running_example_instant_greedy_and_fcfs_take_Y_and_fcfs_blocking_blocks_on_X) {
  // r = 4 - 2 = 2: X (4) never fits. Greedy (X, Y, Z): Y (120) fits, then r = 0. FCFS on arrival: X rejected, Y
  // reserved, Z (2 > 0) rejected: Y. fcfs-blocking meets X first: blocks, nothing.
  const std::string file = std::string(SCHEDCHECK_SOURCE_DIR) + "/examples/sla-timed-running-jobs.json";
  const Instance s = read_instance(read_json_file(file), file);
  BOOST_TEST(ids(s, greedy_backfilling(s)) == Ids{"Y"}, boost::test_tools::per_element());
  BOOST_TEST(ids(s, fcfs(s)) == Ids{"Y"}, boost::test_tools::per_element());
  BOOST_TEST(ids(s, fcfs_blocking(s)).empty());
  BOOST_TEST(solve_instant_dp(s).objective == 120.0);
}

// ------------------------------------------------------------------ the pricing reading decides greedy's order
// r = 4, mu = 100, c = 1, alpha = 0. W: 4 processors, 4000 MI -> 10 s; N: 1 processor, 3000 MI -> 30 s.
//   price x processor time (default): W 40, N 30 -> W first, then N does not fit (0 free): {W}, 40 (the optimum).
//   price x wall-clock time:          W 10, N 30 -> N first, then W does not fit (3 free): {N}, 30 (the optimum too:
//   each reading's knapsack has its own optimum, and Greedy-Backfilling's order follows the reading).
BOOST_AUTO_TEST_CASE(pricing_reading_decides_greedy_order_and_the_optimum) {
  Instance s = make_site(4, 100, 1, -1, Pricing::kProcessorTime);
  s.bids = {make_bid("N", 1, 3000, 1000, 1000), make_bid("W", 4, 4000, 1000, 1000)};
  BOOST_TEST(incentive(s.site, s.bids[1]) == 40.0);
  BOOST_TEST(ids(s, greedy_backfilling(s)) == Ids{"W"}, boost::test_tools::per_element());
  BOOST_TEST(ids(s, *solve_instant_dp(s).decision) == Ids{"W"}, boost::test_tools::per_element());
  BOOST_TEST(ids(s, fcfs(s)) == Ids{"N"}, boost::test_tools::per_element());  // arrival order: N first either way
  s.site.pricing = Pricing::kWallClock;
  BOOST_TEST(incentive(s.site, s.bids[1]) == 10.0);
  BOOST_TEST(ids(s, greedy_backfilling(s)) == Ids{"N"}, boost::test_tools::per_element());
  BOOST_TEST(solve_instant_dp(s).objective == 30.0);
}

// ------------------------------------------------------------------ FCFS blocking vs greedy backfilling

namespace {
// r = 10, mu = 100, c = 1, alpha = 0; budgets ample, deadlines loose.
//   A: p 6, l 60000 -> exec 100, B 100
//   B: p 5, l 40000 -> exec 80,  B 80
//   C: p 4, l 24000 -> exec 60,  B 60
Instance blocking_case() {
  Instance s = make_site(10, 100, 1);
  s.bids = {make_bid("A", 6, 60000, 1000, 1000), make_bid("B", 5, 40000, 1000, 1000),
            make_bid("C", 4, 24000, 1000, 1000)};
  return s;
}
}  // namespace

BOOST_AUTO_TEST_CASE(fcfs_blocking_blocks_at_first_misfit_even_if_later_bid_fits) {
  // fcfs-blocking (our own): A (r = 4); B needs 5 > 4: blocks; C (4 <= 4) would fit but is never reached. 100.
  const Instance s = blocking_case();
  const Admission a = fcfs_blocking(s);
  BOOST_TEST(ids(s, a) == Ids{"A"}, boost::test_tools::per_element());
  BOOST_TEST(validate_instant(s, a).objective == 100.0);
}

BOOST_AUTO_TEST_CASE(fcfs_decides_each_bid_on_arrival_a_misfit_holds_up_nobody) {
  // An example by hand: r = 4 free, bid A (p = 6) arrives before bid B (p = 2, incentive 50). Algorithm 2's
  // test on arrival: A (6 > 4) rejected, B (2 <= 4) reserved: {B}. fcfs-blocking accepts nothing.
  // mu = 100, c = 1: B's length 10000 / (100 * 2) = 50 s, incentive 1 * 50 = 50.
  Instance s = make_site(10, 100, 1, /*free=*/4);
  s.bids = {make_bid("A", 6, 60000, 1000, 1000), make_bid("B", 2, 10000, 1000, 1000)};
  BOOST_TEST(incentive(s.site, s.bids[1]) == 50.0);
  BOOST_TEST(ids(s, fcfs(s)) == Ids{"B"}, boost::test_tools::per_element());
  BOOST_TEST(ids(s, fcfs_blocking(s)).empty());
  BOOST_TEST(validate_instant(s, fcfs(s)).objective == 50.0);
}

BOOST_AUTO_TEST_CASE(fcfs_on_arrival_also_backfills_past_a_misfit_in_blocking_case) {
  // Arrival order A, B, C: A (r = 4), B (5 > 4) rejected, C (4 <= 4) reserved: 100 + 60 = 160 (as greedy here).
  const Instance s = blocking_case();
  BOOST_TEST(ids(s, fcfs(s)) == (Ids{"A", "C"}), boost::test_tools::per_element());
  BOOST_TEST(validate_instant(s, fcfs(s)).objective == 160.0);
}

BOOST_AUTO_TEST_CASE(greedy_skips_misfit_and_backfills_later_bid) {
  // Decreasing incentive A (r = 4), B skipped (5 > 4), C accepted (4 <= 4). Total 100 + 60 = 160.
  const Instance s = blocking_case();
  const Admission a = greedy_backfilling(s);
  BOOST_TEST(ids(s, a) == (Ids{"A", "C"}), boost::test_tools::per_element());
  BOOST_TEST(validate_instant(s, a).objective == 160.0);
}

BOOST_AUTO_TEST_CASE(fcfs_blocking_ineligible_bid_does_not_block) {
  // Under the budget test, A over budget (1 < B = 100): rejected, not blocking; B (5) and C (4) fit in 10: 140.
  Instance s = blocking_case();
  s.site.budget_test = true;
  s.bids[0].budget = 1;
  const Admission a = fcfs_blocking(s);
  BOOST_TEST(ids(s, a) == (Ids{"B", "C"}), boost::test_tools::per_element());
  BOOST_TEST(validate_instant(s, a).objective == 140.0);
}

BOOST_AUTO_TEST_CASE(ineligible_bids_never_accepted_by_any_policy) {
  // The two most lucrative bids are ineligible (A over budget under the budget test, B with de < D); all would
  // fit on p_m = 20.
  Instance s = make_site(20, 100, 1);
  s.site.budget_test = true;
  s.bids = {make_bid("A", 6, 60000, 99.9, 1000),             // B = 100 > budget 99.9
            make_bid("B", 5, 40000, 1000, 1000, 0, 79.9),     // D = 80 > de = 79.9
            make_bid("C", 4, 24000, 1000, 1000)};
  for (const auto& a : {greedy_backfilling(s), fcfs(s), fcfs_blocking(s), greedy_backfilling_timed(s), fcfs_timed(s),
                        fcfs_blocking_timed(s)}) {
    BOOST_TEST(ids(s, a) == Ids{"C"}, boost::test_tools::per_element());
  }
  const auto dp = solve_instant_dp(s);
  BOOST_TEST(ids(s, *dp.decision) == Ids{"C"}, boost::test_tools::per_element());
  const auto seq = solve_timed_sequences(s);
  BOOST_TEST(ids(s, *seq.decision) == Ids{"C"}, boost::test_tools::per_element());
}

// ------------------------------------------------------------------ ties

BOOST_AUTO_TEST_CASE(equal_incentives_keep_arrival_order) {
  // mu = 100, c = 1, r = 5. X: p 5, l 1000 -> exec 1000/500 = 2, B 2. Y: p 4, l 800 -> exec 800/400 = 2, B 2.
  // Equal incentives (both exactly 2.0): the earlier arrival wins; the other no longer fits (5 > 1 or 4 > 0).
  Instance s = make_site(5, 100, 1);
  s.bids = {make_bid("X", 5, 1000, 10, 100), make_bid("Y", 4, 800, 10, 100)};
  BOOST_TEST_REQUIRE(incentive(s.site, s.bids[0]) == incentive(s.site, s.bids[1]));
  BOOST_TEST(by_decreasing_incentive(s) == (std::vector<std::size_t>{0, 1}), boost::test_tools::per_element());
  BOOST_TEST(ids(s, greedy_backfilling(s)) == Ids{"X"}, boost::test_tools::per_element());
  std::swap(s.bids[0], s.bids[1]);
  BOOST_TEST(by_decreasing_incentive(s) == (std::vector<std::size_t>{0, 1}), boost::test_tools::per_element());
  BOOST_TEST(ids(s, greedy_backfilling(s)) == Ids{"Y"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(decreasing_incentive_order_sorts_by_incentive_not_arrival) {
  // mu = 100, c = 1: exec = l / (100 p). P: 1000/100 = 10; Q: 9000/300 = 30; R: 4000/200 = 20; S: 3000/300 = 10.
  // Order: Q (30), R (20), then P and S (10 each) in arrival order.
  Instance s = make_site(10, 100, 1);
  s.bids = {make_bid("P", 1, 1000, 100, 100), make_bid("Q", 3, 9000, 100, 100), make_bid("R", 2, 4000, 100, 100),
            make_bid("S", 3, 3000, 100, 100)};
  BOOST_TEST(by_decreasing_incentive(s) == (std::vector<std::size_t>{1, 2, 0, 3}), boost::test_tools::per_element());
}

// ------------------------------------------------------------------ timed policies and running jobs

namespace {
// p_m = 10, running R holds 8 processors for [0, 50). mu = 100, c = 1, alpha = 0.
//   Q: p 5, l 50000 -> D 100, B 100, d 120 (latest start 20, while only 2 processors are free)
//   P: p 5, l 50000 -> D 100, B 100, d 200 (earliest start 50, finishes 150)
Instance running_case() {
  Instance s = make_site(10, 100, 1);
  test::add_running(s, "R", 8, 50);
  s.bids = {make_bid("Q", 5, 50000, 1000, 120), make_bid("P", 5, 50000, 1000, 200)};
  return s;
}
}  // namespace

BOOST_AUTO_TEST_CASE(timed_greedy_waits_for_running_job_and_rejects_what_cannot_wait) {
  // Equal incentives: arrival order Q, P. Q must start by 20 but only 2 are free until 50: rejected.
  // P starts at 50 when R ends; 50 + 100 = 150 <= 200.
  const Instance s = running_case();
  const Admission a = greedy_backfilling_timed(s);
  BOOST_TEST(ids(s, a) == Ids{"P"}, boost::test_tools::per_element());
  BOOST_TEST(start_of(s, a, "P") == 50.0);
  const Verdict v = validate_timed(s, a);
  BOOST_TEST(v.feasible, v.reason);
  BOOST_TEST(v.objective == 100.0);
}

BOOST_AUTO_TEST_CASE(timed_fcfs_rejects_what_cannot_meet_its_deadline_and_fcfs_blocking_blocks_behind_it) {
  // FCFS decided on arrival: Q (first, eligible) cannot meet its deadline: rejected; P at 50 (as greedy).
  // fcfs-blocking (ours): Q blocks, so P is not accepted.
  const Instance s = running_case();
  BOOST_TEST(ids(s, fcfs_timed(s)) == Ids{"P"}, boost::test_tools::per_element());
  BOOST_TEST(start_of(s, fcfs_timed(s), "P") == 50.0);
  BOOST_TEST(ids(s, fcfs_blocking_timed(s)).empty());
}

BOOST_AUTO_TEST_CASE(timed_policies_use_free_processors_beside_running_job) {
  // Small job S: p 2, l 8000 -> D 8000/200 = 40, d 45: fits now beside R's 8 processors (2 free), ends 40 <= 45.
  Instance s = running_case();
  s.bids.push_back(make_bid("S", 2, 8000, 1000, 45));
  for (const auto& a : {greedy_backfilling_timed(s), fcfs_timed(s), fcfs_blocking_timed(s)}) {
    const Verdict v = validate_timed(s, a);
    BOOST_TEST(v.feasible, v.reason);
  }
  const Admission g = greedy_backfilling_timed(s);
  // Greedy order: Q, P (B 100), S (B 8000/200 = 40): Q rejected, P at 50, S at 0.
  BOOST_TEST(ids(s, g) == (Ids{"P", "S"}), boost::test_tools::per_element());
  BOOST_TEST(start_of(s, g, "S") == 0.0);
}

BOOST_AUTO_TEST_CASE(instant_policies_see_only_free_processors_now) {
  // Same site instantly: r = 10 - 8 = 2, so neither 5-processor bid fits.
  const Instance s = running_case();
  BOOST_TEST(s.site.free_processors == 2);
  BOOST_TEST(ids(s, greedy_backfilling(s)).empty());
  BOOST_TEST(ids(s, fcfs(s)).empty());
  BOOST_TEST(ids(s, fcfs_blocking(s)).empty());
}

BOOST_AUTO_TEST_CASE(instant_deadline_property_flags_bid_eligible_by_de_whose_deadline_is_below_D) {
  // mu = 100, c = 1: A p 2, l 20000 -> D = 20000/(100*2) = 100, B = 100. de = 100 >= D (eligible, line 1.40),
  // but d = 90 < D: started now it finishes at 100 > 90. Eq. 4 has no deadline, so the instant validator accepts
  // the decision; the separate `deadline` property is what reports it.
  Instance s = make_site(10, 100, 1);
  s.bids = {make_bid("A", 2, 20000, 100, /*deadline=*/90, 0, /*de=*/100)};
  BOOST_TEST_REQUIRE(eligible(s.site, s.bids[0]));
  const Admission a = greedy_backfilling(s);
  BOOST_TEST(ids(s, a) == Ids{"A"}, boost::test_tools::per_element());
  BOOST_TEST(validate_instant(s, a).feasible);
  auto registry = make_builtin_registry();
  CheckRequest request;
  request.policy = "greedy-backfilling";
  request.exact = "dp";
  const Report r = registry.typed<Instance, Admission>("sla-admission").check_instance(s, request);
  BOOST_TEST(r.failing() == Ids{"deadline"}, boost::test_tools::per_element());
  for (const auto& p : r.properties)
    if (p.name == "deadline") BOOST_TEST(p.detail.find("finishes at 100 after its deadline d = 90") != std::string::npos, p.detail);
  // The timed problem cannot place A at all (latest start 90 - 100 < 0).
  BOOST_TEST(ids(s, greedy_backfilling_timed(s)).empty());
}

BOOST_AUTO_TEST_CASE(policies_return_one_flag_and_start_per_bid) {
  const Instance s = example();
  for (const auto& a : {greedy_backfilling(s), fcfs(s), fcfs_blocking(s), greedy_backfilling_timed(s), fcfs_timed(s),
                        fcfs_blocking_timed(s)}) {
    BOOST_TEST(a.accepted.size() == s.bids.size());
    BOOST_TEST(a.start.size() == s.bids.size());
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_policies
