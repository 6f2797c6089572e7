// Suite `auction_model`: paper 003's auction system by hand — Eq. 1's split (the 62.5% / 37.5% example of sec. 3.2,
// the one-PE cap), Eq. 3's charge and the surcharge, the time-shared resource under both recompute readings, the
// three cases of Eq. 6 at their boundaries, Eq. 4, the brokers' submissions, the Local Domain's D/2 switch, the
// scenario reader's bad input, and the run properties on the paper's scenario and on a wrong charge. Our own numbers.
#include "model/auction.hpp"
#include "model/auction_broker.hpp"
#include "model/auction_scenario.hpp"
#include "model/input.hpp"
#include "properties/auction_properties.hpp"
#include "reference/auction_brokers.hpp"
#include "simulation/auction_system.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>

namespace test_auction {

using namespace schedcheck;
using namespace schedcheck::auction;

namespace {

constexpr double kTight = 1e-9;

// Runs a resource with every task submitted at 0 to its end, interval boundary by boundary; returns (user, time).
std::map<std::size_t, double> run_resource(TimeShared& ts) {
  std::map<std::size_t, double> finish;
  double boundary = ts.interval();
  for (int guard = 0; guard < 100000; ++guard) {
    const double next = std::min(ts.next_completion(), boundary);
    if (std::isinf(next)) break;
    for (const Completion& c : ts.advance_to(next)) finish[c.user] = c.time;
    if (next == boundary) {
      ts.begin_interval();
      boundary += ts.interval();
    }
    bool any = false;
    for (const Account& a : ts.accounts()) any = any || !a.tasks.empty();
    if (!any) break;
  }
  return finish;
}

Resource one_pe(double mips) {
  return Resource{.name = "R", .pes = 1, .mips = mips, .min_bid = 1, .max_bid = 100, .domains = {"A"}};
}

ResourceView view(double bid, double min_bid = 5, double max_bid = 500) {
  return ResourceView{.resource = 0, .name = "R", .local = true, .pes = 4, .mips = 1050, .min_bid = min_bid,
                      .max_bid = max_bid, .account = true, .share = 1000, .bid = bid, .remaining = 1, .tasks = 1};
}

nlohmann::json paper_scenario() { return read_json_file(SCHEDCHECK_SOURCE_DIR "/examples/scenarios/auction.json"); }

ScenarioNames names() { return {broker_policy_names(), brokers_needing_bid()}; }

void expect_bad(const nlohmann::json& document, const std::string& field) {
  try {
    read_scenario(document, "s.json", names());
    BOOST_ERROR("accepted a scenario with a bad " << field);
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find(field) != std::string::npos, e.what() << " does not name " << field);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(auction_model)

BOOST_AUTO_TEST_CASE(worked_example_of_section_3_2) {
  // Bids 10 and 6 for the same 20 minutes: 10 / 16 = 62.5%, 6 / 16 = 37.5%.
  const std::vector<double> s = split({10, 6}, 100, 100);
  BOOST_TEST(std::fabs(s[0] - 62.5) < kTight);
  BOOST_TEST(std::fabs(s[1] - 37.5) < kTight);
}

BOOST_AUTO_TEST_CASE(split_under_the_one_pe_cap) {
  // 300 MIPS, one task at most 150: bids 6, 1, 1 would get 225, 37.5, 37.5; the first is capped at 150 and the 150
  // left go 1:1 to the others, 75 each.
  const std::vector<double> s = split({6, 1, 1}, 300, 150);
  BOOST_TEST(std::fabs(s[0] - 150) < kTight);
  BOOST_TEST(std::fabs(s[1] - 75) < kTight);
  BOOST_TEST(std::fabs(s[2] - 75) < kTight);
  // Two users on 4 PEs of 1000: 3000 and 1000 by bids 3:1, both capped at one PE, 2000 in all (fewer users than PEs).
  const std::vector<double> t = split({3, 1}, 4000, 1000);
  BOOST_TEST(std::fabs(t[0] - 1000) < kTight);
  BOOST_TEST(std::fabs(t[1] - 1000) < kTight);
  // Under the total reading, R0 (4 PEs, C 1050) has 1050 MIPS, one task at most 262.5.
  const Resource r0{.name = "R0", .pes = 4, .mips = 1050, .min_bid = 5, .max_bid = 500, .domains = {"B"}};
  BOOST_TEST(total_mips(r0, Capacity::kPerPe) == 4200);
  BOOST_TEST(task_mips_cap(r0, Capacity::kPerPe) == 1050);
  BOOST_TEST(total_mips(r0, Capacity::kTotal) == 1050);
  BOOST_TEST(task_mips_cap(r0, Capacity::kTotal) == 262.5);
  BOOST_TEST(task_mips_cap(r0, Capacity::kPerPe, TaskSpeed::kShare) == 4200);
}

BOOST_AUTO_TEST_CASE(charge_of_equation_3_and_the_surcharge) {
  // 20 cents a minute, 30 s used of a 60 s interval: min(30/60, 1) x 20 x 1 min = 10 cents; 12 from another domain.
  BOOST_TEST(std::fabs(interval_charge(20, 30, 60, false) - 10) < kTight);
  BOOST_TEST(std::fabs(interval_charge(20, 30, 60, true) - 12) < kTight);
  // More than the interval used is the whole interval: 20 cents.
  BOOST_TEST(std::fabs(interval_charge(20, 90, 60, false) - 20) < kTight);
}

BOOST_AUTO_TEST_CASE(time_shared_resource_by_hand) {
  // One PE of 100 MIPS, intervals of 60 s. U0 (local, bid 10) runs 6250 MI, U1 (foreign, bid 6) 7500 MI. Shares
  // 62.5 and 37.5: U0 ends at 6250 / 62.5 = 100 s, when U1 has 3750 MI done.
  for (const Recompute recompute : {Recompute::kInterval, Recompute::kEvent}) {
    TimeShared ts(one_pe(100), Capacity::kPerPe, recompute, 60);
    ts.bid(0, false, 10);
    ts.bid(1, true, 6);
    ts.submit(0, 0, 6250);
    ts.submit(1, 0, 7500);
    BOOST_TEST(std::fabs(ts.shares_sum() - 100) < kTight);
    const auto finish = run_resource(ts);
    BOOST_TEST(std::fabs(finish.at(0) - 100) < 1e-6);
    // U0: 10 cents a minute for 100 s = 16.667 cents.
    BOOST_TEST(std::fabs(ts.account(0)->charged - 10 * 100 / 60.0) < 1e-6);
    if (recompute == Recompute::kInterval) {
      // U0's share idles until 120 s: U1 does 37.5 x 20 = 750 MI more, then alone 3000 MI at 100 MIPS: ends at 150 s;
      // charged 6 x 150 / 60 x 1.2 = 18 cents.
      BOOST_TEST(std::fabs(finish.at(1) - 150) < 1e-6);
      BOOST_TEST(std::fabs(ts.account(1)->charged - 18) < 1e-6);
    } else {
      // From 100 s U1 runs alone: 3750 MI at 100 MIPS, ends at 137.5 s; 6 x 137.5 / 60 x 1.2 = 16.5 cents.
      BOOST_TEST(std::fabs(finish.at(1) - 137.5) < 1e-6);
      BOOST_TEST(std::fabs(ts.account(1)->charged - 16.5) < 1e-6);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_bid_during_an_interval_applies_from_the_next) {
  TimeShared ts(one_pe(100), Capacity::kPerPe, Recompute::kInterval, 60);
  ts.bid(0, false, 10);
  ts.bid(1, false, 10);
  ts.submit(0, 0, 1e6);
  ts.submit(1, 0, 1e6);
  ts.advance_to(30);
  ts.bid(0, false, 30);  // at 30 s: U0's share stays 50 until 60 s, then 30 / 40 = 75
  BOOST_TEST(std::fabs(ts.account(0)->share - 50) < kTight);
  ts.advance_to(60);
  ts.begin_interval();
  BOOST_TEST(std::fabs(ts.account(0)->share - 75) < kTight);
  // Charged for 60 s at 10 and nothing yet at 30: 10 cents.
  BOOST_TEST(std::fabs(ts.account(0)->charged - 10) < kTight);
}

BOOST_AUTO_TEST_CASE(equation_6_at_its_boundaries) {
  const ResourceView v = view(100);
  const double time = 1000;
  // Case 2 at finish_time = time / 2: decrease to 500 / 1000 x 100 = 50.
  BOOST_TEST(std::fabs(rebid(v, 500, time) - 50) < kTight);
  // Case 1 just above time / 2 and just below time: B_r kept.
  BOOST_TEST(rebid(v, 500.001, time) == 100);
  BOOST_TEST(rebid(v, 999.999, time) == 100);
  // Case 3 at finish_time = time: 1000 / 1000 x 100 = 100; at twice the time 200; far above, clamped at maxB = 500.
  BOOST_TEST(std::fabs(rebid(v, 1000, time) - 100) < kTight);
  BOOST_TEST(std::fabs(rebid(v, 2000, time) - 200) < kTight);
  BOOST_TEST(rebid(v, 1e9, time) == 500);
  // Far below: 1 / 1000 x 100 = 0.1, clamped at minB = 5. D passed: maxB.
  BOOST_TEST(rebid(v, 1, time) == 5);
  BOOST_TEST(rebid(v, 10, 0) == 500);
  BOOST_TEST(rebid(v, 10, -5) == 500);
  // No share (finish_time infinite): case 3 at the maximum.
  BOOST_TEST(rebid(v, std::numeric_limits<double>::infinity(), time) == 500);
}

BOOST_AUTO_TEST_CASE(equation_4_initial_bid) {
  BrokerSnapshot s;
  s.resources = {view(0), view(0, 1, 100)};
  s.resources[1].pes = 1;
  s.resources[1].mips = 684;
  s.pending = {{0, 700000}, {1, 800000}};
  // avgLength 750000 x PE 1 / C 684 = 1096.49 s, the slowest resource R4's.
  BOOST_TEST(std::fabs(estimated_time(s) - 750000.0 / 684) < 1e-6);
  BOOST_TEST(initial_bid(s.resources[0], estimated_time(s), 36000) == 252.5);  // avgBid (5 + 500) / 2
  BOOST_TEST(initial_bid(s.resources[0], estimated_time(s), 1000) == 500);     // est_time > D: maxBid
}

BOOST_AUTO_TEST_CASE(global_domain_sends_fewer_short_tasks_to_the_slow_resource) {
  const Scenario sc = read_scenario(paper_scenario(), "auction.json", names());
  BrokerSnapshot s;
  s.initial = true;
  s.deadline = 36000;
  for (std::size_t r = 0; r < sc.resources.size(); ++r) {
    const Resource& res = sc.resources[r];
    s.resources.push_back(ResourceView{.resource = r, .name = res.name, .local = false, .pes = res.pes,
                                       .mips = res.mips, .min_bid = res.min_bid, .max_bid = res.max_bid});
  }
  for (std::size_t t = 0; t < 50; ++t) s.pending.push_back({t, 700000.0 + 1000.0 * t});
  const BrokerDecision d = global_domain(s);
  // m / n = 10; R4 (684 of 1050) gets floor(10 x 684 / 1050) = 6 of the shortest tasks (ids 0-5), the 44 others go
  // 11 to each of R0-R3.
  std::map<std::size_t, std::vector<std::size_t>> by;
  for (const Submission& t : d.submissions) by[t.resource].push_back(t.task);
  BOOST_TEST(by[4].size() == 6u);
  for (std::size_t t : by[4]) BOOST_TEST(t < 6u);
  for (std::size_t r = 0; r < 4; ++r) BOOST_TEST(by[r].size() == 11u);
  BOOST_TEST(d.bids.size() == 5u);
  BOOST_TEST(decision_problem(s, d) == "");
}

BOOST_AUTO_TEST_CASE(local_domain_switch_at_half_the_deadline) {
  // One local resource L (share 1000 MIPS, 1e6 MI left), one global G without an account; three listed tasks of 1e7.
  BrokerSnapshot s;
  s.start = 0;
  s.deadline = 36000;
  ResourceView local = view(100);
  local.remaining = 1e6;
  ResourceView global = view(0);
  global.resource = 1;
  global.name = "G";
  global.local = false;
  global.account = false;
  global.tasks = 0;
  s.resources = {local, global};
  s.pending = {{0, 1e7}, {1, 1e7}, {2, 1e7}};
  // At 17000 s (before D/2 = 18000): time = 19000; (1e6 + 1e7) / 1000 = 11000 < 19000 takes one, 21000 does not.
  s.now = 17000;
  BrokerDecision d = local_domain(s);
  BOOST_TEST(d.submissions.size() == 1u);
  BOOST_TEST(d.submissions[0].resource == 0u);
  // At 18001 s: one to L as before (L then holds 2 of the user's tasks), then past D/2 the two listed tasks go to
  // the least used resource one at a time: G (0 tasks), then G again (1 < 2); G gets Eq. 4's bid.
  s.now = 18001;
  d = local_domain(s);
  BOOST_TEST(d.submissions.size() == 3u);
  std::size_t to_global = 0;
  for (const Submission& t : d.submissions) to_global += t.resource == 1;
  BOOST_TEST(to_global == 2u);
  bool bid_on_global = false;
  for (const BidOrder& b : d.bids) bid_on_global = bid_on_global || b.resource == 1;
  BOOST_TEST(bid_on_global);
  BOOST_TEST(decision_problem(s, d) == "");
}

BOOST_AUTO_TEST_CASE(no_opt_bids_its_fixed_bid_throughout) {
  BrokerSnapshot s;
  s.initial = true;
  s.fixed_bid = 20;
  s.resources = {view(0), view(0)};
  s.resources[1].resource = 1;
  s.pending = {{0, 1}, {1, 1}, {2, 1}};
  BrokerDecision d = no_opt(s);
  BOOST_TEST(d.submissions.size() == 3u);
  BOOST_TEST(d.submissions[2].resource == 0u);  // uniform: 0, 1, 0
  for (const BidOrder& b : d.bids) BOOST_TEST(b.bid == 20);
  s.initial = false;
  d = no_opt(s);
  BOOST_TEST(d.bids.empty());
  BOOST_TEST(d.submissions.empty());
}

BOOST_AUTO_TEST_CASE(scenario_bad_input) {
  const nlohmann::json good = paper_scenario();
  BOOST_TEST(read_scenario(good, "s.json", names()).users.size() == 10u);
  nlohmann::json bad = good;
  bad["users"][0]["bid"] = 600;  // R0-R3 take at most 500 (and R4 100)
  expect_bad(bad, "users[0].bid");
  bad = good;
  bad["resources"][2]["mips"] = 0;
  expect_bad(bad, "resources[2].mips");
  bad = good;
  bad["users"][3]["domain"] = "C";
  expect_bad(bad, "users[3].domain");
  bad = good;
  bad["users"][1]["deadline"] = -10;
  expect_bad(bad, "users[1].deadline");
  bad = good;
  bad["users"][1]["lengths"] = {100, 0};
  expect_bad(bad, "users[1].lengths[1]");
  bad = good;
  bad["users"][1]["lengths"] = {-5};
  expect_bad(bad, "users[1].lengths[0]");
  bad = good;
  bad["resources"][0]["min_bid"] = 600;
  expect_bad(bad, "resources[0].max_bid");
  bad = good;
  bad["users"][0].erase("bid");  // a No-Opt user needs its bid
  expect_bad(bad, "users[0]");
  bad = good;
  bad["users"][0]["policy"] = "greedy";
  expect_bad(bad, "users[0].policy");
  bad = good;
  bad["auctioneer"] = 1;
  expect_bad(bad, "auctioneer");
}

BOOST_AUTO_TEST_CASE(run_properties_hold_on_the_paper_scenario_and_catch_a_wrong_charge) {
  const Scenario sc = read_scenario(paper_scenario(), "auction.json", names());
  sim::auction_system::Setup setup;
  setup.scenario = &sc;
  std::vector<std::size_t> tasks;
  for (std::size_t u = 0; u < sc.users.size(); ++u) {
    setup.lengths.push_back(std::vector<double>(10, 750000.0 + 1000.0 * u));
    setup.brokers.push_back(broker_policy(sc.users[u].policy).decide);
    tasks.push_back(10);
  }
  RunChecker checker(sc, tasks);
  const sim::auction_system::Result result = sim::auction_system::run(setup, {&checker});
  BOOST_TEST(!result.broker_failed);
  for (const auto& u : result.users) BOOST_TEST(u.completed == 10u, u.name);
  for (const RunPropertyResult& p : checker.results()) BOOST_TEST(p.violations == 0u, p.name << ": " << p.first);
  BOOST_TEST(checker.checks() > 100u);

  // An auctioneer that charges a cent too much is caught by charged-only-for-use; a task that never ends by
  // no-task-lost; two tasks at once by one-task-per-user-per-resource.
  RunChecker wrong(sc, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  wrong.on_bid(0, 0, 0, 20);
  wrong.on_submit(0, 0, 0, 0);
  wrong.on_task_start(0, 0, 0, 0);
  wrong.on_task_start(0, 0, 0, 1);
  wrong.on_task_end(60, 0, 0, 0);
  Account account;
  account.user = 0;
  account.charged = 20 + 1;  // one minute of a running user at 20 cents, plus one cent
  wrong.on_charge(60, 0, account);
  sim::auction_system::Result fake;
  fake.users.resize(10);
  for (std::size_t u = 0; u < 10; ++u) fake.users[u].balance = sc.users[u].fund - (u == 0 ? 0.21 : 0);
  fake.users[0].charged = 0.21;
  wrong.on_end(fake);
  std::map<std::string, std::size_t> v;
  for (const RunPropertyResult& p : wrong.results()) v[p.name] = p.violations;
  BOOST_TEST(v["charged-only-for-use"] == 1u);
  BOOST_TEST(v["one-task-per-user-per-resource"] == 1u);
  BOOST_TEST(v["balance-accounted"] == 0u);
  BOOST_TEST(v["bid-within-bounds"] == 0u);
}

BOOST_AUTO_TEST_CASE(income_is_received_and_accounted) {
  // One resource, one No-Opt user of two 6,000,000 MI tasks on one PE of 1000 MIPS: 6,000 s each, done at 12,000 s
  // (one task at a time), at 10 cents a minute: 12,000 / 60 x 10 = 2,000 cents = G$20. Income G$1 every 1,000 s
  // from the start, received at 1,000 ... 11,000 s (11 times) before the last task ends: balance 50 + 11 - 20 = 41.
  nlohmann::json d = {{"kind", "auction-scenario"},
                      {"domains", {"A"}},
                      {"resources", {{{"name", "R"}, {"pes", 1}, {"mips", 1000}, {"min_bid", 1}, {"max_bid", 100},
                                      {"domains", {"A"}}}}},
                      {"users", {{{"name", "U"}, {"domain", "A"}, {"policy", "no-opt"}, {"bid", 10},
                                  {"lengths", {6e6, 6e6}}, {"fund", 50}, {"income", 1}, {"income_every", 1000}}}}};
  const Scenario sc = read_scenario(d, "s.json", names());
  sim::auction_system::Setup setup;
  setup.scenario = &sc;
  setup.lengths = {sc.users[0].lengths};
  setup.brokers = {broker_policy("no-opt").decide};
  RunChecker checker(sc, {2});
  const auto result = sim::auction_system::run(setup, {&checker});
  const auto& u = result.users[0];
  BOOST_TEST(std::fabs(u.finish - 12000) < 1e-6);
  BOOST_TEST(std::fabs(u.charged - 20) < 1e-9);
  BOOST_TEST(std::fabs(u.income - 11) < 1e-9);
  BOOST_TEST(std::fabs(u.balance - 41) < 1e-9);
  for (const RunPropertyResult& p : checker.results()) BOOST_TEST(p.violations == 0u, p.name << ": " << p.first);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_auction
