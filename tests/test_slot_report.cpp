// Suite `slot_report`: the free time slots of a profile (model/time_slots.hpp, paper 002 Fig. 2a) on hand-computed
// profiles (arithmetic in comments), the slot-report validator and properties on reports that must fail, and the
// profile scan against the grid brute force (solver/slot_report_grid.hpp) on generated instances. Source: our own.
#include "counterexamples/builtin.hpp"
#include "counterexamples/slot_report_generator.hpp"
#include "model/slot_report.hpp"
#include "model/time_slots.hpp"
#include "solver/slot_report_grid.hpp"
#include "tests/helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

namespace test_slot_report {

using namespace schedcheck;
using namespace schedcheck::slots;

namespace {

Instance read_text(const std::string& text) { return read_instance(parse_json_text(text, "s.json"), "s.json"); }

std::string dump(const Instance& i) { return write_instance(i).dump(); }

ProcessorSet on(int p, std::initializer_list<int> members) {
  ProcessorSet set(p);
  for (int q : members) set.set(q);
  return set;
}

const TypedProblem<Instance, SlotReport>& problem() {
  static const Registry registry = make_builtin_registry();
  return dynamic_cast<const TypedProblem<Instance, SlotReport>&>(registry.get("slot-report"));
}

PropertyStatus status_of(const Instance& i, const SlotReport& r, const std::string& name) {
  const Verdict verdict = validate(i, r);
  for (const auto& spec : problem().spec().properties)
    if (spec.name == name) {
      const CheckContext<Instance, SlotReport> c{i, r, verdict.objective, nullptr, 0.0, Sense::kMaximise};
      return spec.check(c).status;
    }
  BOOST_FAIL("no property " << name);
  return PropertyStatus::kFails;
}

// P = 4, count model: 2 processors busy over [0, 10), 1 over [5, 15). Free: [0,5) 2, [5,10) 1, [10,15) 3, then 4.
const char* kCount = R"({"kind": "slot-report", "processors": 4, "now": 0,
  "holds": [{"start": 0, "end": 10, "processors": 2}, {"start": 5, "end": 15, "processors": 1}]})";
// The same with identity: {0,1} over [0, 10), {2} over [5, 15). Free: [0,5) {2,3}, [5,10) {3}, [10,15) {0,1,3}, all.
const char* kIdentity = R"({"kind": "slot-report", "processors": 4, "model": "processors", "now": 0,
  "holds": [{"start": 0, "end": 10, "on": "0-1"}, {"start": 5, "end": 15, "on": "2"}]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(slot_report)

BOOST_AUTO_TEST_CASE(count_model_slots_by_hand) {
  const Instance i = read_text(kCount);
  const auto slots = free_time_slots(profile_of(i), i.now, i.horizon);
  // t=0: min(2, 1, 3, 4) = 1 processor free throughout: (0, for ever, 1); left [1, 0, 2, 3]. t=0 again: 1 free, none
  // at t=5: (0, 5, 1). t=10: min(2, 3) = 2 for ever; left [.., 0, 1]. t=15: (15, for ever, 1).
  const std::vector<TimeSlot> expected{{0, kForever, 1, {}}, {0, 5, 1, {}}, {10, kForever, 2, {}}, {15, kForever, 1, {}}};
  BOOST_TEST((slots == expected), write_report(i, SlotReport{slots}).dump());
  const Verdict verdict = validate(i, SlotReport{slots});
  BOOST_TEST(verdict.feasible, verdict.reason);
  // Area before the last hold ends (15): 2*5 + 1*5 + 3*5 = 30.
  BOOST_TEST(verdict.objective == 30.0);
}

BOOST_AUTO_TEST_CASE(identity_slots_by_hand) {
  const Instance i = read_text(kIdentity);
  const auto slots = free_time_slots(profile_of(i), i.now, i.horizon);
  // t=0: {2,3} ∩ {3} ∩ {0,1,3} ∩ all = {3} for ever; then {2} until t=5 ({2} busy there). t=10: {0,1} for ever.
  // t=15: {2} for ever.
  const std::vector<TimeSlot> expected{{0, kForever, 1, on(4, {3})},
                                       {0, 5, 1, on(4, {2})},
                                       {10, kForever, 2, on(4, {0, 1})},
                                       {15, kForever, 1, on(4, {2})}};
  BOOST_TEST((slots == expected), write_report(i, SlotReport{slots}).dump());
  BOOST_TEST(validate(i, SlotReport{slots}).feasible);
  BOOST_TEST((status_of(i, SlotReport{slots}, "slots-complete") == PropertyStatus::kHolds));
  BOOST_TEST((status_of(i, SlotReport{slots}, "open-end-published") == PropertyStatus::kHolds));
}

BOOST_AUTO_TEST_CASE(a_finite_horizon_cuts_the_slots) {
  Instance i = read_text(kCount);
  i.horizon = 12;
  const auto slots = free_time_slots(profile_of(i), i.now, i.horizon);
  // Entries t = 0, 5, 10 (15 is past the horizon): (0, 12, 1), (0, 5, 1), (10, 12, 2).
  const std::vector<TimeSlot> expected{{0, 12, 1, {}}, {0, 5, 1, {}}, {10, 12, 2, {}}};
  BOOST_TEST((slots == expected), write_report(i, SlotReport{slots}).dump());
  BOOST_TEST((status_of(i, SlotReport{slots}, "open-end-published") == PropertyStatus::kNotApplicable));
  // From now = 6: entries 6 ({1} free), 10: (6, 12, 1), (10, 12, 2).
  i.now = 6;
  const std::vector<TimeSlot> later{{6, 12, 1, {}}, {10, 12, 2, {}}};
  BOOST_TEST((free_time_slots(profile_of(i), i.now, i.horizon) == later));
}

BOOST_AUTO_TEST_CASE(wrong_reports_fail_with_the_interval_to_blame) {
  const Instance i = read_text(kIdentity);
  SlotReport report{free_time_slots(profile_of(i), i.now, i.horizon)};
  // Leaving out (0, 5, {2}): processor 2 over [0, 5) is free and unpublished.
  SlotReport missing = report;
  missing.slots.erase(missing.slots.begin() + 1);
  BOOST_TEST(validate(i, missing).feasible);
  BOOST_TEST((status_of(i, missing, "slots-complete") == PropertyStatus::kFails));
  BOOST_TEST(*first_unpublished(i, missing) == "t=0..5: processors 2 free and in no slot");
  // Leaving out (15, for ever, {2}): complete before 15, but the open end lacks a processor.
  SlotReport short_end = report;
  short_end.slots.pop_back();
  BOOST_TEST((status_of(i, short_end, "slots-complete") == PropertyStatus::kHolds));
  BOOST_TEST((status_of(i, short_end, "open-end-published") == PropertyStatus::kFails));
  // (0, 5, {2}) stretched to 6 publishes processor 2 while the second hold uses it.
  SlotReport busy = report;
  busy.slots[1].end = 6;
  const Verdict verdict = validate(i, busy);
  BOOST_TEST(!verdict.feasible);
  BOOST_TEST(verdict.reason.find("processors 2 that are busy") != std::string::npos, verdict.reason);
  // Two slots over one processor-second.
  SlotReport twice = report;
  twice.slots.push_back({1, 2, 1, on(4, {3})});
  BOOST_TEST(!validate(i, twice).feasible);
  // Count model: 2 processors published over [5, 10), where 1 is free.
  const Instance c = read_text(kCount);
  BOOST_TEST(!validate(c, SlotReport{{{5, 10, 2, {}}}}).feasible);
}

BOOST_AUTO_TEST_CASE(bad_instances_are_refused) {
  BOOST_CHECK_THROW(read_text(R"({"kind": "slot-report", "processors": 2, "now": 0,
      "holds": [{"start": 0, "end": 10, "processors": 2}, {"start": 5, "end": 6, "processors": 1}]})"), InputError);
  BOOST_CHECK_THROW(read_text(R"({"kind": "slot-report", "processors": 2, "model": "processors", "now": 0,
      "holds": [{"start": 0, "end": 10, "on": "0"}, {"start": 5, "end": 6, "on": "0"}]})"), InputError);
  BOOST_CHECK_THROW(read_text(R"({"kind": "slot-report", "processors": 2, "now": 10, "horizon": 5})"), InputError);
  BOOST_CHECK_THROW(read_text(R"({"kind": "slot-report", "processors": 2, "now": 0,
      "holds": [{"start": 3, "end": 3, "processors": 1}]})"), InputError);
}

// Differential: the profile scan (model/time_slots.cpp) against the grid brute force, which never builds a profile.
// The instances are small (at most 40 holds, 16 processors), so the grid has at most 81 x 16 cells.
BOOST_AUTO_TEST_CASE(profile_scan_against_the_grid_on_generated_instances) {
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    const Instance i = generate_instance(seed, seed % 41);
    const SlotReport scan{free_time_slots(profile_of(i), i.now, i.horizon)};
    const Verdict verdict = validate(i, scan);
    BOOST_TEST_REQUIRE(verdict.feasible, "profile-scan unsound on " << dump(i) << ": " << verdict.reason);
    const auto grid = solve_grid(i, {});
    BOOST_TEST_REQUIRE((grid.status == ExactStatus::kOptimal));
    BOOST_TEST_REQUIRE(validate(i, *grid.decision).feasible, "grid unsound on " << dump(i));
    BOOST_TEST_REQUIRE(std::abs(verdict.objective - grid.objective) <= 1e-6,
                       "profile-scan " << verdict.objective << " vs grid " << grid.objective << " on " << dump(i));
    BOOST_TEST_REQUIRE(first_unpublished(i, scan)->empty(), "profile-scan incomplete on " << dump(i));
    BOOST_TEST_REQUIRE((status_of(i, scan, "open-end-published") != PropertyStatus::kFails), dump(i));
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_slot_report
