// Offer composition at the metascheduler: the formal model (BoT, providers with offer staircases and free slots,
// the composition decision, its validator and the metrics). Paper 000 section IV (composition), section V (Eq. V.1
// Total Weighted Delay, clusters per BoT). Limits: tasks <= kMaxTasks, times finite and <= kMaxTime.
#pragma once

#include "model/input.hpp"
#include "model/offer.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace schedcheck::compose {

inline constexpr const char* kInstanceKind = "bot-offers";
// Exact products n x offer size (each up to kMaxTasks) in proportional splits.
__extension__ typedef __int128 WideInt;
inline constexpr long long kMaxTasks = 1'000'000'000;
inline constexpr double kMaxTime = 1e12;

struct Bot {                   // the Bag-of-Tasks the metascheduler places (paper: BoTn, deadline, submit time)
  long long tasks = 0;         // n = BoTSize
  double deadline = 0;         // D, absolute time
  double submit = 0;           // T_submit (Eq. V.1: T^s_j), absolute time, < D
  double task_runtime = 0;     // estimated execution time of one task; 0 = not given (only free-time-slots needs it)
};

struct Provider {              // a resource provider (cluster)
  std::string id;
  int processors = 1;          // total computing power (OffersWithDPLB, Algorithm 1 line 5)
  double load = 0;             // load to be processed (OffersWithDPLBV2, section V)
  std::vector<Offer> offers;   // the offer list Phi, a staircase (model/offer.hpp)
  std::vector<FreeSlot> free_slots;  // published free time slots (FreeTimeSlots, section III-B); may be empty
};

struct Instance {
  std::string name;
  Bot bot;
  std::vector<Provider> providers;
};

// Where a provider's tasks come from: one of its offers (index >= 0), its free slots, or nothing.
inline constexpr int kUnused = -1;
inline constexpr int kFromFreeSlots = -2;

struct Part {                  // what one provider gets
  long long tasks = 0;
  int offer = kUnused;         // index into Provider::offers, or kUnused / kFromFreeSlots
  double completion = 0;       // when this provider completes its tasks (the offer's completion time)
};

struct Composition {           // the decision: one part per provider, in provider order
  std::vector<Part> parts;
};

// ---- semantics ----
long long assigned_tasks(const Composition& composition);
std::size_t providers_used(const Composition& composition);         // clusters per BoT (section V metric 4)
// The BoT completion time: the latest completion among providers that got tasks (submit time when none did).
double bot_completion(const Instance& instance, const Composition& composition);
// Eq. V.1, the BoT's term: R ((D_new - T_s) / (D - T_s) - 1) 100 when D_new > D, else 0 (R = n).
double twdelay_term(const Bot& bot, double completion);
// Our tie-breaker: the same formula per provider part (R = its tasks, D_new = its completion), summed.
double parts_weighted_delay(const Instance& instance, const Composition& composition);
// Largest share tasks / size-of-the-offer-used over the offer-based parts (0 when there are none).
double largest_share(const Instance& instance, const Composition& composition);
// Earliest time by which `tasks` tasks of runtime `runtime` can all complete in the provider's free slots, no
// task starting before `not_before` (each processor of a slot runs tasks back to back); nullopt if they do not fit.
std::optional<double> slot_completion(const Provider& provider, double runtime, double not_before, long long tasks);
// Index of the provider's largest offer completing by `time`, or kUnused.
int largest_offer_by(const Provider& provider, double time);
// The per-side metrics shown by `check`: completion, delay beyond D, TWDelay term, clusters used.
nlohmann::json metrics(const Instance& instance, const Composition& composition);

// ---- the parts of feasibility: "" when it holds, else a sentence naming the first violation ----
std::string shape_violation(const Instance& instance, const Composition& composition);          // one part per provider
std::string conservation_violation(const Instance& instance, const Composition& composition);   // exactly n tasks
std::string offer_violation(const Instance& instance, const Composition& composition);          // within the offer / slots
std::string empty_assignment_violation(const Instance& instance, const Composition& composition);  // no 0-task offer

// The one definition of a feasible composition; objective = the BoT completion time (minimised).
Verdict validate(const Instance& instance, const Composition& composition);

// ---- reader / writer (format: docs/formats.md) ----
Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
// {"assigned": [{provider, tasks, offer, from, completion}...], "summary": "(320,100)p1 (128,40)p2"}
nlohmann::json write_composition(const Instance& instance, const Composition& composition);
// The decision of a policy outside C++ (docs/protocol.md), in write_composition's format: {"assigned": [{"provider":
// id, "tasks": k, "offer": index into its offers or null, "from": "offer" | "free-slots" | "none", "completion": t}]}
// ("summary" ignored). Each provider at most once; unlisted providers get nothing. Throws InputError (`where`, field).
Composition read_composition(const Instance& instance, const nlohmann::json& document, const std::string& where);

}  // namespace schedcheck::compose
