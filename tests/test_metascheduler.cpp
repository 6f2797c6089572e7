// Suite `metascheduler`: paper 000's evaluation arithmetic on hand-computed cases: the two deadline schemas and the
// deadline T_r + T_s + k, jobs and work delayed, and Total Weighted Delay (Eq. V.1) on a worked example. Source: paper
// 000 sec. V-A; the Eq. V.1 reading of T^s is named in model/metascheduler.hpp.
#include "model/metascheduler.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace schedcheck::metascheduler;

BOOST_AUTO_TEST_SUITE(metascheduler)

BOOST_AUTO_TEST_CASE(deadline_schemas) {
  const DeadlineSchema one = schema_1(), two = schema_2();
  BOOST_TEST(one.k[0] == 18 * 3600.0);
  BOOST_TEST(one.k[1] == 36 * 3600.0);
  BOOST_TEST(one.k[2] == 10 * 86400.0);
  BOOST_TEST(two.k[0] == 12 * 3600.0);
  BOOST_TEST(two.k[1] == 86400.0);
  BOOST_TEST(two.k[2] == 7 * 86400.0);
  // A uniform draw: each third of [0, 1) gives one value.
  BOOST_TEST(k_of(one, 0.0) == one.k[0]);
  BOOST_TEST(k_of(one, 0.3333) == one.k[0]);
  BOOST_TEST(k_of(one, 0.5) == one.k[1]);
  BOOST_TEST(k_of(one, 0.9999) == one.k[2]);
  // Submitted at 1000 s, estimated 1 h, k = 36 h: 1000 + 3600 + 129600.
  BOOST_TEST(deadline(1000, 3600, k_of(one, 0.5)) == 134200.0);
  // Schema 2 is tighter for every draw.
  for (const double u : {0.1, 0.5, 0.9}) BOOST_TEST(k_of(two, u) < k_of(one, u));
}

BOOST_AUTO_TEST_CASE(total_weighted_delay_worked_example) {
  // A: 4 tasks, asked 100 s after its submission, given 150: (150 / 100 - 1) x 100 x 4 = 200.
  // B: met its deadline: nothing. C: 2 tasks, asked 50 s, given 100: (100 / 50 - 1) x 100 x 2 = 200.
  const std::vector<Delayed> jobs = {{0, 100, 150, 4, 40}, {10, 110, 110, 1, 5}, {20, 70, 120, 2, 7}};
  BOOST_TEST(jobs_delayed(jobs) == 2u);
  BOOST_TEST(work_delayed(jobs) == 47.0);
  std::size_t undefined = 99;
  BOOST_TEST(total_weighted_delay(jobs, &undefined) == 400.0);
  BOOST_TEST(undefined == 0u);
  // A deadline not after the submission: the ratio is undefined, the job is counted apart and adds nothing.
  const std::vector<Delayed> odd = {{50, 50, 80, 3, 1}};
  BOOST_TEST(total_weighted_delay(odd, &undefined) == 0.0);
  BOOST_TEST(undefined == 1u);
}

BOOST_AUTO_TEST_CASE(load_adjustment_keeps_the_window_and_changes_the_jobs) {
  // Ten 100 s single-processor jobs a 1000 s window, on one processor: load 1. Then ten more in the next window.
  std::vector<schedcheck::workload::Job> trace;
  for (int i = 0; i < 20; ++i) {
    schedcheck::workload::Job j;
    j.id = i;
    j.submit = 100.0 * i + 5;
    j.run = j.estimate = 100;
    j.procs = 1;
    trace.push_back(j);
  }
  const auto same = adjust_load(trace, 0, 1000, 1, 1.0, 1);
  BOOST_TEST(same.size() == 10u);
  BOOST_TEST(load(same, 1, 1000) == 1.0);
  // Half the load: five jobs removed at random (seeded: the same five again with the same seed).
  const auto half = adjust_load(trace, 0, 1000, 1, 0.5, 7);
  BOOST_TEST(half.size() == 5u);
  BOOST_TEST(load(half, 1, 1000) == 0.5);
  const auto again = adjust_load(trace, 0, 1000, 1, 0.5, 7);
  for (std::size_t i = 0; i < half.size(); ++i) BOOST_TEST(half[i].id == again[i].id);
  // Twice the load on one processor, or the same work on two: the next window folded back, time of day kept.
  const auto twice = adjust_load(trace, 0, 1000, 1, 2.0, 1);
  BOOST_TEST(twice.size() == 20u);
  BOOST_TEST(std::all_of(twice.begin(), twice.end(), [](const auto& j) { return j.submit >= 0 && j.submit < 1000; }));
  BOOST_TEST(std::count_if(twice.begin(), twice.end(), [](const auto& j) { return j.submit == 5.0; }) == 2);
  // A window later in the trace starts at 0.
  const auto later = adjust_load(trace, 1000, 1000, 1, 1.0, 1);
  BOOST_TEST((later.size() == 10u && later.front().submit == 5.0 && later.front().id == 10));
}

BOOST_AUTO_TEST_SUITE_END()
