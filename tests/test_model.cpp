// Suite `model`: the SLA model's semantics (D, B, eligibility), the instant and timed validators, the
// availability profile, the instance reader's derived fields and defaults, exact rationals for Z3, and the framing of
// a policy's answer lines.
// Source: paper 004 sec. 3.2 (Eq. 4-5, Algorithm 2 line 1.40) for D/B/eligibility; the rest is our own.
#include "model/answer_lines.hpp"
#include "model/input.hpp"
#include "model/offers.hpp"
#include "model/profile.hpp"
#include "model/sla.hpp"
#include "solver/z3_support.hpp"
#include "counterexamples/rng.hpp"
#include "counterexamples/sla_generator.hpp"
#include "helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_model {

using namespace schedcheck;
using namespace schedcheck::sla;
using schedcheck::test::admit;
using schedcheck::test::make_bid;
using schedcheck::test::make_site;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The bid used by the semantics tests: mu = 100 MIPS, c = 2, p = 4, l = 80000 MI, alpha = 5 s.
//   execution = l / (mu p) = 80000 / (100 * 4) = 200 s
//   D = alpha + execution = 5 + 200 = 205 s
//   B = c * execution = 2 * 200 = 400
Instance semantics_site() { return make_site(10, 100, 2); }

}  // namespace

BOOST_AUTO_TEST_SUITE(model)

// ------------------------------------------------------------------ semantics

BOOST_AUTO_TEST_CASE(response_time_and_incentive_match_hand_computation) {
  const Instance s = semantics_site();
  const Bid bid = make_bid("W", 4, 80000, 400, 1000, /*alpha=*/5);
  BOOST_TEST(execution_time(s.site, bid) == 200.0);  // 80000 / (100 * 4)
  BOOST_TEST(response_time(s.site, bid) == 205.0);   // 5 + 200
  BOOST_TEST(incentive(s.site, bid) == 400.0);       // 2 * 200 (alpha is not paid for)
}

// The default pricing, price x processor time (paper 004's magnitudes; docs/policies.md, Readings): the same bid on the
// same site costs c l / mu = 2 * 80000 / 100 = 1600, four times the wall-clock charge (4 processors for 200 s).
BOOST_AUTO_TEST_CASE(processor_time_pricing_charges_each_processors_second) {
  Instance s = make_site(10, 100, 2, -1, Pricing::kProcessorTime);
  const Bid bid = make_bid("W", 4, 80000, 3200, 1000, /*alpha=*/5);
  BOOST_TEST(execution_time(s.site, bid) == 200.0);
  BOOST_TEST(response_time(s.site, bid) == 205.0);   // the deadline side does not depend on the pricing
  BOOST_TEST(incentive(s.site, bid) == 1600.0);      // 2 * 4 processors * 200 s
  s.bids = {bid, make_bid("N", 1, 10000, 0, 1000)};  // N: 1 processor, 100 s: 200 either way
  BOOST_TEST(total_incentive(s, Admission{{true, true}, {0, 0}}) == 1800.0);
  s.site.pricing = Pricing::kWallClock;
  BOOST_TEST(incentive(s.site, bid) == 400.0);
  BOOST_TEST(total_incentive(s, Admission{{true, true}, {0, 0}}) == 600.0);
  // The reader: "pricing" absent is processor time; the writer names it, and reads back the same.
  const nlohmann::json doc = nlohmann::json::parse(
      R"({"kind": "sla-site", "site": {"processors": 10, "mips": 100, "price": 2}, "bids": [
          {"id": "W", "procs": 4, "length": 80000, "budget": 3200, "deadline": 1000, "alpha": 5}]})");
  const Instance read = read_instance(doc, "p.json");
  BOOST_TEST((read.site.pricing == Pricing::kProcessorTime));
  BOOST_TEST(incentive(read.site, read.bids[0]) == 1600.0);
  nlohmann::json wall = write_instance(read);
  BOOST_TEST(wall["site"]["pricing"] == "processor-time");
  wall["site"]["pricing"] = "wall-clock";
  BOOST_TEST(incentive(read_instance(wall, "w.json").site, read.bids[0]) == 400.0);
}

BOOST_AUTO_TEST_CASE(eligible_when_de_equals_D_and_budget_equals_B) {
  Instance s = semantics_site();
  s.site.budget_test = true;
  // de = 205 = D and b = 400 = B: both conditions hold with equality (de >= D, b >= B).
  const Bid bid = make_bid("W", 4, 80000, /*budget=*/400, /*deadline=*/1000, /*alpha=*/5, /*de=*/205);
  BOOST_TEST(eligible(s.site, bid));
  BOOST_TEST(ineligibility_reason(s.site, bid) == "");
}

BOOST_AUTO_TEST_CASE(ineligible_when_expected_response_below_response_time) {
  const Instance s = semantics_site();
  // de = 204 < D = 205.
  const Bid bid = make_bid("W", 4, 80000, 400, 1000, 5, /*de=*/204);
  BOOST_TEST(!eligible(s.site, bid));
  const std::string why = ineligibility_reason(s.site, bid);
  BOOST_TEST(contains(why, "bid W"), why);
  BOOST_TEST(contains(why, "de = 204"), why);
  BOOST_TEST(contains(why, "205"), why);
}

BOOST_AUTO_TEST_CASE(budget_ignored_as_algorithm_2_is_written_unless_budget_test) {
  Instance s = semantics_site();
  // b = 399 < B = 400; de = 1000 >= D = 205. Algorithm 2 line 1.40 tests r >= p and de >= D only: eligible.
  const Bid bid = make_bid("W", 4, 80000, /*budget=*/399, 1000, 5);
  BOOST_TEST(!s.site.budget_test);  // the default
  BOOST_TEST(eligible(s.site, bid));
  // With our budget test (site.budget_test), b >= B is required too: ineligible.
  s.site.budget_test = true;
  BOOST_TEST(!eligible(s.site, bid));
  const std::string why = ineligibility_reason(s.site, bid);
  BOOST_TEST(contains(why, "budget b = 399"), why);
  BOOST_TEST(contains(why, "400"), why);
}

BOOST_AUTO_TEST_CASE(eligibility_uses_de_not_the_deadline) {
  const Instance s = semantics_site();
  // Algorithm 2 line 1.40 tests de >= D only: d = 100 < D = 205 but de = 205, so the bid is eligible.
  const Bid bid = make_bid("W", 4, 80000, 400, /*deadline=*/100, 5, /*de=*/205);
  BOOST_TEST(eligible(s.site, bid));
}

BOOST_AUTO_TEST_CASE(total_incentive_sums_accepted_bids_only) {
  Instance s = semantics_site();
  s.bids = {make_bid("X", 4, 40000, 1e6, 1e6),    // exec 40000/(100*4) = 100, B = 200
            make_bid("Y", 2, 30000, 1e6, 1e6),    // exec 30000/(100*2) = 150, B = 300
            make_bid("Z", 1, 5000, 1e6, 1e6)};    // exec 5000/(100*1)  = 50,  B = 100
  BOOST_TEST(total_incentive(s, admit(s, {"X", "Z"})) == 300.0);  // 200 + 100
  BOOST_TEST(total_incentive(s, admit(s, {})) == 0.0);
}

// ------------------------------------------------------------------ instant validator (Eq. 4)

namespace {
// p_m = 10 with a running job of 4 processors: r = 6. mu = 100, c = 2.
//   X: p 4, l 40000 -> exec 100, B 200 (budget 400: eligible)
//   Y: p 3, l 60000 -> exec 200, B 400 (budget 800: eligible)
//   Z: p 1, l 10000 -> exec 100, B 200 (budget 100 < 200: ineligible under the budget test, which is on here)
Instance instant_case() {
  Instance s = make_site(10, 100, 2);
  s.site.budget_test = true;
  test::add_running(s, "R", 4, 50);
  s.bids = {make_bid("X", 4, 40000, 400, 1000), make_bid("Y", 3, 60000, 800, 1000),
            make_bid("Z", 1, 10000, 100, 1000)};
  return s;
}
}  // namespace

BOOST_AUTO_TEST_CASE(validate_instant_accepts_within_free_processors) {
  const Instance s = instant_case();
  BOOST_TEST(s.site.free_processors == 6);
  const Verdict v = validate_instant(s, admit(s, {"X"}));  // 4 <= 6
  BOOST_TEST(v.feasible, v.reason);
  BOOST_TEST(v.objective == 200.0);  // B(X) = 2 * 100
  const Verdict none = validate_instant(s, admit(s, {}));
  BOOST_TEST(none.feasible);
  BOOST_TEST(none.objective == 0.0);
}

BOOST_AUTO_TEST_CASE(validate_instant_rejects_over_capacity_with_reason) {
  const Instance s = instant_case();
  const Verdict v = validate_instant(s, admit(s, {"X", "Y"}));  // 4 + 3 = 7 > r = 6
  BOOST_TEST(!v.feasible);
  BOOST_TEST(contains(v.reason, "use 7 processors"), v.reason);
  BOOST_TEST(contains(v.reason, "r = 6"), v.reason);
}

BOOST_AUTO_TEST_CASE(validate_instant_rejects_ineligible_bid_with_reason) {
  const Instance s = instant_case();
  const Verdict v = validate_instant(s, admit(s, {"Y", "Z"}));  // 3 + 1 = 4 <= 6 fits, but Z is over budget
  BOOST_TEST(!v.feasible);
  BOOST_TEST(contains(v.reason, "ineligible"), v.reason);
  BOOST_TEST(contains(v.reason, "bid Z"), v.reason);
}

BOOST_AUTO_TEST_CASE(validate_instant_rejects_wrong_decision_shape) {
  const Instance s = instant_case();
  Admission a = admit(s, {"X"});
  a.accepted.pop_back();
  const Verdict v = validate_instant(s, a);
  BOOST_TEST(!v.feasible);
  BOOST_TEST(contains(v.reason, "2 accepted flags"), v.reason);
  BOOST_TEST(contains(v.reason, "3 bids"), v.reason);
}

// ------------------------------------------------------------------ timed validator (our extension)

namespace {
// p_m = 10, running R holds 8 processors for [0, 50). mu = 100, c = 2, alpha = 0, so D = exec.
//   X: p 4, l 40000 -> D 100, B 200, d 200
//   Y: p 6, l 60000 -> D 60000/600 = 100, B 200, d 400
//   Z: p 5, l 50000 -> D 50000/500 = 100, B 200, d 400
Instance timed_case() {
  Instance s = make_site(10, 100, 2);
  test::add_running(s, "R", 8, 50);
  s.bids = {make_bid("X", 4, 40000, 400, 200), make_bid("Y", 6, 60000, 400, 400),
            make_bid("Z", 5, 50000, 400, 400)};
  return s;
}
}  // namespace

BOOST_AUTO_TEST_CASE(validate_timed_accepts_start_exactly_when_running_job_ends) {
  const Instance s = timed_case();
  // X at 50: R has released its 8 processors, X uses 4 of 10 over [50, 150); 150 <= d = 200.
  const Verdict v = validate_timed(s, admit(s, {"X"}, {{"X", 50}}));
  BOOST_TEST(v.feasible, v.reason);
  BOOST_TEST(v.objective == 200.0);
}

BOOST_AUTO_TEST_CASE(validate_timed_rejects_overlap_with_running_job_over_pm) {
  const Instance s = timed_case();
  // X at 0: R (8) + X (4) = 12 > p_m = 10 over [0, 50).
  const Verdict v = validate_timed(s, admit(s, {"X"}, {{"X", 0}}));
  BOOST_TEST(!v.feasible);
  BOOST_TEST(contains(v.reason, "use 12 processors"), v.reason);
  BOOST_TEST(contains(v.reason, "p_m = 10"), v.reason);
}

BOOST_AUTO_TEST_CASE(validate_timed_accepts_finish_exactly_at_deadline) {
  const Instance s = timed_case();
  const Verdict v = validate_timed(s, admit(s, {"X"}, {{"X", 100}}));  // 100 + 100 = 200 = d
  BOOST_TEST(v.feasible, v.reason);
}

BOOST_AUTO_TEST_CASE(validate_timed_rejects_missed_deadline) {
  const Instance s = timed_case();
  const Verdict v = validate_timed(s, admit(s, {"X"}, {{"X", 101}}));  // 101 + 100 = 201 > d = 200
  BOOST_TEST(!v.feasible);
  BOOST_TEST(contains(v.reason, "finishes at 201"), v.reason);
  BOOST_TEST(contains(v.reason, "d = 200"), v.reason);
}

BOOST_AUTO_TEST_CASE(validate_timed_rejects_negative_start) {
  const Instance s = timed_case();
  const Verdict v = validate_timed(s, admit(s, {"Y"}, {{"Y", -1}}));
  BOOST_TEST(!v.feasible);
  BOOST_TEST(contains(v.reason, "starts at -1"), v.reason);
}

BOOST_AUTO_TEST_CASE(validate_timed_rejects_ineligible_bid) {
  Instance s = timed_case();
  s.site.budget_test = true;
  s.bids[1].budget = 199;  // B(Y) = 200 > 199
  const Verdict v = validate_timed(s, admit(s, {"Y"}, {{"Y", 50}}));
  BOOST_TEST(!v.feasible);
  BOOST_TEST(contains(v.reason, "ineligible"), v.reason);
}

BOOST_AUTO_TEST_CASE(validate_timed_rejects_overlap_between_accepted_jobs) {
  const Instance s = timed_case();
  // X [50,150) 4 + Y [50,150) 6 = 10: full. Z (5) at 149 overlaps both over [149,150): 15 > 10.
  const Verdict bad = validate_timed(s, admit(s, {"X", "Y", "Z"}, {{"X", 50}, {"Y", 50}, {"Z", 149}}));
  BOOST_TEST(!bad.feasible);
  BOOST_TEST(contains(bad.reason, "t = 149"), bad.reason);
  BOOST_TEST(contains(bad.reason, "use 15 processors"), bad.reason);
  // Z at 150, exactly when X and Y end: finishes 250 <= 400. Objective 200 + 200 + 200 = 600.
  const Verdict good = validate_timed(s, admit(s, {"X", "Y", "Z"}, {{"X", 50}, {"Y", 50}, {"Z", 150}}));
  BOOST_TEST(good.feasible, good.reason);
  BOOST_TEST(good.objective == 600.0);
}

BOOST_AUTO_TEST_CASE(validate_timed_snaps_starts_within_time_tolerance_only) {
  const Instance s = timed_case();
  // 50 - 1e-7 is within kTimeTolerance (1e-6) of R's end: the same instant. 50 - 1e-3 is a real overlap.
  const Verdict snapped = validate_timed(s, admit(s, {"X"}, {{"X", 50 - 1e-7}}));
  BOOST_TEST(snapped.feasible, snapped.reason);
  const Verdict overlap = validate_timed(s, admit(s, {"X"}, {{"X", 50 - 1e-3}}));
  BOOST_TEST(!overlap.feasible);
}

BOOST_AUTO_TEST_CASE(validate_instant_ignores_start_times_and_running_job_end) {
  // The instant problem starts every accepted job now on the r free processors; start times are ignored.
  const Instance s = instant_case();
  Admission a = admit(s, {"X"}, {{"X", 12345}});
  BOOST_TEST(validate_instant(s, a).feasible);
}

// ------------------------------------------------------------------ availability profile

BOOST_AUTO_TEST_CASE(profile_reserve_builds_expected_steps) {
  AvailabilityProfile p(10);
  p.reserve(0, 10, 4);
  p.reserve(5, 20, 3);
  // free: 10 before 0; [0,5) 10-4 = 6; [5,10) 6-3 = 3; [10,20) 10-3 = 7; from 20 on 10.
  const auto& steps = p.steps();
  BOOST_TEST_REQUIRE(steps.size() == 5u);
  BOOST_TEST(std::isinf(steps[0].time));
  BOOST_TEST(steps[0].free == 10);
  BOOST_TEST(steps[1].time == 0.0);
  BOOST_TEST(steps[1].free == 6);
  BOOST_TEST(steps[2].time == 5.0);
  BOOST_TEST(steps[2].free == 3);
  BOOST_TEST(steps[3].time == 10.0);
  BOOST_TEST(steps[3].free == 7);
  BOOST_TEST(steps[4].time == 20.0);
  BOOST_TEST(steps[4].free == 10);
}

BOOST_AUTO_TEST_CASE(profile_min_free_over_intervals) {
  AvailabilityProfile p(10);
  p.reserve(0, 10, 4);
  p.reserve(5, 20, 3);
  BOOST_TEST(p.min_free(0, 5) == 6);     // only [0,5): 6; the end is exclusive
  BOOST_TEST(p.min_free(0, 10) == 3);    // [5,10): 3
  BOOST_TEST(p.min_free(10, 20) == 7);
  BOOST_TEST(p.min_free(20, 1e9) == 10);
  BOOST_TEST(p.min_free(-5, 0) == 10);   // before anything is reserved
  BOOST_TEST(p.min_free(4, 6) == 3);     // straddles the breakpoint at 5
}

BOOST_AUTO_TEST_CASE(profile_earliest_start_skips_to_first_window) {
  AvailabilityProfile p(10);
  p.reserve(0, 10, 4);
  p.reserve(5, 20, 3);
  BOOST_TEST(*p.earliest_start(6, 5, 0) == 0.0);   // [0,5) has 6 free: exact fit ending at the breakpoint 5
  BOOST_TEST(*p.earliest_start(6, 5.5, 0) == 10.0);  // [0,5.5) hits 3 free at 5; at 10: 7 free until 20
  BOOST_TEST(*p.earliest_start(7, 5, 0) == 10.0);  // 6, 3 then 7 free from 10
  BOOST_TEST(*p.earliest_start(8, 5, 0) == 20.0);  // only after 20 are 10 free
  BOOST_TEST(*p.earliest_start(2, 1, 12) == 12.0); // not_before inside a step with room
}

BOOST_AUTO_TEST_CASE(profile_earliest_start_uses_gap_of_exact_length) {
  AvailabilityProfile p(10);
  p.reserve(0, 10, 10);
  p.reserve(20, 30, 10);
  // Gap [10, 20) of length 10 with all 10 processors free.
  BOOST_TEST(*p.earliest_start(5, 10, 0) == 10.0);
  BOOST_TEST(*p.earliest_start(10, 10, 0) == 10.0);
  BOOST_TEST(*p.earliest_start(5, 10.5, 0) == 30.0);  // does not fit the gap: after the second block
  BOOST_TEST(*p.earliest_start(1, 1, 25) == 30.0);    // not_before inside a full block
}

// The profile against a plain array of free processors per unit of time, on random reservations and releases with
// integer times (the queries' answers then lie on integers): free_at, min_free, max_free, earliest_start (with and
// without a hold, the hold freed on the array) and latest_count_start (the same) after every change. A hold is part
// of a reservation: its ends may fall inside merged steps. With many changes the steps fill several blocks of the
// profile (blocks split and empty), and the past before a rising floor is forgotten as a simulation does.
// `longest`: the longest reservation (queries look at windows up to half as long, at least 12). `within`: reservations
// and moves only where they fit (free stays in [0, capacity], so searches for free processors find some), on
// `capacity` processors, 1 to 4 each; otherwise they may over-use 6.
void check_profile_against_unit_array(std::uint64_t seed, int runs, int horizon, int changes, int queries,
                                      int longest = 15, bool within = false, int capacity = 6) {
  SplitMix64 rng(seed);
  auto next = [&](int n) { return static_cast<int>(rng.next() % static_cast<std::uint64_t>(n)); };  // 0 .. n - 1
  const int kHorizon = horizon;
  const int kCapacity = within ? capacity : 6;
  std::size_t most_steps = 0;
  for (int run = 0; run < runs; ++run) {
    AvailabilityProfile p(kCapacity);
    std::vector<int> free(static_cast<std::size_t>(kHorizon + longest) + 40, kCapacity);
    struct Held { int start, end, procs; };
    std::vector<Held> held;
    int floor = 0;  // queries look at or after it; the profile may forget the steps before
    for (int change = 0; change < changes; ++change) {
      most_steps = std::max(most_steps, p.step_count());
      if (changes > 20 && change % 25 == 24) {
        floor = std::min(kHorizon - 1, floor + next(kHorizon / 10 + 1));
        p.forget_before(floor);
      }
      const auto room = [&](int from, int to, int procs, const Held* own) {  // the unit array has procs free
        for (int t = from; t < to; ++t) {
          const bool inside = own && t >= own->start && t < own->end;
          if (free[static_cast<std::size_t>(t)] + (inside ? own->procs : 0) < procs) return false;
        }
        return true;
      };
      const int what = next(4);  // 0: a release, 1: a move (earlier or later, overlapping or not), else a reservation
      if (!held.empty() && what == 1) {
        Held& h = held[static_cast<std::size_t>(next(static_cast<int>(held.size())))];
        const int to = std::max(0, std::min(kHorizon, h.start + next(41) - 20));
        if (within && !room(to, to + (h.end - h.start), h.procs, &h)) continue;
        p.move(h.start, to, h.end - h.start, h.procs);
        for (int t = h.start; t < h.end; ++t) free[static_cast<std::size_t>(t)] += h.procs;
        h.end = to + (h.end - h.start);
        h.start = to;
        for (int t = h.start; t < h.end; ++t) free[static_cast<std::size_t>(t)] -= h.procs;
      } else if (!held.empty() && what == 0) {
        const std::size_t k = static_cast<std::size_t>(next(static_cast<int>(held.size())));
        p.release(held[k].start, held[k].end, held[k].procs);
        for (int t = held[k].start; t < held[k].end; ++t) free[static_cast<std::size_t>(t)] += held[k].procs;
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        const int start = next(kHorizon), end = start + 1 + next(longest), procs = 1 + next(within ? 4 : kCapacity);
        if (within && !room(start, end, procs, nullptr)) continue;
        p.reserve(start, end, procs);
        for (int t = start; t < end; ++t) free[static_cast<std::size_t>(t)] -= procs;
        held.push_back({start, end, procs});
      }
      auto fits = [&](int from, int duration, int procs, const Held* hold) {
        for (int t = from; t < from + duration; ++t) {
          const bool inside = hold && t >= hold->start && t < hold->end;
          if (free[static_cast<std::size_t>(t)] + (inside ? hold->procs : 0) < procs) return false;
        }
        return true;
      };
      for (int q = 0; q < queries; ++q) {
        const int at = floor + next(kHorizon - floor), duration = 1 + next(std::max(12, longest / 2));
        const int procs = 1 + next(kCapacity);
        const int latest = at + next(30);
        BOOST_REQUIRE_EQUAL(p.free_at(at + 0.5), free[static_cast<std::size_t>(at)]);
        int least = kCapacity;
        for (int t = at; t < at + duration; ++t) least = std::min(least, free[static_cast<std::size_t>(t)]);
        BOOST_REQUIRE_EQUAL(p.min_free(at, at + duration), least);
        int most = free[static_cast<std::size_t>(at)];  // (may be < 0: reservations here may over-use)
        for (int t = at; t < at + duration; ++t) most = std::max(most, free[static_cast<std::size_t>(t)]);
        BOOST_REQUIRE_EQUAL(p.max_free(at, at + duration), most);
        double first_enough = at + 0.5;  // first_free: from inside a unit, then the next unit with enough free
        for (int t = at; free[static_cast<std::size_t>(t)] < procs; ++t) first_enough = t + 1;
        BOOST_REQUIRE_EQUAL(p.first_free(at + 0.5, procs), first_enough);
        std::optional<double> first, last, first_held, last_held;
        std::optional<Held> hold;
        if (!held.empty()) {  // a part of a reservation: a sub-interval and some of its processors
          const Held& of = held[static_cast<std::size_t>(next(static_cast<int>(held.size())))];
          if (of.end <= floor) continue;
          const int from = std::max(of.start, floor) + next(of.end - std::max(of.start, floor));
          hold = Held{from, from + 1 + next(of.end - from), 1 + next(of.procs)};
        }
        for (int t = at; t <= latest; ++t) {
          if (!first && fits(t, duration, procs, nullptr)) first = t;
          if (fits(t, duration, procs, nullptr)) last = t;
          if (hold && fits(t, duration, procs, &*hold)) {
            if (!first_held) first_held = t;
            last_held = t;
          }
        }
        BOOST_REQUIRE(p.earliest_start(procs, duration, at, latest) == first);
        BOOST_REQUIRE(p.latest_count_start(procs, duration, at, latest) == last);
        if (hold) {
          const AvailabilityProfile::Hold h{static_cast<double>(hold->start), static_cast<double>(hold->end),
                                            hold->procs};
          BOOST_REQUIRE(p.earliest_count_start(procs, duration, at, latest, h) == first_held);
          BOOST_REQUIRE(p.latest_count_start(procs, duration, at, latest, h) == last_held);
        }
      }
    }
  }
  // With many changes the profile must have grown past one block (32 steps) for the test to mean that.
  if (changes > 20) BOOST_TEST(most_steps > 100u);
}

BOOST_AUTO_TEST_CASE(profile_matches_a_unit_array_on_random_changes) { check_profile_against_unit_array(12345, 200, 60, 12, 20); }

BOOST_AUTO_TEST_CASE(profile_matches_a_unit_array_across_many_blocks) { check_profile_against_unit_array(4242, 12, 600, 400, 6); }

// Reservations and moves over hundreds of steps: whole blocks change at once (a block's lazy count) beside the
// partly changed blocks at the ends.
BOOST_AUTO_TEST_CASE(profile_matches_a_unit_array_with_windows_over_many_blocks) {
  check_profile_against_unit_array(777, 6, 600, 300, 6, 300, true, 40);
}

// same_from: the same step function however its breakpoints snapped (edits in another order, ends closer than the
// tolerance), different counts or sets from t on are not, and what lies before t does not count.
BOOST_AUTO_TEST_CASE(profile_same_from_compares_step_functions) {
  const double x = 100, tol = kTimeTolerance;
  AvailabilityProfile forward(4), backward(4);
  // Ends at x, x + 0.6 tol and x + 1.2 tol: forward keeps breakpoints at x and x + 1.2 tol, backward one between.
  forward.reserve(50, x, 1);
  forward.reserve(50, x + 1.2 * tol, 1);
  forward.reserve(x + 0.6 * tol, 200, 2);
  backward.reserve(x + 0.6 * tol, 200, 2);
  backward.reserve(50, x + 1.2 * tol, 1);
  backward.reserve(50, x, 1);
  BOOST_TEST(forward.step_count() != backward.step_count());  // a sliver of 1.2 tolerances in one of them only
  BOOST_TEST(forward.same_from(backward, 0));
  BOOST_TEST(backward.same_from(forward, 0));
  AvailabilityProfile other = forward;
  other.reserve(150, 160, 1);
  BOOST_TEST(!forward.same_from(other, 0));
  BOOST_TEST(!other.same_from(forward, 155));
  BOOST_TEST(forward.same_from(other, 160));  // the difference lies before t
  other = forward;
  other.reserve(300, 300 + 3 * tol, 1);  // a stretch of 3 tolerances is not a sliver
  BOOST_TEST(!forward.same_from(other, 0));
  // With processor identity: equal counts on other processors differ.
  AvailabilityProfile a(4, true), b(4, true);
  ProcessorSet first(4), second(4);
  first.set(0);
  second.set(1);
  a.reserve(10, 20, first);
  b.reserve(10, 20, second);
  BOOST_TEST(a.free_at(15) == b.free_at(15));
  BOOST_TEST(!a.same_from(b, 0));
  BOOST_TEST(a.same_from(b, 20));
  b.release(10, 20, second);
  b.reserve(10, 20, first);
  BOOST_TEST(a.same_from(b, 0));
}

// free_on with processor identity against a plain array of free processor sets per unit of time, on random
// reservations of free sets and releases with integer times, a hold being a part of a reservation (a sub-interval and
// some of its processors; its ends may fall inside merged steps).
BOOST_AUTO_TEST_CASE(profile_free_on_matches_a_unit_array_of_sets) {
  SplitMix64 rng(777);
  auto next = [&](int n) { return static_cast<int>(rng.next() % static_cast<std::uint64_t>(n)); };  // 0 .. n - 1
  constexpr int kHorizon = 50, kCapacity = 6;
  auto bits = [](const ProcessorSet& set) {
    unsigned b = 0;
    for (int i : set.members()) b |= 1u << i;
    return b;
  };
  auto set_of = [](unsigned b) {
    ProcessorSet set(kCapacity);
    for (int i = 0; i < kCapacity; ++i)
      if (b & (1u << i)) set.set(i);
    return set;
  };
  int checked = 0, with_hold_only = 0;
  for (int run = 0; run < 200; ++run) {
    AvailabilityProfile p(kCapacity, true);
    std::vector<unsigned> free(kHorizon + 30, (1u << kCapacity) - 1);
    struct Held { int start, end; unsigned on; };
    std::vector<Held> held;
    for (int change = 0; change < 10; ++change) {
      if (!held.empty() && next(3) == 0) {
        const std::size_t k = static_cast<std::size_t>(next(static_cast<int>(held.size())));
        p.release(held[k].start, held[k].end, set_of(held[k].on));
        for (int t = held[k].start; t < held[k].end; ++t) free[static_cast<std::size_t>(t)] |= held[k].on;
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
      } else {  // a set free over the whole window (reserve's precondition)
        const int start = next(kHorizon), end = start + 1 + next(12);
        unsigned common = (1u << kCapacity) - 1;
        for (int t = start; t < end; ++t) common &= free[static_cast<std::size_t>(t)];
        const unsigned on = common & static_cast<unsigned>(next(1 << kCapacity));
        if (on == 0) continue;
        p.reserve(start, end, set_of(on));
        for (int t = start; t < end; ++t) free[static_cast<std::size_t>(t)] &= ~on;
        held.push_back({start, end, on});
      }
      for (int q = 0; q < 20; ++q) {
        const int at = next(kHorizon), end = at + 1 + next(10);
        const unsigned want = static_cast<unsigned>(1 + next((1 << kCapacity) - 1));
        std::optional<Held> hold;
        if (!held.empty() && next(4) != 0) {
          const Held& of = held[static_cast<std::size_t>(next(static_cast<int>(held.size())))];
          const int from = of.start + next(of.end - of.start);
          const unsigned part = of.on & static_cast<unsigned>(next(1 << kCapacity));
          if (part != 0) hold = Held{from, from + 1 + next(of.end - from), part};
        }
        bool expected = true;
        for (int t = at; t < end; ++t) {
          const bool inside = hold && t >= hold->start && t < hold->end;
          if (want & ~(free[static_cast<std::size_t>(t)] | (inside ? hold->on : 0u))) expected = false;
        }
        const AvailabilityProfile::Hold h =
            hold ? AvailabilityProfile::Hold{static_cast<double>(hold->start), static_cast<double>(hold->end),
                                             std::popcount(hold->on)}
                 : AvailabilityProfile::Hold{};
        const bool answer = p.free_on(set_of(want), at, end, h, hold ? set_of(hold->on) : ProcessorSet());
        BOOST_REQUIRE_MESSAGE(answer == expected, "run " << run << " change " << change << ": free_on(" << want
                                                          << ", [" << at << ", " << end << ")) " << answer);
        ++checked;
        if (hold && expected) {
          bool without = true;
          for (int t = at; t < end; ++t)
            if (want & ~free[static_cast<std::size_t>(t)]) without = false;
          if (!without) ++with_hold_only;
        }
      }
      BOOST_REQUIRE_EQUAL(bits(p.free_over(0, 1)), free[0]);
    }
  }
  // The hold mattered often enough for the comparison to mean something.
  BOOST_TEST(checked > 1000);
  BOOST_TEST(with_hold_only > 50);
}

// earliest_slot with processor identity against a plain array of free sets per unit of time, on a profile of many
// blocks (hundreds of steps): the earliest start whose window has enough processors free throughout, and the lowest
// of them.
BOOST_AUTO_TEST_CASE(profile_earliest_slot_matches_a_unit_array_across_many_blocks) {
  SplitMix64 rng(99);
  auto next = [&](int n) { return static_cast<int>(rng.next() % static_cast<std::uint64_t>(n)); };  // 0 .. n - 1
  constexpr int kHorizon = 500, kCapacity = 6;
  const unsigned all = (1u << kCapacity) - 1;
  AvailabilityProfile p(kCapacity, true);
  std::vector<unsigned> free(kHorizon + 60, all);
  auto set_of = [](unsigned b) {
    ProcessorSet set(kCapacity);
    for (int i = 0; i < kCapacity; ++i)
      if (b & (1u << i)) set.set(i);
    return set;
  };
  int found = 0;
  for (int change = 0; change < 400; ++change) {
    const int start = next(kHorizon), end = start + 1 + next(8);
    unsigned common = all;
    for (int t = start; t < end; ++t) common &= free[static_cast<std::size_t>(t)];
    const unsigned on = common & static_cast<unsigned>(next(1 << kCapacity));
    if (on != 0) {
      p.reserve(start, end, set_of(on));
      for (int t = start; t < end; ++t) free[static_cast<std::size_t>(t)] &= ~on;
    }
    if (change < 100) continue;
    const int at = next(kHorizon), duration = 1 + next(10), procs = 1 + next(kCapacity), latest = at + next(40);
    std::optional<int> expected_start;
    unsigned expected_set = 0;
    for (int t = at; t <= latest && !expected_start; ++t) {
      unsigned window = all;
      for (int u = t; u < t + duration; ++u) window &= free[static_cast<std::size_t>(u)];
      if (std::popcount(window) >= procs) {
        expected_start = t;
        for (int i = 0, taken = 0; i < kCapacity && taken < procs; ++i)
          if (window & (1u << i)) { expected_set |= 1u << i; ++taken; }
      }
    }
    const auto slot = p.earliest_slot(procs, duration, at, latest);
    BOOST_REQUIRE_MESSAGE(slot.has_value() == expected_start.has_value(), "change " << change << ": earliest_slot("
                                                                          << procs << ", " << duration << ", " << at << ", " << latest << ")");
    if (!slot) continue;
    ++found;
    BOOST_REQUIRE_EQUAL(slot->start, static_cast<double>(*expected_start));
    unsigned got = 0;
    for (int i : slot->processors.members()) got |= 1u << i;
    BOOST_REQUIRE_EQUAL(got, expected_set);
  }
  BOOST_TEST(p.step_count() > 100u);  // many blocks
  BOOST_TEST(found > 50);
}

// The processor-set queries on a machine of many words (700 processors: 11 words, more than one slice of the
// fits-now search) against a plain array of free sets per unit of time, with reservations of narrow and wide sets and
// releases over many blocks: slot_at, free_over and earliest_slot; and earliest_slot with a reservation counted as
// free against the same search on a copy without it, for the starts before it (what compression asks).
BOOST_AUTO_TEST_CASE(profile_processor_sets_match_a_unit_array_on_a_wide_machine) {
  SplitMix64 rng(2026);
  auto next = [&](int n) { return static_cast<int>(rng.next() % static_cast<std::uint64_t>(n)); };  // 0 .. n - 1
  constexpr int kHorizon = 400, kCapacity = 700;
  AvailabilityProfile p(kCapacity, true);
  std::vector<ProcessorSet> free(kHorizon + 200, ProcessorSet::all(kCapacity));
  struct Held {
    int start, end;
    ProcessorSet on;
  };
  std::vector<Held> held;
  auto free_over = [&](int from, int to) {
    ProcessorSet common = ProcessorSet::all(kCapacity);
    for (int t = from; t < to; ++t) common &= free[static_cast<std::size_t>(t)];
    return common;
  };
  // k members of `from`: the lowest, a run from a random member on, or members spread at random.
  auto pick = [&](const ProcessorSet& from, int k) {
    const std::vector<int> members = from.members();
    ProcessorSet out(kCapacity);
    const int n = static_cast<int>(members.size());
    switch (next(3)) {
      case 0: return from.lowest(k);
      case 1:
        for (int i = next(n - k + 1), taken = 0; taken < k; ++i, ++taken) out.set(members[static_cast<std::size_t>(i)]);
        return out;
      default:
        while (out.count() < k) out.set(members[static_cast<std::size_t>(next(n))]);
        return out;
    }
  };
  // The earliest start in [at, latest] whose window has procs processors free throughout, and the lowest of them.
  auto expected_slot = [&](int procs, int duration, int at, int latest) -> std::optional<AvailabilityProfile::Slot> {
    for (int t = at; t <= latest; ++t) {
      const ProcessorSet common = free_over(t, t + duration);
      if (common.count() >= procs) return AvailabilityProfile::Slot{static_cast<double>(t), common.lowest(procs)};
    }
    return std::nullopt;
  };
  int fits = 0, found = 0, held_found = 0, held_queries = 0;
  for (int change = 0; change < 600; ++change) {
    if (!held.empty() && next(3) == 0) {
      const std::size_t k = static_cast<std::size_t>(next(static_cast<int>(held.size())));
      p.release(held[k].start, held[k].end, held[k].on);
      for (int t = held[k].start; t < held[k].end; ++t) free[static_cast<std::size_t>(t)] |= held[k].on;
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
    } else {  // a set free over the whole window (reserve's precondition)
      const int start = next(kHorizon), end = start + 1 + next(next(4) == 0 ? 150 : 12);
      const int k = 1 + next(next(5) == 0 ? 200 : 8);
      const ProcessorSet common = free_over(start, end);
      if (common.count() < k) continue;
      const ProcessorSet on = pick(common, k);
      p.reserve(start, end, on);
      for (int t = start; t < end; ++t) free[static_cast<std::size_t>(t)].subtract(on);
      held.push_back({start, end, on});
    }
    BOOST_REQUIRE(p.consistent(0, kHorizon + 200));
    if (change < 100) continue;
    for (int q = 0; q < 3; ++q) {
      const int at = next(kHorizon), duration = 1 + next(40), procs = 1 + next(next(4) == 0 ? 300 : 10);
      const int latest = at + next(60);
      const ProcessorSet common = free_over(at, at + duration);
      BOOST_REQUIRE(p.free_over(at, at + duration) == common);
      const auto now = p.slot_at(procs, at, duration);
      BOOST_REQUIRE_MESSAGE(now.has_value() == (common.count() >= procs),
                            "change " << change << ": slot_at(" << procs << ", " << at << ", " << duration << ")");
      if (now) {
        ++fits;
        BOOST_REQUIRE(now->processors == common.lowest(procs));
      }
      const auto slot = p.earliest_slot(procs, duration, at, latest);
      const auto expected = expected_slot(procs, duration, at, latest);
      BOOST_REQUIRE_MESSAGE(slot.has_value() == expected.has_value(), "change " << change << ": earliest_slot("
                                                                      << procs << ", " << duration << ", " << at << ", " << latest << ")");
      if (slot) {
        ++found;
        BOOST_REQUIRE_EQUAL(slot->start, expected->start);
        BOOST_REQUIRE(slot->processors == expected->processors);
      }
      // A reservation that starts later, its job asking for an earlier start of at most its length.
      if (held.empty()) continue;
      const Held& own = held[static_cast<std::size_t>(next(static_cast<int>(held.size())))];
      if (own.start <= at) continue;
      ++held_queries;
      const int length = own.end - own.start, wanted = own.on.count();
      const int asked = next(2) == 0 ? length : 1 + next(length);
      AvailabilityProfile without = p;
      without.release(own.start, own.end, own.on);
      auto before_it = without.earliest_slot(wanted, asked, at, own.start);
      if (before_it && !(before_it->start < own.start - kTimeTolerance)) before_it.reset();
      const auto moved = p.earliest_slot(wanted, asked, at, own.start,
                                         AvailabilityProfile::Hold{static_cast<double>(own.start),
                                                                   static_cast<double>(own.end), wanted},
                                         own.on);
      BOOST_REQUIRE_MESSAGE(moved.has_value() == before_it.has_value(),
                            "change " << change << ": earliest_slot with the hold [" << own.start << ", " << own.end
                                      << ") from " << at);
      if (moved) {
        ++held_found;
        BOOST_REQUIRE_EQUAL(moved->start, before_it->start);
        BOOST_REQUIRE(moved->processors == before_it->processors);
      }
    }
  }
  BOOST_TEST(p.step_count() > 100u);  // many blocks
  BOOST_TEST(fits > 100);
  BOOST_TEST(found > 300);
  BOOST_TEST(held_queries > 300);
  BOOST_TEST(held_found > 50);
}

BOOST_AUTO_TEST_CASE(profile_earliest_start_nullopt_when_more_than_capacity) {
  AvailabilityProfile p(10);
  BOOST_TEST(!p.earliest_start(11, 1, 0).has_value());
  BOOST_TEST(*p.earliest_start(10, 1, 0) == 0.0);
}

BOOST_AUTO_TEST_CASE(profile_earliest_start_respects_latest_start) {
  AvailabilityProfile p(10);
  p.reserve(0, 10, 10);
  p.reserve(20, 30, 10);
  // The first window for 10.5 s is at 30.
  BOOST_TEST(!p.earliest_start(5, 10.5, 0, 29).has_value());
  BOOST_TEST(*p.earliest_start(5, 10.5, 0, 30) == 30.0);
  BOOST_TEST(*p.earliest_start(5, 10, 0, 10) == 10.0);
  BOOST_TEST(!p.earliest_start(5, 10, 0, 9).has_value());
}

BOOST_AUTO_TEST_CASE(profile_latest_count_start_mirrors_earliest_start) {
  AvailabilityProfile p(10);
  p.reserve(0, 10, 4);
  p.reserve(5, 20, 3);   // free: 6 on [0,5), 3 on [5,10), 7 on [10,20), 10 after
  BOOST_TEST(*p.latest_count_start(6, 5, 0, 100) == 100.0);  // room at the latest start itself
  BOOST_TEST(!p.latest_count_start(8, 5, 0, 18).has_value());  // 8 free only from 20 on, and before 0 (not allowed)
  BOOST_TEST(*p.latest_count_start(8, 5, -50, 18) == -5.0);    // ends when [0, 10) with 4 taken begins
  BOOST_TEST(*p.latest_count_start(7, 5, 0, 18) == 18.0);      // 7 free on [10, 20), 10 after
  BOOST_TEST(!p.latest_count_start(7, 5, 0, 4).has_value());   // [0,5) has 6, [5,10) has 3
  BOOST_TEST(*p.latest_count_start(6, 5, 0, 4) == 0.0);        // only [0, 5) with 6 free
  BOOST_TEST(*p.latest_count_start(3, 10, 0, 12) == 12.0);
  BOOST_TEST(!p.latest_count_start(11, 1, 0, 100).has_value());  // more than the machine
}

BOOST_AUTO_TEST_CASE(profile_latest_count_start_matches_a_scan_of_every_start) {
  // Seeded random integer profiles: the latest fit is an integer (the latest start itself or a breakpoint minus the
  // duration), so scanning every integer start is the reference.
  std::uint64_t state = 12345;
  auto next = [&](int n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
  };
  for (int round = 0; round < 500; ++round) {
    AvailabilityProfile p(6);
    for (int r = next(6); r > 0; --r) {
      const int start = next(30), length = 1 + next(10);
      p.reserve(start, start + length, 1 + next(3));
    }
    const int procs = 1 + next(6), duration = 1 + next(8), not_before = next(20), latest = not_before + next(25);
    std::optional<double> scan;
    for (int s = latest; s >= not_before && !scan; --s)
      if (p.min_free(s, s + duration) >= procs) scan = s;
    const auto got = p.latest_count_start(procs, duration, not_before, latest);
    BOOST_TEST_REQUIRE(got.has_value() == scan.has_value());
    if (got) BOOST_TEST(*got == *scan);
  }
}

BOOST_AUTO_TEST_CASE(profile_reserve_shows_overuse_as_negative_free) {
  AvailabilityProfile p(4);
  p.reserve(0, 10, 3);
  p.reserve(5, 15, 3);
  BOOST_TEST(p.min_free(5, 10) == -2);  // 4 - 3 - 3
  p.reserve(1, 1, 100);                 // empty interval: no-op
  BOOST_TEST(p.min_free(0, 5) == 1);
}

BOOST_AUTO_TEST_CASE(profile_breakpoints_within_tolerance_merge) {
  AvailabilityProfile p(10);
  p.reserve(0, 10, 1);
  p.reserve(10 + 5e-7, 20, 1);  // 5e-7 < kTimeTolerance: starts at the breakpoint 10
  // -inf, 0, 20: no phantom breakpoint at 10 + 5e-7, and [0,10), [10,20) (9 free each) are one merged step.
  BOOST_TEST(p.steps().size() == 3u);
  BOOST_TEST(p.min_free(0, 20) == 9);  // never both at once
}

// ------------------------------------------------------------------ reader: derived fields and defaults

namespace {
Instance read_text(const std::string& text, const std::string& file = "t.json") {
  return read_instance(parse_json_text(text, file), file);
}
}  // namespace

BOOST_AUTO_TEST_CASE(read_instance_derives_free_from_running_jobs) {
  const Instance s = read_text(R"({"site": {"processors": 16, "mips": 1, "price": 1},
      "running": [{"id": "r1", "procs": 5, "remaining": 10}, {"id": "r2", "procs": 3, "remaining": 20}],
      "bids": []})");
  BOOST_TEST(s.site.free_processors == 8);  // 16 - 5 - 3
  BOOST_TEST(s.running.size() == 2u);
}

// A job whose end is the decision instant is still running then (the federation's snapshot at a bid that arrives as
// it ends): remaining 0 reads back, holds its processors for the instant's knapsack, and the round trip is exact.
BOOST_AUTO_TEST_CASE(read_instance_takes_a_running_job_that_ends_now) {
  const Instance s = read_text(R"({"site": {"processors": 16, "mips": 1, "price": 1},
      "running": [{"id": "r1", "procs": 5, "remaining": 0}, {"id": "r2", "procs": 3, "remaining": 20}],
      "bids": []})");
  BOOST_TEST(s.site.free_processors == 8);
  BOOST_TEST(s.running[0].remaining == 0.0);
  const Instance again = read_instance(write_instance(s), "again.json");
  BOOST_TEST(write_instance(again) == write_instance(s));
  const auto offers = offers::read_instance(parse_json_text(
      R"({"provider": {"processors": 8, "now": 100}, "running": [{"id": "r", "procs": 2, "remaining": 0}]})", "o.json"),
      "o.json", false);
  BOOST_TEST(offers.running.at(0).remaining == 0.0);
}

BOOST_AUTO_TEST_CASE(read_instance_accepts_free_consistent_with_running) {
  const Instance s = read_text(R"({"site": {"processors": 16, "free": 11, "mips": 1, "price": 1},
      "running": [{"id": "r1", "procs": 5, "remaining": 10}], "bids": []})");
  BOOST_TEST(s.site.free_processors == 11);  // 16 - 5
}

BOOST_AUTO_TEST_CASE(read_instance_rejects_free_inconsistent_with_running) {
  try {
    read_text(R"({"site": {"processors": 16, "free": 10, "mips": 1, "price": 1},
        "running": [{"id": "r1", "procs": 5, "remaining": 10}], "bids": []})");
    BOOST_FAIL("free = 10 with 16 - 5 = 11 was accepted");
  } catch (const InputError& e) {
    const std::string m = e.what();
    BOOST_TEST(contains(m, "t.json"), m);
    BOOST_TEST(contains(m, "site.free"), m);
    BOOST_TEST(contains(m, "11"), m);
  }
}

BOOST_AUTO_TEST_CASE(read_instance_takes_free_as_given_without_running_jobs) {
  const Instance s = read_text(R"({"site": {"processors": 10, "free": 6, "mips": 1, "price": 1}, "bids": []})");
  BOOST_TEST(s.site.free_processors == 6);
  BOOST_TEST(s.running.empty());
}

BOOST_AUTO_TEST_CASE(read_instance_defaults_alpha_zero_and_expected_response_deadline) {
  const Instance s = read_text(R"({"site": {"processors": 10, "mips": 100, "price": 2},
      "bids": [{"id": "A", "procs": 2, "length": 1000, "budget": 50, "deadline": 70}]})");
  BOOST_TEST_REQUIRE(s.bids.size() == 1u);
  BOOST_TEST(s.bids[0].alpha == 0.0);
  BOOST_TEST(s.bids[0].expected_response == 70.0);
  BOOST_TEST(s.site.free_processors == 10);  // no running jobs, no free: all free
  BOOST_TEST(s.name == "t.json");            // no name: the file name
}

BOOST_AUTO_TEST_CASE(read_instance_keeps_explicit_alpha_and_expected_response) {
  const Instance s = read_text(R"({"kind": "sla-site", "name": "n", "site": {"processors": 10, "mips": 100, "price": 2},
      "bids": [{"id": "A", "procs": 2, "length": 1000, "alpha": 3, "budget": 50, "deadline": 70,
                "expected_response": 40}]})");
  BOOST_TEST(s.bids[0].alpha == 3.0);
  BOOST_TEST(s.bids[0].expected_response == 40.0);
  BOOST_TEST(s.name == "n");
}

BOOST_AUTO_TEST_CASE(write_then_read_round_trips_generated_instances) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Instance a = generate_instance(seed, 6);
    a.site.budget_test = seed % 2 == 0;
    const Instance b = read_instance(write_instance(a), "roundtrip");
    BOOST_TEST_CONTEXT("seed " << seed << ": " << test::dump(a)) {
      BOOST_TEST(b.site.budget_test == a.site.budget_test);
      BOOST_TEST(b.site.processors == a.site.processors);
      BOOST_TEST(b.site.free_processors == a.site.free_processors);
      BOOST_TEST(b.site.mips == a.site.mips);
      BOOST_TEST(b.site.price == a.site.price);
      BOOST_TEST_REQUIRE(b.running.size() == a.running.size());
      BOOST_TEST_REQUIRE(b.bids.size() == a.bids.size());
      for (std::size_t i = 0; i < a.bids.size(); ++i) {
        BOOST_TEST(b.bids[i].id == a.bids[i].id);
        BOOST_TEST(b.bids[i].procs == a.bids[i].procs);
        BOOST_TEST(b.bids[i].length_mi == a.bids[i].length_mi);
        BOOST_TEST(b.bids[i].alpha == a.bids[i].alpha);
        BOOST_TEST(b.bids[i].budget == a.bids[i].budget);
        BOOST_TEST(b.bids[i].deadline == a.bids[i].deadline);
        BOOST_TEST(b.bids[i].expected_response == a.bids[i].expected_response);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(write_then_read_round_trips_free_below_processors_without_running) {
  // A site with r = 6 of p_m = 10 free and no running jobs listed (the reader accepts it, see above).
  Instance a = make_site(10, 100, 2, /*free=*/6);
  a.bids = {make_bid("A", 2, 1000, 50, 70)};
  try {
    const Instance b = read_instance(write_instance(a), "roundtrip");
    BOOST_TEST(b.site.free_processors == 6);
  } catch (const InputError& e) {
    BOOST_ERROR("write_instance output is rejected by read_instance: " << e.what() << "\n" << test::dump(a));
  }
}

// ------------------------------------------------------------------ exact rationals for Z3

namespace {
// Exponent k with 2^k == the decimal string `power` (or -1).
int power_of_two_exponent(const std::string& power) {
  std::string p = "1";
  for (int k = 0; k < 1200; ++k) {
    if (p == power) return k;
    int carry = 0;
    for (std::size_t i = p.size(); i-- > 0;) {
      const int d = (p[i] - '0') * 2 + carry;
      p[i] = static_cast<char>('0' + d % 10);
      carry = d / 10;
    }
    if (carry) p.insert(p.begin(), static_cast<char>('0' + carry));
  }
  return -1;
}
// Rebuilds the double from "m/2^k" or "m" (numerators of doubles in [2^-1000, 2^53) have < 54 bits: exact).
double from_rational(const std::string& text) {
  const auto slash = text.find('/');
  const double numerator = static_cast<double>(std::stoll(text.substr(0, slash)));
  if (slash == std::string::npos) return numerator;
  const int k = power_of_two_exponent(text.substr(slash + 1));
  BOOST_TEST_REQUIRE(k >= 0, "denominator of " << text << " is not a power of two");
  return std::ldexp(numerator, -k);
}
}  // namespace

BOOST_AUTO_TEST_CASE(exact_rational_string_of_simple_values) {
  BOOST_TEST(z3support::exact_rational_string(0.5) == "1/2");
  BOOST_TEST(z3support::exact_rational_string(3.0) == "3");
  BOOST_TEST(z3support::exact_rational_string(-0.75) == "-3/4");
  BOOST_TEST(z3support::exact_rational_string(0.0) == "0");
  // 2^60 = 1152921504606846976 (beyond int64 mantissa scaling: exercises the doubling path).
  BOOST_TEST(z3support::exact_rational_string(std::ldexp(1.0, 60)) == "1152921504606846976");
}

BOOST_AUTO_TEST_CASE(exact_rational_string_of_one_tenth_is_the_double_not_one_tenth) {
  // 0.1 as a double is 0x1.999999999999ap-4 = 0x1999999999999a / 2^56 = 7205759403792794 / 2^56
  //   = 3602879701896397 / 2^55, and 2^55 = 36028797018963968.
  const std::string s = z3support::exact_rational_string(0.1);
  BOOST_TEST(s == "3602879701896397/36028797018963968");
  BOOST_TEST(from_rational(s) == 0.1);
}

BOOST_AUTO_TEST_CASE(exact_real_is_the_decimal_the_user_wrote) {
  // JSON 0.1 parses to the double nearest 1/10; Z3 must reason on 1/10 itself, as the validator (with its 1e-6
  // tolerance) and the integer-grid Gecode backend do. With the dyadic values, 5.8 + 2.6 != 9.7 - 1.3 in exact
  // arithmetic, and Z3 "proved" a tight schedule impossible (offers, seed 3 scaled by 1/10).
  z3::context ctx;
  BOOST_TEST((z3support::exact_real(ctx, 0.1) == ctx.real_val("1/10")).simplify().is_true());
  BOOST_TEST((z3support::exact_real(ctx, 5.8) + z3support::exact_real(ctx, 2.6) ==
              z3support::exact_real(ctx, 9.7) - z3support::exact_real(ctx, 1.3))
                 .simplify()
                 .is_true());
  BOOST_TEST(z3support::shortest_decimal_string(9.7) == "9.7");
  BOOST_TEST(z3support::shortest_decimal_string(-2.5) == "-2.5");
  BOOST_TEST(z3support::shortest_decimal_string(3.0) == "3");
  for (double v : {0.1, 1.0 / 3.0, 1e-5, 123.456, 1e15 + 0.5, 1e-300, 1e300})
    BOOST_TEST(std::stod(z3support::shortest_decimal_string(v)) == v, "value " << v);
}

BOOST_AUTO_TEST_CASE(exact_rational_string_round_trips_to_the_same_double) {
  for (double v : {0.1, 1.0 / 3.0, 1e-5, 123.456, -2.5, 1e15 + 0.5, 7.0 / 1024, 999.999, 1e-300}) {
    const std::string s = z3support::exact_rational_string(v);
    BOOST_TEST(from_rational(s) == v, "value " << v << " -> " << s);
  }
}

BOOST_AUTO_TEST_CASE(exact_rational_string_rejects_non_finite) {
  BOOST_CHECK_THROW(z3support::exact_rational_string(std::numeric_limits<double>::infinity()), std::invalid_argument);
  BOOST_CHECK_THROW(z3support::exact_rational_string(std::nan("")), std::invalid_argument);
}

// The framing of a policy's answers (model/answer_lines.hpp, cli/policy_process.cpp): bytes in pieces of any size,
// lines out in order, the rest pending; a blank line is no answer, CR LF is a line end.
BOOST_AUTO_TEST_CASE(answer_lines_frame_pieces_of_any_size) {
  const std::string bytes = "{\"a\": 1}\r\n\n{\"b\": [2]}\n{\"c";
  for (std::size_t piece = 1; piece <= bytes.size(); ++piece) {
    AnswerLines lines;
    std::vector<std::string> got;
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
      BOOST_TEST(lines.append(std::string_view(bytes).substr(at, piece)));
      while (auto line = lines.next()) got.push_back(*line);
    }
    BOOST_TEST(got == (std::vector<std::string>{"{\"a\": 1}\r", "", "{\"b\": [2]}"}));
    BOOST_TEST(lines.pending() == "{\"c");
  }
  BOOST_TEST(*read_answer("{\"a\": 1}\r", "policy") == (nlohmann::json{{"a", 1}}));
  BOOST_TEST(!read_answer(" \t\r", "policy").has_value());
  BOOST_CHECK_EXCEPTION(read_answer("hello", "policy"), InputError, [](const InputError& e) {
    return contains(e.what(), "policy: the answer \"hello\": not valid JSON");
  });
  AnswerLines limited(4);
  BOOST_TEST(limited.append("abcd"));
  BOOST_TEST(!limited.append("e"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_model
