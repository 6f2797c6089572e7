// A queue window: a snapshot of one cluster (now, P, running jobs with their remaining estimated time, the first
// waiting jobs with submit time, processors and estimate) and the schedule of the waiting jobs, count model,
// estimates taken as exact, no further arrivals. Objectives named in the instance: the sum of bounded slowdowns
// (bound 10 s, paper 002 sec. 5), the sum of waits, or the makespan measured from now. Our own formulation; every
// objective is regular (never better when a job starts later), so active schedules contain an optimum.
#pragma once

#include "model/input.hpp"
#include "model/profile.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace schedcheck::window {

inline constexpr const char* kInstanceKind = "queue-window";
inline constexpr long long kMaxProcessors = 1'000'000;
inline constexpr double kMaxMagnitude = 1e12;

enum class Objective { kBoundedSlowdown, kWait, kMakespan };
const char* to_string(Objective objective);

struct RunningJob {
  std::string id;
  int procs = 1;
  double remaining = 0;  // estimated time left from now
};

struct WaitingJob {
  std::string id;
  double submit = 0;     // <= now
  int procs = 1;
  double estimate = 0;   // taken as its exact run time
};

struct Instance {
  std::string name;
  double now = 0;
  int processors = 0;
  std::vector<RunningJob> running;
  std::vector<WaitingJob> waiting;  // in queue (submit) order
  Objective objective = Objective::kBoundedSlowdown;
};

struct Schedule {
  std::vector<double> start;  // one per waiting job
};

Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
nlohmann::json write_schedule(const Instance& instance, const Schedule& schedule);
// The decision of a policy outside C++ (docs/protocol.md), in write_schedule's format: {"start": {waiting job id:
// absolute start time}} for every waiting job ("summary" ignored). Throws InputError (`where`, field).
Schedule read_schedule(const Instance& instance, const nlohmann::json& document, const std::string& where);

// The running jobs on a profile of P processors from now on.
AvailabilityProfile running_profile(const Instance& instance);
// One job's share of the objective when it starts at `start` (makespan: its end, measured from now).
double job_cost(const Instance& instance, std::size_t job, double start);
// Adds one job's cost to a running total of the instance's objective (makespan: their maximum, else their sum).
double combine_costs(const Instance& instance, double total, double cost);
// The objective of a complete schedule (sum of job costs; makespan: their maximum, 0 without waiting jobs).
double objective(const Instance& instance, const Schedule& schedule);

// Every waiting job starts once, not before now, and the running and waiting jobs never use more than P
// processors at once; the objective recomputed.
Verdict validate(const Instance& instance, const Schedule& schedule);

}  // namespace schedcheck::window
