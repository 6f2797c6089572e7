// Suite `kernel`: the discrete-event kernel (the documented order at one instant, end-of-instant calls, messages
// counted by kind, stop time, refused timers), a cluster actor's decision verbs beyond start and reserve (reject,
// call me later, messages upstream) with the run invariants watching, decision checks inside a run (DecisionProbe:
// sampling, counts, worst cases, corpus files that re-check with their verdict), and the executors (results in item
// once whatever the thread count; a failing item stops the dispatch). Source: our own (docs/simulation.md).
#include "counterexamples/builtin.hpp"
#include "counterexamples/search.hpp"
#include "model/cluster_json.hpp"
#include "model/queue_window.hpp"
#include "model/workload.hpp"
#include "model/jobs_csv.hpp"
#include "properties/audit.hpp"
#include "properties/decision_probe.hpp"
#include "properties/run_invariants.hpp"
#include "properties/run_properties.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/cluster_actor.hpp"
#include "simulation/job_source.hpp"
#include "simulation/kernel.hpp"
#include "simulation/simulation.hpp"
#include "simulation/space_shared.hpp"
#include "simulation/summary.hpp"
#include "simulation/window.hpp"
#include "support/errors.hpp"
#include "support/executor.hpp"

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <random>
#include <fstream>
#include <string_view>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_kernel {

using namespace schedcheck;
using namespace schedcheck::sim;
namespace fs = std::filesystem;

namespace {

// Messages of one word, of the kinds the tests below send.
inline constexpr const char* kPing = "ping";
inline constexpr const char* kStarted = "started";
inline constexpr const char* kX = "x";
template <const char* const& Kind>
struct Word {
  static constexpr std::string_view kind = Kind;
  std::uint64_t body = 0;
};
using Ping = Word<kPing>;
using Started = Word<kStarted>;

std::uint64_t body_of(const Message& m) {
  if (const auto* p = m.as<Ping>()) return p->body;
  return m.get<Started>().body;
}

// An actor that records what it sees as "time:what" lines in a shared log, and does what its script says at start.
struct Recorder : Actor {
  std::vector<std::string>& log;
  std::string name;
  std::function<void(Context&)> start;
  std::function<void(Context&, std::uint64_t)> timer;
  std::function<void(Context&)> instant_end;
  Recorder(std::vector<std::string>& l, std::string n) : log(l), name(std::move(n)) {}
  void on_start(Context& c) override {
    if (start) start(c);
  }
  void on_message(Context& c, const Message& m) override {
    log.push_back(fmt::format("{}:{} message {} body {}", c.now(), name, m.kind, body_of(m)));
  }
  void on_timer(Context& c, std::uint64_t tag) override {
    log.push_back(fmt::format("{}:{} timer {}", c.now(), name, tag));
    if (timer) timer(c, tag);
  }
  void on_instant_end(Context& c) override {
    log.push_back(fmt::format("{}:{} end of instant", c.now(), name));
    if (instant_end) instant_end(c);
  }
};

workload::Workload make(int processors, const std::vector<std::array<double, 4>>& jobs) {  // submit, run, estimate, procs
  workload::Workload w;
  w.name = "hand-made";
  w.processors = processors;
  std::int64_t id = 1;
  for (const auto& j : jobs) w.jobs.push_back(workload::Job{id++, j[0], j[1], j[2], static_cast<int>(j[3])});
  w.records = w.jobs.size();
  return w;
}

// A policy around another: its decision, plus what `extra` adds (the verbs under test).
cluster::ClusterPolicy wrapped(const std::string& name, std::function<void(const cluster::Snapshot&, cluster::Decision&)> extra) {
  cluster::ClusterPolicy p = cluster::cluster_policy("fcfs");
  p.name = name;
  p.hands_on_profile = false;  // it edits fcfs's decision: the engine applies it
  p.decide = [extra](const cluster::Snapshot& s) {
    cluster::Decision d = cluster::fcfs(s);
    extra(s, d);
    return d;
  };
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel)

BOOST_AUTO_TEST_CASE(one_instant_goes_ends_arrivals_messages_timers_then_end_of_instant) {
  // Everything below happens at t = 5, created in the reverse of the documented order: the lanes put it right, and
  // within a lane the creation order holds (timers 1 then 2).
  std::vector<std::string> log;
  Kernel kernel;
  auto a = std::make_unique<Recorder>(log, "a");
  auto b = std::make_unique<Recorder>(log, "b");
  Recorder& ra = *a;
  const ActorId ia = kernel.add(std::move(a), "a");
  const ActorId ib = kernel.add(std::move(b), "b");
  BOOST_TEST(ia == 0u);
  BOOST_TEST(ib == 1u);
  ra.start = [&](Context& c) {
    c.wake_at(5, 1);                     // timer lane
    c.wake_at(5, 2);
    c.send(ib, Ping{42}, 5);             // message lane, delivered at 5
    c.wake_at(5, 3, Lane::kArrival);
    c.wake_at(5, 4, Lane::kEnd);
  };
  ra.timer = [&](Context& c, std::uint64_t tag) {
    if (tag == 1) c.end_of_instant();
    if (tag == 2) c.end_of_instant();  // asked twice in the instant: called once
  };
  ra.instant_end = [&](Context& c) {
    if (c.now() == 5 && log.size() < 8) c.wake_at(5, 9, Lane::kEnd);  // an event at the same instant: comes back
  };
  const KernelStats stats = kernel.run();
  const std::vector<std::string> expected = {"5:a timer 4",  "5:a timer 3",       "5:b message 0 body 42", "5:a timer 1",
                                             "5:a timer 2",  "5:a end of instant", "5:a timer 9"};
  BOOST_TEST(log == expected, boost::test_tools::per_element());
  BOOST_TEST(stats.events == 6u);
  BOOST_TEST(stats.messages == 1u);
  BOOST_TEST(kernel.kinds().at(0) == "ping");
  BOOST_TEST(stats.sent_by_kind.at(0) == 1u);
  BOOST_TEST(stats.end_time == 5);
  BOOST_TEST(!stats.stopped);
}

BOOST_AUTO_TEST_CASE(stop_time_cuts_the_run_and_timers_in_the_past_are_bugs) {
  std::vector<std::string> log;
  Kernel kernel(RunLimits{10, true});
  auto a = std::make_unique<Recorder>(log, "a");
  Recorder& ra = *a;
  kernel.add(std::move(a), "a");
  ra.start = [](Context& c) {
    c.wake_at(3, 1);
    c.wake_at(12, 2);
  };
  ra.timer = [](Context& c, std::uint64_t) { BOOST_CHECK_THROW(c.wake_at(2, 7), std::logic_error); };
  const KernelStats stats = kernel.run();
  BOOST_TEST(log == std::vector<std::string>{"3:a timer 1"}, boost::test_tools::per_element());
  BOOST_TEST(stats.stopped);
  BOOST_TEST(!stats.interrupted);
  BOOST_CHECK_THROW(kernel.run(), std::logic_error);  // a kernel runs once
}

BOOST_AUTO_TEST_CASE(a_cluster_policy_may_reject_jobs_and_the_run_accounts_for_them) {
  // Four one-processor jobs on 2 processors; the policy rejects every job with an even id (2 and 4) at its first
  // pass and starts the others in order: 1 at 0, 3 at 1; 2 and 4 end rejected; the general invariants hold.
  const auto w = make(2, {{0, 10, 10, 1}, {0, 10, 10, 1}, {1, 10, 10, 1}, {1, 10, 10, 1}});
  std::vector<std::int64_t> ids;
  for (const auto& j : w.jobs) ids.push_back(j.id);
  auto policy = wrapped("reject-even", [&](const cluster::Snapshot& s, cluster::Decision& d) {
    d = cluster::Decision{};
    for (std::size_t i = 0; i < s.queue.size(); ++i) {
      if (ids[s.queue[i].job] % 2 == 0) d.reject.push_back(i);
    }
    // start what fits among the others, in order
    int free = s.profile.free_at(s.now);
    for (std::size_t i = 0; i < s.queue.size(); ++i)
      if (ids[s.queue[i].job] % 2 == 1 && free >= s.queue[i].procs) {
        d.start.push_back(cluster::Placement{i, s.now, {}});
        free -= s.queue[i].procs;
      }
  });
  Simulation simulation(w.jobs, single_cluster(w, policy));
  runcheck::InvariantChecker checker(w, runcheck::applicable("reject-even"));
  simulation.add_observer(checker);
  const RunResult r = simulation.run();
  BOOST_TEST((r.records[0].state == JobState::kFinished));
  BOOST_TEST((r.records[1].state == JobState::kRejected));
  BOOST_TEST((r.records[2].state == JobState::kFinished));
  BOOST_TEST((r.records[3].state == JobState::kRejected));
  BOOST_TEST(r.records[2].start == 1);
  BOOST_TEST(r.clusters.at(0).rejected == 2u);
  BOOST_TEST(checker.total() == 0u, (checker.violations().empty() ? "" : checker.violations()[0].detail));
}

BOOST_AUTO_TEST_CASE(rejected_jobs_settle_the_run_behind_a_router_and_are_no_backfills) {
  // A policy that rejects every odd job id and starts the others in queue order (FCFS among them): behind a router
  // with status reports the run still ends (the reports stop once every job has settled), the rejected jobs are
  // counted, and no start counts as a backfill (a rejected job ahead does not wait).
  const auto w = make(4, {{0, 5, 5, 1}, {0, 5, 5, 1}, {1, 5, 5, 1}, {1, 5, 5, 1}, {2, 5, 5, 1}, {2, 5, 5, 1}});
  std::vector<std::int64_t> ids;
  for (const auto& j : w.jobs) ids.push_back(j.id);
  auto policy = wrapped("reject-odd", [&](const cluster::Snapshot& s, cluster::Decision& d) {
    d = cluster::Decision{};
    int free = s.profile.free_at(s.now);
    for (std::size_t i = 0; i < s.queue.size(); ++i) {
      if (ids[s.queue[i].job] % 2 == 1) {
        d.reject.push_back(i);
      } else if (free >= s.queue[i].procs) {
        d.start.push_back(cluster::Placement{i, s.now, {}});
        free -= s.queue[i].procs;
      } else {
        break;
      }
    }
  });
  RunOptions options = single_cluster(w, policy);
  options.clusters.push_back(options.clusters.front());
  options.clusters[0].processors = options.clusters[1].processors = 2;
  options.broker = router_setup("round-robin", 1, 10);
  Simulation simulation(w.jobs, options);
  const RunResult r = simulation.run();
  std::size_t rejected = 0, finished = 0, backfilled = 0;
  for (const auto& rec : r.records) {
    rejected += rec.state == JobState::kRejected;
    finished += rec.state == JobState::kFinished;
  }
  for (const auto& c : r.clusters) backfilled += c.backfilled;
  BOOST_TEST(rejected == 3u);
  BOOST_TEST(finished == 3u);
  BOOST_TEST(backfilled == 0u);
  // Round robin sends ids 2, 4, 6 to cluster 1 (2 processors): 6 arrives at 3 and starts at 6, when 2 ends; it ends at
  // 11, the last settled job. The reports then stop: the one due at 20 (armed at 10) arrives at 21, the last event.
  BOOST_TEST(r.records[5].end == 11);
  BOOST_TEST(r.end_time == 21);
  BOOST_TEST(!r.stopped);
  const auto summary = summarise(w, r, 4, MetricsWindow{});
  BOOST_TEST(summary.rejected == 3u);
  BOOST_TEST(to_json(summary).at("rejected") == 3u);
}

BOOST_AUTO_TEST_CASE(a_call_back_pending_when_every_job_has_settled_is_withdrawn) {
  // A policy that asks, at every pass, to be called a billion seconds later: once the last job ends, that call-back is
  // withdrawn and the run ends with it (its clock does not jump to the call-back).
  const auto w = make(1, {{0, 5, 5, 1}, {1, 5, 5, 1}});
  auto policy = wrapped("call-me-much-later", [](const cluster::Snapshot& s, cluster::Decision& d) { d.wake_at = s.now + 1e9; });
  const RunResult r = Simulation(w.jobs, single_cluster(w, policy)).run();
  BOOST_TEST(r.records[1].end == 10);
  BOOST_TEST(r.end_time == 10);
  BOOST_TEST(!r.stopped);
}

BOOST_AUTO_TEST_CASE(router_setups_refuse_what_would_not_move_the_clock) {
  BOOST_CHECK_THROW(router_setup("round-robin", -1, 10), std::invalid_argument);
  BOOST_CHECK_THROW(router_setup("round-robin", std::nan(""), 10), std::invalid_argument);
  BOOST_CHECK_THROW(router_setup("round-robin", 1e300, 10), std::invalid_argument);
  BOOST_CHECK_THROW(router_setup("round-robin", 0, 1e-300), std::invalid_argument);
  BOOST_CHECK_THROW(router_setup("least-loaded", 0, 0), std::invalid_argument);  // needs reports
  BOOST_CHECK_NO_THROW(router_setup("round-robin", 0, 0));
  BOOST_CHECK_NO_THROW(router_setup("least-loaded", 5, 600));
}

BOOST_AUTO_TEST_CASE(an_audit_goes_on_without_the_jobs_a_schedule_never_starts) {
  // Conservative backfilling's own schedule of a generated trace, with two, then every row dropped: the audit ends,
  // reports each missing job once (jobs-conserved), and nothing else about them.
  const auto w = make(4, {{0, 10, 10, 2}, {1, 10, 10, 4}, {2, 5, 5, 1}, {3, 5, 5, 2}, {4, 2, 2, 1}});
  const RunResult r = Simulation(w.jobs, single_cluster(w, cluster::cluster_policy("conservative"))).run();
  std::vector<jobs_csv::ScheduleRow> rows;
  for (std::size_t j = 0; j < w.jobs.size(); ++j)
    rows.push_back({std::to_string(w.jobs[j].id), w.jobs[j].submit, r.records[j].start, r.records[j].end, {}, {}, j + 2, {}, {}});
  runcheck::AuditOptions options;
  options.policy = cluster::cluster_policy("conservative");
  BOOST_TEST(runcheck::audit_schedule(w, rows, options).total() == 0u);
  const std::vector<jobs_csv::ScheduleRow> fewer(rows.begin() + 2, rows.end());
  const auto missing = runcheck::audit_schedule(w, fewer, options);
  BOOST_TEST(missing.counts.at("jobs-conserved") == 2u);
  const auto none = runcheck::audit_schedule(w, {}, options);
  BOOST_TEST(none.counts.at("jobs-conserved") == 5u);
  BOOST_TEST(none.total() == 5u);
}

BOOST_AUTO_TEST_CASE(certain_verdicts_never_fire_on_our_own_schedules) {
  // The certain verdicts are sound (properties/audit_certain.hpp): every schedule our own policies make, on seeded
  // random workloads with times on a coarse grid (many events at one instant) and estimates often far above the run
  // time (early ends, compression), audits with no certain violation, for each policy and model, deciding once an
  // instant or after every event (pyss's way); with no difference when the replay decides as the run did; with
  // one row lost, with the loss as its one certain violation; and without its processor sets, with the same certain
  // verdicts, for its policy and audited as another.
  std::mt19937 random(20261128);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  std::size_t audited = 0, jobs_seen = 0, replayed_otherwise = 0;
  for (int round = 0; round < 200; ++round) {
    const int processors = pick(2, 12);
    std::vector<std::array<double, 4>> jobs;
    double submit = 0;
    for (int j = 0, n = pick(3, 25); j < n; ++j) {
      submit += 10 * pick(0, 3);
      const double run = 10 * pick(0, 6), estimate = run + 10 * pick(0, 1) * pick(0, 8);
      jobs.push_back({submit, run, std::max(estimate, 10.0), static_cast<double>(pick(1, processors))});
    }
    const auto w = make(processors, jobs);
    jobs_seen += w.jobs.size();
    for (const std::string name : {"fcfs", "easy", "conservative"})
      for (const auto model : {cluster::ResourceModel::kCount, cluster::ResourceModel::kProcessors})
      for (const bool per_event : {false, true}) {
        const auto policy = cluster::cluster_policy(name);
        RunOptions run = single_cluster(w, policy, model);
        run.clusters.front().pass_per_event = per_event;
        runcheck::InvariantChecker checker(w, runcheck::applicable(name));
        Simulation simulation(w.jobs, run);
        simulation.add_observer(checker);
        const RunResult r = simulation.run();
        std::vector<jobs_csv::ScheduleRow> rows;
        for (std::size_t j = 0; j < w.jobs.size(); ++j)
          rows.push_back({std::to_string(w.jobs[j].id), w.jobs[j].submit, r.records[j].start, r.records[j].end,
                          r.records[j].allocated, {}, j + 2, {}, {}});
        runcheck::AuditOptions options;
        options.policy = policy;
        options.model = model;
        options.pass_per_event = per_event;
        const auto verdict = runcheck::audit_schedule(w, rows, options);
        // One row lost: the loss is the one certain violation, whatever the lost job's run explained.
        std::vector<jobs_csv::ScheduleRow> lost = rows;
        lost.erase(lost.begin() + pick(0, static_cast<int>(lost.size()) - 1));
        const auto one_lost = runcheck::audit_schedule(w, lost, options);
        // Without processor sets the processors model reconstructs them (lowest free): the certain verdicts are the
        // same, for this policy and audited as another one.
        std::vector<jobs_csv::ScheduleRow> bare = rows;
        for (auto& row : bare) row.allocated.reset();
        runcheck::AuditOptions as_easy = options;
        as_easy.policy = cluster::cluster_policy(name == "easy" ? "fcfs" : "easy");
        const auto without_sets = runcheck::audit_schedule(w, bare, options);
        const auto other_with = runcheck::audit_schedule(w, rows, as_easy);
        const auto other_without = runcheck::audit_schedule(w, bare, as_easy);
        options.pass_per_event = !per_event;
        const auto other = runcheck::audit_schedule(w, rows, options);  // replayed the other way: differences only
        BOOST_TEST_CONTEXT("round " << round << ", " << name << ", model " << cluster::to_string(model)
                                    << (per_event ? ", a pass per event" : ", a pass per instant") << ", the instance "
                                    << workload::write_instance(w).dump() << ": " << runcheck::to_json(verdict, 3).dump()
                                    << "; the run's own checks: " << checker.to_json().dump()) {
          BOOST_TEST(checker.total() == 0u);
          BOOST_TEST(verdict.total() == 0u);
          BOOST_TEST(verdict.total_differences() == 0u);
          BOOST_TEST(other.total() == 0u);
          BOOST_TEST(one_lost.total() == 1u);
          BOOST_TEST(one_lost.counts.at("jobs-conserved") == 1u);
          BOOST_TEST(without_sets.total() == 0u);
          BOOST_TEST(without_sets.reconstructed == (model == cluster::ResourceModel::kProcessors));
          BOOST_TEST((other_with.counts == other_without.counts));
        }
        replayed_otherwise += other.total_differences() > 0;
        ++audited;
      }
  }
  BOOST_TEST(audited == 2400u);
  BOOST_TEST(jobs_seen > 2000u);
  BOOST_TEST_MESSAGE(replayed_otherwise << " of " << audited << " schedules differ from a replay deciding the other way");
  BOOST_TEST(replayed_otherwise > 10u);  // the two ways of deciding do make different schedules here
}

BOOST_AUTO_TEST_CASE(certain_verdicts_catch_a_delay_in_any_history) {
  // Hand-made (4 processors): A (2 procs, 10 s) from 0; B (4 procs, 5 s) at 1 is first in the queue from then on and
  // can be reserved at 10 at the latest; E (1 proc, 20 s, submitted at 3) backfilled at 3 over B's window. Whatever
  // the scheduler's choices, EASY and conservative both break: the blame goes to E, and only once.
  const auto w = make(4, {{0, 10, 10, 2}, {1, 5, 5, 4}, {3, 20, 20, 1}});
  const std::vector<jobs_csv::ScheduleRow> rows = {
      {"1", 0, 0, 10, {}, {}, 2, {}, {}}, {"2", 1, 23, 28, {}, {}, 3, {}, {}}, {"3", 3, 3, 23, {}, {}, 4, {}, {}}};
  for (const std::string name : {"easy", "conservative"}) {
    runcheck::AuditOptions options;
    options.policy = cluster::cluster_policy(name);
    const auto verdict = runcheck::audit_schedule(w, rows, options);
    const char* invariant = name == "easy" ? "easy-pivot-not-delayed" : "conservative-guarantee";
    BOOST_TEST_CONTEXT(name << ": " << runcheck::to_json(verdict, 5).dump()) {
      BOOST_TEST(verdict.total() == 1u);
      BOOST_TEST(verdict.counts.at(invariant) == 1u);
      BOOST_REQUIRE(!verdict.violations.empty());
      BOOST_TEST(verdict.violations.front().job == 3);
      BOOST_TEST(verdict.violations.front().time == 3.0);
      BOOST_TEST(verdict.total_differences() == 0u);  // the replay's view of the same incident is not repeated
    }
  }
  // The same delay while job 1 runs past its estimate (not killed): moving B's reservation is then legal, and the
  // verdict is no longer certain.
  auto overran = w;
  overran.jobs[0].estimate = 4;
  runcheck::AuditOptions options;
  options.policy = cluster::cluster_policy("easy");
  const auto verdict = runcheck::audit_schedule(overran, rows, options);
  BOOST_TEST(verdict.counts.at("easy-pivot-not-delayed") == 0u);
  BOOST_TEST(verdict.counts.at("run-time-kept") == 1u);
  BOOST_TEST(verdict.overran == 1u);
}

BOOST_AUTO_TEST_CASE(certain_verdicts_stay_silent_where_a_legal_reading_differs) {
  // Hand-made legal schedules that an earlier reading flagged (docs/simulation.md, "Auditing ..."): each must audit
  // with no certain violation, or with exactly the one named.
  auto rows_of = [](const std::vector<std::array<double, 2>>& times) {
    std::vector<jobs_csv::ScheduleRow> rows;
    for (std::size_t j = 0; j < times.size(); ++j)
      rows.push_back({std::to_string(j + 1), std::nullopt, times[j][0], times[j][1], {}, {}, j + 2, {}, {}});
    return rows;
  };
  auto audit = [](const workload::Workload& w, const std::vector<jobs_csv::ScheduleRow>& rows, const std::string& p) {
    runcheck::AuditOptions options;
    options.policy = cluster::cluster_policy(p);
    return runcheck::audit_schedule(w, rows, options);
  };
  // The head has estimate 0 (Lifka: shadow 4, no extra processor, so job 3 may not backfill).
  const auto zero = make(2, {{0, 4, 4, 1}, {0, 0, 0, 2}, {1, 4, 4, 1}});
  for (const std::string p : {"easy", "conservative"}) {
    const auto v = audit(zero, rows_of({{0, 4}, {4, 4}, {4, 8}}), p);
    BOOST_TEST(v.total() == 0u, p << ": " << runcheck::to_json(v, 3).dump());
  }
  // Ends within the tolerance of each other are one instant, however they chain.
  const auto chain = make(2, {{0, 9.9999995, 20, 1}, {0, 10, 20, 1}, {0, 5, 5, 2}});
  for (const std::string p : {"fcfs", "easy"}) {
    const auto v = audit(chain, rows_of({{0, 9.9999995}, {0, 10}, {10.0000008, 15.0000008}}), p);
    BOOST_TEST(v.total() == 0u, p << ": " << runcheck::to_json(v, 3).dump());
  }
  // Job 1 runs past its estimate (5): at 0 the scheduler saw it end at 5, where job 3 would delay job 2.
  const auto overran = make(2, {{0, 10, 5, 1}, {0, 10, 10, 2}, {0, 7, 7, 1}});
  const auto late = audit(overran, rows_of({{0, 10}, {10, 20}, {20, 27}}), "easy");
  BOOST_TEST(late.counts.at("easy-maximal") == 0u);
  BOOST_TEST(late.counts.at("run-time-kept") == 1u);
  // Job 1 waits with 3 of 4 processors free: it waited, and job 2 is not blamed.
  const auto waited = audit(make(4, {{0, 5, 5, 1}, {0, 20, 20, 1}}), rows_of({{10, 15}, {0, 20}}), "conservative");
  BOOST_REQUIRE(waited.violations.size() == 1u);
  BOOST_TEST(waited.violations.front().job == 1);
  // Jobs 3 and 4 each fit alone in the one free processor before job 2's reservation: one missed start, not two.
  const auto two = audit(make(2, {{0, 10, 10, 1}, {0, 10, 10, 2}, {0, 5, 5, 1}, {0, 5, 5, 1}}),
                         rows_of({{0, 10}, {10, 20}, {20, 25}, {20, 25}}), "easy");
  BOOST_TEST(two.counts.at("easy-maximal") == 1u, runcheck::to_json(two, 3).dump());
}

BOOST_AUTO_TEST_CASE(a_rejection_that_also_starts_the_job_is_a_bug) {
  const auto w = make(2, {{0, 10, 10, 1}});
  auto policy = wrapped("start-and-reject", [](const cluster::Snapshot& s, cluster::Decision& d) {
    if (!s.queue.empty()) d.reject.push_back(0);
  });
  Simulation simulation(w.jobs, single_cluster(w, policy));
  BOOST_CHECK_THROW(simulation.run(), std::logic_error);
}

BOOST_AUTO_TEST_CASE(policies_outside_cpp_may_reject_and_ask_to_be_called_later) {
  // The JSON of a pass (docs/protocol.md): a snapshot of two queued jobs (ids 7 and 9) at t = 10; the decision rejects
  // 9 and asks for a pass at 50; every malformed variant is one InputError naming the field.
  AvailabilityProfile profile(4);
  std::vector<cluster::Waiting> queue(2);
  queue[0].job = 0;
  queue[1].job = 1;
  const cluster::Snapshot snapshot{10, 4, cluster::ResourceModel::kCount, queue, {}, profile, false};
  const std::vector<std::int64_t> ids = {7, 9};
  const auto d = cluster::read_decision(snapshot, ids, nlohmann::json::parse(R"({"reject": [9], "wake_at": 50})"), "d");
  BOOST_TEST(d.reject == std::vector<std::size_t>{1}, boost::test_tools::per_element());
  BOOST_REQUIRE(d.wake_at.has_value());
  BOOST_TEST(*d.wake_at == 50);
  for (const char* bad : {R"({"reject": [8]})", R"({"reject": [9, 9]})", R"({"start": [{"id": 9}], "reject": [9]})",
                          R"({"reserve": [{"id": 9, "start": 20}], "reject": [9]})", R"({"wake_at": 10})",
                          R"({"wake_at": "soon"})", R"({"reject": 9})"})
    BOOST_CHECK_THROW(cluster::read_decision(snapshot, ids, nlohmann::json::parse(bad), "d"), InputError);
}

// A policy with memory (Snapshot::state, Decision::state): FCFS that counts its passes and keeps a moving average of
// the waits of the jobs it starts. The state is all it remembers: each pass sees what the previous one left.
cluster::ClusterPolicy counting_fcfs(std::vector<cluster::PolicyState>& seen) {
  cluster::ClusterPolicy p = cluster::cluster_policy("fcfs");
  p.name = "counting-fcfs";
  p.hands_on_profile = false;
  p.decide = [&seen](const cluster::Snapshot& s) {
    seen.emplace_back(s.state.begin(), s.state.end());
    double passes = 0, mean_wait = 0;
    for (const auto& v : s.state) (v.name == "passes" ? passes : mean_wait) = v.value;
    cluster::Decision d = cluster::fcfs(s);
    for (const auto& start : d.start) mean_wait = 0.5 * mean_wait + 0.5 * (s.now - s.queue[start.index].submit);
    d.state = cluster::PolicyState{{"mean_wait", mean_wait}, {"passes", passes + 1}};
    return d;
  };
  return p;
}

BOOST_AUTO_TEST_CASE(a_policys_state_goes_from_one_decision_to_the_next_pass) {
  // Two jobs on one processor: passes at 0 (J1 starts), 1 (J2 waits), 5 (J2 starts after waiting 4), 10 (the end).
  const auto w = make(1, {{0, 5, 5, 1}, {1, 5, 5, 1}});
  std::vector<cluster::PolicyState> seen;
  const RunResult r = Simulation(w.jobs, single_cluster(w, counting_fcfs(seen))).run();
  BOOST_TEST(r.records[1].start == 5);
  BOOST_REQUIRE_EQUAL(seen.size(), r.clusters[0].passes);
  BOOST_TEST(seen.front().empty());  // before its first decision
  for (std::size_t k = 1; k < seen.size(); ++k) {
    BOOST_REQUIRE_EQUAL(seen[k].size(), 2u);
    BOOST_TEST(seen[k][1].value == static_cast<double>(k));  // passes
  }
  BOOST_TEST(seen.back()[0].value == 2.0);  // mean_wait: 0.5 * 0 + 0.5 * 4 after J2's start
  // The same run with its decisions checked (observers attached, the decision applied by the engine): same starts.
  std::vector<cluster::PolicyState> again;
  Simulation checked(w.jobs, single_cluster(w, counting_fcfs(again)));
  runcheck::InvariantChecker invariants(w, runcheck::applicable("fcfs"));
  checked.add_observer(invariants);
  BOOST_TEST(checked.run().records[1].start == 5);
  BOOST_TEST((again == seen));
}

BOOST_AUTO_TEST_CASE(a_policys_state_round_trips_through_the_json_of_a_pass) {
  // The snapshot carries "state" only when the policy keeps one; a decision's "state" is read back as it was written.
  AvailabilityProfile profile(4);
  std::vector<cluster::Waiting> queue(1);
  const cluster::PolicyState state = {{"mean_wait", 2.5}, {"passes", 3}};
  const std::vector<std::int64_t> ids = {7};
  const cluster::Snapshot without{10, 4, cluster::ResourceModel::kCount, queue, {}, profile, false, nullptr, {}};
  BOOST_TEST(!cluster::write_snapshot(without, ids).contains("state"));
  const cluster::Snapshot with{10, 4, cluster::ResourceModel::kCount, queue, {}, profile, false, nullptr, state};
  const nlohmann::json written = cluster::write_snapshot(with, ids);
  BOOST_TEST(written.at("state") == nlohmann::json::parse(R"({"mean_wait": 2.5, "passes": 3})"));
  const auto d = cluster::read_decision(with, ids, nlohmann::json{{"state", written.at("state")}}, "d");
  BOOST_REQUIRE(d.state.has_value());
  BOOST_TEST((*d.state == state));
  BOOST_TEST(!cluster::read_decision(with, ids, nlohmann::json::object(), "d").state.has_value());  // kept as it was
  BOOST_CHECK_THROW(cluster::read_decision(with, ids, nlohmann::json::parse(R"({"state": {"passes": "3"}})"), "d"),
                    InputError);
  // A policy outside C++ (the protocol's JSON both ways) that counts its passes in its state: each snapshot holds
  // what its previous decision returned, through the cluster actor.
  const auto w = make(2, {{0, 5, 5, 1}, {1, 5, 5, 1}, {2, 5, 5, 1}});
  std::vector<double> counts;
  const JsonPolicy counting = [&](const nlohmann::json& request) {
    const nlohmann::json& snapshot = request.at("snapshot");
    const double passes = snapshot.contains("state") ? snapshot["state"]["passes"].get<double>() : 0;
    counts.push_back(passes);
    nlohmann::json start = nlohmann::json::array();
    int free = snapshot["processors"].get<int>();
    for (const auto& r : snapshot["running"]) free -= r["procs"].get<int>();
    for (const auto& q : snapshot["queue"])
      if (q["procs"].get<int>() <= free) {
        free -= q["procs"].get<int>();
        start.push_back({{"id", q["id"]}});
      }
    return nlohmann::json{{"start", start}, {"state", {{"passes", passes + 1}}}};
  };
  const RunResult r = Simulation(w.jobs, single_cluster(w, runcheck::external_cluster_policy(w, counting, "counter"))).run();
  BOOST_TEST(r.records[2].start == 5);
  BOOST_REQUIRE_EQUAL(counts.size(), r.clusters[0].passes);
  for (std::size_t k = 0; k < counts.size(); ++k) BOOST_TEST(counts[k] == static_cast<double>(k));
}

BOOST_AUTO_TEST_CASE(call_me_later_brings_a_pass_when_nothing_else_happens) {
  // One job on 1 processor that the policy holds back until t = 7 (it asks to be called at 7): nothing else happens
  // between its arrival at 0 and 7, so only the call at 7 can start it there.
  const auto w = make(1, {{0, 5, 5, 1}});
  std::vector<double> passes;
  auto policy = wrapped("hold-until-7", [&](const cluster::Snapshot& s, cluster::Decision& d) {
    passes.push_back(s.now);
    if (s.now < 7) {
      d = cluster::Decision{};
      d.wake_at = 7;
    }
  });
  const RunResult r = Simulation(w.jobs, single_cluster(w, policy)).run();
  BOOST_TEST(r.records[0].start == 7);
  BOOST_TEST(r.records[0].end == 12);
  BOOST_TEST(passes == (std::vector<double>{0, 7, 12}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(messages_a_policy_sends_reach_the_upstream_actor_counted_by_kind) {
  // One cluster whose policy sends one "started" message upstream per job it starts (body: the job index), to a test
  // actor standing where a router or a gateway would.
  const auto w = make(2, {{0, 5, 5, 1}, {1, 5, 5, 1}, {2, 5, 5, 1}});
  std::vector<std::string> log;
  Simulation simulation(w.jobs, RunLimits{});
  auto policy = wrapped("tell", [](const cluster::Snapshot& s, cluster::Decision& d) {
    for (const auto& p : d.start) d.send.emplace_back(Started{s.queue[p.index].job});
  });
  ClusterSetup setup;
  setup.name = "c0";
  setup.processors = 2;
  setup.policy = policy;
  ClusterActor& c0 = simulation.add_cluster(setup);
  auto up = std::make_unique<Recorder>(log, "up");
  const ActorId upstream = simulation.kernel().add(std::move(up), "up");
  c0.link(ClusterActor::Links{upstream, 3.0, 0, 0});
  c0.take_arrivals();
  const RunResult r = simulation.run();
  BOOST_TEST(r.messages_sent.at("started") == 3u);
  BOOST_TEST(r.messages == 3u);
  BOOST_TEST(log.size() == 3u);
  BOOST_TEST(log.at(0) == "3:up message 2 body 0");  // kinds: job 0, status 1, started 2; sent at 0, latency 3
  BOOST_TEST(log.at(1) == "4:up message 2 body 1");
  BOOST_TEST(log.at(2) == "8:up message 2 body 2");  // job 2 waits for job 0's end at 5
}

BOOST_AUTO_TEST_CASE(a_message_without_an_upstream_actor_is_a_bug) {
  const auto w = make(1, {{0, 5, 5, 1}});
  auto policy = wrapped("tell-nobody", [](const cluster::Snapshot&, cluster::Decision& d) { d.send.emplace_back(Word<kX>{0}); });
  Simulation simulation(w.jobs, single_cluster(w, policy));
  BOOST_CHECK_THROW(simulation.run(), std::logic_error);
}

// docs/simulation.md, "Typed messages": a provider answering a query with a list of its free time slots.
struct Slot {
  double start = 0, end = 0;
  int procs = 0;
  bool operator==(const Slot&) const = default;
};
struct SlotQuery {                       // how many processors the asker needs
  static constexpr std::string_view kind = "slot-query";
  int procs = 0;
};
struct FreeSlots {                       // the slots with that many processors free
  static constexpr std::string_view kind = "free-slots";
  std::vector<Slot> slots;
};

class SlotProvider : public Actor {
public:
  explicit SlotProvider(std::vector<Slot> free) : free_(std::move(free)) {}
  void on_message(Context& c, const Message& m) override {
    const SlotQuery& query = m.get<SlotQuery>();   // any other kind is a bug: std::logic_error
    FreeSlots answer;
    for (const Slot& s : free_)
      if (s.procs >= query.procs) answer.slots.push_back(s);
    c.send(m.from, std::move(answer), 2.0);       // the kernel owns the list until the asker's call returns
  }

private:
  std::vector<Slot> free_;
};

class Asker : public Actor {
public:
  explicit Asker(ActorId provider) : provider_(provider) {}
  void on_start(Context& c) override { c.send(provider_, SlotQuery{4}, 1.0); }
  void on_message(Context& c, const Message& m) override {
    if (const auto* answer = m.as<FreeSlots>()) {
      got = answer->slots;
      at = c.now();
    }
    wrong_view_is_null = m.as<SlotQuery>() == nullptr;
    try {
      (void)m.get<SlotQuery>();
    } catch (const std::logic_error& e) {
      mismatch = e.what();
    }
  }
  std::vector<Slot> got;
  double at = -1;
  bool wrong_view_is_null = false;
  std::string mismatch;

private:
  ActorId provider_;
};

BOOST_AUTO_TEST_CASE(a_provider_answers_a_query_with_a_list_of_free_slots) {
  Kernel kernel;
  const ActorId provider = kernel.add(std::make_unique<SlotProvider>(std::vector<Slot>{
                                          {0, 10, 2}, {10, 30, 8}, {30, 40, 4}, {40, 50, 1}}),
                                      "provider");
  auto asker = std::make_unique<Asker>(provider);
  Asker& a = *asker;
  kernel.add(std::move(asker), "asker");
  const KernelStats stats = kernel.run();
  BOOST_TEST((a.got == std::vector<Slot>{{10, 30, 8}, {30, 40, 4}}));
  BOOST_TEST(a.at == 3);  // asked at 1, answered after 2
  BOOST_TEST(kernel.kinds() == (std::vector<std::string>{"slot-query", "free-slots"}), boost::test_tools::per_element());
  BOOST_TEST(stats.sent_by_kind == (std::vector<std::size_t>{1, 1}), boost::test_tools::per_element());
  BOOST_TEST(stats.messages == 2u);
  BOOST_TEST(a.wrong_view_is_null);
  BOOST_TEST(a.mismatch.find("'free-slots'") != std::string::npos);  // both kinds named
  BOOST_TEST(a.mismatch.find("'slot-query'") != std::string::npos);
}

// A payload that counts its live instances (moved-from ones included: each is an object to free).
struct Counted {
  static constexpr std::string_view kind = "counted";
  static inline int live = 0;
  int value = 0;
  explicit Counted(int v) : value(v) { ++live; }
  Counted(const Counted& o) : value(o.value) { ++live; }
  Counted(Counted&& o) noexcept : value(o.value) { ++live; }
  ~Counted() { --live; }
};

struct CountingReceiver : Actor {
  std::vector<std::pair<int, int>> seen;  // (value, live instances during the call)
  void on_message(Context&, const Message& m) override { seen.emplace_back(m.get<Counted>().value, Counted::live); }
};

BOOST_AUTO_TEST_CASE(a_payload_lives_until_its_delivery_returns) {
  {
    Kernel kernel(RunLimits{10, true});
    auto receiver = std::make_unique<CountingReceiver>();
    CountingReceiver& r = *receiver;
    const ActorId to = kernel.add(std::move(receiver), "receiver");
    std::vector<std::string> log;
    auto sender = std::make_unique<Recorder>(log, "sender");
    sender->start = [to](Context& c) {
      c.send(to, Counted{1}, 1);
      c.send(to, Counted{2}, 2);
      c.send(to, Counted{3}, 20);  // after the stop time: never delivered
    };
    kernel.add(std::move(sender), "sender");
    kernel.run();
    BOOST_TEST((r.seen == std::vector<std::pair<int, int>>{{1, 3}, {2, 2}}));
    BOOST_TEST(Counted::live == 1);  // the undelivered one, until the kernel goes
  }
  BOOST_TEST(Counted::live == 0);
}

BOOST_AUTO_TEST_CASE(a_timer_withdrawn_by_its_handle_fires_no_call_and_does_not_move_the_clock) {
  std::vector<std::string> log;
  Kernel kernel;
  auto a = std::make_unique<Recorder>(log, "a");
  a->start = [](Context& c) {
    c.wake_at(1, 7);
    const TimerHandle second = c.wake_at(2, 7);   // the same tag: the handle names the timer
    c.wake_at(3, 7);
    const TimerHandle last = c.wake_at(9, 8);
    c.cancel(second);
    c.cancel(last);
    BOOST_CHECK_THROW(c.cancel(TimerHandle{}), std::logic_error);  // a timer never set
  };
  kernel.add(std::move(a), "a");
  const KernelStats stats = kernel.run();
  BOOST_TEST(log == (std::vector<std::string>{"1:a timer 7", "3:a timer 7"}), boost::test_tools::per_element());
  BOOST_TEST(stats.events == 2u);
  BOOST_TEST(stats.end_time == 3);
}

struct Other {
  static constexpr std::string_view kind = "ping";  // Ping's kind name, another type
  int x = 0;
};

BOOST_AUTO_TEST_CASE(messages_of_several_types_keep_the_creation_order_and_one_kind_names_one_type) {
  // Messages of different types due at one instant are delivered in the order they were sent, twice alike.
  auto once = [] {
    std::vector<std::string> log;
    Kernel kernel;
    auto a = std::make_unique<Recorder>(log, "a");
    auto b = std::make_unique<Recorder>(log, "b");
    a->start = [](Context& c) {
      c.send(1, Started{1}, 4);
      c.send(1, Ping{2}, 4);
      c.send(1, Started{3}, 4);
      c.send(1, Ping{4}, 3);
    };
    kernel.add(std::move(a), "a");
    kernel.add(std::move(b), "b");
    const KernelStats stats = kernel.run();
    BOOST_TEST(kernel.kinds() == (std::vector<std::string>{"started", "ping"}), boost::test_tools::per_element());
    BOOST_TEST(stats.sent_by_kind == (std::vector<std::size_t>{2, 2}), boost::test_tools::per_element());
    return log;
  };
  const std::vector<std::string> expected = {"3:b message 1 body 4", "4:b message 0 body 1", "4:b message 1 body 2",
                                             "4:b message 0 body 3"};
  BOOST_TEST(once() == expected, boost::test_tools::per_element());
  BOOST_TEST(once() == expected, boost::test_tools::per_element());

  Kernel kernel;
  kernel.kind<Ping>();
  BOOST_CHECK_THROW(kernel.kind<Other>(), std::logic_error);
}

BOOST_AUTO_TEST_CASE(decision_checks_sample_count_keep_the_worst_and_write_corpus_files_that_recheck) {
  // Queue windows cut from a run of EASY over a generated trace, every 2nd pass from the 2nd on (offset 1): the
  // probe counts what it checked, keeps the worst windows by gap, and their corpus files re-check (with the run's
  // policy, through the CLI's reader) to the verdict recorded in them.
  const Registry registry = make_builtin_registry();
  const auto& problem =
      registry.typed<window::Instance, window::Schedule>("queue-window");
  ProbeSettings settings;
  settings.every = 2;
  settings.offset = 1;
  settings.keep_worst = 3;
  DecisionProbe<window::Instance, window::Schedule> probe(problem, settings);
  std::vector<bool> sampled;
  for (int k = 0; k < 6; ++k) sampled.push_back(probe.sample());
  BOOST_TEST(sampled == (std::vector<bool>{false, true, false, true, false, true}), boost::test_tools::per_element());
  settings.offset = 5;  // a phase of EVERY or more is taken modulo EVERY: the same as 1
  DecisionProbe<window::Instance, window::Schedule> again(problem, settings);
  for (int k = 0; k < 6; ++k) BOOST_TEST(again.sample() == sampled[static_cast<std::size_t>(k)]);

  DecisionProbe<window::Instance, window::Schedule> windows(problem, ProbeSettings{"", SolveOptions{}, 1, 0, 3});
  std::size_t made = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const nlohmann::json document = problem.generate(seed, 6);
    window::Instance instance = window::read_instance(document, "generated");
    const window::Schedule easy = sim::play_forward(instance, cluster::cluster_policy("easy"));
    if (!windows.sample()) continue;
    windows.check(1000.0 + static_cast<double>(seed), "generated", instance, easy, "easy");
    ++made;
  }
  const ProbeCounts& c = windows.counts();
  BOOST_TEST(c.offered == 40u);
  BOOST_TEST(c.checked == made);
  BOOST_TEST(c.proven + c.undecided == c.checked);
  BOOST_TEST(c.invalid == 0u);
  BOOST_TEST(c.failing == 0u);  // tolerance: any gap; not-above-optimum holds
  BOOST_TEST(windows.gap_values().size() == c.proven);
  BOOST_REQUIRE(!windows.worst().empty());
  BOOST_TEST(windows.worst().size() <= 3u);
  for (std::size_t k = 0; k + 1 < windows.worst().size(); ++k)
    BOOST_TEST(*windows.worst()[k].report.gap >= *windows.worst()[k + 1].report.gap);
  BOOST_TEST(*windows.worst().front().report.gap == windows.gaps().max);

  const fs::path dir = fs::temp_directory_path() / fmt::format("schedcheck-probe-{}", ::getpid());
  fs::create_directories(dir);
  const auto files = windows.write_worst(
      dir.string(), [](const auto& w, std::size_t rank) { return fmt::format("w{}-{}.json", rank, w.time); },
      [](const auto&, std::size_t rank) { return fmt::format("test, rank {}", rank); });
  BOOST_TEST(files.size() == windows.worst().size());
  for (const auto& file : files) {
    const nlohmann::json document = workload::read_instance_file(file);
    const auto& block = document.at("schedcheck");
    CheckRequest request;
    request.policy = block.at("policy").get<std::string>();
    const Report again = problem.check(document, file, request);
    BOOST_TEST(again.exit_code() == block.at("verdict").at("exit_code").get<int>(), file);
    BOOST_TEST(again.exit_code() == 1, file);  // at tolerance 0 a window with a gap fails optimal-within
  }
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(executors_deliver_every_item_once_in_index_order_and_stop_on_the_first_failure) {
  for (const std::size_t threads : {1u, 2u, 4u}) {
    const auto executor = make_executor(threads);
    std::vector<int> done(100, 0);
    std::vector<std::size_t> finished, delivered;
    const std::size_t ran = executor->run(
        done.size(),
        [&](std::size_t i) {
          done[i] += static_cast<int>(i) + 1;
          // Later items end first: a thread that takes item 0 is still on it when another finishes item 1.
          std::this_thread::sleep_for(std::chrono::microseconds(i % 7 == 0 ? 3000 : 100));
          return std::to_string(i * i);
        },
        [&](std::size_t i, std::string&& result) {  // never two at once, in index order (the executor's promise)
          BOOST_TEST(result == std::to_string(i * i));
          delivered.push_back(i);
        },
        [&](std::size_t i) { finished.push_back(i); });
    BOOST_TEST(ran == done.size());
    BOOST_TEST(finished.size() == done.size());
    BOOST_TEST(delivered.size() == done.size());
    for (std::size_t i = 0; i < done.size(); ++i) {
      BOOST_TEST(done[i] == static_cast<int>(i) + 1);
      BOOST_TEST(delivered[i] == i);
    }
    BOOST_TEST(executor->workers() == threads);

    std::size_t after = 0;
    BOOST_CHECK_THROW(executor->run(
                          1000,
                          [&](std::size_t i) {
                            if (i == 3) throw std::runtime_error("item 3 fails");
                            // Items that take time, as real ones do: a process's first exception takes a few
                            // milliseconds to unwind, during which the other workers go on taking items.
                            std::this_thread::sleep_for(std::chrono::milliseconds(5));
                            return std::string();
                          },
                          [&](std::size_t, std::string&&) {}, [&](std::size_t) { ++after; }),
                      std::runtime_error);
    // The dispatch stopped: serially after items 0-2; on threads, once the failure is recorded no worker takes another
    // item (a bound with room for a slow unwind; 1000 would mean no stop at all).
    if (threads == 1) BOOST_TEST(after == 3u);
    else BOOST_TEST(after < 3u + 6 * threads, after);
  }
}

BOOST_AUTO_TEST_CASE(shards_split_the_items_round_robin_and_together_cover_each_once) {
  std::vector<int> seen(50, 0);
  for (std::size_t index = 1; index <= 3; ++index) {
    const auto shard = make_executor(2, Shard{index, 3});
    std::vector<std::size_t> delivered;
    shard->run(
        seen.size(), [&](std::size_t i) { return std::to_string(i); },
        [&](std::size_t i, std::string&& result) {
          BOOST_TEST(result == std::to_string(i));
          BOOST_TEST(i % 3 == index - 1);
          BOOST_TEST(shard->owns(i));
          ++seen[i];
          delivered.push_back(i);
        });
    BOOST_TEST(std::is_sorted(delivered.begin(), delivered.end()));
  }
  for (const int count : seen) BOOST_TEST(count == 1);
  BOOST_CHECK_THROW(parse_shard("0/3"), InputError);
  BOOST_CHECK_THROW(parse_shard("4/3"), InputError);
  BOOST_CHECK_THROW(parse_shard("1/x"), InputError);
  BOOST_CHECK_THROW(parse_shard("2"), InputError);
  BOOST_TEST(parse_shard("2/3").index == 2u);
}

BOOST_AUTO_TEST_CASE(a_shrink_checking_candidates_on_lent_threads_finds_what_one_at_a_time_finds) {
  // The sides: shrink() checking one candidate at a time, and shrink() with three threads always lent, on the first
  // failing generated instances of two problems, with and without a check budget that ends inside a round.
  const Registry registry = make_builtin_registry();
  std::atomic<std::size_t> lent{0};
  ShrinkHelpers helpers;
  helpers.take = [&](std::size_t wanted) {
    const std::size_t k = std::min<std::size_t>(wanted, 3);
    lent += k;
    return k;
  };
  helpers.give_back = [](std::size_t) {};
  struct Case {
    const char* problem;
    const char* policy;
    std::size_t size;
  };
  std::size_t compared = 0;
  for (const Case& c : {Case{"sla-admission", "greedy-backfilling", 30}, Case{"offers", "edf", 10}}) {
    const Problem& problem = registry.get(c.problem);
    CheckRequest request;
    request.policy = c.policy;
    request.solve.effort = 100'000;  // the same answers on every thread, however busy
    std::size_t found = 0;
    for (std::uint64_t seed = 1; seed <= 200 && found < 2; ++seed) {
      const nlohmann::json document = problem.generate(seed, c.size);
      const Report report = problem.check(document, "(generated)", request);
      if (!report.any_fails() || report.exact_unproven()) continue;
      ++found;
      for (const std::size_t max_checks : {std::size_t{2000}, std::size_t{5}}) {
        const std::string property = report.failing().front();
        const auto [one, one_report] = shrink(problem, document, request, property, max_checks);
        const auto [many, many_report] = shrink(problem, document, request, property, max_checks, &helpers);
        BOOST_TEST_INFO(fmt::format("{} seed {} max_checks {}: instance {}", c.problem, seed, max_checks, document.dump()));
        BOOST_TEST(one == many);
        BOOST_TEST(one_report.failing() == many_report.failing(), boost::test_tools::per_element());
        BOOST_TEST(one_report.exit_code() == many_report.exit_code());
        ++compared;
      }
    }
    BOOST_TEST(found == 2u, c.problem << ": expected two failing instances among the first 200 seeds");
  }
  BOOST_TEST(compared == 8u);
  BOOST_TEST(lent.load() > 0u);  // the candidates were checked on the lent threads
}

BOOST_AUTO_TEST_CASE(a_job_source_keeps_one_arrival_pending_and_its_order_among_equal_times) {
  // Source a: arrivals at 1, 1 and 3, tags 100, 101, 102. Actor b sets an arrival-lane timer at 1 after a's first was
  // armed and before its second (armed when the first falls due): at t = 1 it comes between them.
  std::vector<std::string> log;
  Kernel kernel;
  const std::vector<double> times = {1, 1, 3};
  JobSource source(times.size(), [&](std::size_t k) { return times[k]; }, 100);
  auto a = std::make_unique<Recorder>(log, "a");
  auto b = std::make_unique<Recorder>(log, "b");
  a->start = [&](Context& c) { source.start(c); };
  a->timer = [&](Context& c, std::uint64_t tag) { log.push_back(fmt::format("arrival {}", source.arrived(c, tag))); };
  b->start = [](Context& c) { c.wake_at(1, 7, Lane::kArrival); };
  kernel.add(std::move(a), "a");
  kernel.add(std::move(b), "b");
  const KernelStats stats = kernel.run();
  const std::vector<std::string> expected = {"1:a timer 100", "arrival 0", "1:b timer 7", "1:a timer 101",
                                             "arrival 1",     "3:a timer 102", "arrival 2"};
  BOOST_TEST(log == expected, boost::test_tools::per_element());
  BOOST_TEST(stats.events == 4u);
}

BOOST_AUTO_TEST_CASE(a_space_shared_resource_gives_processors_back_at_ends_and_early_ends_to_the_profile) {
  // P = 4, the lowest free processors given. Job 1: 3 processors, expected back at 10, ends at 6 (early: the profile
  // gets [6, 10) back). Job 2: 2 asked, 1 free (it holds that one), ends as it starts (it held it for no time).
  std::vector<std::string> log;
  Kernel kernel;
  SpaceSharedResource resource(4, Holding::kLowest);
  AvailabilityProfile profile(4);
  profile.reserve(0, 10, 3);
  auto a = std::make_unique<Recorder>(log, "a");
  a->start = [&](Context& c) {
    BOOST_TEST(resource.start(c, 1, 3, 10, 6, 1).on.to_intervals() == "0-2");
    BOOST_TEST(resource.start(c, 2, 2, 0, 0, 2).on.to_intervals() == "3");
    BOOST_TEST(resource.busy() == 3);  // job 2 holds nothing over its empty window
    BOOST_TEST(resource.running().size() == 2u);
  };
  a->timer = [&](Context& c, std::uint64_t tag) {
    const SpaceSharedResource::Ended ended = resource.finish(c.now(), static_cast<std::uint32_t>(tag), &profile);
    log.push_back(fmt::format("job {} ends, early {}, free {}", ended.job.job, ended.early, resource.free()));
  };
  kernel.add(std::move(a), "a");
  kernel.run();
  const std::vector<std::string> expected = {"0:a timer 2", "job 2 ends, early false, free 1", "6:a timer 1",
                                             "job 1 ends, early true, free 4"};
  BOOST_TEST(log == expected, boost::test_tools::per_element());
  BOOST_TEST(profile.free_at(7) == 4);
  BOOST_TEST(resource.free_set().to_intervals() == "0-3");
  BOOST_TEST(resource.running().empty());
}

BOOST_AUTO_TEST_CASE(a_space_shared_resource_keeps_start_order_through_ends_when_asked) {
  for (const bool keep_order : {true, false}) {
    std::vector<std::string> log;
    Kernel kernel;
    SpaceSharedResource resource(8, Holding::kCount, keep_order);
    std::vector<std::uint32_t> after;
    auto a = std::make_unique<Recorder>(log, "a");
    a->start = [&](Context& c) {
      for (std::uint32_t job = 5; job <= 7; ++job) resource.start(c, job, 2, job, job, job);
    };
    a->timer = [&](Context& c, std::uint64_t tag) {
      resource.finish(c.now(), static_cast<std::uint32_t>(tag));
      if (tag == 5)
        for (const cluster::Running& r : resource.running()) after.push_back(r.job);
    };
    kernel.add(std::move(a), "a");
    kernel.run();
    BOOST_TEST(after == (keep_order ? std::vector<std::uint32_t>{6, 7} : std::vector<std::uint32_t>{7, 6}),
               boost::test_tools::per_element());
    BOOST_TEST(resource.free() == 8);
    BOOST_CHECK_THROW(resource.finish(8, 5), std::logic_error);  // not running
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_kernel
