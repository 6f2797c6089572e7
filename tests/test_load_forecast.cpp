// Paper 002's load-forecast partitions (Mf, Algorithm 1; reference/load_forecast.hpp), line by line on hand-made
// snapshots, as printed (easy-forecast: line 8's min) and corrected (easy-forecast-fixed: max), and one run with its
// publications and run invariants. Our own cases, each computed by hand in its comment.
#include "tests/helpers.hpp"

#include "model/time_slots.hpp"
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"
#include "reference/load_forecast.hpp"
#include "simulation/observer.hpp"
#include "simulation/simulation.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace test_load_forecast {

using namespace schedcheck;
using namespace schedcheck::cluster;

namespace {

double value(const PolicyState& state, const std::string& name) {
  for (const auto& v : state)
    if (v.name == name) return v.value;
  BOOST_FAIL("no state value " + name);
  return NAN;
}

Waiting waiting(std::uint32_t job, int procs, double submit, double estimate, bool grid = false) {
  Waiting w;
  w.job = job;
  w.procs = procs;
  w.submit = submit;
  w.estimate = estimate;
  w.grid = grid;
  return w;
}

// P = 10, processors model. A local job runs on 0-3 until 1000; a grid job (4 processors, 500 s) and a local one
// (2 processors, 300 s) wait.
struct Scene {
  AvailabilityProfile profile{10, true};
  std::vector<Running> running;
  std::vector<Waiting> queue;
  Scene() {
    const ProcessorSet on = ProcessorSet::first(10, 4);
    profile.reserve(0, 1000, 4, on);
    running.push_back(Running{1, 4, 0, 1000, on, false});
  }
  Snapshot at(double now, std::span<const StateValue> state = {}) const {
    return Snapshot{now, 10, ResourceModel::kProcessors, queue, running, profile, false, nullptr, state, 0};
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(load_forecast_policy)

// a = 2 / 26. Newest first: weights 1, 1 - a = 24/26, ...: {0, 1} -> 1 / (1 + 24/26) = 26/50 = 0.52; {1, 0} -> 0.48;
// a window of 1 sees the newest alone.
BOOST_AUTO_TEST_CASE(the_moving_average_weighs_the_newest_load_most) {
  BOOST_TEST(moving_average(std::vector<double>{}, 25) == 0.0);
  BOOST_TEST(moving_average(std::vector<double>{0.7}, 25) == 0.7);
  BOOST_TEST(std::abs(moving_average(std::vector<double>{0, 1}, 25) - 0.52) < 1e-12);
  BOOST_TEST(std::abs(moving_average(std::vector<double>{1, 0}, 25) - 0.48) < 1e-12);
  BOOST_TEST(moving_average(std::vector<double>{0.1, 0.2, 0.9}, 1) == 0.9);
  std::vector<double> long_run(30, 0.0);
  long_run.push_back(1);  // 31 loads: only the last 25 count, all but the newest 0
  const double a = 2.0 / 26;
  double weights = 0;
  for (int k = 0; k < 25; ++k) weights += std::pow(1 - a, k);
  BOOST_TEST(std::abs(moving_average(long_run, 25) - 1 / weights) < 1e-12);
}

// Line 6: every job, 4 running + 4 + 2 waiting = 10 of 10 = 1.0; line 17: the local ones, 4 + 2 = 0.6.
BOOST_AUTO_TEST_CASE(the_loads_of_lines_6_and_17) {
  Scene s;
  s.queue.push_back(waiting(2, 4, 1, 500, true));
  s.queue.push_back(waiting(3, 2, 2, 300));
  BOOST_TEST(queue_load(s.at(5), false) == 1.0);
  BOOST_TEST(std::abs(queue_load(s.at(5), true) - 0.6) < 1e-12);
}

// getFreeTimeSlots at 0 with only the running local job: actualLoad 0.4, so percToProvide is min{0, 0.6} = 0 as
// printed (no Grid processor, nothing sent, no reallocation event) and max{0, 0.6} = 0.6 corrected: 6 processors,
// 4-9, whose free time slots go to the gateway (4-9 from 0 on, and 0-3 from 1000 on, cut to 6: all 4), and a
// reallocation event at 0 + 100 / 4. Both forecast 0.4 (one local load) and call again at the sooner of 25 and 100.
BOOST_AUTO_TEST_CASE(get_free_time_slots_as_printed_never_informs_and_corrected_does) {
  Scene s;
  ForecastSettings f;
  f.interval = 100;
  const Decision literal = cluster::load_forecast(s.at(0), f);
  BOOST_TEST(literal.send.empty());
  BOOST_TEST(value(*literal.state, "grid_share") == 0.0);
  BOOST_TEST(value(*literal.state, "next_check") == kForever);
  BOOST_TEST(value(*literal.state, "next_slots") == 100.0);
  BOOST_TEST(std::abs(value(*literal.state, "forecast") - 0.4) < 1e-12);
  BOOST_TEST(*literal.wake_at == 100.0);
  f.literal = false;
  const Decision fixed = cluster::load_forecast(s.at(0), f);
  BOOST_TEST(value(*fixed.state, "grid_share") == 6.0);
  BOOST_TEST(value(*fixed.state, "next_check") == 25.0);
  BOOST_TEST(*fixed.wake_at == 25.0);
  BOOST_TEST(value(*fixed.state, "conservative") == 0.0);  // line 5: back to one pivot per partition
  BOOST_REQUIRE(fixed.send.size() == 1u);
  const auto* report = fixed.send.front().as<FreeSlots>();
  BOOST_REQUIRE(report);
  BOOST_REQUIRE(report->slots.size() == 2u);
  BOOST_TEST(report->slots[0].start == 0.0);
  BOOST_TEST(report->slots[0].on.to_intervals() == "4-9");
  BOOST_TEST(report->slots[1].start == 1000.0);
  BOOST_TEST(report->slots[1].on.to_intervals() == "0-3");
}

// A reallocation event (line 19): the forecast was 0.4; a local job of 6 processors has come (local load 1.0 > 0.4):
// pivots infinity, the partitions resized to max{0, 1 - 1.0} = 0 Grid processors, the slots sent at once (line 25:
// none, with no Grid processor) and no further event this interval. Had the local load stayed 0.4 (not above the
// forecast), the next event is 25 s later (line 27) and nothing is sent.
BOOST_AUTO_TEST_CASE(a_reallocation_event_turns_conservative_only_when_the_local_load_was_underestimated) {
  Scene s;
  ForecastSettings f;
  f.interval = 100;
  f.literal = false;
  const Decision first = cluster::load_forecast(s.at(0), f);
  const PolicyState after_first = *first.state;
  const Decision calm = cluster::load_forecast(s.at(25, after_first), f);
  BOOST_TEST(calm.send.empty());
  BOOST_TEST(value(*calm.state, "next_check") == 50.0);
  BOOST_TEST(value(*calm.state, "conservative") == 0.0);
  BOOST_TEST(value(*calm.state, "grid_share") == 6.0);
  s.queue.push_back(waiting(2, 6, 20, 2000));  // local: 4 + 6 of 10
  const Decision busy = cluster::load_forecast(s.at(25, after_first), f);
  BOOST_TEST(value(*busy.state, "conservative") == 1.0);
  BOOST_TEST(value(*busy.state, "grid_share") == 0.0);
  BOOST_TEST(value(*busy.state, "next_check") == kForever);
  BOOST_REQUIRE(busy.send.size() == 1u);
  BOOST_TEST(busy.send.front().as<FreeSlots>()->slots.empty());
  BOOST_TEST(*busy.wake_at == 100.0);
  // The next getFreeTimeSlots (line 5) makes it EASY again.
  const Decision next = cluster::load_forecast(s.at(100, *busy.state), f);
  BOOST_TEST(value(*next.state, "conservative") == 0.0);
  BOOST_TEST(value(*next.state, "loads") == 2.0);
}

// The training period (sec. 5.1: the second week): with train_from = 100, the getFreeTimeSlots at 0 keeps no local
// load and schedules no reallocation event, though it informs the gateway (share 6, as above); the one at 100 keeps
// its load (0.4) and schedules the event at 125.
BOOST_AUTO_TEST_CASE(no_forecast_and_no_reallocation_event_before_the_training_period) {
  Scene s;
  ForecastSettings f;
  f.interval = 100;
  f.literal = false;
  f.train_from = 100;
  const Decision first = cluster::load_forecast(s.at(0), f);
  BOOST_TEST(value(*first.state, "loads") == 0.0);
  BOOST_TEST(value(*first.state, "next_check") == kForever);
  BOOST_TEST(value(*first.state, "grid_share") == 6.0);
  BOOST_TEST(first.send.size() == 1u);
  const Decision second = cluster::load_forecast(s.at(100, *first.state), f);
  BOOST_TEST(value(*second.state, "loads") == 1.0);
  BOOST_TEST(std::abs(value(*second.state, "forecast") - 0.4) < 1e-12);
  BOOST_TEST(value(*second.state, "next_check") == 125.0);
}

// A whole run of the corrected policy on one cluster (every job local): its publications are observed (and checked
// by slots-free-when-published), the run invariants it promises hold, and the literal policy publishes nothing.
BOOST_AUTO_TEST_CASE(runs_of_both_keep_their_invariants_and_only_the_corrected_one_publishes) {
  const workload::Workload w = test::make_trace(
      10, {{1, 0, 1000, 1000, 4}, {2, 30, 300, 300, 8}, {3, 40, 50, 50, 2}, {4, 400, 700, 700, 3}, {5, 900, 100, 100, 10}});
  for (const char* name : {"easy-forecast", "easy-forecast-fixed"}) {
    ClusterPolicy policy = cluster_policy(name, ParamValues{{"interval", 100}});
    runcheck::InvariantChecker checker(w, runcheck::applicable(policy.name));
    sim::Simulation s(w.jobs, sim::single_cluster(w, std::move(policy), ResourceModel::kProcessors));
    s.add_observer(checker);
    const sim::RunResult r = s.run();
    BOOST_TEST(checker.total() == 0u, name << ": " << checker.to_json().dump());
    for (const auto& rec : r.records) BOOST_TEST(rec.end >= 0);
    const bool fixed = std::string(name) == "easy-forecast-fixed";
    BOOST_TEST((r.clusters.front().slot_reports > 0) == fixed, name << ": " << r.clusters.front().slot_reports);
    const auto& checked = checker.checked();
    BOOST_TEST((std::find(checked.begin(), checked.end(), "slots-free-when-published") != checked.end()) == fixed);
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_load_forecast
