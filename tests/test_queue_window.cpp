// Suite `queue_window`: the queue-window problem (model/queue_window.hpp): hand-computed windows where FCFS, EASY
// and conservative backfilling are not optimal (arithmetic in comments), reader and validator rules, the two
// exact methods (`sequences`, `gecode`) against each other, policies played forward against the engine, and the
// window checker of `simulate --check-windows`. Source: our own.
#include "counterexamples/builtin.hpp"
#include "counterexamples/window_generator.hpp"
#include "counterexamples/workload_generator.hpp"
#include "model/queue_window.hpp"
#include "properties/window_check.hpp"
#include "simulation/observer.hpp"
#include "simulation/window.hpp"
#include "solver/queue_window_exact.hpp"
#include "tests/helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_queue_window {

using namespace schedcheck;
using namespace schedcheck::window;

namespace {

Instance read_text(const std::string& text) { return read_instance(parse_json_text(text, "w.json"), "w.json"); }

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

std::string dump(const Instance& i) { return write_instance(i).dump(); }

const TypedProblem<Instance, Schedule>& problem() {
  static const Registry registry = make_builtin_registry();
  return dynamic_cast<const TypedProblem<Instance, Schedule>&>(registry.get("queue-window"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(queue_window)

BOOST_AUTO_TEST_CASE(queue_order_is_not_optimal_for_bounded_slowdown) {
  // P = 7, now = 1000, nothing running. A: 7 procs, 17 s, submitted 619 (waited 381 s); B: 1 proc, 1 s, just submitted.
  // Every policy starts A first (queue order, it fits): A at 0 -> (381 + 17) / 17 = 23.4118; B at 17 ->
  // max(1, (17 + 1) / 10) = 1.8; sum 25.2118. Optimum: B first at 0 -> 1 (bounded), A at 1 -> (382 + 17) / 17 =
  // 23.4706; sum 24.4706.
  const Instance w = read_text(R"({"now": 1000, "processors": 7, "objective": "bounded-slowdown",
    "waiting": [{"id": "A", "submit": 619, "procs": 7, "estimate": 17}, {"id": "B", "submit": 1000, "procs": 1, "estimate": 1}]})");
  for (const auto& policy : cluster::cluster_policies()) {
    const Schedule s = sim::play_forward(w, policy);
    BOOST_TEST(s.start[0] == 1000.0);
    BOOST_TEST(s.start[1] == 1017.0);
    BOOST_TEST(close(objective(w, s), 381.0 / 17 + 1 + 1.8));
  }
  const auto exact = solve_sequences(w, {});
  BOOST_TEST(exact.status == ExactStatus::kOptimal);
  BOOST_TEST(close(exact.objective, 382.0 / 17 + 1 + 1));
  BOOST_TEST(exact.decision->start[1] == 1000.0);
  BOOST_TEST(close(solve_gecode(w, {}).objective, exact.objective));
}

// A stop request (SIGTERM during `simulate --check-windows`) used to cut the nested run of play_forward too: the
// window's jobs never started (start -1) and the check reported an internal error, exit 4 (tests/interrupts.sh
// under load). A window is played to its end whatever the request; the run around it stops instead.
BOOST_AUTO_TEST_CASE(a_stop_request_does_not_cut_a_window_played_forward) {
  const Instance w = read_text(R"({"now": 1000, "processors": 7, "objective": "makespan",
    "running": [{"id": "R", "procs": 3, "remaining": 1}],
    "waiting": [{"id": "A", "submit": 894, "procs": 1, "estimate": 1}, {"id": "B", "submit": 1000, "procs": 4, "estimate": 2}]})");
  stop_signal_slot().store(15);
  const Schedule easy = sim::play_forward(w, cluster::cluster_policy("easy"));
  stop_signal_slot().store(0);
  BOOST_REQUIRE_EQUAL(easy.start.size(), 2u);
  BOOST_TEST(easy.start[0] == 1000.0);
  BOOST_TEST(easy.start[1] == 1001.0);
  BOOST_TEST(objective(w, easy) == 3.0);
}

BOOST_AUTO_TEST_CASE(easy_is_not_optimal_for_makespan) {
  // P = 7, now = 1000; R runs on 3 processors for 1 more second. A: 1 proc, 1 s; B: 4 procs, 2 s.
  // EASY: A fits now (3 + 1 = 4) and starts; B (4) does not (3 + 1 + 4 = 8 > 7): reserved at 1 -> ends at 3:
  // makespan 3. Optimum: B now (3 + 4 = 7) and A when R ends at 1: everything ends by 2.
  const Instance w = read_text(R"({"now": 1000, "processors": 7, "objective": "makespan",
    "running": [{"id": "R", "procs": 3, "remaining": 1}],
    "waiting": [{"id": "A", "submit": 894, "procs": 1, "estimate": 1}, {"id": "B", "submit": 1000, "procs": 4, "estimate": 2}]})");
  const Schedule easy = sim::play_forward(w, cluster::cluster_policy("easy"));
  BOOST_TEST(objective(w, easy) == 3.0);
  BOOST_TEST(solve_sequences(w, {}).objective == 2.0);
  BOOST_TEST(solve_gecode(w, {}).objective == 2.0);
}

BOOST_AUTO_TEST_CASE(backfilling_helps_but_queue_order_still_costs_on_the_wait_sum) {
  // P = 4, now = 0; R holds 2 processors for 10 s. A (4 procs, 5 s, submit 0); C (2 procs, 10 s, submit 0).
  // FCFS: A waits for R (10), C behind A (15): wait sum 25. EASY: A reserved at 10; C ends at 10 <= 10: backfilled
  // at 0: wait sum 10. Optimum: also 10 (C at 0, A at 10).
  const Instance w = read_text(R"({"now": 0, "processors": 4, "objective": "wait",
    "running": [{"id": "R", "procs": 2, "remaining": 10}],
    "waiting": [{"id": "A", "submit": 0, "procs": 4, "estimate": 5}, {"id": "C", "submit": 0, "procs": 2, "estimate": 10}]})");
  BOOST_TEST(objective(w, sim::play_forward(w, cluster::cluster_policy("fcfs"))) == 25.0);
  BOOST_TEST(objective(w, sim::play_forward(w, cluster::cluster_policy("easy"))) == 10.0);
  BOOST_TEST(solve_sequences(w, {}).objective == 10.0);
}

BOOST_AUTO_TEST_CASE(reader_rejects_bad_windows) {
  auto message = [](const std::string& text) {
    try {
      read_text(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message(R"({"now": 10, "processors": 4, "waiting": [{"id": "A", "submit": 11, "procs": 1, "estimate": 1}]})")
                 .find("waiting[0].submit") != std::string::npos);
  BOOST_TEST(message(R"({"now": 10, "processors": 4, "waiting": [{"id": "A", "submit": 5, "procs": 1, "estimate": 1},
      {"id": "B", "submit": 4, "procs": 1, "estimate": 1}]})").find("queue order") != std::string::npos);
  BOOST_TEST(message(R"({"now": 10, "processors": 4, "running": [{"id": "R", "procs": 3, "remaining": 1},
      {"id": "S", "procs": 2, "remaining": 1}], "waiting": []})").find("running[1].procs") != std::string::npos);
  BOOST_TEST(message(R"({"now": 10, "processors": 4, "objective": "fastest", "waiting": []})").find("objective") !=
             std::string::npos);
  BOOST_TEST(message(R"({"now": 10, "processors": 4, "waiting": [{"id": "A", "submit": 5, "procs": 5, "estimate": 1}]})")
                 .find("waiting[0].procs") != std::string::npos);
  BOOST_TEST(message(R"({"now": 10, "processors": 4, "waiting": [{"id": "A", "submit": 5, "procs": 1, "estimate": 1},
      {"id": "A", "submit": 6, "procs": 1, "estimate": 1}]})").find("waiting[1].id") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(validator_rejects_overlaps_and_early_starts) {
  const Instance w = read_text(R"({"now": 0, "processors": 4, "objective": "wait",
    "running": [{"id": "R", "procs": 2, "remaining": 10}],
    "waiting": [{"id": "A", "submit": 0, "procs": 4, "estimate": 5}, {"id": "C", "submit": 0, "procs": 2, "estimate": 10}]})");
  BOOST_TEST(validate(w, Schedule{{10, 0}}).feasible);
  BOOST_TEST(validate(w, Schedule{{10, 0}}).objective == 10.0);
  const Verdict over = validate(w, Schedule{{5, 0}});  // A over [5,10) with R and C: 8 processors
  BOOST_TEST(!over.feasible);
  BOOST_TEST(over.reason.find("8 processors") != std::string::npos, over.reason);
  BOOST_TEST(!validate(w, Schedule{{10, -1}}).feasible);
  BOOST_TEST(!validate(w, Schedule{{10}}).feasible);
}

BOOST_AUTO_TEST_CASE(exact_methods_agree_and_policies_are_never_better) {
  // sequences (exact; up to 12 jobs) against gecode (exact where its integers suffice), and every policy's
  // schedule valid and never below the optimum. Sizes 2-8.
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    const Instance w = generate_instance(seed, 2 + seed % 7);
    const auto seq = solve_sequences(w, {});
    BOOST_TEST_REQUIRE(seq.status == ExactStatus::kOptimal);
    BOOST_TEST(validate(w, *seq.decision).feasible);
    const auto gec = solve_gecode(w, SolveOptions{5000});
    if (gec.status == ExactStatus::kOptimal) {
      BOOST_TEST(close(gec.objective, seq.objective), "exact sequences " << seq.objective << " vs exact gecode "
                                                                         << gec.objective << " on " << dump(w));
      ++compared;
    } else {
      BOOST_TEST((gec.status != ExactStatus::kUnknown || gec.detail.find("gecode") != std::string::npos), gec.detail);
    }
    for (const auto& policy : cluster::cluster_policies()) {
      const Schedule h = sim::play_forward(w, policy);
      const Verdict v = validate(w, h);
      BOOST_TEST(v.feasible, policy.name << ": " << v.reason << " on " << dump(w));
      BOOST_TEST(v.objective >= seq.objective - 1e-9 * std::max(1.0, seq.objective),
                 "heuristic " << policy.name << " " << v.objective << " beats exact " << seq.objective << " on " << dump(w));
    }
  }
  BOOST_TEST(compared > 60u);
}

// Windows with fractional times and repeated shapes: the generator's times are whole seconds and its shapes mostly
// distinct, which would leave the tie rules and the same-shape order of bnb untested.
Instance perturbed(std::uint64_t seed, std::size_t size) {
  Instance w = generate_instance(seed, size);
  for (std::size_t i = 0; i < w.waiting.size(); ++i) {
    WaitingJob& j = w.waiting[i];
    if (seed % 3 == 0) j.estimate = j.estimate * 0.37 + 0.25;                      // fractional
    if (seed % 3 == 1 && i % 2 == 1) { j.procs = w.waiting[i - 1].procs; j.estimate = w.waiting[i - 1].estimate; }
    if (seed % 5 == 0 && i % 3 == 2) j.submit = w.waiting[i - 1].submit;           // identical jobs
  }
  for (auto& r : w.running) r.remaining = r.remaining * 0.61 + 0.5;
  return w;
}

BOOST_AUTO_TEST_CASE(bnb_agrees_with_sequences_and_starts_from_the_policies) {
  // heuristic side: every policy's schedule, handed to bnb as its incumbent; exact sides: bnb (default) and
  // sequences (up to 12 jobs; bounded here to 8). Generated and perturbed windows of 1-8 jobs, every objective.
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const Instance w = seed % 2 ? generate_instance(seed, 1 + seed % 8) : perturbed(seed, 1 + seed % 8);
    const auto seq = solve_sequences(w, {});
    BOOST_TEST_REQUIRE(seq.status == ExactStatus::kOptimal);
    std::vector<Schedule> from;
    for (const auto& policy : cluster::cluster_policies()) from.push_back(sim::play_forward(w, policy));
    for (const auto& incumbents : {std::vector<Schedule>{}, from}) {
      const auto bnb = solve_bnb(w, SolveOptions{10000}, incumbents);
      BOOST_TEST_REQUIRE(bnb.status == ExactStatus::kOptimal, bnb.detail << " on " << dump(w));
      const Verdict v = validate(w, *bnb.decision);
      BOOST_TEST(v.feasible, v.reason << " on " << dump(w));
      BOOST_TEST(close(v.objective, bnb.objective));
      BOOST_TEST(close(bnb.objective, seq.objective),
                 "exact bnb " << bnb.objective << " vs exact sequences " << seq.objective << " on " << dump(w));
      ++compared;
    }
  }
  BOOST_TEST(compared == 800u);
}

BOOST_AUTO_TEST_CASE(bnb_is_the_default_and_its_answer_within_a_short_limit_is_valid) {
  BOOST_TEST(problem().spec().exact.front().name == "bnb");
  // 40 jobs on 16 processors in 1 ms: not proven, the best schedule at hand (valid) with status feasible.
  const Instance w = generate_instance(7, 40);
  const auto r = solve_bnb(w, SolveOptions{1});
  BOOST_TEST((r.status == ExactStatus::kFeasible || r.status == ExactStatus::kOptimal));
  BOOST_TEST(validate(w, *r.decision).feasible);
}

// 48,000 identical waiting jobs on a full cluster (a search that recursed once per job would overflow the stack near
// this size, exit 139). Its depth lives in a vector: proven at once, one job after another.
BOOST_AUTO_TEST_CASE(bnb_search_depth_is_not_bounded_by_the_call_stack) {
  Instance w;
  w.name = "many";
  w.now = 1000;
  w.processors = 16;
  w.objective = Objective::kWait;
  w.running.push_back(RunningJob{"r1", 16, 10});
  for (int i = 0; i < 48000; ++i) w.waiting.push_back(WaitingJob{"w" + std::to_string(i), 500, 16, 10});
  const auto r = solve_bnb(w, SolveOptions{60000});
  BOOST_TEST_REQUIRE((r.status == ExactStatus::kOptimal), r.detail);
  BOOST_TEST(validate(w, *r.decision).feasible);
  BOOST_TEST(r.decision->start[47999] == 1000.0 + 10 * 48000);
}

BOOST_AUTO_TEST_CASE(gecode_refuses_beyond_its_size_limit_at_once) {
  const Instance w = generate_instance(3, kMaxGecodeJobs + 1);
  const auto r = solve_gecode(w, SolveOptions{60000});
  BOOST_TEST(r.status == ExactStatus::kUnknown);
  BOOST_TEST(r.detail.find("limit is 250") != std::string::npos, r.detail);
}

BOOST_AUTO_TEST_CASE(sequences_refuses_beyond_its_size_limit) {
  const Instance w = generate_instance(3, kMaxSequenceJobs + 1);
  const auto r = solve_sequences(w, {});
  BOOST_TEST(r.status == ExactStatus::kUnknown);
  BOOST_TEST(r.detail.find("limit") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_window_played_forward_is_the_run_itself_when_nothing_else_arrives) {
  // Every job submitted at 0 with exact estimates: the window cut at the first pass, played forward, is the run.
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    workload::Workload w = workload::generate_workload(seed, 8);
    for (auto& j : w.jobs) {
      j.submit = 0;
      j.estimate = j.run;
    }
    for (const char* name : {"fcfs", "easy", "conservative"}) {
      struct Cut : sim::Observer {
        std::optional<Instance> first;
        void on_pass(const sim::PassView& v) override {
          if (!first) first = sim::cut_window(v.state, v.book.jobs, v.now, 100, Objective::kWait);
        }
      } cut;
      sim::Simulation s(w.jobs, sim::single_cluster(w, cluster::cluster_policy(name)));
      s.add_observer(cut);
      const auto run = s.run();
      BOOST_TEST_REQUIRE(cut.first.has_value());
      BOOST_TEST(cut.first->running.empty());
      const Schedule replay = sim::play_forward(*cut.first, cluster::cluster_policy(name));
      for (std::size_t j = 0; j < w.jobs.size(); ++j)
        BOOST_TEST(replay.start[j] == run.records[j].start, name << " seed " << seed << " job " << j);
    }
  }
}

BOOST_AUTO_TEST_CASE(window_checker_reports_gaps_along_a_run) {
  const workload::Workload w = workload::generate_workload(5, 60);
  runcheck::WindowSettings settings;
  settings.jobs = 5;
  runcheck::WindowChecker windows(problem(), settings);
  sim::Simulation s(w.jobs, sim::single_cluster(w, cluster::cluster_policy("easy")));
  s.add_observer(windows);
  s.run();
  BOOST_TEST(windows.cut() > 5u);
  BOOST_TEST(windows.proven() == windows.cut());
  BOOST_TEST(windows.at_optimum() <= windows.proven());
  const Stats gaps = windows.gaps();
  BOOST_TEST(gaps.count == windows.proven());
  BOOST_TEST(gaps.max >= gaps.p95);
  for (const auto& r : windows.worst()) {
    BOOST_TEST(*r.report.gap > 0);
    BOOST_TEST(r.report.heuristic.objective > r.report.optimum.objective);
    BOOST_TEST(r.instance.waiting.size() <= 5u);
  }
  runcheck::WindowSettings one;
  one.jobs = 1;
  BOOST_CHECK_THROW(runcheck::WindowChecker(problem(), one), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_queue_window
