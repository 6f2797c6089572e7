// Suite `metascheduler`: paper 000's evaluation on hand-computed cases: the two deadline schemas and the deadline
// T_r + T_s + k, jobs and work delayed, Total Weighted Delay (Eq. V.1) on a worked example, the load adjustment, a
// two-provider three-BoT timeline run on the kernel, and the run properties on logs that break each. Source: paper 000
// sec. III-V; the readings are named in model/metascheduler.hpp and docs/policies.md.
#include "counterexamples/builtin.hpp"
#include "experiments/metascheduler/providers.hpp"
#include "model/metascheduler.hpp"
#include "properties/metascheduler_properties.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_metascheduler {

using namespace schedcheck;
using namespace schedcheck::metascheduler;

namespace {

const Registry& registry() {
  static const Registry r = make_builtin_registry();
  return r;
}

std::size_t violations(const std::vector<RunPropertyResult>& results, const std::string& name) {
  for (const auto& r : results)
    if (r.name == name) return r.violations;
  return 999;
}

// Two providers of 2 processors, one local job at B, three BoTs (the timeline of the test below).
System two_providers() {
  System s;
  s.clusters = {Cluster{"A", 2, 0, 0, 0}, Cluster{"B", 2, 0, 0, 0}};
  s.settings.days = 1;
  s.settings.offers_every = 1;
  return s;
}

Job bot(std::int64_t id, double submit, int tasks, double runtime, double deadline) {
  Job j;
  j.trace_id = id;
  j.submit = submit;
  j.procs = tasks;
  j.estimate = j.run = runtime;
  j.deadline = deadline;
  return j;
}

}  // namespace

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

// By hand (runtimes in seconds; PLB's trigger: the offers meeting D must hold n, else OffersNoLB):
// t=0: local job L at B (1 processor, estimate 8, runs 4, D=100): EDF alone, planned 0-8.
// t=0: BoT1, 4 tasks of 10, D=20. Delta counts {1,2,3,4}; both providers keep D for every count (B puts L after the
//      BoT's tasks, 20-28): staircases A (4,20), B (4,20). PLB: 4/8 x 4 = 2 each, completion 20. B re-plans the 2 tasks
//      it got: tasks 0-10, L 10-18 (runs 10-14).
// t=5: BoT2, 2 tasks of 10, D=15: nobody can start before 10, so every offer is (2,20) by FEEDBACK; no offer meets D:
//      OffersNoLB keeps the first offer that takes the whole BoT, A's: A runs both 10-20. D^N = 20 > 15: delayed,
//      TWD = 2 x ((20-5)/(15-5) - 1) x 100 = 100.
// t=12: BoT3, 3 tasks of 5, D=27. A (busy to 20): 20,20 then 25 -> 30 > 27: (2,27),(3,30). B (L holds a processor
//      to its estimate 18): 12, 17, 18 -> 23: (3,27). PLB: A 2/5 x 3 = 1.2, B 1.8: floors 1 and 1, the remainder to B:
//      A 1 task (20-25), B 2 tasks (12-17, and 17-22 planned). L ends at 14, early: B re-plans, its second task
//      starts at 14 (14-19).
BOOST_AUTO_TEST_CASE(two_providers_three_bots_by_hand) {
  const System system = two_providers();
  Job local;
  local.cluster = 1;
  local.trace_id = 7;
  local.procs = 1;
  local.estimate = 8;
  local.run = 4;
  local.deadline = 100;
  const std::vector<Job> jobs = {local, bot(1, 0, 4, 10, 20), bot(2, 5, 2, 10, 15), bot(3, 12, 3, 5, 27)};
  RunSpec spec;
  spec.policy = "offers-plb";
  const MetaRun r = run_system(system, jobs, spec, registry());
  const RunLog& log = r.log;
  BOOST_TEST(!r.interrupted);
  BOOST_TEST(log.logs[0].new_deadline == 100.0);
  auto parts = [&](std::size_t j) {
    std::vector<std::pair<std::size_t, long long>> out;
    for (const auto& p : log.logs[j].parts) out.emplace_back(p.cluster, p.tasks);
    return out;
  };
  using P = std::vector<std::pair<std::size_t, long long>>;
  BOOST_TEST((parts(1) == P{{0, 2}, {1, 2}}));
  BOOST_TEST((parts(2) == P{{0, 2}}));
  BOOST_TEST((parts(3) == P{{0, 1}, {1, 2}}));
  BOOST_TEST(log.logs[1].new_deadline == 20.0);
  BOOST_TEST(log.logs[2].new_deadline == 20.0);
  BOOST_TEST(log.logs[3].new_deadline == 27.0);
  BOOST_TEST(log.logs[1].balanced);
  BOOST_TEST(!log.logs[2].balanced);
  auto runs = [&](std::size_t c) {
    std::vector<std::tuple<double, double, int>> out;
    for (const auto& x : log.executions[c]) out.emplace_back(x.start, x.end, x.procs);
    std::sort(out.begin(), out.end());
    return out;
  };
  using R = std::vector<std::tuple<double, double, int>>;
  BOOST_TEST((runs(0) == R{{0, 10, 2}, {10, 20, 2}, {20, 25, 1}}));
  BOOST_TEST((runs(1) == R{{0, 10, 2}, {10, 14, 1}, {12, 17, 1}, {14, 19, 1}}));
  // The delay metrics on the log: one BoT delayed, by Eq. V.1 100.
  std::vector<Delayed> bots;
  for (std::size_t j = 1; j < 4; ++j)
    bots.push_back({log.jobs[j].submit, log.jobs[j].deadline, log.logs[j].new_deadline, log.jobs[j].procs,
                    log.jobs[j].procs * log.jobs[j].estimate});
  BOOST_TEST(jobs_delayed(bots) == 1u);
  BOOST_TEST(work_delayed(bots) == 20.0);
  BOOST_TEST(total_weighted_delay(bots) == 100.0, boost::test_tools::tolerance(1e-9));
  // Every composition was checked (and is at the optimum), offer lists were sampled, and every run property holds.
  BOOST_TEST(r.compositions->counts().checked == 3u);
  BOOST_TEST(r.compositions->counts().failing == 0u);
  BOOST_TEST(r.offer_lists->counts().checked == 6u);
  BOOST_TEST(r.offer_list_violations == 0u);
  for (const auto& p : check_run(system, log)) BOOST_TEST(p.violations == 0u, p.name << ": " << p.first);
}

// Each run property fails on a log that breaks it, with a sentence naming the job, the cluster and the instant.
BOOST_AUTO_TEST_CASE(run_properties_fail_on_logs_that_break_them) {
  const System system = two_providers();
  RunLog log;
  log.jobs = {bot(1, 0, 3, 10, 20)};
  log.logs.resize(1);
  log.logs[0].parts = {Part{0, 2, 20}, Part{1, 1, 20}};
  log.logs[0].new_deadline = 20;
  log.executions = {{Execution{0, 10, 2, 0, 0}}, {Execution{0, 10, 1, 0, 1}}};
  BOOST_TEST(violations(check_run(system, log), "no-accepted-deadline-violation") == 0u);
  BOOST_TEST(violations(check_run(system, log), "tasks-conserved") == 0u);
  BOOST_TEST(violations(check_run(system, log), "capacity") == 0u);
  RunLog late = log;
  late.executions[1][0] = Execution{15, 25, 1, 0, 1};  // finishes at 25, accepted with 20
  const auto l = check_run(system, late);
  BOOST_TEST(violations(l, "no-accepted-deadline-violation") == 1u);
  BOOST_TEST(l[0].first.find("t=25") != std::string::npos);
  RunLog lost = log;
  lost.logs[0].parts[1].tasks = 0;  // a task given to nobody (published DPLB's cap)
  lost.executions[1].clear();
  BOOST_TEST(violations(check_run(system, lost), "tasks-conserved") == 1u);
  RunLog twice = log;
  twice.executions[1].push_back(Execution{10, 20, 1, 0, 1});  // the part's task ran twice
  BOOST_TEST(violations(check_run(system, twice), "tasks-conserved") == 1u);
  RunLog full = log;
  full.executions[0].push_back(Execution{5, 8, 1, 0, 0});  // 3 processors held on A at t=5
  BOOST_TEST(violations(check_run(system, full), "capacity") == 1u);
}

// The published DPLB loses tasks online where the -fixed variant does not (Alg. 1 lines 13-14): the run property
// tasks-conserved says so, and the same run under -fixed holds it.
BOOST_AUTO_TEST_CASE(published_dplb_loses_tasks_online_and_fixed_does_not) {
  System system = two_providers();
  system.clusters = {Cluster{"A", 6, 0, 0, 0}, Cluster{"B", 1, 0, 0, 0}, Cluster{"C", 1, 0, 0, 0},
                     Cluster{"D", 1, 0, 0, 0}};
  // A local job (started at 0) holds 5 of A's 6 processors, so at t = 1 each provider runs one task at a time: 10
  // tasks of 10 by D = 101,
  // and every provider's largest offer meeting D is (10, 101) (Delta count 0.25 x 40). One group covering n = 40;
  // DP from computing power (Alg. 1 line 5): A 6/9 x 40 = 26 (line 12, rounded down), capped to its 10 (lines 13-14);
  // B and C 1/9 x 40 = 4 each; D, last, the remaining 22, capped to 10: 28 of 40 tasks given, 12 never run.
  Job local;
  local.cluster = 0;
  local.procs = 5;
  local.estimate = local.run = 1000;
  local.deadline = 10000;
  const std::vector<Job> jobs = {local, bot(1, 1, 40, 10, 101)};
  RunSpec spec;
  spec.policy = "offers-dplb";
  const MetaRun published = run_system(system, jobs, spec, registry());
  spec.policy = "offers-dplb-fixed";
  const MetaRun fixed = run_system(system, jobs, spec, registry());
  BOOST_TEST(published.log.logs[1].lost == 12);
  BOOST_TEST(violations(check_run(system, published.log), "tasks-conserved") == 1u);
  BOOST_TEST(fixed.log.logs[1].lost == 0);
  BOOST_TEST(violations(check_run(system, fixed.log), "tasks-conserved") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_metascheduler
