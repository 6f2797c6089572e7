// Suite `metascheduler`: paper 000's evaluation on hand-computed cases: the two deadline schemas and the deadline
// T_r + T_s + k, jobs and work delayed, Total Weighted Delay (Eq. V.1) on a worked example, the load adjustment, a
// two-provider three-BoT timeline run on the kernel, the run properties on logs that break each, and each reading of
// the system (dispatch, FreeTimeSlots' part deadlines, Table II's time filter) against the other. Source: paper 000
// sec. III-V; the readings are named in model/metascheduler.hpp and docs/policies.md.
#include "counterexamples/builtin.hpp"
#include "experiments/metascheduler/providers.hpp"
#include "model/metascheduler.hpp"
#include "properties/metascheduler_properties.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <stdexcept>

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

// The work-conserving dispatch on a kept plan, by hand. P = 3; R runs on one processor until 10 (estimated);
// waiting, in arrival order, with the committed plan:
//   Z, a BoT part of 3 tasks of 3 s, deadline 200, at 15, 18, 19; W (3 processors, 5 s, deadline 15) at 10;
//   Y (1, 12 s, deadline 50) at 15; X (1, 4 s, deadline 100) at 15.
// Two processors are idle over [0, 10). EDF order W, Y, X, Z:
//   W needs 3 processors at 0: 2 are free: no.
//   Y over [0, 12) would hold a processor over [10, 12), where W is committed to all three: no.
//   X over [0, 4): fits (2 free): starts now; one processor is left over [0, 4).
//   Z's task planned at 15, over [0, 3): fits (1 free): starts now; its task at 18 finds none free over [0, 3): no,
//   nor would its task at 19 (a later task gives back less of the window).
// In arrival order Z would take both idle processors (tasks at 15 and 18) and X none.
BOOST_AUTO_TEST_CASE(work_conserving_dispatch_starts_what_fits_without_moving_a_committed_start) {
  offers::Instance state;
  state.processors = 3;
  state.now = 0;
  state.running = {{"R", 1, 10}};
  state.waiting = {{"Z", offers::JobType::kBotPart, 1, 3, 3, 200},
                   {"W", offers::JobType::kLocal, 3, 5, 1, 15},
                   {"Y", offers::JobType::kLocal, 1, 12, 1, 50},
                   {"X", offers::JobType::kLocal, 1, 4, 1, 100}};
  offers::Schedule plan;
  plan.starts = {{19, 15, 18}, {10}, {15}, {15}};  // in any order
  BOOST_TEST((early_starts(state, plan) == std::vector<long long>{1, 0, 0, 1}));
  // Without R, W fits at 0 (its own hold over [10, 15) given back) and takes every processor over [0, 5): nothing
  // else fits now.
  state.running.clear();
  BOOST_TEST((early_starts(state, plan) == std::vector<long long>{0, 1, 0, 0}));
  // Starts due now are the plan's own, not early: X planned at 0 holds its processor over [0, 4) in the plan.
  state.running = {{"R", 1, 10}};
  plan.starts[3] = {0};
  BOOST_TEST((early_starts(state, plan) == std::vector<long long>{1, 0, 0, 0}));
}

// A provider that keeps its plan, by hand: one provider of 2 processors, local jobs only (processors, estimate, run, D):
//   t=0: J1 (1, 10, 4, 18), J2 (1, 9, 9, 15), J3 (1, 10, 8, 17), J4 (2, 9, 6, 14); t=2: J5 (1, 9, 3, 28).
// t=0: J1 0-10; J2 0-9 (EDF: J2, J1); J3 at D = 17 would make J1 late (J2 and J3 first, J1 9-19): FEEDBACK puts it
//      after J1, 9-19, and gives it 19; J4 meets 14 nowhere before the last position: 19-28, given 28. J1 and J2 start.
// t=2: J5 (28, after J4 in EDF order): J3 9-19, J4 19-28, J5 10-19: admitted with 28.
// t=4: J1 ends, 6 s early. EDF from scratch: J3 4-14, J4 14-23, J5 after it, 23-32 > 28: the plan is kept (one
//      fall-back). planned-starts: a processor idles over [4, 9); J3 9-17, J5 10-13, then EDF re-plans J4 (17-23).
//      work-conserving: at 4, in EDF order, J3 fits over [4, 14) with its hold given back (J5 holds the other
//      processor from 10): it starts, runs 4-12; J4 (2 processors) and J5 do not fit (none free over [4, 9)).
//      t=9: J2 ends; J4 does not fit over [9, 18), J5 does (J3 holds one processor to 14): runs 9-12. t=12: J4 12-18.
BOOST_AUTO_TEST_CASE(work_conserving_provider_starts_early_where_the_kept_plan_idles) {
  System system = two_providers();
  system.clusters = {Cluster{"A", 2, 0, 0, 0}};
  auto local = [](std::int64_t id, double submit, int procs, double estimate, double run, double deadline) {
    Job j;
    j.cluster = 0;
    j.trace_id = id;
    j.submit = submit;
    j.procs = procs;
    j.estimate = estimate;
    j.run = run;
    j.deadline = deadline;
    return j;
  };
  const std::vector<Job> jobs = {local(1, 0, 1, 10, 4, 18), local(2, 0, 1, 9, 9, 15), local(3, 0, 1, 10, 8, 17),
                                 local(4, 0, 2, 9, 6, 14), local(5, 2, 1, 9, 3, 28)};
  RunSpec spec;
  spec.policy = "offers-plb";
  using R = std::vector<std::tuple<std::size_t, double, double>>;  // job, start, end
  auto runs = [](const RunLog& log) {
    R out;
    for (const auto& x : log.executions[0]) out.emplace_back(x.job, x.start, x.end);
    std::sort(out.begin(), out.end());
    return out;
  };
  system.settings.dispatch = Dispatch::kPlannedStarts;
  const MetaRun kept = run_system(system, jobs, spec, registry());
  BOOST_TEST((runs(kept.log) == R{{0, 0, 4}, {1, 0, 9}, {2, 9, 17}, {3, 17, 23}, {4, 10, 13}}));
  BOOST_TEST(kept.providers.edf_fallbacks == 1u);
  BOOST_TEST(kept.providers.early_starts == 0u);
  system.settings.dispatch = Dispatch::kWorkConserving;
  const MetaRun early = run_system(system, jobs, spec, registry());
  BOOST_TEST((runs(early.log) == R{{0, 0, 4}, {1, 0, 9}, {2, 4, 12}, {3, 12, 18}, {4, 9, 12}}));
  BOOST_TEST(early.providers.edf_fallbacks == 1u);
  BOOST_TEST(early.providers.early_starts == 2u);
  // The same deadlines given (the dispatch changes when work runs, not what was promised), and every one kept.
  for (std::size_t j = 0; j < jobs.size(); ++j) BOOST_TEST(early.log.logs[j].new_deadline == kept.log.logs[j].new_deadline);
  BOOST_TEST(kept.log.logs[2].new_deadline == 19.0);
  BOOST_TEST(kept.log.logs[3].new_deadline == 28.0);
  for (const auto* r : {&kept, &early})
    for (const auto& p : check_run(system, r->log)) BOOST_TEST(p.violations == 0u, p.name << ": " << p.first);
}

// FreeTimeSlots' part deadlines, by hand. One provider of 1 processor.
// t=0: local L0 (10 s, D = 1000) runs 0-10.
// t=1: BoT B, 1 task of 10, D = 100. The free slot is [10, inf): the part completes at 20, the BoT's D^N is
//      max(D, 20) = 100 (not delayed) under both readings. slot-end: the part is due at 20; bot-deadline: at
//      max(100, 20) = 100. Planned 10-20.
// t=2: local L1 (5 s, D = 16). EDF puts L1 (16) first: L1 10-15, the part 15-25.
//      slot-end: the part would end at 25 > 20: FEEDBACK puts L1 after it, 20-25, and gives L1 25 (delayed).
//      bot-deadline: 25 <= 100: L1 is admitted with its own 16 and runs 10-15, the part 15-25.
// The BoT's D^N is its composition's completion under both: the part's deadline is the provider's promise.
BOOST_AUTO_TEST_CASE(free_time_slots_part_due_at_its_slot_end_or_at_the_bot_deadline) {
  System system = two_providers();
  system.clusters = {Cluster{"A", 1, 0, 0, 0}};
  Job l0, l1;
  l0.cluster = l1.cluster = 0;
  l0.trace_id = 1;
  l0.estimate = l0.run = 10;
  l0.deadline = 1000;
  l1.trace_id = 2;
  l1.submit = 2;
  l1.estimate = l1.run = 5;
  l1.deadline = 16;
  const std::vector<Job> jobs = {l0, bot(3, 1, 1, 10, 100), l1};
  RunSpec spec;
  spec.policy = "free-time-slots";
  using R = std::vector<std::tuple<double, double, std::size_t>>;
  auto runs = [](const RunLog& log) {
    R out;
    for (const auto& x : log.executions[0]) out.emplace_back(x.start, x.end, x.job);
    std::sort(out.begin(), out.end());
    return out;
  };
  system.settings.fts_part_deadline = FtsPartDeadline::kSlotEnd;
  const MetaRun slot_end = run_system(system, jobs, spec, registry());
  BOOST_TEST(slot_end.log.logs[1].parts.size() == 1u);
  BOOST_TEST(slot_end.log.logs[1].parts[0].deadline == 20.0);
  BOOST_TEST(slot_end.log.logs[1].new_deadline == 100.0);
  BOOST_TEST(slot_end.log.logs[2].new_deadline == 25.0);
  BOOST_TEST((runs(slot_end.log) == R{{0, 10, 0}, {10, 20, 1}, {20, 25, 2}}));
  system.settings.fts_part_deadline = FtsPartDeadline::kBotDeadline;
  const MetaRun bot_deadline = run_system(system, jobs, spec, registry());
  BOOST_TEST(bot_deadline.log.logs[1].parts[0].deadline == 100.0);
  BOOST_TEST(bot_deadline.log.logs[1].new_deadline == 100.0);
  BOOST_TEST(bot_deadline.log.logs[2].new_deadline == 16.0);
  BOOST_TEST((runs(bot_deadline.log) == R{{0, 10, 0}, {10, 15, 2}, {15, 25, 1}}));
  for (const auto* r : {&slot_end, &bot_deadline})
    for (const auto& p : check_run(system, r->log)) BOOST_TEST(p.violations == 0u, p.name << ": " << p.first);
  // A BoT whose slots complete after its D (B, D = 15: completion 20) is due at that completion under both readings,
  // and its D^N is 20 (delayed).
  const std::vector<Job> late = {l0, bot(3, 1, 1, 10, 15)};
  for (const auto reading : {FtsPartDeadline::kSlotEnd, FtsPartDeadline::kBotDeadline}) {
    system.settings.fts_part_deadline = reading;
    const MetaRun r = run_system(system, late, spec, registry());
    BOOST_TEST(r.log.logs[1].parts[0].deadline == 20.0);
    BOOST_TEST(r.log.logs[1].new_deadline == 20.0);
    for (const auto& p : check_run(system, r.log)) BOOST_TEST(p.violations == 0u, p.name << ": " << p.first);
  }
}

// Table II's "Job Req Time" range [1 h, 18 h] (external: [1 h, 36 h], 2 processors or more) on the run time or on
// the requested time, by hand (hours: run, requested):
//   1: 0.5, 2 (runs shorter than 1 h: in only as requested)    2: 2, 20 (asks more than 18 h: in only as run)
//   3: 3, 4 (in both)                                          4: 20, 10 (killed at its request: runs 10 h, in both)
//   external 11: 0.5, 2 (in only as requested)   12: 2, 40 (in only as run)   13: 1 processor (never)
BOOST_AUTO_TEST_CASE(job_req_time_ranges_filter_the_run_time_or_the_requested_time) {
  constexpr double h = 3600;
  auto job = [&](std::int64_t id, double submit, int procs, double run, double requested) {
    schedcheck::workload::Job j;
    j.id = id;
    j.submit = submit;
    j.procs = procs;
    j.run = run * h;
    j.estimate = requested * h;
    return j;
  };
  std::vector<schedcheck::workload::Workload> workloads(2);
  workloads[0].jobs = {job(1, 0, 1, 0.5, 2), job(2, 100, 1, 2, 20), job(3, 200, 1, 3, 4), job(4, 300, 1, 20, 10)};
  workloads[1].jobs = {job(11, 0, 2, 0.5, 2), job(12, 100, 2, 2, 40), job(13, 200, 1, 2, 2)};
  System system;
  system.clusters = {Cluster{"A", 4, 0, 0, 10, 1 * h, 18 * h}};
  system.external = External{1, 2, 0, 10, 1 * h, 36 * h};  // a load of 10: nothing is removed
  auto ids = [&](ReqTimeFilter filter) {
    system.settings.req_time_filter = filter;
    std::vector<std::int64_t> out;
    for (const Job& j : system_jobs(system, workloads, 1)) out.push_back(j.trace_id);
    std::sort(out.begin(), out.end());
    return out;
  };
  BOOST_TEST((ids(ReqTimeFilter::kRunTime) == std::vector<std::int64_t>{2, 3, 4, 12}));
  BOOST_TEST((ids(ReqTimeFilter::kRequested) == std::vector<std::int64_t>{1, 3, 4, 11}));
  // Job 4 runs its run time cut at its request, and providers plan with the request.
  system.settings.req_time_filter = ReqTimeFilter::kRunTime;
  for (const Job& j : system_jobs(system, workloads, 1))
    if (j.trace_id == 4) BOOST_TEST((j.run == 10 * h && j.estimate == 10 * h));
}

// The readings' scenario keys: the defaults, each other value, and one InputError line naming the file, the field
// and what was expected.
BOOST_AUTO_TEST_CASE(scenario_reader_reads_the_readings_and_refuses_bad_ones) {
  scenario::Scenario sc;
  sc.file = "s.json";
  sc.workloads = {scenario::WorkloadSpec{"W", "w.swf", {}, false}};
  scenario::ClusterSpec c;
  c.name = "A";
  c.processors = 4;
  c.parameters = {{"workload", "W"}, {"load", 0.5}};
  sc.clusters = {c};
  sc.sweep = {{"external", {{"workload", "W"}, {"load", 0.5}}}};
  const std::vector<std::string> policies = {"free-time-slots", "offers-plb"};
  const Settings defaults = read(sc, policies).settings;
  BOOST_TEST((defaults.dispatch == Dispatch::kWorkConserving));
  BOOST_TEST((defaults.fts_part_deadline == FtsPartDeadline::kBotDeadline));
  BOOST_TEST((defaults.req_time_filter == ReqTimeFilter::kRunTime));
  sc.sweep["dispatch"] = "planned-starts";
  sc.sweep["fts_part_deadline"] = "slot-end";
  sc.sweep["req_time_filter"] = "requested";
  const Settings other = read(sc, policies).settings;
  BOOST_TEST((other.dispatch == Dispatch::kPlannedStarts));
  BOOST_TEST((other.fts_part_deadline == FtsPartDeadline::kSlotEnd));
  BOOST_TEST((other.req_time_filter == ReqTimeFilter::kRequested));
  auto refusal = [&](const std::string& key, const nlohmann::json& value) {
    scenario::Scenario bad = sc;
    bad.sweep[key] = value;
    try {
      read(bad, policies);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  BOOST_TEST(refusal("dispatch", "idle") ==
             "s.json: sweep.dispatch: expected \"work-conserving\" or \"planned-starts\", got \"idle\"");
  BOOST_TEST(refusal("fts_part_deadline", 3) ==
             "s.json: sweep.fts_part_deadline: expected a non-empty string, got 3");
  BOOST_TEST(refusal("req_time_filter", "estimate") ==
             "s.json: sweep.req_time_filter: expected \"run-time\" or \"requested\", got \"estimate\"");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_metascheduler
