// Suites `exact` (fixed cases), `properties_rc` (rapidcheck, no Z3) and `properties_z3` (rapidcheck with Z3):
// exact methods agree with each other (core / dp / z3 / enumeration; timed bnb / z3 / sequences), every answer passes
// the validator, heuristics never beat the optimum. Source: paper 004 Eq. 4-5 (instant ILP); timed problem our own.
#include "counterexamples/builtin.hpp"
#include "counterexamples/sla_generator.hpp"
#include "model/sla.hpp"
#include "properties/registry.hpp"
#include "reference/sla_policies.hpp"
#include "solver/knapsack.hpp"
#include "solver/sla_bnb.hpp"
#include "solver/sla_exact.hpp"
#include "solver/sla_z3.hpp"
#include "helpers.hpp"

#include <fmt/format.h>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_exact {

using namespace schedcheck;
using namespace schedcheck::sla;
using schedcheck::test::close_rel;
using schedcheck::test::dump;
using schedcheck::test::make_bid;
using schedcheck::test::make_site;

namespace {

using SlaProblem = TypedProblem<Instance, Admission>;

Registry& registry() {
  static Registry r = make_builtin_registry();
  return r;
}
SlaProblem& instant_problem() { return registry().typed<Instance, Admission>("sla-admission"); }
SlaProblem& timed_problem() { return registry().typed<Instance, Admission>("sla-admission-timed"); }

PropertyStatus status_of(const Report& report, const std::string& name) {
  for (const auto& p : report.properties)
    if (p.name == name) return p.status;
  throw std::logic_error("report has no property " + name);
}

std::string text(PropertyStatus s) { return to_string(s); }

SolveOptions z3_options() {
  SolveOptions o;
  o.timeout_ms = 20'000;
  return o;
}

// The validator accepts the answer and recomputes the objective it reports.
template <class Validate>
void rc_assert_valid_answer(const Instance& s, const ExactResult<Admission>& r, Validate validate, const char* method) {
  RC_LOG() << method << ": status " << to_string(r.status) << ", objective " << r.objective << ", detail " << r.detail
           << "\n";
  RC_ASSERT(r.status == ExactStatus::kOptimal);
  RC_ASSERT(r.decision.has_value());
  const Verdict v = validate(s, *r.decision);
  RC_LOG() << method << " verdict: " << (v.feasible ? "feasible" : v.reason) << ", objective " << v.objective << "\n";
  RC_ASSERT(v.feasible);
  RC_ASSERT(close_rel(v.objective, r.objective));
}

// Two exact methods' answers: both proven and valid, with the same objective (a differential check).
template <class Validate>
void rc_assert_same_optimum(const Instance& s, const ExactResult<Admission>& a, const char* name_a,
                            const ExactResult<Admission>& b, const char* name_b, Validate validate) {
  rc_assert_valid_answer(s, a, validate, name_a);
  rc_assert_valid_answer(s, b, validate, name_b);
  RC_ASSERT(close_rel(a.objective, b.objective));
}

// Small instances built directly from rapidcheck generators: few distinct values, so many ties, zero
// prices, r = 0, bids as large as the site, de = D and b = B exactly. Complements the seeded generator.
rc::Gen<Instance> tie_heavy_instance(int max_bids) {
  return rc::gen::exec([max_bids] {
    Instance s;
    s.name = "rc";
    s.site.processors = *rc::gen::inRange(1, 21);
    s.site.budget_test = *rc::gen::arbitrary<bool>();  // both readings of Algorithm 2's eligibility
    s.site.mips = *rc::gen::element(1.0, 2.0, 10.0, 100.0);
    s.site.price = *rc::gen::element(0.0, 1.0, 2.0, 3.0);
    int used = 0;
    const int running = *rc::gen::inRange(0, 3);
    for (int k = 0; k < running && used < s.site.processors; ++k) {
      const int procs = *rc::gen::inRange(1, s.site.processors - used + 1);
      used += procs;
      s.running.push_back(RunningJob{"r" + std::to_string(k + 1), procs, *rc::gen::element(5.0, 10.0, 50.0, 1000.0)});
    }
    s.site.free_processors = s.site.processors - used;
    const int n = *rc::gen::inRange(0, max_bids + 1);
    for (int i = 0; i < n; ++i) {
      Bid b;
      b.id = "b" + std::to_string(i + 1);
      b.procs = *rc::gen::inRange(1, s.site.processors + 1);
      const double exec = *rc::gen::element(1.0, 2.0, 5.0, 10.0, 20.0);
      b.length_mi = exec * s.site.mips * b.procs;
      b.alpha = *rc::gen::element(0.0, 0.0, 1.0, 5.0);
      const double D = b.alpha + exec, B = s.site.price * exec;
      b.budget = *rc::gen::element(B, 2 * B, std::max(0.0, B - 1), 0.0);
      b.deadline = D * *rc::gen::element(1.0, 1.5, 2.0, 3.0, 10.0);
      b.expected_response = *rc::gen::element(b.deadline, D, std::max(0.5, D - 0.5));
      s.bids.push_back(b);
    }
    return s;
  });
}

// Knapsacks that are hard for bound-based methods: every bid worth the same per processor (B proportional to p: a
// subset-sum, so LP bounds never prune), or a few ratios only, with bids larger than r, a tight r (a little below half
// the total), zero prices and the budget test; from rapidcheck generators.
rc::Gen<Instance> adversarial_knapsack_instance(int max_bids) {
  return rc::gen::exec([max_bids] {
    Instance s;
    s.name = "rc-adversarial";
    s.site.mips = 1;
    s.site.price = *rc::gen::element(0.0, 1.0, 1.0, 1.0, 3.0);
    s.site.budget_test = *rc::gen::arbitrary<bool>();
    const int n = *rc::gen::inRange(0, max_bids + 1);
    const bool equal_ratios = *rc::gen::arbitrary<bool>();
    long long total = 0;
    for (int i = 0; i < n; ++i) {
      Bid b;
      b.id = "b" + std::to_string(i + 1);
      b.procs = *rc::gen::inRange(1, 1000);
      // execution time e = l / (mu p): B = c e per bid; B / p = c e / p is constant when e is proportional to p.
      const double per_processor = equal_ratios ? 2.0 : *rc::gen::element(1.0, 2.0, 2.5);
      const double execution = per_processor * b.procs;
      b.length_mi = execution * s.site.mips * b.procs;
      b.alpha = 0;
      b.budget = *rc::gen::element(s.site.price * execution, 0.0);
      b.deadline = 10 * execution;
      b.expected_response = b.deadline;
      total += b.procs;
      s.bids.push_back(b);
    }
    s.site.processors = static_cast<int>(std::max<long long>(1, total));
    s.site.free_processors = static_cast<int>(
        std::max<long long>(0, total / 2 - *rc::gen::inRange<long long>(0, 3) + (*rc::gen::arbitrary<bool>() ? 1 : 0)));
    for (auto& b : s.bids) b.procs = std::min(b.procs, s.site.processors);
    if (n > 0 && *rc::gen::arbitrary<bool>()) s.bids.front().procs = s.site.processors;  // larger than r
    return s;
  });
}

// The instant problem's Z3 engines, by their registry names.
struct Engine {
  const char* name;
  KnapsackEngine engine;
};
constexpr Engine kZ3Engines[] = {
    {"z3", KnapsackEngine::kLia}, {"z3-wmax", KnapsackEngine::kWmax}, {"z3-optimize", KnapsackEngine::kOptimize}};

ExactResult<Admission> instant_z3(const Instance& s, KnapsackEngine engine, unsigned timeout_ms = 20'000) {
  SolveOptions o;
  o.timeout_ms = timeout_ms;
  return solve_instant_z3(s, o, engine);
}

// Every exact method of the instant problem, named as in the registry (dp first: the reference).
std::vector<std::pair<std::string, ExactResult<Admission>>> all_instant_methods(const Instance& s) {
  std::vector<std::pair<std::string, ExactResult<Admission>>> out;
  out.emplace_back("dp", solve_instant_dp(s));
  out.emplace_back("core", solve_instant_core(s, SolveOptions{}));
  out.emplace_back("core from greedy", solve_instant_core(s, SolveOptions{}, {greedy_backfilling(s)}));
  out.emplace_back("enumeration", solve_instant_enumeration(s));
  for (const auto& e : kZ3Engines) out.emplace_back(e.name, instant_z3(s, e.engine));
  return out;
}

// Runs `body` in a forked child so that a solve that ignores its time limit cannot hang the suite: the child is
// killed after `limit_seconds`. `body` returns "" when its checks pass, else the reason (short: one pipe buffer).
struct Isolated {
  bool finished = false;  // the child exited by itself within the limit
  std::string failure;    // what `body` reported, or how the child died
  double seconds = 0;
};
Isolated run_isolated(double limit_seconds, const std::function<std::string()>& body) {
  using Clock = std::chrono::steady_clock;
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const auto started = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
    }
    out = out.substr(0, 4000);
    if (write(fds[1], out.data(), out.size()) < 0) _exit(3);
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  Isolated result;
  int status = 0;
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      result.finished = true;
      break;
    }
    if (std::chrono::duration<double>(Clock::now() - started).count() > limit_seconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(2000);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  if (result.finished) {
    char buffer[4096];
    ssize_t got = 0;
    while ((got = read(fds[0], buffer, sizeof buffer)) > 0) result.failure.append(buffer, static_cast<std::size_t>(got));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) result.failure += " (child died: status " + std::to_string(status) + ")";
  } else {
    result.failure = "did not return within " + std::to_string(limit_seconds) + " s";
  }
  close(fds[0]);
  return result;
}

// The checks of an exact answer produced under a time limit, as a reason string ("" = fine).
std::string time_limited_answer_problem(const Instance& s, const ExactResult<Admission>& r, bool timed,
                                        double proven_optimum) {
  if (r.decision.has_value() != (r.status != ExactStatus::kUnknown))
    return std::string("status ") + to_string(r.status) + " but decision " + (r.decision ? "present" : "absent");
  if (!r.decision) return "";
  const Verdict v = timed ? validate_timed(s, *r.decision) : validate_instant(s, *r.decision);
  if (!v.feasible) return std::string(to_string(r.status)) + " answer rejected by the validator: " + v.reason;
  if (!close_rel(v.objective, r.objective)) return "reported objective differs from the recomputed one";
  if (proven_optimum >= 0 && v.objective > proven_optimum * (1 + 1e-9) + 1e-9) return "answer beats the optimum";
  if (proven_optimum >= 0 && r.status == ExactStatus::kOptimal && !close_rel(v.objective, proven_optimum))
    return "claims optimal but differs from the DP optimum";
  return "";
}

double eligible_incentive_sum(const Instance& s) {
  double sum = 0;
  for (const auto& b : s.bids)
    if (eligible(s.site, b)) sum += incentive(s.site, b);
  return sum;
}

}  // namespace

// ================================================================== fixed cases

BOOST_AUTO_TEST_SUITE(exact)

BOOST_AUTO_TEST_CASE(all_methods_return_zero_for_no_bids) {
  const Instance s = make_site(4, 100, 1);
  auto results = all_instant_methods(s);
  results.emplace_back("timed sequences", solve_timed_sequences(s));
  results.emplace_back("timed z3", solve_timed_z3(s, z3_options()));
  results.emplace_back("timed bnb", solve_timed_bnb(s, SolveOptions{}));
  for (const auto& [name, r] : results) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(r.status == ExactStatus::kOptimal);
      BOOST_TEST(r.objective == 0.0);
      BOOST_TEST(r.decision.has_value());
    }
  }
}

BOOST_AUTO_TEST_CASE(instant_methods_accept_nothing_when_no_processor_is_free) {
  Instance s = make_site(4, 100, 1);
  test::add_running(s, "R", 4, 10);  // r = 0
  s.bids = {make_bid("A", 1, 100, 10, 10)};
  for (const auto& [name, r] : all_instant_methods(s)) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(r.status == ExactStatus::kOptimal);
      BOOST_TEST(r.objective == 0.0);
      BOOST_TEST(accepted_ids(s, *r.decision).empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(instant_methods_find_knapsack_optimum_greedy_misses) {
  // r = 10, mu = 1, c = 1, so B = l / p. Values: A p 6 B 7; B p 5 B 5; C p 5 B 5; D p 4 B 1.
  //   Greedy: A (7, r = 4), D (1): 8. Optimum: B + C = 10 (A + D = 8, A alone 7).
  Instance s = make_site(10, 1, 1);
  s.bids = {make_bid("A", 6, 42, 100, 1000), make_bid("B", 5, 25, 100, 1000), make_bid("C", 5, 25, 100, 1000),
            make_bid("D", 4, 4, 100, 1000)};
  BOOST_TEST(validate_instant(s, greedy_backfilling(s)).objective == 8.0);
  for (const auto& [name, r] : all_instant_methods(s)) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(r.objective == 10.0);
      BOOST_TEST(accepted_ids(s, *r.decision) == (std::vector<std::string>{"B", "C"}), boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(timed_methods_place_job_after_running_job) {
  // p_m = 10, R holds 8 until 50. P: p 5, l 50000, mu 100 -> D 100, d 200: starts in [50, 100]. Optimum: P, B = 100.
  Instance s = make_site(10, 100, 1);
  test::add_running(s, "R", 8, 50);
  s.bids = {make_bid("P", 5, 50000, 1000, 200)};
  for (const auto& r : {solve_timed_sequences(s), solve_timed_z3(s, z3_options()), solve_timed_bnb(s, SolveOptions{})}) {
    BOOST_TEST_REQUIRE(r.status == ExactStatus::kOptimal);
    BOOST_TEST(r.objective == 100.0);
    BOOST_TEST(r.decision->accepted[0]);
    BOOST_TEST(r.decision->start[0] >= 50.0 - 1e-6);
    BOOST_TEST(r.decision->start[0] <= 100.0 + 1e-6);
    BOOST_TEST(validate_timed(s, *r.decision).feasible, validate_timed(s, *r.decision).reason);
  }
}

BOOST_AUTO_TEST_CASE(timed_bnb_refuses_the_cheapest_job_of_a_timetable_conflict) {
  // p_m = 10, mu = 1, c = 1 (B = execution time). A, B, C: 3 processors, 100 s, d = 110: each runs over [10, 100)
  // whatever its start. X: 2 processors, 150 s, d = 200: it runs over [50, 150) whatever its start. Over [50, 100) the
  // four need 11 > 10 processors: one of them is refused, the cheapest (A, B or C: 100): X + two of them = 350.
  Instance s = make_site(10, 1, 1);
  s.bids = {make_bid("A", 3, 300, 1e6, 110), make_bid("B", 3, 300, 1e6, 110), make_bid("C", 3, 300, 1e6, 110),
            make_bid("X", 2, 300, 1e6, 200)};
  const auto bnb = solve_timed_bnb(s, SolveOptions{});
  BOOST_TEST_REQUIRE(bnb.status == ExactStatus::kOptimal, bnb.detail);
  BOOST_TEST(bnb.objective == 350.0);
  BOOST_TEST(bnb.detail.find("1 conflicts") != std::string::npos, bnb.detail);
  BOOST_TEST(validate_timed(s, *bnb.decision).feasible, validate_timed(s, *bnb.decision).reason);
  for (const auto& r : {solve_timed_sequences(s), solve_timed_z3(s, z3_options())}) {
    BOOST_TEST_REQUIRE(r.status == ExactStatus::kOptimal);
    BOOST_TEST(r.objective == 350.0);
  }
}

BOOST_AUTO_TEST_CASE(timed_bnb_accepts_every_bid_of_generated_instance_25_40_that_greedy_cuts_by_a_quarter) {
  // generate_instance(25, 40): Greedy-Backfilling refuses 18 bids (33,283 of 43,500); every bid fits, in a schedule
  // that serial generation finds in none of the plain priority orders (latest start fails on one bid) but the squeaky
  // wheel does. Z3 needed 41-54 s to find it (satisfiability of all 40 jobs).
  const Instance s = generate_instance(25, 40);
  const auto r = solve_timed_bnb(s, SolveOptions{}, {greedy_backfilling_timed(s)});
  BOOST_TEST_REQUIRE(r.status == ExactStatus::kOptimal, r.detail);
  BOOST_TEST(close_rel(r.objective, eligible_incentive_sum(s)), r.objective << " vs " << eligible_incentive_sum(s));
  BOOST_TEST(validate_timed(s, *r.decision).feasible, validate_timed(s, *r.decision).reason);
  BOOST_TEST(validate_timed(s, greedy_backfilling_timed(s)).objective < 0.8 * r.objective);
}

BOOST_AUTO_TEST_CASE(timed_bnb_proves_generated_200_bid_instances_and_never_returns_less_than_greedy) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Instance s = generate_instance(seed, 200);
    const Admission greedy = greedy_backfilling_timed(s);
    const auto r = solve_timed_bnb(s, SolveOptions{}, {greedy});
    BOOST_TEST_CONTEXT("generate_instance(" << seed << ", 200)") {
      BOOST_TEST_REQUIRE(r.status == ExactStatus::kOptimal, r.detail);
      BOOST_TEST(validate_timed(s, *r.decision).feasible, validate_timed(s, *r.decision).reason);
      BOOST_TEST(r.objective >= validate_timed(s, greedy).objective);
    }
  }
}

BOOST_AUTO_TEST_CASE(timed_bnb_at_1ms_returns_a_valid_decision_no_worse_than_the_policy) {
  // generate_instance(1, 20) needs a search of thousands of nodes: 1 ms interrupts it. Through the registry (recheck,
  // incumbent): no internal error, status optimal or feasible, never below the policy.
  const Instance s = generate_instance(1, 20);
  CheckRequest request;
  request.policy = "greedy-backfilling";
  request.exact = "bnb";
  request.solve.timeout_ms = 1;
  Report r;
  BOOST_CHECK_NO_THROW(r = timed_problem().check_instance(s, request));
  BOOST_TEST((r.optimum.status == "optimal" || r.optimum.status == "feasible"), r.optimum.status);
  BOOST_TEST(r.optimum.objective >= r.heuristic.objective);
}

BOOST_AUTO_TEST_CASE(core_falls_back_to_dp_when_its_state_list_outgrows_the_limit) {
  // Every bid worth 2 per processor (B = l / p with mu = c = 1, l = 2 p^2), even processor counts and an odd r: no LP
  // bound prunes and no state fills r exactly, so the states grow past a limit of 8; the DP finishes (chain of two).
  Instance s = make_site(1000, 1, 1, 301);
  for (int i = 0; i < 40; ++i) {
    const int p = 2 * (1 + (i * 7) % 23);
    s.bids.push_back(make_bid(fmt::format("b{}", i), p, 2.0 * p * p, 1e9, 1e9));
  }
  const auto r = solve_instant_core(s, SolveOptions{}, {}, knapsack::CoreLimits{8, 1000});
  const auto dp = solve_instant_dp(s);
  BOOST_TEST_REQUIRE(r.status == ExactStatus::kOptimal, r.detail);
  BOOST_TEST(r.objective == dp.objective);
  BOOST_TEST(r.objective == 600.0);  // 300 processors (the even ones nearest 301), 2 each
  BOOST_TEST_REQUIRE(r.chain.size() == 2u);
  BOOST_TEST(r.chain[0].method == "core");
  BOOST_TEST(r.chain[0].status == "feasible");
  BOOST_TEST(r.chain[1].method == "dp");
  BOOST_TEST(r.chain[1].status == "optimal");
  BOOST_TEST(r.chain[1].why.find("dynamic programming states") != std::string::npos, r.chain[1].why);
  // Without the tiny limit the core proves it alone (no chain).
  const auto alone = solve_instant_core(s, SolveOptions{});
  BOOST_TEST(alone.status == ExactStatus::kOptimal);
  BOOST_TEST(alone.objective == 600.0);
  BOOST_TEST(alone.chain.empty());
}

BOOST_AUTO_TEST_CASE(core_knapsack_edge_cases) {
  using knapsack::Item;
  const std::vector<Item> items{{"a", 5, 10}, {"b", 4, 0}, {"c", 12, 100}, {"d", 3, 6}, {"e", 2, 4}};
  auto solve = [&](long long capacity, const std::vector<std::vector<bool>>& starts = {}) {
    return knapsack::solve_core(items, capacity, SolveOptions{}, starts);
  };
  const auto none = solve(0);
  BOOST_TEST(none.status == ExactStatus::kOptimal);
  BOOST_TEST(none.value == 0.0);
  // c (12) is heavier than 10, b is worth nothing: a + d + e = 20 on 10.
  const auto ten = solve(10);
  BOOST_TEST(ten.status == ExactStatus::kOptimal);
  BOOST_TEST(ten.value == 20.0);
  BOOST_TEST(!ten.take[1]);
  BOOST_TEST(!ten.take[2]);
  // An infeasible start (c on 10) is ignored; a feasible optimal one is kept as it is.
  const auto from_bad = solve(10, {{true, false, true, false, false}});
  BOOST_TEST(from_bad.value == 20.0);
  const auto from_good = solve(10, {{true, false, false, true, true}});
  BOOST_TEST(from_good.status == ExactStatus::kOptimal);
  BOOST_TEST(from_good.value == 20.0);
  // Everything fits: all items worth something.
  const auto all = solve(100);
  BOOST_TEST(all.value == 120.0);
  BOOST_TEST(!all.take[1]);
}

BOOST_AUTO_TEST_CASE(enumeration_is_unknown_above_its_limit) {
  // 21 eligible bids > kEnumerationMaxBids = 20.
  Instance big = make_site(64, 100, 1);
  for (int i = 0; i < 21; ++i) big.bids.push_back(make_bid(fmt::format("b{}", i), 1, 100, 10, 10));
  const auto r = solve_instant_enumeration(big);
  BOOST_TEST(r.status == ExactStatus::kUnknown);
  BOOST_TEST(!r.decision.has_value());
  BOOST_TEST(r.detail.find("21 eligible bids") != std::string::npos, r.detail);
}

BOOST_AUTO_TEST_CASE(sequences_is_unknown_above_its_limit) {
  // 9 eligible bids > kSequenceMaxBids = 8.
  Instance big = make_site(64, 100, 1);
  for (int i = 0; i < 9; ++i) big.bids.push_back(make_bid(fmt::format("b{}", i), 1, 100, 10, 10));
  const auto r = solve_timed_sequences(big);
  BOOST_TEST(r.status == ExactStatus::kUnknown);
  BOOST_TEST(!r.decision.has_value());
}

BOOST_AUTO_TEST_CASE(dp_is_unknown_when_table_exceeds_cell_limit) {
  // r = 1e6; 201 bids of 5000 processors: 201 * 5000 = 1,005,000 >= r, so capacity = 1e6;
  // 201 * (1e6 + 1) = 201,000,201 cells > kDpMaxCells = 200,000,000.
  Instance big = make_site(1'000'000, 100, 1);
  for (int i = 0; i < 201; ++i) big.bids.push_back(make_bid(fmt::format("b{}", i), 5000, 1e6, 1e6, 1e6));
  const auto r = solve_instant_dp(big);
  BOOST_TEST(r.status == ExactStatus::kUnknown);
  BOOST_TEST(r.detail.find("exceeds") != std::string::npos, r.detail);
}

BOOST_AUTO_TEST_CASE(z3_with_tiny_time_limit_never_returns_an_invalid_decision) {
  // A 1 ms limit on 40 bids, as `solve --exact z3 --timeout-ms 1`: whatever Z3 returns passes the registry's
  // recheck (no InternalError), and the exit code is 0 exactly when the optimum is proven, else 3.
  const Instance s = generate_instance(3, 40);
  CheckRequest request;
  request.exact = "z3";
  request.solve.timeout_ms = 1;
  Report r;
  BOOST_CHECK_NO_THROW(r = instant_problem().check_instance(s, request));
  BOOST_TEST((r.optimum.status == "optimal" || r.optimum.status == "feasible" || r.optimum.status == "unknown"));
  BOOST_TEST(r.exit_code() == (r.optimum.status == "optimal" ? 0 : 3), r.optimum.status << "\n" << dump(s));
}

// Each Z3 engine, repeatedly with a 1 ms limit on a 155-bid instance that no engine proves within it: every solve
// must come back (Deadline documents an overshoot of up to ~1 s; we allow 5 s) with a valid answer.
// Each solve runs in a child process, killed when it overruns, so a lost interrupt fails the test, not the suite.
// Measured on z3-optimize: 3 of 15 runs never returned; so 60 runs for it, 10 for the others.
BOOST_AUTO_TEST_CASE(every_z3_engine_returns_within_its_1ms_time_limit_on_155_bids) {
  const Instance s = generate_instance(8, 155);
  const double optimum = solve_instant_dp(s).objective;
  for (const auto& e : kZ3Engines) {
    BOOST_TEST_CONTEXT("engine " << e.name) {
      const int max_runs = e.engine == KnapsackEngine::kOptimize ? 60 : 10;
      int overruns = 0, runs = 0;
      for (; runs < max_runs && overruns == 0; ++runs) {
        const Isolated r = run_isolated(5.0, [&] {
          return time_limited_answer_problem(s, instant_z3(s, e.engine, 1), false, optimum);
        });
        if (!r.finished) ++overruns;
        BOOST_TEST(r.failure.empty(), "run " << runs << ": " << r.failure);
      }
      BOOST_TEST(overruns == 0, e.name << ": a solve with --timeout-ms 1 did not return within 5 s (run " << runs
                                       << " of " << max_runs << "); generate_instance(8, 155)");
    }
  }
}

// Timed Z3 with a 1 ms limit on 28 bids, whose full solve takes ~12 s here (Release, 2 cores): a solve that ignores
// its limit overruns the 5 s allowance (Deadline documents up to ~1 s overshoot). Measured: 26 of 40 runs overran.
BOOST_AUTO_TEST_CASE(timed_z3_returns_within_its_1ms_time_limit_on_28_bids) {
  const Instance s = generate_instance(8, 28);
  int overruns = 0, runs = 0;
  for (; runs < 10 && overruns == 0; ++runs) {
    SolveOptions o;
    o.timeout_ms = 1;
    const Isolated r = run_isolated(5.0, [&] { return time_limited_answer_problem(s, solve_timed_z3(s, o), true, -1); });
    if (!r.finished) ++overruns;
    BOOST_TEST(r.failure.empty(), "run " << runs << ": " << r.failure);
  }
  BOOST_TEST(overruns == 0, "timed z3 with a 1 ms limit did not return within 5 s (run " << runs
                                << " of 10); generate_instance(8, 28)");
}

// A solve the time limit interrupted may hand back a model Z3 never finished. The registry drops such a
// decision when the validator rejects it (unknown, exit 3), and still reports an internal error for the same decision
// from a solve that was not interrupted.
BOOST_AUTO_TEST_CASE(registry_drops_a_rejected_decision_only_from_an_interrupted_solve) {
  Instance s = make_site(4, 100, 1);
  s.bids = {make_bid("A", 3, 100, 10, 10), make_bid("B", 3, 100, 10, 10)};  // both together need 6 > 4 processors
  for (const bool interrupted : {true, false}) {
    BOOST_TEST_CONTEXT("interrupted " << interrupted) {
      auto spec = instant_problem().spec();
      spec.exact = {{{"overfull", "test", "accepts every bid"}, [interrupted](const Instance& i, const SolveOptions&) {
                       ExactResult<Admission> r;
                       r.status = ExactStatus::kOptimal;
                       r.decision = Admission{std::vector<bool>(i.bids.size(), true), std::vector<double>(i.bids.size(), 0.0)};
                       r.objective = total_incentive(i, *r.decision);
                       r.interrupted = interrupted;
                       return r;
                     }}};
      const SlaProblem problem(spec);
      CheckRequest request;
      request.exact = "overfull";
      if (!interrupted) {
        BOOST_CHECK_THROW(problem.check_instance(s, request), InternalError);
        continue;
      }
      const Report r = problem.check_instance(s, request);
      BOOST_TEST(r.optimum.status == "unknown");
      BOOST_TEST(r.optimum.decision.is_null());
      BOOST_TEST(r.optimum.detail.find("validator rejects") != std::string::npos, r.optimum.detail);
      BOOST_TEST(r.exit_code() == 3);
    }
  }
}

BOOST_AUTO_TEST_CASE(registry_rejects_unknown_exact_method_and_policy) {
  const Instance s = generate_instance(1, 3);
  CheckRequest request;
  request.policy = "greedy-backfilling";
  request.exact = "simplex";
  BOOST_CHECK_THROW(instant_problem().check_instance(s, request), std::invalid_argument);
  request.exact = "dp";
  request.policy = "random";
  BOOST_CHECK_THROW(instant_problem().check_instance(s, request), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(seeded_generator_is_deterministic) {
  // The same seed gives the same instance twice; different seeds differ.
  BOOST_TEST(dump(generate_instance(42, 12)) == dump(generate_instance(42, 12)));
  BOOST_TEST(dump(generate_instance(42, 12)) != dump(generate_instance(43, 12)));
}

BOOST_AUTO_TEST_CASE(dp_and_z3_optimize_agree_on_fixed_seeds_with_16_bids) {
  // A deterministic slice of the z3 properties, so that `exact` alone also covers the plain z3::optimize
  // encoding of Eq. 4-5. 16 bids: Z3 proves these in well under a second.
  for (std::uint64_t seed = 100; seed < 106; ++seed) {
    const Instance s = generate_instance(seed, 16);
    const auto dp = solve_instant_dp(s);
    const auto z3 = instant_z3(s, KnapsackEngine::kOptimize);
    BOOST_TEST_REQUIRE(z3.status == ExactStatus::kOptimal, z3.detail << "\n" << dump(s));
    BOOST_TEST(close_rel(dp.objective, z3.objective), "dp " << dp.objective << " vs z3 " << z3.objective << "\n" << dump(s));
    BOOST_TEST(validate_instant(s, *z3.decision).feasible);
  }
}

BOOST_AUTO_TEST_CASE(timed_bnb_and_z3_agree_on_fixed_seeds_with_10_bids) {
  // Above the sequence method's 8-bid limit: Z3 is the independent side (about 0.2 s each).
  for (std::uint64_t seed = 100; seed < 106; ++seed) {
    const Instance s = generate_instance(seed, 10);
    const auto bnb = solve_timed_bnb(s, SolveOptions{});
    const auto z3 = solve_timed_z3(s, z3_options());
    BOOST_TEST_REQUIRE(z3.status == ExactStatus::kOptimal, z3.detail << "\n" << dump(s));
    BOOST_TEST_REQUIRE(bnb.status == ExactStatus::kOptimal, bnb.detail << "\n" << dump(s));
    BOOST_TEST(close_rel(bnb.objective, z3.objective), "bnb " << bnb.objective << " vs z3 " << z3.objective << "\n" << dump(s));
    BOOST_TEST(validate_timed(s, *bnb.decision).feasible);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== rapidcheck properties without Z3

BOOST_AUTO_TEST_SUITE(properties_rc)

RC_BOOST_PROP(instant_heuristic_never_beats_dp_optimum_and_passes_properties, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 41);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  for (const char* policy : {"greedy-backfilling", "fcfs", "fcfs-blocking"}) {
    CheckRequest request;
    request.policy = policy;
    request.exact = "dp";
    const Report r = instant_problem().check_instance(s, request);
    RC_LOG() << policy << ": heuristic " << r.heuristic.objective << " (" << r.heuristic.status << ") vs dp "
             << r.optimum.objective << "\n";
    RC_ASSERT(r.heuristic.status == "feasible");
    RC_ASSERT(r.optimum.status == "optimal");
    for (const char* p : {"capacity", "deadline", "eligibility", "not-above-optimum"})
      RC_ASSERT(text(status_of(r, p)) == "holds");
    RC_ASSERT(r.heuristic.objective <= r.optimum.objective * (1 + 1e-9) + 1e-9);
  }
}

RC_BOOST_PROP(instant_dp_and_enumeration_agree_up_to_12_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 13);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto dp = solve_instant_dp(s);
  const auto en = solve_instant_enumeration(s);
  rc_assert_valid_answer(s, dp, validate_instant, "dp");
  rc_assert_valid_answer(s, en, validate_instant, "enumeration");
  RC_ASSERT(close_rel(dp.objective, en.objective));
}

RC_BOOST_PROP(instant_dp_and_enumeration_agree_on_tie_heavy_instances, ()) {
  const Instance s = *tie_heavy_instance(10);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto dp = solve_instant_dp(s);
  const auto en = solve_instant_enumeration(s);
  rc_assert_valid_answer(s, dp, validate_instant, "dp");
  rc_assert_valid_answer(s, en, validate_instant, "enumeration");
  RC_ASSERT(close_rel(dp.objective, en.objective));
  for (const auto& a : {greedy_backfilling(s), fcfs(s), fcfs_blocking(s)}) {
    const Verdict v = validate_instant(s, a);
    RC_LOG() << "heuristic verdict: " << v.reason << " objective " << v.objective << "\n";
    RC_ASSERT(v.feasible);
    RC_ASSERT(v.objective <= dp.objective * (1 + 1e-9) + 1e-9);
  }
}

RC_BOOST_PROP(instant_core_dp_and_enumeration_agree_on_adversarial_knapsacks, ()) {
  const Instance s = *adversarial_knapsack_instance(16);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto dp = solve_instant_dp(s);
  rc_assert_same_optimum(s, dp, "dp", solve_instant_enumeration(s), "enumeration", validate_instant);
  for (const auto& [name, r] : {std::pair{"core", solve_instant_core(s, SolveOptions{})},
                                std::pair{"core from greedy", solve_instant_core(s, SolveOptions{}, {greedy_backfilling(s)})},
                                std::pair{"core from fcfs", solve_instant_core(s, SolveOptions{}, {fcfs(s)})}})
    rc_assert_same_optimum(s, dp, "dp", r, name, validate_instant);
}

RC_BOOST_PROP(instant_core_and_dp_agree_up_to_300_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 301);
  Instance s = generate_instance(seed, n);
  s.site.budget_test = *rc::gen::arbitrary<bool>();
  RC_LOG() << "instance: generate_instance(" << seed << ", " << n << "), budget test " << s.site.budget_test << "\n";
  const auto dp = solve_instant_dp(s);
  const auto core = solve_instant_core(s, SolveOptions{}, {greedy_backfilling(s)});
  if (!close_rel(dp.objective, core.objective)) RC_LOG() << dump(s) << "\n";
  rc_assert_same_optimum(s, dp, "dp", core, "core from greedy", validate_instant);
}

// The knapsack engine itself against every subset, with a random feasible start: weights and values from few
// distinct numbers (ties, equal ratios), some heavier than the capacity, some worth nothing.
RC_BOOST_PROP(knapsack_core_agrees_with_every_subset_up_to_14_items, ()) {
  const auto n = *rc::gen::inRange<std::size_t>(0, 15);
  std::vector<knapsack::Item> items;
  for (std::size_t i = 0; i < n; ++i)
    items.push_back({"i" + std::to_string(i), *rc::gen::inRange(1, 40), *rc::gen::element(0.0, 1.0, 2.0, 3.5, 7.0, 10.0)});
  const long long capacity = *rc::gen::inRange<long long>(0, 120);
  std::vector<bool> start(n, false);
  long long used = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (*rc::gen::arbitrary<bool>() && used + items[i].weight <= capacity) {
      start[i] = true;
      used += items[i].weight;
    }
  double best = 0;
  for (std::uint32_t mask = 0; mask < (std::uint32_t{1} << n); ++mask) {
    long long w = 0;
    double v = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (mask >> i & 1U) {
        w += items[i].weight;
        v += items[i].value;
      }
    if (w <= capacity) best = std::max(best, v);
  }
  const auto s = knapsack::solve_core(items, capacity, SolveOptions{}, {start});
  std::string shown = "capacity " + std::to_string(capacity) + ", items (weight, value):";
  for (const auto& item : items) shown += fmt::format(" ({}, {})", item.weight, item.value);
  RC_LOG() << shown << "\ncore " << s.value << " (" << to_string(s.status) << "), every subset " << best << "\n";
  RC_ASSERT(s.status == ExactStatus::kOptimal);
  long long w = 0;
  double v = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (s.take[i]) {
      w += items[i].weight;
      v += items[i].value;
    }
  RC_ASSERT(w <= capacity);
  RC_ASSERT(close_rel(v, s.value));
  RC_ASSERT(close_rel(v, best));
}

RC_BOOST_PROP(timed_bnb_and_sequences_agree_up_to_7_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 8);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  rc_assert_same_optimum(s, solve_timed_sequences(s), "timed sequences", solve_timed_bnb(s, SolveOptions{}), "timed bnb",
                         validate_timed);
}

RC_BOOST_PROP(timed_bnb_and_sequences_agree_on_tie_heavy_instances, ()) {
  const Instance s = *tie_heavy_instance(7);
  RC_LOG() << "instance: " << dump(s) << "\n";
  rc_assert_same_optimum(s, solve_timed_sequences(s), "timed sequences",
                         solve_timed_bnb(s, SolveOptions{}, {greedy_backfilling_timed(s)}), "timed bnb from greedy",
                         validate_timed);
}

// From each policy's decision or from none, bnb proves the same optimum, never below the policies (up to 30 bids:
// the generator's instances are decided in milliseconds, docs/performance.md).
RC_BOOST_PROP(timed_bnb_from_any_policy_decision_proves_the_same_optimum_up_to_30_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 31);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: generate_instance(" << seed << ", " << n << ") = " << dump(s) << "\n";
  SolveOptions o;
  o.timeout_ms = 60'000;
  const auto alone = solve_timed_bnb(s, o);
  for (const auto& policy : {greedy_backfilling_timed(s), fcfs_timed(s), fcfs_blocking_timed(s)}) {
    rc_assert_same_optimum(s, alone, "timed bnb", solve_timed_bnb(s, o, {policy}), "timed bnb from a policy",
                           validate_timed);
    RC_ASSERT(validate_timed(s, policy).objective <= alone.objective * (1 + 1e-9) + 1e-9);
  }
}

RC_BOOST_PROP(timed_heuristic_never_beats_sequences_optimum_up_to_7_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 8);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  for (const char* policy : {"greedy-backfilling", "fcfs", "fcfs-blocking"}) {
    CheckRequest request;
    request.policy = policy;
    request.exact = "sequences";
    const Report r = timed_problem().check_instance(s, request);
    RC_LOG() << policy << ": heuristic " << r.heuristic.objective << " (" << r.heuristic.status << ": "
             << r.heuristic.detail << ") vs sequences " << r.optimum.objective << "\n";
    RC_ASSERT(r.heuristic.status == "feasible");
    RC_ASSERT(r.optimum.status == "optimal");
    for (const char* p : {"capacity", "deadline", "eligibility", "not-above-optimum"})
      RC_ASSERT(text(status_of(r, p)) == "holds");
  }
}

RC_BOOST_PROP(timed_heuristics_and_sequences_pass_validator_on_tie_heavy_instances, ()) {
  const Instance s = *tie_heavy_instance(6);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto seq = solve_timed_sequences(s);
  rc_assert_valid_answer(s, seq, validate_timed, "sequences");
  for (const auto& a : {greedy_backfilling_timed(s), fcfs_timed(s), fcfs_blocking_timed(s)}) {
    const Verdict v = validate_timed(s, a);
    RC_LOG() << "heuristic verdict: " << v.reason << " objective " << v.objective << "\n";
    RC_ASSERT(v.feasible);
    RC_ASSERT(v.objective <= seq.objective * (1 + 1e-9) + 1e-9);
  }
}

// Cross-check between the two problems. If every deadline equals the response time (d = D, so each accepted job
// must start now) and every running job outlasts every deadline, the timed problem is the instant one: the
// accepted jobs all run over [0, ...) beside the running jobs, on r = p_m - running processors.
RC_BOOST_PROP(timed_with_deadline_equal_to_D_equals_instant_dp_and_policies, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 8);
  Instance s = generate_instance(seed, n);
  for (auto& b : s.bids) b.deadline = response_time(s.site, b);  // eligibility (de, b) unchanged
  for (auto& r : s.running) r.remaining = 1e7;                   // > every D (at most ~1020 s)
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto seq = solve_timed_sequences(s);
  const auto dp = solve_instant_dp(s);
  const auto bnb = solve_timed_bnb(s, SolveOptions{});
  rc_assert_valid_answer(s, seq, validate_timed, "timed sequences");
  rc_assert_valid_answer(s, dp, validate_instant, "instant dp");
  rc_assert_valid_answer(s, bnb, validate_timed, "timed bnb");
  RC_ASSERT(close_rel(seq.objective, dp.objective));
  RC_ASSERT(close_rel(bnb.objective, dp.objective));
  RC_LOG() << "greedy timed " << nlohmann::json(accepted_ids(s, greedy_backfilling_timed(s))).dump() << " instant "
           << nlohmann::json(accepted_ids(s, greedy_backfilling(s))).dump() << "\n";
  RC_ASSERT(accepted_ids(s, greedy_backfilling_timed(s)) == accepted_ids(s, greedy_backfilling(s)));
  RC_LOG() << "fcfs timed " << nlohmann::json(accepted_ids(s, fcfs_timed(s))).dump() << " instant "
           << nlohmann::json(accepted_ids(s, fcfs(s))).dump() << "\n";
  RC_ASSERT(accepted_ids(s, fcfs_timed(s)) == accepted_ids(s, fcfs(s)));
  RC_ASSERT(accepted_ids(s, fcfs_blocking_timed(s)) == accepted_ids(s, fcfs_blocking(s)));
}

// The same reduction at up to 40 bids, bnb against the instant DP (no other timed method reaches 40).
RC_BOOST_PROP(timed_bnb_with_deadline_equal_to_D_equals_instant_dp_up_to_40_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 41);
  Instance s = generate_instance(seed, n);
  for (auto& b : s.bids) b.deadline = response_time(s.site, b);
  for (auto& r : s.running) r.remaining = 1e7;
  RC_LOG() << "instance: " << dump(s) << "\n";
  SolveOptions o;
  o.timeout_ms = 60'000;
  const auto bnb = solve_timed_bnb(s, o);
  const auto dp = solve_instant_dp(s);
  rc_assert_valid_answer(s, bnb, validate_timed, "timed bnb");
  rc_assert_valid_answer(s, dp, validate_instant, "instant dp");
  RC_ASSERT(close_rel(bnb.objective, dp.objective));
}

// With no running jobs and deadlines far beyond the sum of all response times, every eligible job can run in
// sequence, so the timed optimum is the sum of the eligible incentives and both timed policies accept them all.
// (The instant problem is a knapsack over r = p_m and is in general smaller: it is not equal.)
RC_BOOST_PROP(timed_with_huge_deadlines_accepts_every_eligible_bid, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 8);
  Instance s = generate_instance(seed, n);
  s.running.clear();
  s.site.free_processors = s.site.processors;
  for (auto& b : s.bids) b.deadline = 1e9;
  RC_LOG() << "instance: " << dump(s) << "\n";
  const double all = eligible_incentive_sum(s);
  const auto seq = solve_timed_sequences(s);
  const auto bnb = solve_timed_bnb(s, SolveOptions{});
  rc_assert_valid_answer(s, seq, validate_timed, "timed sequences");
  rc_assert_valid_answer(s, bnb, validate_timed, "timed bnb");
  RC_ASSERT(close_rel(seq.objective, all));
  RC_ASSERT(close_rel(bnb.objective, all));
  for (const auto& a : {greedy_backfilling_timed(s), fcfs_timed(s), fcfs_blocking_timed(s)}) {
    const Verdict v = validate_timed(s, a);
    RC_LOG() << "heuristic verdict: " << v.reason << " objective " << v.objective << " vs " << all << "\n";
    RC_ASSERT(v.feasible);
    RC_ASSERT(close_rel(v.objective, all));
  }
  const auto dp = solve_instant_dp(s);
  RC_ASSERT(dp.objective <= all * (1 + 1e-9) + 1e-9);
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== rapidcheck properties with Z3

BOOST_AUTO_TEST_SUITE(properties_z3)

RC_BOOST_PROP(instant_dp_and_z3_lia_and_wmax_agree_up_to_25_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 26);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto dp = solve_instant_dp(s);
  rc_assert_valid_answer(s, dp, validate_instant, "dp");
  for (const auto engine : {KnapsackEngine::kLia, KnapsackEngine::kWmax}) {
    const auto z3 = instant_z3(s, engine);
    const char* name = engine == KnapsackEngine::kLia ? "z3" : "z3-wmax";
    rc_assert_valid_answer(s, z3, validate_instant, name);
    RC_ASSERT(close_rel(dp.objective, z3.objective));
  }
}

RC_BOOST_PROP(instant_dp_and_z3_lia_agree_up_to_80_bids, ()) {
  // The default engine is documented to prove 1,000 bids in about a second; 80 keeps the suite quick.
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(26, 81);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto dp = solve_instant_dp(s);
  const auto z3 = instant_z3(s, KnapsackEngine::kLia);
  rc_assert_valid_answer(s, dp, validate_instant, "dp");
  rc_assert_valid_answer(s, z3, validate_instant, "z3");
  RC_ASSERT(close_rel(dp.objective, z3.objective));
}

// Plain z3::optimize (Eq. 4-5 as written): its optimality proof on the generator's real-valued incentives can take
// seconds from ~20 bids on (measured: 2 of 6 seeds at 25 bids not proven in 5 s; with 100 cases and a 20 s limit
// one case ran into the limit and the property took 28 s). So it gets 5 s here; not proving is not a
// disagreement (tagged), but an unproven answer must still be valid and no better than the DP optimum.
RC_BOOST_PROP(instant_dp_and_z3_optimize_agree_up_to_25_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 26);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto dp = solve_instant_dp(s);
  rc_assert_valid_answer(s, dp, validate_instant, "dp");
  const auto z3 = instant_z3(s, KnapsackEngine::kOptimize, 5'000);
  if (z3.status != ExactStatus::kOptimal) {
    RC_TAG("z3-optimize not proven within 5 s");
    RC_LOG() << "z3-optimize: " << to_string(z3.status) << " " << z3.detail << "\n";
    if (z3.decision) {
      const Verdict v = validate_instant(s, *z3.decision);
      RC_ASSERT(v.feasible);
      RC_ASSERT(v.objective <= dp.objective * (1 + 1e-9) + 1e-9);
    }
    return;
  }
  rc_assert_valid_answer(s, z3, validate_instant, "z3-optimize");
  RC_ASSERT(close_rel(dp.objective, z3.objective));
}

// Whatever an engine returns when its time limit strikes mid-solve must be a valid decision (or none), and it
// must return at all: the registry rechecks exact answers and turns an invalid one into an internal error (exit 4).
// Each solve runs in a child process killed after 10 s. Not shrunk: whether a limit strikes is timing-dependent.
RC_BOOST_PROP(instant_z3_engines_return_valid_decisions_promptly_under_1ms_limit, ()) {
  const auto seed = *rc::gen::noShrink(rc::gen::arbitrary<std::uint64_t>());
  const auto n = *rc::gen::noShrink(rc::gen::inRange<std::size_t>(30, 201));
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: generate_instance(" << seed << ", " << n << ") = " << dump(s) << "\n";
  const double optimum = solve_instant_dp(s).objective;
  for (const auto& e : kZ3Engines) {
    const Isolated r = run_isolated(10.0, [&] {
      return time_limited_answer_problem(s, instant_z3(s, e.engine, 1), false, optimum);
    });
    RC_LOG() << e.name << " with a 1 ms limit: " << (r.finished ? "returned" : "HUNG") << " after " << r.seconds
             << " s; " << r.failure << "\n";
    // Printed now: rapidcheck re-runs the failing case to report it, and a timing-dependent hang may not recur.
    if (!r.finished || !r.failure.empty())
      std::cerr << e.name << " with a 1 ms limit on generate_instance(" << seed << ", " << n << "): " << r.failure << "\n";
    RC_ASSERT(r.finished);
    RC_ASSERT(r.failure.empty());
  }
}

RC_BOOST_PROP(timed_z3_returns_valid_decision_promptly_under_short_limit, ()) {
  const auto seed = *rc::gen::noShrink(rc::gen::arbitrary<std::uint64_t>());
  const auto n = *rc::gen::noShrink(rc::gen::inRange<std::size_t>(8, 16));
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: generate_instance(" << seed << ", " << n << ") = " << dump(s) << "\n";
  SolveOptions o;
  o.timeout_ms = *rc::gen::noShrink(rc::gen::element(1u, 20u));
  const Isolated r = run_isolated(10.0, [&] { return time_limited_answer_problem(s, solve_timed_z3(s, o), true, -1); });
  RC_LOG() << "timed z3 (" << o.timeout_ms << " ms): " << (r.finished ? "returned" : "HUNG") << " after " << r.seconds
           << " s; " << r.failure << "\n";
  if (!r.finished || !r.failure.empty())
    std::cerr << "timed z3 with a " << o.timeout_ms << " ms limit on generate_instance(" << seed << ", " << n
              << "): " << r.failure << "\n";
  RC_ASSERT(r.finished);
  RC_ASSERT(r.failure.empty());
}

// Every instant method (dp first, then enumeration and each Z3 engine) proves the same optimum, validated.
void rc_assert_all_instant_methods_agree(const Instance& s) {
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto results = all_instant_methods(s);
  const double reference = results.front().second.objective;  // dp
  for (const auto& [name, r] : results) {
    rc_assert_valid_answer(s, r, validate_instant, name.c_str());
    RC_ASSERT(close_rel(r.objective, reference));
  }
}

RC_BOOST_PROP(instant_enumeration_dp_and_every_z3_engine_agree_up_to_12_bids_tie_heavy, ()) {
  const Instance s = *tie_heavy_instance(12);
  rc_assert_all_instant_methods_agree(s);
}

RC_BOOST_PROP(instant_enumeration_dp_and_every_z3_engine_agree_up_to_12_bids_generated, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 13);
  const Instance s = generate_instance(seed, n);
  rc_assert_all_instant_methods_agree(s);
}

RC_BOOST_PROP(instant_heuristic_never_beats_z3_optimum_via_registry, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 21);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  for (const char* policy : {"greedy-backfilling", "fcfs", "fcfs-blocking"}) {
    CheckRequest request;
    request.policy = policy;
    request.exact = *rc::gen::element(std::string("z3"), std::string("z3-wmax"));
    request.solve = z3_options();
    const Report r = instant_problem().check_instance(s, request);  // throws InternalError on a bad z3 answer
    RC_LOG() << policy << ": " << r.heuristic.objective << " vs z3 " << r.optimum.objective << "\n";
    RC_ASSERT(r.optimum.status == "optimal");
    RC_ASSERT(text(status_of(r, "not-above-optimum")) == "holds");
  }
}

RC_BOOST_PROP(timed_z3_bnb_and_sequences_agree_up_to_7_bids, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto n = *rc::gen::inRange<std::size_t>(0, 8);
  const Instance s = generate_instance(seed, n);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto z3 = solve_timed_z3(s, z3_options());
  const auto seq = solve_timed_sequences(s);
  const auto bnb = solve_timed_bnb(s, SolveOptions{});
  rc_assert_valid_answer(s, z3, validate_timed, "timed z3");
  rc_assert_valid_answer(s, seq, validate_timed, "timed sequences");
  rc_assert_valid_answer(s, bnb, validate_timed, "timed bnb");
  RC_ASSERT(close_rel(z3.objective, seq.objective));
  RC_ASSERT(close_rel(z3.objective, bnb.objective));
  for (const auto& a : {greedy_backfilling_timed(s), fcfs_timed(s), fcfs_blocking_timed(s)}) {
    const Verdict v = validate_timed(s, a);
    RC_ASSERT(v.feasible);
    RC_ASSERT(v.objective <= z3.objective * (1 + 1e-9) + 1e-9);
  }
}

RC_BOOST_PROP(timed_z3_bnb_and_sequences_agree_on_tie_heavy_instances, ()) {
  const Instance s = *tie_heavy_instance(6);
  RC_LOG() << "instance: " << dump(s) << "\n";
  const auto z3 = solve_timed_z3(s, z3_options());
  const auto seq = solve_timed_sequences(s);
  const auto bnb = solve_timed_bnb(s, SolveOptions{});
  rc_assert_valid_answer(s, z3, validate_timed, "timed z3");
  rc_assert_valid_answer(s, seq, validate_timed, "timed sequences");
  rc_assert_valid_answer(s, bnb, validate_timed, "timed bnb");
  RC_ASSERT(close_rel(z3.objective, seq.objective));
  RC_ASSERT(close_rel(z3.objective, bnb.objective));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_exact
