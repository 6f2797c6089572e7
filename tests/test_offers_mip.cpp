// Tests of the time-indexed program for provider offers (solver/offers_mip.hpp): differential `heuristic`-free,
// exact against exact (mip against the branch-and-bound without hand-over, and against the sequence search on small
// instances), the 0.1 s grid, refusal off the 1 ms grid and beyond the column limit, and the packing proof of search
// trial 41 that the branch-and-bound alone does not settle in time.
#include "counterexamples/offers_generator.hpp"
#include "model/offers.hpp"
#include "solver/offers_bnb.hpp"
#include "solver/offers_exact.hpp"
#include "solver/offers_mip.hpp"
#include "tests/offers_support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <thread>

#include <signal.h>
#include <unistd.h>
#include <string>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_offers_mip {

using namespace schedcheck;
using namespace schedcheck::offers;
using namespace schedcheck::offers::test;

namespace {

using Clock = std::chrono::steady_clock;

// A limit for correctness, not speed: `generate offers --seed 24 --size 10` takes the program 10-12 s on a slow
// machine (2026-11-26) and more than 30 s under the sanitizers.
ExactResult<OfferList> offers_by_mip(const Instance& instance) {
  return exact_offers_within(instance, SolveOptions{180'000}, earliest_completion_mip);
}

// Sides: `exact` bnb (the branch-and-bound alone: exact_offers_bnb never hands over) and `exact` mip; both proven,
// the same quotes, the mip's schedules valid.
void check_mip_matches_bnb(const Instance& instance) {
  const std::string dump = write_instance(instance).dump();
  const auto bnb = exact_offers_bnb(instance, SolveOptions{30'000}, {});
  const auto mip = offers_by_mip(instance);
  BOOST_REQUIRE_MESSAGE(bnb.status == ExactStatus::kOptimal, "bnb: " + bnb.detail + " on " + dump);
  BOOST_REQUIRE_MESSAGE(mip.status == ExactStatus::kOptimal, "mip: " + mip.detail + " on " + dump);
  BOOST_CHECK_EQUAL(validate_offers(instance, *mip.decision).reason, "");
  BOOST_CHECK_MESSAGE(quotes(*bnb.decision) == quotes(*mip.decision),
                      "bnb " + joined(quotes(*bnb.decision)) + " vs mip " + joined(quotes(*mip.decision)) + " on " +
                          dump);
}


}  // namespace

BOOST_AUTO_TEST_SUITE(offers_mip)

// The generator's default size (10 waiting jobs), where bnb proves every count in milliseconds.
BOOST_AUTO_TEST_CASE(differential_mip_vs_bnb_at_the_default_size) {
  for (std::uint64_t seed = 1; seed <= 25; ++seed) check_mip_matches_bnb(generate_instance(seed, 10));
}

BOOST_AUTO_TEST_CASE(differential_mip_vs_sequences_on_small_instances_and_the_tenth_second_grid) {
  GeneratorSettings settings;
  settings.max_part_tasks = 3;
  settings.max_bot_tasks = 4;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Instance instance = seed <= 15 ? generate_instance(seed, 3, settings)
                                         : scaled(generate_instance(seed, 3, settings), 10);
    const std::string dump = write_instance(instance).dump();
    const auto sequences = exact_offers(instance, [](const Instance& i, long long k, double lb) {
      return earliest_completion_sequences(i, k, lb, SolveOptions{20'000});
    });
    const auto mip = offers_by_mip(instance);
    BOOST_REQUIRE_MESSAGE(sequences.status == ExactStatus::kOptimal, "sequences: " + sequences.detail + " on " + dump);
    BOOST_REQUIRE_MESSAGE(mip.status == ExactStatus::kOptimal, "mip: " + mip.detail + " on " + dump);
    BOOST_CHECK_MESSAGE(quotes(*sequences.decision) == quotes(*mip.decision),
                        "sequences " + joined(quotes(*sequences.decision)) + " vs mip " +
                            joined(quotes(*mip.decision)) + " on " + dump);
  }
}

// Feasibility on unrepaired instances (many infeasible): mip and bnb give the same answer; mip's schedules are
// valid and its cores hold (checked by the sequence search at 5 jobs).
BOOST_AUTO_TEST_CASE(differential_feasibility_mip_vs_bnb) {
  GeneratorSettings settings;
  settings.repair = false;
  settings.with_bot = false;
  int infeasible = 0, schedulable = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const std::size_t size = seed <= 30 ? 5 : 10;
    if (size == 5) settings.max_part_tasks = 3;
    const Instance instance = generate_instance(seed, size, settings);
    const std::string dump = write_instance(instance).dump();
    const auto b = feasibility_bnb(instance, SolveOptions{20'000});
    const auto m = feasibility_mip(instance, SolveOptions{20'000});
    for (const auto* r : {&b, &m})
      BOOST_REQUIRE_MESSAGE(r->status == ExactStatus::kOptimal || r->status == ExactStatus::kInfeasible,
                            "no answer (" + r->detail + ") on " + dump);
    BOOST_CHECK_MESSAGE(b.status == m.status, "bnb and mip disagree on " + dump);
    if (m.status == ExactStatus::kOptimal) {
      ++schedulable;
      BOOST_REQUIRE(m.decision);
      BOOST_CHECK_EQUAL(validate_feasibility(instance, *m.decision).reason, "");
      continue;
    }
    ++infeasible;
    BOOST_CHECK_EQUAL(core_shape_violation(instance, m.core), "");
    if (size == 5)
      BOOST_CHECK_MESSAGE(core_refutation(instance, m.core) == std::optional<std::string>(""),
                          "core refuted on " + dump);
  }
  BOOST_CHECK_GT(infeasible, 0);
  BOOST_CHECK_GT(schedulable, 0);
}

// Minimising from a proven lower bound: the least finish under the bound, proven; one step below it, none.
BOOST_AUTO_TEST_CASE(trial_41_least_finish_is_85) {
  const Instance instance = trial_41();
  const auto until = Clock::now() + std::chrono::seconds(60);
  const MipAnswer least = mip_schedule(instance, 2, 105, until, 71.0);
  BOOST_REQUIRE(least.outcome == MipOutcome::kFound);
  BOOST_CHECK(least.optimal);
  BOOST_REQUIRE(least.schedule);
  BOOST_CHECK_EQUAL(schedule_violation(instance, *least.schedule, 2), "");
  BOOST_CHECK_EQUAL(new_tasks_finish(instance, *least.schedule), 85.0);
  BOOST_CHECK_LE(least.lower, 85.0);
  BOOST_CHECK_GE(least.lower, 71.0);
  BOOST_CHECK(mip_schedule(instance, 2, 84, until, 71.0).outcome == MipOutcome::kInfeasible);
  BOOST_CHECK(mip_schedule(instance, 2, 84, until).outcome == MipOutcome::kInfeasible);  // the plain probe too
  const MipAnswer any = mip_schedule(instance, 2, 85, until);
  BOOST_REQUIRE(any.outcome == MipOutcome::kFound);
  BOOST_CHECK(!any.optimal);  // a probe finds a schedule, it does not minimise
  BOOST_CHECK_LE(new_tasks_finish(instance, *any.schedule), 85.0);
}

// CBC 2.10.8 answers "proven infeasible" when its time limit cuts the linear relaxation short (seen at limits under a
// millisecond: `time_limits` failed with exit 4, "mip claims infeasible" on a schedulable instance). A schedulable
// instance is never called infeasible, whatever the limit.
BOOST_AUTO_TEST_CASE(a_short_time_limit_is_never_an_infeasibility_proof) {
  GeneratorSettings settings;
  settings.repair = false;
  settings.with_bot = false;
  const Instance instance = generate_instance(1, 3, settings);  // schedulable (`generate deadline-feasibility --seed 1 --size 3`)
  BOOST_REQUIRE(mip_schedule(instance, 0, kForever, Clock::now() + std::chrono::seconds(10)).outcome ==
                MipOutcome::kFound);
  int stopped = 0;
  for (int i = 0; i < 2000; ++i) {
    const auto limit = std::chrono::microseconds((i % 80) * 25);  // 0 to 2 ms
    const MipAnswer a = mip_schedule(instance, 0, kForever, Clock::now() + limit);
    BOOST_REQUIRE_MESSAGE(a.outcome != MipOutcome::kInfeasible, "infeasible at a limit of " << limit.count() << " us");
    stopped += a.outcome == MipOutcome::kStopped;
  }
  BOOST_CHECK_GT(stopped, 0);
}

// libCbcSolver calls signal() (its command-line driver stops the branch-and-bound on SIGINT). Through the C
// interface a SIGINT during a solve must still reach the process's own handler (the Python module's, a library
// user's; the CLI blocks it and waits for it in a thread), must not cut the solve short, and the handlers must be the
// same afterwards: true of Debian's CBC 2.10.8, kept true by this test.
namespace {
volatile std::sig_atomic_t interrupted = 0;
void on_interrupt(int) { interrupted = 1; }
}  // namespace

BOOST_AUTO_TEST_CASE(a_signal_during_a_solve_reaches_the_process_handler) {
  struct sigaction mine {}, before {}, after {};
  mine.sa_handler = on_interrupt;
  sigemptyset(&mine.sa_mask);
  BOOST_REQUIRE_EQUAL(sigaction(SIGINT, &mine, &before), 0);
  interrupted = 0;
  // The sender holds SIGINT back itself, so the process-directed signal goes to the solving thread.
  std::thread sender([] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(getpid(), SIGINT);
  });
  // Seed 2 at 20 jobs, "4 new tasks by 94": CBC needs seconds to prove it infeasible; 1.5 s are given.
  const Instance instance = generate_instance(2, 20);
  const auto started = Clock::now();
  const MipAnswer a = mip_schedule(instance, 4, 94, started + std::chrono::milliseconds(1500));
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  sender.join();
  BOOST_CHECK_EQUAL(interrupted, 1);
  BOOST_CHECK_MESSAGE(seconds > 1.0,
                      "the solve ended after " + std::to_string(seconds) + " s: cut short by CBC's handler");
  BOOST_CHECK(a.outcome != MipOutcome::kFound);  // nothing finishes 4 new tasks by 94 (the optimum is 95)
  BOOST_REQUIRE_EQUAL(sigaction(SIGINT, &before, &after), 0);
  BOOST_CHECK(after.sa_handler == on_interrupt);
}

BOOST_AUTO_TEST_CASE(off_the_grid_and_too_many_columns_are_unknown) {
  Instance instance = generate_instance(1, 3);
  instance.waiting.front().runtime += 0.0005;
  instance.waiting.front().deadline += 1;
  BOOST_CHECK(mip_not_applicable(instance, instance.bot->tasks, kForever).find("1 ms grid") != std::string::npos);
  const Completion off = earliest_completion_mip(instance, instance.bot->tasks, instance.now, SolveOptions{});
  BOOST_CHECK(off.status == ExactStatus::kUnknown);
  BOOST_CHECK(!off.schedule);
  // On a 1 ms grid the horizon of the generator's 40-job instances has millions of start variables.
  Instance fine = scaled(generate_instance(2, 40), 1);
  fine.waiting.front().runtime += 0.001;
  const std::string why = mip_not_applicable(fine, fine.bot->tasks, kForever);
  BOOST_CHECK_MESSAGE(why.find("start variables") != std::string::npos, why);
  BOOST_CHECK(mip_schedule(fine, fine.bot->tasks, kForever, Clock::now() + std::chrono::seconds(5)).outcome ==
              MipOutcome::kStopped);
  // A horizon beyond whole grid units is refused before anything is rounded (never a wrong "infeasible").
  Instance far = generate_instance(1, 3);
  far.waiting.front().runtime = 1e15;
  far.waiting.front().deadline = 3e15;
  const std::string too_long = mip_not_applicable(far, far.bot->tasks, kForever);
  BOOST_CHECK_MESSAGE(too_long.find("horizon") != std::string::npos, too_long);
  const MipAnswer refused = mip_schedule(far, far.bot->tasks, kForever, Clock::now() + std::chrono::seconds(5));
  BOOST_CHECK(refused.outcome == MipOutcome::kStopped);
  BOOST_CHECK(!refused.timed_out);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_offers_mip
