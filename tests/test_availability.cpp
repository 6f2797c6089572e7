// Suite `availability`: paper 002's InterGrid gateway (experiments/availability/gateway.hpp) over two conservative
// providers on hand-computed traces (arithmetic in comments): earliest-ask plans every start exactly and asks every
// provider before each job; earliest-periodic plans on the last reports and is late where they are stale (a
// violation: more than T = 20 s after the planned start). Every choice is also checked against the exact
// gateway-choice on the providers' true profiles. Our own cases.
#include "counterexamples/builtin.hpp"
#include "experiments/availability/gateway.hpp"
#include "model/gateway_choice.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/simulation.hpp"
#include "solver/gateway_choice_exact.hpp"
#include "tests/helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <memory>

namespace test_availability {

using namespace schedcheck;
using availability::GatewayPolicy;

namespace {

struct Outcome {
  std::map<std::int64_t, double> start, planned;
  std::map<std::int64_t, long> provider;
  std::map<std::string, std::size_t> sent;
  std::size_t violations = 0;  // start more than 20 s after the planned start
  std::size_t choices = 0, choices_at_optimum = 0, choices_feasible = 0;
  std::size_t refusals = 0;  // advance reservations refused: violations too
};

Outcome run(const workload::Workload& w, GatewayPolicy policy, double slots_period, std::vector<char> constrained = {}) {
  sim::Simulation s(w.jobs);
  std::vector<availability::GatewayActor::ProviderLink> links;
  std::vector<sim::ClusterActor*> clusters;
  for (int k = 0; k < 2; ++k) {
    sim::ClusterSetup setup;
    setup.name = k == 0 ? "A" : "B";
    setup.processors = 4;
    setup.policy = cluster::cluster_policy("conservative");
    auto& c = s.add_cluster(setup);  // actors 0 and 1
    c.link(sim::ClusterActor::Links{2, 0, 0, 0, slots_period, 0});
    clusters.push_back(&c);
    links.push_back({static_cast<sim::ActorId>(k), 4});
  }
  auto& gateway = s.add_actor(
      std::make_unique<availability::GatewayActor>(s.book(), links, false, availability::GatewaySetup{policy, 0}),
      "gateway");
  gateway.reserve_for(std::move(constrained));
  Outcome out;
  // The probe: each choice against the earliest start on the providers' true profiles (running jobs until their
  // estimated ends and reservations), the gateway's known slots as the published ones.
  std::vector<const sim::ClusterState*> states;
  for (const auto* c : clusters) states.push_back(&c->state());
  gateway.probe([&](const availability::ChoiceView& v) {
    const gateway::Instance i = availability::choice_instance(v, states, s.book());
    const auto exact = gateway::solve_scan(i, {});
    const gateway::Choice mine = availability::choice_of(v);
    ++out.choices;
    out.choices_at_optimum += exact.decision && exact.decision->provider == mine.provider &&
                              std::abs(exact.objective - mine.start) <= 1e-6;
    out.choices_feasible += gateway::validate(i, mine).feasible;
  });
  const sim::RunResult r = s.run();
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    const auto id = w.jobs[j].id;
    out.start[id] = r.records[j].start;
    out.planned[id] = gateway.planned()[j];
    out.provider[id] = gateway.provider_of()[j];
    out.violations += r.records[j].start > gateway.planned()[j] + 20;
    out.refusals += static_cast<std::size_t>(gateway.refusals()[j]);
  }
  out.sent = r.messages_sent;
  return out;
}

// Two providers of 4. j1 (4, 100 s) at 1: both free, A (the first). j2 (4, 100 s) at 10: A is busy until 101, B is
// free: B at 10. j3 (2, 50 s) at 20: A from 101, B from 110: A at 101. j4 (2, 30 s) at 30: A at 101 beside j3.
const workload::Workload kTrace =
    test::make_trace(4, {{1, 1, 100, 100, 4}, {2, 10, 100, 100, 4}, {3, 20, 50, 50, 2}, {4, 30, 30, 30, 2}});

}  // namespace

BOOST_AUTO_TEST_SUITE(availability)

BOOST_AUTO_TEST_CASE(earliest_ask_plans_every_start_exactly) {
  const Outcome o = run(kTrace, GatewayPolicy::kEarliestAsk, 0);
  const std::map<std::int64_t, long> provider = {{1, 0}, {2, 1}, {3, 0}, {4, 0}};
  const std::map<std::int64_t, double> start = {{1, 1}, {2, 10}, {3, 101}, {4, 101}};
  for (const auto& [id, p] : provider) {
    BOOST_TEST(o.provider.at(id) == p, "job " << id);
    BOOST_TEST(o.planned.at(id) == start.at(id), "job " << id);
    BOOST_TEST(o.start.at(id) == start.at(id), "job " << id);
  }
  BOOST_TEST(o.violations == 0u);
  BOOST_TEST(o.sent.at("slot-ask") == 8u);  // both providers, before each of 4 jobs
  BOOST_TEST(o.sent.at("slots") == 8u);
  BOOST_TEST(o.sent.at("job") == 4u);
  BOOST_TEST(o.choices == 4u);
  BOOST_TEST(o.choices_at_optimum == 4u);  // fresh slots: every choice is the exact earliest start
  BOOST_TEST(o.choices_feasible == 4u);
}

BOOST_AUTO_TEST_CASE(earliest_periodic_is_late_where_its_slots_are_stale) {
  // Reports every 50 s from 0; j1 to j4 all come before the report of 50, so every choice reads the reports of 0
  // (both providers empty) and picks A at its submit time. j1 at 1: right. j2 at 10: A runs j1 until 101 and
  // starts j2 there (91 s late). j3 (2, 50 s) at 20 and j4 (2, 30 s) at 30: conservative A reserves them after j2,
  // at 201, side by side. Three violations.
  const Outcome o = run(kTrace, GatewayPolicy::kEarliestPeriodic, 50);
  BOOST_TEST(o.provider.at(2) == 0);
  BOOST_TEST(o.planned.at(2) == 10.0);
  BOOST_TEST(o.start.at(2) == 101.0);
  BOOST_TEST(o.planned.at(3) == 20.0);
  BOOST_TEST(o.start.at(3) == 201.0);
  BOOST_TEST(o.start.at(4) == 201.0);
  BOOST_TEST(o.violations == 3u);
  BOOST_TEST(o.sent.count("slot-ask") == 0u);
  BOOST_TEST(o.choices_at_optimum == 1u);  // only j1's choice was right
  BOOST_TEST(o.choices_feasible == 1u);    // the others cannot start where and when planned: the stale reports
}

BOOST_AUTO_TEST_CASE(a_refused_reservation_is_a_violation_and_the_fresh_slots_send_the_job_elsewhere) {
  // As above, with j2 deadline-constrained: the gateway asks A for a reservation at 10; A (j1 until 101) refuses and
  // sends its slots; the gateway chooses again, B at 10 (its report of 0, still true), which holds and is
  // confirmed: j2 starts at 10 on B. j3 and j4 then go to B on its report of 0 (B runs j2 until 110): late.
  const Outcome o = run(kTrace, GatewayPolicy::kEarliestPeriodic, 50, {0, 1, 0, 0});
  BOOST_TEST(o.refusals == 1u);
  BOOST_TEST(o.provider.at(2) == 1);
  BOOST_TEST(o.start.at(2) == 10.0);
  BOOST_TEST(o.planned.at(2) == 10.0);
  BOOST_TEST(o.provider.at(3) == 1);
  BOOST_TEST(o.start.at(3) == 110.0);
  BOOST_TEST(o.start.at(4) == 110.0);
  BOOST_TEST(o.violations == 2u);  // j3, j4 late; with the refusal, 3 violations
  BOOST_TEST(o.sent.at("reservation-request") == 2u);
  BOOST_TEST(o.sent.at("reservation-refused") == 1u);
  BOOST_TEST(o.sent.at("reservation-held") == 1u);
  BOOST_TEST(o.sent.at("reservation-confirm") == 1u);
  BOOST_TEST(o.sent.at("job") == 3u);  // j2 arrives with its confirmation
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_availability
