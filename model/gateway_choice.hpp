// The `gateway-choice` problem: an InterGrid gateway's choice of provider for one job (paper 002 sec. 4, "Earliest
// start time": "the scheduler is given the provider's availability information and the job"). The instance holds each
// provider's true availability profile (its holds) and, where the gateway's information is stale, the free time slots
// it last published; the decision is a provider and a start. Our own formulation; times in seconds.
#pragma once

#include "model/slot_report.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace schedcheck::gateway {

inline constexpr const char* kInstanceKind = "gateway-choice";
inline constexpr std::size_t kMaxProviders = 64;

struct Provider {
  std::string name;
  int processors = 0;
  std::vector<slots::Hold> holds;                    // its true profile at `now`
  std::optional<std::vector<TimeSlot>> published;    // what the gateway last heard; nullopt: fresh (the profile's slots now)
};

struct Instance {
  std::string name;
  bool identity = false;  // "model": "processors" or "count", every provider alike
  double now = 0;
  int procs = 1;          // the job: processors
  double duration = 0;    // ... and its estimate, > 0
  std::vector<Provider> providers;
};

struct Choice {
  std::size_t provider = 0;  // index into providers
  double start = 0;
};

Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
nlohmann::json write_choice(const Instance& instance, const Choice& choice);
// A choice of a policy outside C++: {"provider": NAME, "start": T}. Throws InputError (`where`, field).
Choice read_choice(const Instance& instance, const nlohmann::json& document, const std::string& where);

// Provider p's true profile, and the free time slots it would publish now (infinite horizon, model/time_slots.hpp).
AvailabilityProfile true_profile(const Instance& instance, std::size_t p);
std::vector<TimeSlot> fresh_slots(const Instance& instance, std::size_t p);
// What the gateway knows of provider p: its published slots, or the fresh ones.
std::vector<TimeSlot> known_slots(const Instance& instance, std::size_t p);

// Feasible: a provider of the instance, a start at or after now, and the job's processors free over
// [start, start + duration) on that provider's true profile (with identity on some common set). Objective: the start.
Verdict validate(const Instance& instance, const Choice& choice);

}  // namespace schedcheck::gateway
