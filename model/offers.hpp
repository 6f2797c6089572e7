// A resource provider's accepted work and a new Bag-of-Tasks: the formal model of offer generation (value types,
// reader/writer, schedule validity, offer lists, the deadline-feasibility answer). Paper 000 (offer-based
// scheduling of deadline-constrained BoTs) section III-A; space-shared, non-preemptive. Times are absolute seconds.
// Two problems read this instance kind: `offers` (the new BoT is required) and `deadline-feasibility` (ignored).
#pragma once

#include "model/input.hpp"
#include "model/offer.hpp"
#include "model/profile.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace schedcheck::offers {

inline constexpr const char* kInstanceKind = "provider-offers";
inline constexpr long long kMaxProcessors = 1'000'000;
inline constexpr long long kMaxTasks = 1'000'000;     // tasks of one BoT (part)
inline constexpr double kMaxMagnitude = 1e12;         // times and runtimes
// Delta of paper 000 III-A step 1: the shares of the BoT size the provider offers for, as published.
inline constexpr double kDeltaShares[] = {1.0, 0.75, 0.5, 0.25, 0.10};

// Started before now; holds `procs` processors until now + remaining (0: it ends at now, as a job whose end event
// comes at the decision instant does, and holds nothing that a start at or after now could use).
struct RunningJob {
  std::string id;
  int procs = 0;
  double remaining = 0;
};

enum class JobType { kLocal, kBotPart };

// Accepted, waiting work. A local job is rigid parallel (procs processors for runtime); a BoT part is `tasks`
// independent single-processor tasks of `runtime` each, sharing one deadline.
struct WaitingJob {
  std::string id;
  JobType type = JobType::kLocal;
  int procs = 1;          // local: processors; BoT part: 1 (per task)
  double runtime = 0;     // local: runtime estimate; BoT part: each task's runtime
  long long tasks = 1;    // local: 1; BoT part: k
  double deadline = 0;    // absolute
};

struct NewBot {              // the BoT the metascheduler asks about (paper: BoT_n tasks, estimate, deadline)
  std::string id;
  long long tasks = 0;
  double task_runtime = 0;
  double deadline = 0;       // absolute
};

struct Instance {
  std::string name;
  int processors = 0;              // P
  double now = 0;                  // the current time: nothing new starts before it
  std::vector<RunningJob> running;
  std::vector<WaitingJob> waiting; // in arrival order (EDF breaks deadline ties by it)
  std::optional<NewBot> bot;       // required by `offers`, ignored by `deadline-feasibility`
};

// A start time for every task: starts[i] has waiting[i].tasks entries; new_tasks one per task of the new BoT.
struct Schedule {
  std::vector<std::vector<double>> starts;
  std::vector<double> new_tasks;
};

// One Delta count: the offer for `tasks` tasks and the schedule that keeps it.
struct CountOffer {
  long long tasks = 0;
  double completion = 0;   // quoted completion time: the BoT deadline if met, else later (FEEDBACK)
  Schedule schedule;
  bool feedback = false;   // the BoT deadline could not be met, `completion` came from FEEDBACK
  long long position = -1; // EDF: waiting jobs ahead of the new one in the EDF order; -1 when not EDF
};

// Readings of III-A the paper leaves open (docs/policies.md, "Readings"); the default is all false / half away.
// Delta: step 1's "0.75 * BoTn" as a whole number of tasks: rounded half away from zero, or truncated.
enum class DeltaRounding { kHalfAwayFromZero, kTruncate };
struct GenOfferReading {
  DeltaRounding delta = DeltaRounding::kHalfAwayFromZero;
  bool rigid_bot = false;     // the temporary job j_k as one rigid k-processor job (else k 1-processor tasks)
  bool strict_order = false;  // EDF starts jobs in deadline order (else each at its earliest start: backfilling)
};

struct OfferList {
  GenOfferReading reading;            // the reading the policy implements (validator and properties follow it)
  std::vector<CountOffer> per_count;  // one per Delta count of reading.delta, ascending
  std::vector<Offer> staircase;       // the list Phi after merging (step 4)
  std::vector<FreeSlot> published;    // free-time-slots: what the provider published; else empty
};

enum class Feasibility { kSchedule, kNotFound };

// deadline-feasibility: a schedule meeting every deadline, or a heuristic's failed attempt (kNotFound: claims
// nothing). A proof that no schedule exists is no decision: an exact method answers status `infeasible` with a core
// of job ids (solver/result.hpp ExactResult::core).
struct FeasibilityAnswer {
  Feasibility answer = Feasibility::kNotFound;
  Schedule schedule;              // kSchedule: meets every deadline; kNotFound: the attempt
  std::string missed;             // kNotFound: a job the attempt finishes late
};

// ---- semantics ----
// The Delta counts for a BoT of n tasks: share x n rounded half away from zero (default) or truncated, at least 1,
// duplicates removed, ascending (the order offers are generated in, step 4).
std::vector<long long> delta_counts(long long bot_tasks,
                                    DeltaRounding rounding = DeltaRounding::kHalfAwayFromZero);
// The non-default readings of `reading`, e.g. "delta truncated, rigid BoT"; "" for the default.
std::string reading_name(const GenOfferReading& reading);
// Step 4: from the smallest count up, an equal completion (within kTimeTolerance) raises the previous offer's
// count, a later one is appended; an earlier one (an anomaly) drops the previous offers it dominates.
std::vector<Offer> merge_offers(const std::vector<CountOffer>& per_count);
// The running jobs reserved on [now, now + remaining).
AvailabilityProfile running_profile(const Instance& instance);
// When the new BoT's tasks in `schedule` finish (now when there are none).
double new_tasks_finish(const Instance& instance, const Schedule& schedule);
double work(const WaitingJob& job);  // processor-seconds

// ---- the parts of a valid schedule, each "" or a sentence naming the first violation ----
std::string schedule_shape_violation(const Instance& instance, const Schedule& schedule, long long new_tasks);
std::string capacity_violation(const Instance& instance, const Schedule& schedule);      // <= P at every instant
std::string accepted_deadline_violation(const Instance& instance, const Schedule& schedule);  // starts >= now, deadlines
// All three: the one definition of a feasible schedule with `new_tasks` tasks of the new BoT.
std::string schedule_violation(const Instance& instance, const Schedule& schedule, long long new_tasks);

// ---- offers ----
std::string offer_list_violation(const Instance& instance, const OfferList& offers);  // shape, schedules, quotes, merge
double offers_objective(const Instance& instance, const OfferList& offers);  // sum over counts of (completion - now)
Verdict validate_offers(const Instance& instance, const OfferList& offers);

// ---- deadline-feasibility ----
// kSchedule: the schedule is valid; kNotFound: the attempt respects capacity and `missed` is late in it.
// Objective: 1 when a schedule.
Verdict validate_feasibility(const Instance& instance, const FeasibilityAnswer& answer);

// ---- reader / writer (format: docs/formats.md) ----
// Throws InputError naming the file and field. `require_bot`: the `bot` member must be present.
Instance read_instance(const nlohmann::json& document, const std::string& file, bool require_bot);
nlohmann::json write_instance(const Instance& instance);
nlohmann::json write_schedule(const Instance& instance, const Schedule& schedule);
nlohmann::json write_offer_list(const Instance& instance, const OfferList& offers);
nlohmann::json write_feasibility(const Instance& instance, const FeasibilityAnswer& answer);
// Decisions of policies outside C++ (docs/protocol.md), in the formats above; descriptive members (summary, finish)
// are ignored. A schedule gives every waiting job: a number (a local job's start) or waves [{"start", "tasks"}]
// adding up to at most the job's tasks; the BoT's id its new tasks. Throws InputError naming `where` and the field.
OfferList read_offer_list(const Instance& instance, const nlohmann::json& document, const std::string& where);
FeasibilityAnswer read_feasibility(const Instance& instance, const nlohmann::json& document, const std::string& where);
// "" when an infeasibility core is non-empty, without duplicates, and names waiting jobs; else the first problem.
std::string core_shape_violation(const Instance& instance, const std::vector<std::string>& core);
std::size_t waiting_index(const Instance& instance, const std::string& id);  // waiting.size() when unknown

}  // namespace schedcheck::offers
