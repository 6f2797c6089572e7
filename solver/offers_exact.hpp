// Exact answers for a provider's offers without Z3 (paper 000 section III-A's question, answered exactly):
// the earliest completion of k new tasks keeping every accepted deadline, the exact offer list, and deadline
// feasibility, by serial schedule generation over all sequences (solver/serial_search.hpp). Our own.
// Limits: earliest completion stops after kSequenceMaxNodes search nodes or the time limit (then: best found);
// feasibility and core checks need at most kSequenceMaxSequences sequences (multiset permutations), else unknown.
#pragma once

#include "model/offers.hpp"
#include "solver/result.hpp"
#include "solver/serial_search.hpp"

#include <optional>
#include <string>
#include <vector>

namespace schedcheck::offers {

inline constexpr double kSequenceMaxSequences = 300'000;
inline constexpr std::size_t kSequenceMaxNodes = 2'000'000;

// The earliest completion of `tasks` new tasks with every accepted deadline kept, and a schedule realising it.
struct Completion {
  ExactStatus status = ExactStatus::kUnknown;
  double finish = 0;
  std::optional<Schedule> schedule;
  std::string detail;
  bool interrupted = false;  // as ExactResult::interrupted (solver/result.hpp)
};

// The SGS view of an instance: the waiting jobs (index i), then the new BoT's tasks (index waiting.size(),
// no deadline of their own) when tasks > 0.
std::vector<SerialJob> serial_jobs(const Instance& instance, long long new_tasks);
Schedule schedule_from(const Instance& instance, const std::vector<SerialPlacement>& placed);
// Serial generation in deadline order (ties by arrival) with the new tasks last, and with them first; the one
// that meets every deadline and ends the new tasks earlier: the starting upper bound of the exact searches.
std::optional<Schedule> deadline_order_schedule(const Instance& instance, long long new_tasks);
// Serial generation in the order of the given schedule's starts: no task starts later than in `schedule`
// (the left shift that makes an active schedule), so the completion never grows.
std::optional<Schedule> left_shift(const Instance& instance, const Schedule& schedule);

// Stops at kSequenceMaxNodes nodes or at the time limit, whichever comes first (then: best found, not proven).
Completion earliest_completion_sequences(const Instance& instance, long long tasks, double lower_bound,
                                         const SolveOptions& options);

// The exact offer list: for each Delta count k, c*(k) by `earliest`, quoted max(D, c*(k)) (an offer that meets
// the BoT deadline quotes it). Optimal when every count is proven. c*(k) of the previous count is passed as a
// lower bound (more tasks never complete earlier).
using EarliestFn = std::function<Completion(const Instance&, long long tasks, double lower_bound)>;
ExactResult<OfferList> exact_offers(const Instance& instance, const EarliestFn& earliest);

// deadline-feasibility by sequences: a schedule, or kInfeasible with a core minimised by deletion.
ExactResult<FeasibilityAnswer> feasibility_sequences(const Instance& instance);
// Checks an infeasibility core independently: "" when the core jobs (with the running jobs) indeed cannot all
// meet their deadlines, a sentence when they can, nullopt when the core is over the sequence limit.
std::optional<std::string> core_refutation(const Instance& instance, const std::vector<std::string>& core);

}  // namespace schedcheck::offers
