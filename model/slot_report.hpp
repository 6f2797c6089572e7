// The `slot-report` problem: a provider's availability profile (P processors, the holds of its running jobs,
// planned starts and reservations, with or without processor identity), a time `now` and a planning horizon, and
// the free time slots it publishes (paper 002 sec. 4, Fig. 2a). A report is sound when nothing it publishes is busy
// and no two slots share a processor-second, complete when every free processor-second before the horizon is in it.
// Our own formulation; times in seconds.
#pragma once

#include "model/input.hpp"
#include "model/profile.hpp"
#include "model/time_slots.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace schedcheck::slots {

inline constexpr const char* kInstanceKind = "slot-report";
inline constexpr long long kMaxProcessors = 4096;
inline constexpr double kMaxMagnitude = 1e12;

// Processors busy over [start, end): a count, or with processor identity the set `on`.
struct Hold {
  double start = 0, end = 0;
  int processors = 0;
  ProcessorSet on;
};

struct Instance {
  std::string name;
  int processors = 0;
  bool identity = false;      // "model": "processors" (which processors) or "count"
  double now = 0;
  double horizon = kForever;  // "horizon": null for every slot
  std::vector<Hold> holds;    // never more than P at once (with identity: never one processor twice)
};

struct SlotReport {
  std::vector<TimeSlot> slots;
};

Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
nlohmann::json write_report(const Instance& instance, const SlotReport& report);
// A report of a policy outside C++, in write_report's format: {"slots": [{"start", "end" (null: for ever),
// "processors", "on" (the processors model: "0-3,7")}]}. Throws InputError (`where`, field).
SlotReport read_report(const Instance& instance, const nlohmann::json& document, const std::string& where);

// The holds and slot lists of every file that gives them (slot-report, gateway-choice), read and written one way:
// holds in time order of reading, each checked against the earlier ones (never more than P at once, with identity
// never one processor twice); slots with "end" null or absent for a slot open for ever. Throw InputError.
std::vector<Hold> read_holds(const Field& holds, int processors, bool identity);
nlohmann::json write_holds(const std::vector<Hold>& holds, bool identity);
std::vector<TimeSlot> read_slots(const Field& slots, int processors, bool identity);
nlohmann::json write_slots(const std::vector<TimeSlot>& slots, bool identity);
// A profile of `processors` holding `holds`.
AvailabilityProfile profile_of(int processors, bool identity, const std::vector<Hold>& holds);

// The instance's holds on a profile (the provider's view).
AvailabilityProfile profile_of(const Instance& instance);
// Where the measured free area ends: the horizon, or with an infinite horizon the last instant any hold ends (after
// it every processor is free for ever, which the property `open-end-published` checks).
double measure_end(const Instance& instance);
// Processor-seconds a report publishes over [now, measure_end).
double published_area(const Instance& instance, const SlotReport& report);

// Sound: every slot lies in [now, horizon) with start < end and at least one processor (with identity: `on` of that
// many processors of the machine), over no busy processor, and no two slots overlap. The objective recomputed: the
// processor-seconds published before measure_end.
Verdict validate(const Instance& instance, const SlotReport& report);

}  // namespace schedcheck::slots
