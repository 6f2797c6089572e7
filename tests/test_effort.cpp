// Suite `effort`: the machine-independent effort budget (SolveOptions::effort, solver/result.hpp) of the exact methods
// through the registry (so every answer is re-checked by the validator): a small budget on an instance that needs
// more stops the method with the budget's wording, the same answer on every run and whatever the time limit; a large
// budget proves the optimum. Z3, branch and bound, Gecode, CaDiCaL, CBC and the `auto` chooser. Source: our own.
#include "counterexamples/builtin.hpp"
#include "properties/registry.hpp"
#include "solver/result.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>

namespace test_effort {

using namespace schedcheck;

namespace {

const Registry& registry() {
  static const Registry r = make_builtin_registry();
  return r;
}

// One method on one generated instance that the small budget does not settle (measured; the large one does).
struct Case {
  std::string problem, method;
  std::uint64_t seed;
  std::size_t size;
  std::uint64_t small;
};

const Case kCases[] = {
    {"offers", "bnb", 3, 10, 100},
    {"offers", "auto", 3, 10, 100},
    {"offers", "sat", 3, 10, 100},
    {"offers", "gecode", 1, 10, 100},
    {"offers", "z3", 1, 6, 100},
    {"offers", "mip", 5, 20, 1},
    {"deadline-feasibility", "sat", 2, 20, 10},
    {"sla-admission", "z3", 1, 100, 5},
    {"sla-admission-timed", "bnb", 1, 30, 5},
    {"queue-window", "bnb", 1, 10, 20},
    {"queue-window", "gecode", 1, 8, 20},
    {"dbc-cost-time", "bnb", 1, 20, 20},
};

SideReport solve(const Case& c, unsigned timeout_ms, std::uint64_t effort) {
  const Problem& problem = registry().get(c.problem);
  CheckRequest request;
  request.exact = c.method;
  request.solve.timeout_ms = timeout_ms;
  request.solve.effort = effort;
  return problem.check(problem.generate(c.seed, c.size), "(test)", request).optimum;
}

std::string name(const Case& c) {
  return c.problem + " " + c.method + " seed " + std::to_string(c.seed) + " size " + std::to_string(c.size);
}

bool proven(const SideReport& side) { return side.status == "optimal" || side.status == "infeasible"; }

}  // namespace

BOOST_AUTO_TEST_SUITE(effort)

BOOST_AUTO_TEST_CASE(the_wording_of_the_budget) {
  BOOST_TEST(effort_budget_reached(1200) == "effort budget of 1200 reached");
  BOOST_TEST(effort_budget_reached(7, "; best found 3") == "effort budget of 7 reached; best found 3");
  EffortMeter none(0);
  for (int i = 0; i < 1000; ++i) none.spend(1'000'000);
  BOOST_TEST(!none.spent());
  BOOST_TEST(none.next_limit() == 0U);
  EffortMeter three(3);
  BOOST_TEST(!three.spend(3));
  BOOST_TEST(three.spend());
  BOOST_TEST(limit_reached(three, 500) == "effort budget of 3 reached");
  EffortMeter unspent(3);
  BOOST_TEST(limit_reached(unspent, 500) == "time limit of 500 ms reached");
  // 50 units at 20 units a step: 2 steps; at 4 steps a unit: 200.
  BOOST_TEST(EffortMeter(50, 20).left() == 2U);
  BOOST_TEST(EffortMeter(50, 1, 4).left() == 200U);
  BOOST_TEST(EffortMeter(1, 50).next_limit() == 1U);  // a budget below one step still allows one
}

BOOST_AUTO_TEST_CASE(a_small_budget_stops_every_method_the_same_way_whatever_the_time_limit) {
  for (const Case& c : kCases) {
    BOOST_TEST_CONTEXT(name(c)) {
      const SideReport first = solve(c, 60'000, c.small);
      BOOST_TEST(!proven(first), "status " << first.status << ": " << first.detail);
      BOOST_TEST(first.detail.find(effort_budget_reached(c.small)) != std::string::npos, first.detail);
      BOOST_TEST(first.detail.find("time limit") == std::string::npos, first.detail);
      const SideReport again = solve(c, 60'000, c.small);
      const SideReport shorter = solve(c, 30'000, c.small);
      for (const SideReport* other : {&again, &shorter}) {
        BOOST_TEST(other->status == first.status);
        BOOST_TEST(other->objective == first.objective);
        BOOST_TEST(other->detail == first.detail);
        BOOST_TEST(other->decision == first.decision);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_large_budget_proves_the_optimum) {
  for (const Case& c : kCases) {
    BOOST_TEST_CONTEXT(name(c)) {
      const SideReport side = solve(c, 60'000, 1'000'000'000);
      BOOST_TEST(proven(side), "status " << side.status << ": " << side.detail);
      const SideReport unlimited = solve(c, 60'000, 0);
      BOOST_TEST(side.status == unlimited.status);
      BOOST_TEST(side.objective == unlimited.objective);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_effort
