// Suite `federation`: paper 004's contract net (experiments/federation/) on hand-computed cases: Eq. 1-2 and 8-9
// arithmetic, the OFT/OFC directory orders of Table 2, three contract-net timelines on two GFAs (accepted on the first
// bid, accepted after a timeout, dropped) at a 50% and a 0% bid time, every run property failing on a log that breaks
// it, and the run where greedy admission, optimal at each decision, lowers the run's earnings. Source: our own.
#include "counterexamples/builtin.hpp"
#include "experiments/federation/contract_net.hpp"
#include "model/scenario.hpp"
#include "properties/federation_properties.hpp"
#include "reference/federation_policies.hpp"
#include "reference/sla_policies.hpp"
#include "report/charts.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_federation {

using namespace schedcheck;
using namespace schedcheck::federation;

namespace {

const Registry& registry() {
  static const Registry r = make_builtin_registry();
  return r;
}

Cluster make_cluster(std::string name, int processors, double mips, double price, double bandwidth = 1) {
  Cluster c;
  c.name = std::move(name);
  c.processors = processors;
  c.mips = mips;
  c.price = price;
  c.bandwidth_gbps = bandwidth;
  return c;
}

Job make_job(std::size_t home, std::int64_t id, double submit, int procs, double run) {
  Job j;
  j.home = home;
  j.trace_id = id;
  j.submit = submit;
  j.procs = procs;
  j.run_home = run;
  return j;
}

Settings no_transfers() {
  Settings s;
  s.data_mb = 0;
  return s;
}

std::map<std::string, std::size_t> violations(const std::vector<Cluster>& clusters, const Settings& s, const RunLog& log) {
  std::map<std::string, std::size_t> v;
  for (const auto& p : check_run(clusters, s, log)) v[p.name] = p.violations;
  return v;
}

std::size_t total(const std::map<std::string, std::size_t>& v) {
  std::size_t n = 0;
  for (const auto& [name, count] : v) n += count;
  return n;
}

std::size_t sent(const RunLog& log, const std::string& kind) {
  for (const auto& [k, n] : log.sent_by_kind)
    if (k == kind) return n;
  return 0;
}

// Two GFAs: X fast (200 MIPS, 2 processors, quote 2), Y slow (100 MIPS, 2 processors, quote 1); three jobs of Y's
// users, all seeking time (X first). Job 1: 2 processors, 400 s at home; jobs 2 and 3: 2 processors, 100 s at home,
// submitted at 10 and 20.
struct Timeline {
  std::vector<Cluster> clusters = {make_cluster("X", 2, 200, 2), make_cluster("Y", 2, 100, 1)};
  std::vector<Job> jobs = {make_job(1, 1, 0, 2, 400), make_job(1, 2, 10, 2, 100), make_job(1, 3, 20, 2, 100)};
  Settings settings = no_transfers();
  // The contract net over these clusters and `given` jobs (default: the three above) at a bid time `share`.
  FederationRun run(double share, const std::vector<Job>* given = nullptr) const {
    RunSpec spec;
    spec.bid_share = share;
    spec.admission = admission_mode(share);
    return run_federation(clusters, settings, given ? *given : jobs, spec, registry());
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(federation)

BOOST_AUTO_TEST_CASE(terms_follow_eq_1_8_9_and_the_job_model) {
  const std::vector<Cluster> clusters = {make_cluster("home", 8, 900, 5.12, 1.6)};
  Settings s;  // alpha 0.1, b = 2 B, d = 3 D, 10 MB each way
  const Job j = make_job(0, 7, 50, 4, 100);
  const Terms t = terms(clusters, j, s, 0.2);
  BOOST_TEST(t.length_mi == 100.0 * 900 * 4);          // l = run * mu_home * p
  BOOST_TEST(t.alpha == 10.0);                           // 10% of the execution time at home
  BOOST_TEST(response_time(clusters[0], j, t) == 110.0); // D = alpha + l / (mu p)
  // B = c l / mu = 5.12 * 360000 / 900 = 5.12 * 400 processor-seconds (the default pricing)
  BOOST_TEST(cost(clusters[0], j, t) == 2048.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(t.budget == 4096.0, boost::test_tools::tolerance(1e-9));                 // Eq. 8
  BOOST_TEST(t.deadline == 330.0);                                                     // Eq. 9
  BOOST_TEST(t.ts == 0.05, boost::test_tools::tolerance(1e-12));  // 10 MB = 80 Mb over 1.6 Gb/s
  BOOST_TEST(t.t_neg == 66.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.de == 330.0 - 0.05 - 66.0 - 0.05, boost::test_tools::tolerance(1e-12));  // Eq. 1
  BOOST_TEST(latest_finish(j, t) == 50 + 330.0 - 0.05, boost::test_tools::tolerance(1e-12));
  // On a cluster twice as fast: half the execution time, the same alpha.
  const Cluster fast = make_cluster("fast", 8, 1800, 10.24);
  BOOST_TEST(response_time(fast, j, t) == 60.0);
  BOOST_TEST(cost(fast, j, t) == 2048.0, boost::test_tools::tolerance(1e-9));  // Eq. 7 prices: the same cost anywhere
  // The wall-clock reading charges the price per second of the run, whatever its width: B = c l / (mu p) = 5.12 * 100.
  std::vector<Cluster> wall = clusters;
  wall[0].pricing = sla::Pricing::kWallClock;
  const Terms tw = terms(wall, j, s, 0.2);
  BOOST_TEST(cost(wall[0], j, tw) == 512.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(tw.budget == 1024.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(tw.deadline == t.deadline);  // the deadline does not depend on the price
}

BOOST_AUTO_TEST_CASE(eq_2_halves_what_is_left) {
  // t_neg = 66 in whole seconds (tau into Z+): 33, 16, 8, 4, 2, 1, 1, 0 ...
  std::vector<double> got;
  double given = 0;
  for (int k = 0; k < 8; ++k) {
    got.push_back(bid_interval(66, given, true));
    given += got.back();
  }
  BOOST_TEST(got == (std::vector<double>{33, 16, 8, 4, 2, 1, 1, 0}), boost::test_tools::per_element());
  BOOST_TEST(given <= 66.0);
  // In real seconds: 33, 16.5, 8.25; never above what is left, never negative.
  BOOST_TEST(bid_interval(66, 0, false) == 33.0);
  BOOST_TEST(bid_interval(66, 33, false) == 16.5);
  BOOST_TEST(bid_interval(66, 49.5, false) == 8.25);
  BOOST_TEST(bid_interval(66, 70, false) == 0.0);
}

BOOST_AUTO_TEST_CASE(directory_orders_table_2) {
  const std::vector<Cluster> t2 = {make_cluster("CTC", 512, 850, 4.84), make_cluster("KTH", 100, 900, 5.12),
                                   make_cluster("CM5", 1024, 700, 3.98), make_cluster("Origin", 2048, 630, 3.59),
                                   make_cluster("NASA", 128, 930, 5.3), make_cluster("Par96", 416, 710, 4.04),
                                   make_cluster("Blue", 1152, 730, 4.16), make_cluster("SP2", 128, 920, 5.24)};
  auto names = [&](const std::vector<std::size_t>& order) {
    std::vector<std::string> n;
    for (const auto m : order) n.push_back(t2[m].name);
    return n;
  };
  BOOST_TEST(names(directory_order(t2, Objective::kTime)) ==
                 (std::vector<std::string>{"NASA", "SP2", "KTH", "CTC", "Blue", "Par96", "CM5", "Origin"}),
             boost::test_tools::per_element());
  BOOST_TEST(names(directory_order(t2, Objective::kCost)) ==
                 (std::vector<std::string>{"Origin", "CM5", "Par96", "Blue", "CTC", "KTH", "SP2", "NASA"}),
             boost::test_tools::per_element());
  // The directory skips clusters that cannot meet the SLA: a 200-processor job never goes to NASA, SP2 or KTH.
  Job wide = make_job(2, 1, 0, 200, 100);
  const Terms t = terms(t2, wide, no_transfers(), 0.5);
  const auto oft = directory_order(t2, Objective::kTime);
  BOOST_TEST(t2[*directory_answer(t2, oft, wide, t, 0)].name == "CTC");
  BOOST_TEST(t2[*directory_answer(t2, oft, wide, t, 4)].name == "Origin");
  BOOST_TEST(!directory_answer(t2, oft, wide, t, 5).has_value());
}

BOOST_AUTO_TEST_CASE(contract_net_timeline_at_50_percent) {
  Timeline tl;
  const Settings& s = tl.settings;
  const FederationRun r = tl.run(0.5);
  const auto& L = r.log.logs;
  // Job 1: D_X = 40 + 80000 / 400 = 240; bid to X at 0 (interval floor(660 / 2) = 330), accepted at once.
  BOOST_TEST(L[0].attempts.size() == 1u);
  BOOST_TEST((L[0].outcome == Outcome::kAccepted && L[0].ran_on == 0));
  BOOST_TEST(L[0].attempts[0].interval == 330.0);
  BOOST_TEST((L[0].start == 0.0 && L[0].finish == 240.0));
  BOOST_TEST(L[0].charged == 800.0);  // B = 2 * 2 processors * 200 s at X; budget 2 * (1 * 2 * 400) = 1600
  BOOST_TEST(L[0].terms.budget == 1600.0);
  // Job 2 (d = 330, t_neg = 165): X busy until 240, its bid (82 s) expires at 92; Y gets 41 s and accepts at once.
  BOOST_TEST(L[1].attempts.size() == 2u);
  BOOST_TEST((L[1].attempts[0].contractor == 0 && L[1].attempts[0].interval == 82.0 && L[1].attempts[0].replied == 92.0 &&
              !L[1].attempts[0].accepted));
  BOOST_TEST((L[1].attempts[1].contractor == 1 && L[1].attempts[1].interval == 41.0 && L[1].attempts[1].accepted));
  BOOST_TEST((L[1].outcome == Outcome::kAccepted && L[1].ran_on == 1 && L[1].start == 92.0 && L[1].finish == 202.0));
  // Job 3: X expires at 102, Y (busy until 202) at 143; no contractor left: dropped at 143.
  BOOST_TEST((L[2].outcome == Outcome::kDropped && L[2].dropped_at == 143.0 && L[2].attempts.size() == 2u));
  BOOST_TEST(L[2].queries == 3u);
  // X could have run job 3 from 240 to 300, before its latest finish 350: a drop with room, at an asked cluster.
  BOOST_TEST(drops_with_room(tl.clusters, r.log, false) == 1u);
  BOOST_TEST(drops_with_room(tl.clusters, r.log, true) == 1u);
  // Messages, counted by the kernel.
  BOOST_TEST(sent(r.log, kQuery) == 6u);
  BOOST_TEST(sent(r.log, kAnswer) == 6u);
  BOOST_TEST(sent(r.log, kBid) == 5u);
  BOOST_TEST(sent(r.log, kAccept) == 2u);
  BOOST_TEST(sent(r.log, kReject) == 3u);
  BOOST_TEST(sent(r.log, kJob) == 2u);
  BOOST_TEST(sent(r.log, kResult) == 2u);
  // Admission decisions: X at 0, 10, 20; Y at 92, 102 (expiries decide one bid and are not STRICTGREEDY passes).
  BOOST_TEST(r.decisions == 5u);
  BOOST_TEST(r.probe->counts().checked == 5u);
  BOOST_TEST(r.probe->counts().at_optimum == 5u);
  BOOST_TEST(r.accepted_at_expiry == 0u);
  BOOST_TEST(total(violations(tl.clusters, s, r.log)) == 0u);
}

BOOST_AUTO_TEST_CASE(contract_net_timeline_at_0_percent_is_fcfs) {
  Timeline tl;
  const Settings& s = tl.settings;
  const FederationRun r = tl.run(0);
  const auto& L = r.log.logs;
  BOOST_TEST((L[0].ran_on == 0 && L[0].start == 0.0));
  // Decided on arrival: X rejects job 2 at 10, Y accepts it at 10 and runs it until 120.
  BOOST_TEST((L[1].attempts.size() == 2u && L[1].attempts[0].replied == 10.0 && L[1].attempts[0].interval == 0.0));
  BOOST_TEST((L[1].ran_on == 1 && L[1].start == 10.0 && L[1].finish == 120.0));
  // Job 3 is rejected by both at 20 and dropped at once.
  BOOST_TEST((L[2].outcome == Outcome::kDropped && L[2].dropped_at == 20.0));
  BOOST_TEST(r.decisions == 5u);
  BOOST_TEST(total(violations(tl.clusters, s, r.log)) == 0u);
}

BOOST_AUTO_TEST_CASE(each_run_property_fails_on_a_log_that_breaks_it) {
  Timeline tl;
  const Settings& s = tl.settings;
  const FederationRun r = tl.run(0.5);
  auto broken = [&](const std::string& property, const std::function<void(RunLog&)>& change) {
    RunLog log = r.log;
    change(log);
    const auto v = violations(tl.clusters, s, log);
    BOOST_TEST_CONTEXT(property) { BOOST_TEST(v.at(property) > 0u); }
  };
  broken("jobs-conserved", [](RunLog& l) { l.logs[2].outcome = Outcome::kPending; });
  broken("no-accepted-deadline-violation", [](RunLog& l) {  // job 2 accepted 200 s later on Y
    l.logs[1].attempts[1].replied += 200;
    l.logs[1].start += 200;
    l.logs[1].finish += 200;
  });
  broken("capacity", [](RunLog& l) {  // job 2 accepted by X (B = 2 * 50 s = 100) beside job 1
    l.logs[1].attempts[1].contractor = 0;
    l.logs[1].ran_on = 0;
    l.logs[1].charged = 100;
    l.logs[1].finish = 92 + 60;
  });
  broken("jobs-conserved", [](RunLog& l) { l.logs[1].ran_on = 0; });  // accepted by Y, logged as run on X
  broken("rejected-only-when-unfit", [](RunLog& l) { l.logs[1].attempts[0].replied = 245; });  // X free from 240
  broken("budget-respected", [](RunLog& l) { l.logs[0].terms.budget = 300; });
  broken("expiry-schedule", [](RunLog& l) { l.logs[1].attempts[1].interval = 82; });
  broken("drop-asked-every-cluster-with-room", [](RunLog& l) {  // job 3 dropped after X alone: Y (D = 110 <= de = 165) could
                                                        // run it from 202 to 312 < 350
    l.logs[2].attempts.pop_back();
    l.logs[2].dropped_at = 102;
  });
  broken("messages-accounted", [](RunLog& l) { l.sent_by_kind.front().second += 1; });
}

// Greedy admission is optimal at each decision of this run and still earns 160 where 180 was possible: a cluster of 2
// processors (price 1 per processor-second) gets bid A (2 processors, 80 s, incentive 160) alone at t=0 and accepts
// it; bids B and C (1 processor, 90 s, incentive 90 each) arrive at t=1, wait, expire at 75 and are dropped.
// examples/scenarios/federation-greedy-loses.json is this run.
BOOST_AUTO_TEST_CASE(greedy_at_each_decision_lowers_the_runs_earnings) {
  const std::vector<Cluster> one = {make_cluster("X", 2, 100, 1)};
  const std::vector<Job> jobs = {make_job(0, 1, 0, 2, 80), make_job(0, 2, 1, 1, 90), make_job(0, 3, 1, 1, 90)};
  const Settings s = no_transfers();
  RunSpec spec;
  spec.bid_share = 0.5;
  spec.admission = AdmissionMode::kBidQueue;
  const FederationRun r = run_federation(one, s, jobs, spec, registry());
  double earned = 0;
  for (const auto& l : r.log.logs) earned += l.outcome == Outcome::kAccepted ? l.charged : 0;
  BOOST_TEST(earned == 160.0);
  BOOST_TEST(r.probe->counts().checked == r.probe->counts().at_optimum);  // every decision at its snapshot's optimum
  BOOST_TEST(r.probe->counts().checked == 3u);
  BOOST_TEST(total(violations(one, s, r.log)) == 0u);
  // Another run of the same federation: X waits, takes B and C at t=1, lets A's bid expire (66 s: d = 3 * 88, half
  // of t_neg = 132) and earns 180. The properties accept it as a run of the contract net.
  RunLog other = r.log;
  BOOST_TEST(other.logs[0].attempts[0].interval == 66.0);
  other.logs[0].attempts[0].replied = 66;
  other.logs[0].attempts[0].accepted = false;
  other.logs[0].outcome = Outcome::kDropped;
  other.logs[0].dropped_at = 66;
  other.logs[0].drop_reason = "every cluster that could meet its SLA rejected it";
  other.logs[0].start = other.logs[0].finish = -1;
  other.logs[0].transfers = 0;
  other.logs[0].queries = 2;
  double other_earned = 0;
  for (std::size_t j : {1u, 2u}) {
    JobLog& l = other.logs[j];
    l.attempts[0].replied = 1;
    l.attempts[0].accepted = true;
    l.outcome = Outcome::kAccepted;
    l.ran_on = 0;
    l.start = 1;
    l.finish = 1 + response_time(one[0], jobs[j], l.terms);
    l.charged = cost(one[0], jobs[j], l.terms);
    l.queries = 1;
    l.transfers = 2;
    l.dropped_at = -1;
    other_earned += l.charged;
  }
  other.sent_by_kind = {{kQuery, 4}, {kAnswer, 4}, {kBid, 3}, {kAccept, 2}, {kReject, 1}, {kJob, 2}, {kResult, 2}};
  BOOST_TEST(other_earned == 180.0);
  const auto v = violations(one, s, other);
  BOOST_TEST(total(v) == 0u);
}

// The readings of docs/policies.md, each on a case where it decides differently from the default.
BOOST_AUTO_TEST_CASE(readings_home_first_and_drop_at_zero_interval) {
  Timeline tl;
  Settings& s = tl.settings;
  // Home first: job 1 (home Y) bids at Y before the directory's fastest, and runs there for D_Y = 440 s.
  s.home_first = true;
  const FederationRun home = tl.run(0.5);
  BOOST_TEST((home.log.logs[0].ran_on == 1 && home.log.logs[0].finish == 440.0));
  BOOST_TEST(total(violations(tl.clusters, s, home.log)) == 0u);
  s.home_first = false;
  // A 1 s job (d = 3.3, t_neg = 1.65): its first interval, floor(0.825), is 0. Default: bids decided at once, accepted
  // by X; the reading "drop at a zero interval": dropped before any bid, although X was free.
  const std::vector<Job> tiny = {make_job(1, 9, 0, 1, 1)};
  const FederationRun at_once = tl.run(0.5, &tiny);
  BOOST_TEST((at_once.log.logs[0].outcome == Outcome::kAccepted && at_once.log.logs[0].ran_on == 0));
  BOOST_TEST(at_once.log.logs[0].attempts[0].interval == 0.0);
  s.drop_at_zero_interval = true;
  const FederationRun dropped = tl.run(0.5, &tiny);
  BOOST_TEST((dropped.log.logs[0].outcome == Outcome::kDropped && dropped.log.logs[0].attempts.empty()));
  const auto v = violations(tl.clusters, s, dropped.log);
  BOOST_TEST(v.at("drop-asked-every-cluster-with-room") == 1u);  // X and Y, never asked, had room: the reading's cost, reported
  BOOST_TEST(total(v) == 1u);
}

// A dropped job that a cluster too slow for de (D(J,R_m) > de) could still have run by d is not a missed chance of the
// protocol: the directory never offers that cluster, and the property judges drops under the SLA's terms.
BOOST_AUTO_TEST_CASE(a_cluster_too_slow_for_de_is_no_missed_chance) {
  Timeline tl;
  // K keeps X busy until 1100; J (2 processors, 100 s at X: D_X = 110, d = 330, de = 165 at 50%) bids at X only:
  // D_Y = 10 + 40000 / 200 = 210 > de. X's bid expires at 1 + 82 and J is dropped; Y, idle, could have run it by 331.
  const std::vector<Job> jobs = {make_job(0, 1, 0, 2, 1000), make_job(0, 2, 1, 2, 100)};
  const FederationRun r = tl.run(0.5, &jobs);
  BOOST_TEST((r.log.logs[1].outcome == Outcome::kDropped && r.log.logs[1].dropped_at == 83.0));
  BOOST_TEST(r.log.logs[1].attempts.size() == 1u);
  BOOST_TEST(total(violations(tl.clusters, tl.settings, r.log)) == 0u);
  BOOST_TEST(drops_with_room(tl.clusters, r.log, false) == 1u);  // Y had room for d, not for de: the metric counts it
  BOOST_TEST(drops_with_room(tl.clusters, r.log, true) == 0u);
}

// STRICTGREEDY as written reserves one bid a call; our default reserves every bid that fits. On one snapshot the two
// agree once the call is repeated; over a run they differ both ways. One cluster X (2 processors, 100 MIPS, quote 1:
// the incentive is processors x run time); R (2 processors, 10 s) holds X until 11; A (1 processor, 50 s, expires at 42) and
// B (1 processor, 40 s, expires at 35) wait; C (1 processor, 50 s) arrives at 12 and expires at 53.
BOOST_AUTO_TEST_CASE(strictgreedy_one_reservation_a_call_against_every_bid_that_fits) {
  const std::vector<Cluster> one = {make_cluster("X", 2, 100, 1)};
  const std::vector<Job> with_c = {make_job(0, 1, 0, 2, 10), make_job(0, 2, 1, 1, 50), make_job(0, 3, 2, 1, 40),
                                   make_job(0, 4, 12, 1, 50)};
  const std::vector<Job> without_c(with_c.begin(), with_c.begin() + 3);
  Settings s = no_transfers();
  RunSpec spec;
  spec.bid_share = 0.5;
  spec.admission = AdmissionMode::kBidQueue;
  auto earned = [](const FederationRun& r) {
    double sum = 0;
    for (const auto& l : r.log.logs) sum += l.outcome == Outcome::kAccepted ? l.charged : 0;
    return sum;
  };
  // Every bid that fits: A and B at 11, C waits and expires at 53 (B ends at 55): 50 + 40 + 2 * 10 (R).
  const FederationRun all = run_federation(one, s, with_c, spec, registry());
  BOOST_TEST(earned(all) == 110.0);
  BOOST_TEST((all.log.logs[3].outcome == Outcome::kDropped && all.log.logs[2].start == 11.0));
  BOOST_TEST(total(violations(one, s, all.log)) == 0u);
  // One a call: A at 11; C, of higher incentive than B, at 12; B expires at 35 with X full: 50 + 50 + 2 * 10.
  s.one_reservation_per_call = true;
  const FederationRun once = run_federation(one, s, with_c, spec, registry());
  BOOST_TEST(earned(once) == 120.0);
  BOOST_TEST((once.log.logs[3].start == 12.0 && once.log.logs[2].outcome == Outcome::kDropped));
  BOOST_TEST(total(violations(one, s, once.log)) == 0u);
  BOOST_TEST(once.accepted_at_expiry == 0u);
  // Without C, B waits for its timeout, where line 1.17 reserves it (35), 24 s after every-bid-that-fits would have.
  const FederationRun late = run_federation(one, s, without_c, spec, registry());
  BOOST_TEST((late.log.logs[2].start == 35.0 && late.accepted_at_expiry == 1u));
  BOOST_TEST(total(violations(one, s, late.log)) == 0u);
  // The decision of one call, as registered for sla-admission: the first eligible bid that fits, in decreasing incentive.
  sla::Instance snapshot;
  snapshot.site = site(one[0], 2);
  for (const std::size_t j : {1u, 2u}) snapshot.bids.push_back(bid(with_c[j], terms(one, with_c[j], s, 0.5), 11, "b"));
  BOOST_TEST((sla::greedy_backfilling_one(snapshot).accepted == std::vector<bool>{true, false}));
  BOOST_TEST((sla::greedy_backfilling(snapshot).accepted == std::vector<bool>{true, true}));
}

// The window of a trace (sec. 4.1, "four days"), two days here, on a cluster of 10 processors. The 10-day trace: day 0,
// one job of 1 x 100 s; day 1, nothing; days 2-9, two jobs of 1 x 43,200 s, at the day's start and at noon. The two-day
// windows starting at days 0..8 carry 100, 86,400, then 172,800 processor-seconds seven times: the median is 172,800,
// and the first window that carries it starts at day 2. first-days starts at day 0 (one job: day 1 is empty).
BOOST_AUTO_TEST_CASE(trace_window_skips_the_quiet_start_up_days) {
  workload::Workload w;
  auto job = [&](std::int64_t id, double submit, double run) {
    workload::Job j;
    j.id = id;
    j.submit = submit;
    j.run = j.estimate = run;
    j.procs = 1;
    w.jobs.push_back(j);
  };
  const double day = 86400;
  job(1, 1000, 100);  // the trace's first job, at t = 1000: days count from it
  for (int d = 2; d < 10; ++d) {
    job(10 * d, 1000 + d * day, day / 2);
    job(10 * d + 1, 1000 + d * day + day / 2, day / 2);
  }
  const TraceWindow median = trace_window(w, 10, 2 * day, Window::kMedianLoad);
  BOOST_TEST(median.start == 2 * day);
  BOOST_TEST(median.jobs.size() == 4u);  // days 2 and 3, each window's times from 0
  BOOST_TEST(median.jobs.front().id == 20);
  BOOST_TEST(median.jobs.front().submit == 0.0);
  BOOST_TEST(median.jobs.back().submit == 1.5 * day);
  BOOST_TEST(median.load == 4 * (day / 2) / (10 * 2 * day));  // 10% of 10 processors over two days
  const TraceWindow first = trace_window(w, 10, 2 * day, Window::kFirstDays);
  BOOST_TEST(first.start == 0.0);
  BOOST_TEST(first.jobs.size() == 1u);  // day 0's job alone: day 1 is empty
  BOOST_TEST(first.load == 100 / (10 * 2 * day));
  // Period 0: the whole trace from its first job, whatever the window.
  BOOST_TEST(trace_window(w, 10, 0, Window::kMedianLoad).jobs.size() == w.jobs.size());
}

// The admission-gap CDF keeps its mostly-zero data compact: the positive gaps, and a count of zeros drawn as one step.
BOOST_AUTO_TEST_CASE(gap_cdf_counts_the_unlisted_zeros) {
  report::CdfChart chart;
  chart.series.push_back({"a", {0.5, 0.25}, 2});  // 4 samples: 0, 0, 0.25, 0.5
  chart.series.push_back({"b", {0.5}, 0});
  chart.series.push_back({"c", {}, 3});           // only zeros
  const report::Plot plot = report::cdf_plot(chart);
  BOOST_TEST(plot.data.at(0).second == "0 0.5\n0.25 0.75\n0.5 1\n");
  BOOST_TEST(plot.data.at(1).second == "0.5 1\n");
  BOOST_TEST(plot.data.at(2).second == "0 1\n");
  BOOST_TEST(plot.commands.find("(4 samples, 50% at 0)") != std::string::npos);
  BOOST_TEST(plot.commands.find("(3 samples, all 0)") != std::string::npos);
  // On a log axis the zeros are off the axis: the line starts at the first positive gap at the zeros' fraction, and a
  // series of zeros alone draws nothing (its legend says so).
  chart.log_x = true;
  const report::Plot log = report::cdf_plot(chart);
  BOOST_TEST(log.data.at(0).second == "0.25 0.5\n0.25 0.75\n0.5 1\n");
  BOOST_TEST(log.data.at(2).second == "NaN NaN\n");
  BOOST_TEST(log.commands.find("set logscale x") != std::string::npos);
  // Nothing positive anywhere: the picture says so in words instead of drawing empty axes.
  report::CdfChart zeros;
  zeros.log_x = true;
  zeros.series.push_back({"z", {}, 5});
  const report::Plot empty = report::cdf_plot(zeros);
  BOOST_TEST(empty.commands.find("set logscale x") == std::string::npos);
  BOOST_TEST(empty.commands.find("every one of the 5 samples is 0: nothing to draw") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(scenario_reader_refuses_bad_federations) {
  const nlohmann::json good = nlohmann::json::parse(R"({"kind": "scenario",
    "workloads": [{"name": "w", "trace": "w.swf"}],
    "clusters": [{"name": "a", "processors": 4, "parameters": {"mips": 100, "price": 1, "bandwidth_gbps": 1, "workload": "w"}},
                 {"name": "b", "processors": 4, "parameters": {"mips": 200, "price": 2, "bandwidth_gbps": 1, "workload": "w"}}],
    "sweep": {"bid_shares": [0, 0.5]}})");
  scenario::Names names;
  names.router_needed = false;
  const Federation f = read(scenario::read(good, "f.json", names));
  BOOST_TEST(f.clusters.size() == 2u);
  BOOST_TEST(f.settings.bid_shares == (std::vector<double>{0, 0.5}), boost::test_tools::per_element());
  BOOST_TEST((f.clusters[0].price == 1.0 && f.clusters[1].price == 2.0));
  nlohmann::json eq7 = good;  // Eq. 7 from the fastest (200 MIPS, quote 2): the 100-MIPS cluster's price becomes 1
  eq7["clusters"][0]["parameters"]["price"] = 7;
  eq7["sweep"]["prices"] = "eq7";
  const Federation g = read(scenario::read(eq7, "f.json", names));
  BOOST_TEST((g.clusters[0].price == 1.0 && g.clusters[1].price == 2.0));
  auto refused = [&](const std::function<void(nlohmann::json&)>& change, const std::string& field) {
    nlohmann::json doc = good;
    change(doc);
    try {
      read(scenario::read(doc, "f.json", names));
      BOOST_ERROR("accepted a federation with a bad " << field);
    } catch (const InputError& e) {
      BOOST_TEST(std::string(e.what()).find(field) != std::string::npos, e.what());
    }
  };
  refused([](auto& d) { d["clusters"][0]["parameters"].erase("mips"); }, "clusters[0].parameters");
  refused([](auto& d) { d["clusters"][1]["parameters"]["workload"] = "nope"; }, "clusters[1].parameters.workload");
  refused([](auto& d) { d["clusters"][0]["parameters"]["mips"] = -1; }, "mips");
  refused([](auto& d) { d["sweep"]["bid_shares"] = {0.5, 0.2}; }, "bid_shares");
  refused([](auto& d) { d["sweep"]["bid_shares"] = {1.5}; }, "bid_shares");
  refused([](auto& d) { d["sweep"]["typo"] = 1; }, "typo");
  refused([](auto& d) { d["router"] = {{"policy", "round-robin"}}; }, "router");
  refused([](auto& d) { d["sweep"]["prices"] = "table"; }, "prices");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_federation
