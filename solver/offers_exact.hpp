// Exact answers for a provider's offers without Z3 (paper 000 section III-A's question, answered exactly):
// the earliest completion of k new tasks keeping every accepted deadline, the exact offer list, and deadline
// feasibility, by serial schedule generation over all sequences (solver/serial_search.hpp). Our own.
// Limits: earliest completion stops after kSequenceMaxNodes search nodes, the effort budget or the time limit (then:
// best found);
// feasibility and core checks need at most kSequenceMaxSequences sequences (multiset permutations), else unknown.
#pragma once

#include "model/offers.hpp"
#include "solver/result.hpp"
#include "solver/serial_search.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
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

// The first precondition of every exact method asked for new tasks: the instance has a new BoT to take them from.
// "no new BoT" when `new_tasks` > 0 and it has none, else "" (also when no new tasks are asked for).
std::string new_bot_missing(const Instance& instance, long long new_tasks);

// The SGS view of an instance: the waiting jobs (index i), then the new BoT's tasks (index waiting.size(),
// no deadline of their own) when tasks > 0.
std::vector<SerialJob> serial_jobs(const Instance& instance, long long new_tasks);
Schedule schedule_from(const Instance& instance, const std::vector<SerialPlacement>& placed);
// Serial generation in deadline order (ties by arrival) with the new tasks at each position of it (last, ...,
// first; at most 64 positions); of those that meet every deadline, the one that ends the new tasks earliest: the
// starting upper bound of the exact searches.
// `until`: no further position is tried once it has passed or a stop was requested, and a schedule under way is
// given up (each is a serial schedule of the whole queue: 66 of them took 1.6 s at 10,000 waiting jobs, one about
// 1 s at 40,000), the first (the new tasks last) 250 ms after `until`; nullopt when not even that one finished.
std::optional<Schedule> deadline_order_schedule(
    const Instance& instance, long long new_tasks,
    std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max());
// Serial generation in the order of the given schedule's starts: no task starts later than in `schedule`
// (the left shift that makes an active schedule), so the completion never grows.
std::optional<Schedule> left_shift(const Instance& instance, const Schedule& schedule);

// The coarsest time grid, in units per second (1, 10, 100 or 1000), on which now, every running job's remaining time,
// the runtimes of the given waiting jobs (and of the new BoT when new_tasks > 0) and every deadline that can bind
// (before now + the longest running job + all the work) lie exactly; 0 when there is none. x is on the grid of 1/s
// when round(x s)/s is the double x itself. With data on a grid, every active schedule's starts lie on it (they are
// sums of these numbers), so an optimal completion is a grid point and "no schedule one grid step earlier" is a proof.
long long time_grid(const Instance& instance, const std::vector<std::size_t>& jobs, long long new_tasks);
// Every active schedule of the given waiting jobs (and `new_tasks` new tasks) ends by now + this: the longest running
// job's remaining time plus every task's runtime (serial generation leaves no gap longer than that), in seconds.
double active_span(const Instance& instance, const std::vector<std::size_t>& jobs, long long new_tasks);
std::vector<std::size_t> all_jobs(const Instance& instance);  // 0 .. waiting.size() - 1

// The best schedule of one count so far: the one finishing its new tasks earliest goes into `into`.schedule.
class EarliestSchedule {
 public:
  EarliestSchedule(const Instance& instance, Completion& into) : instance_(instance), into_(into) {}
  void consider(std::optional<Schedule> schedule);
  double finish() const { return finish_; }  // kForever: none yet
 private:
  const Instance& instance_;
  Completion& into_;
  double finish_ = kForever;
};
// The first point at or after x of the grid of `scale` units a second that starts at now (within 1e-6 units).
double grid_point_at_or_after(const Instance& instance, double scale, double x);

// Stops at kSequenceMaxNodes nodes, the effort budget (a node a unit) or the time limit, whichever comes first (then:
// best found, not proven).
Completion earliest_completion_sequences(const Instance& instance, long long tasks, double lower_bound,
                                         const SolveOptions& options);

// The exact offer list: for each Delta count k, c*(k) by `earliest`, quoted max(D, c*(k)) (an offer that meets
// the BoT deadline quotes it). Optimal when every count is proven. c*(k) of the previous count is passed as a
// lower bound (more tasks never complete earlier).
using EarliestFn = std::function<Completion(const Instance&, long long tasks, double lower_bound)>;
ExactResult<OfferList> exact_offers(const Instance& instance, const EarliestFn& earliest);
// The same under one time limit for the whole list: each Delta count gets what is left of it.
using EarliestWithinFn =
    std::function<Completion(const Instance&, long long tasks, double lower_bound, const SolveOptions&)>;
ExactResult<OfferList> exact_offers_within(const Instance& instance, const SolveOptions& options,
                                           const EarliestWithinFn& earliest);

// The exact offer list within one time limit, the counts sharing bounds: c* never decreases with k, and a schedule
// for more tasks, less its latest new tasks, is one for fewer; so the smallest and largest counts are solved first
// and a count between two equal proven quotes needs no search. Only the quote max(D, c*) matters: each count's
// lower bound is at least D. `earliest(tasks, lower, upper, options)`: c*(tasks) from a proven `lower`, with `upper`
// valid schedules of that count (the incumbents' offers, larger counts' schedules less their latest new tasks).
// phase_seconds: one per count solved.
using EarliestFromFn = std::function<Completion(long long tasks, double lower, const std::vector<Schedule>& upper,
                                                const SolveOptions& options)>;
ExactResult<OfferList> exact_offers_sharing(const Instance& instance, const SolveOptions& options,
                                            const std::vector<OfferList>& incumbents, const EarliestFromFn& earliest);
// The schedule with only the `tasks` earliest new tasks (a schedule for fewer tasks; its finish never grows).
Schedule fewer_new_tasks(Schedule schedule, long long tasks);

// The instance with only the listed waiting jobs (and the running jobs), without the new BoT.
Instance with_waiting(const Instance& instance, const std::vector<std::size_t>& keep);

// Shrinking an infeasibility core, shared by the deadline-feasibility methods. `test(keep)` answers whether the
// listed waiting jobs cannot all meet their deadlines (kInfeasible), can (kFeasible), or ran out of its budget.
enum class CoreTest { kInfeasible, kFeasible, kStopped };
struct Core {
  std::vector<std::size_t> jobs;  // waiting indices: in the instance's order when minimal
  bool minimal = false;           // deletion finished: no job can be left out
};
// The decision comes first; minimising its core then gets its own budget: a tenth of the time limit, at most 1 s
// (and never past the limit). A core not minimised within it is returned as it is, with core_minimal = false.
inline constexpr double kCoreBudgetShare = 0.1;
inline constexpr unsigned kCoreBudgetMaxMs = 1000;
unsigned core_budget_ms(const SolveOptions& options);  // min(limit x kCoreBudgetShare, kCoreBudgetMaxMs), >= 1 ms
// From an infeasible set `jobs`: the shortest infeasible prefix of the set in deadline order (binary search: a
// superset of an infeasible set is infeasible), then deletion (a job whose removal leaves the rest infeasible is
// dropped; the prefix's last job is needed by construction). The first kStopped ends the shrinking: the set so far
// (infeasible) is returned with minimal = false.
Core minimise_core(const Instance& instance, std::vector<std::size_t> jobs,
                   const std::function<CoreTest(const std::vector<std::size_t>& keep)>& test);

// The two proven answers of a deadline-feasibility method: optimal with a schedule meeting every deadline
// (objective 1), or infeasible with a core (waiting indices mapped to ids) and why.
void set_schedulable(ExactResult<FeasibilityAnswer>& result, Schedule schedule);
void set_infeasible(ExactResult<FeasibilityAnswer>& result, const Instance& instance, const Core& core,
                    std::string detail);

// The shape of a deadline-feasibility method: the decision (`decide`: kFeasible with a schedule of every job,
// kInfeasible, or kStopped with why), then, when infeasible, the core: `first_core()` (every job, or what the proof
// used) shrunk by `test` within core_budget_ms. `proof` names the method's proof in the detail ("bnb: search space
// exhausted"). Phases "decision" and "core". Each call gets its effort budget: the decision options.effort, each
// test core_effort(options) (solver/result.hpp; 0: none).
struct FeasibilityDecision {
  CoreTest outcome = CoreTest::kStopped;
  std::optional<Schedule> schedule;  // kFeasible
  std::string detail;                // kStopped: why
};
ExactResult<FeasibilityAnswer> decide_then_core(
    const Instance& instance, const SolveOptions& options, const std::string& proof,
    const std::function<FeasibilityDecision(std::chrono::steady_clock::time_point until, std::uint64_t effort)>& decide,
    const std::function<std::vector<std::size_t>()>& first_core,
    const std::function<CoreTest(const std::vector<std::size_t>& keep, std::chrono::steady_clock::time_point until,
                                 std::uint64_t effort)>& test);

// deadline-feasibility by sequences: a schedule, or infeasible with a deletion-minimal core (no time limit: the
// sequence limit bounds the work).
ExactResult<FeasibilityAnswer> feasibility_sequences(const Instance& instance);
// Checks an infeasibility core independently: "" when the core jobs (with the running jobs) indeed cannot all
// meet their deadlines, a sentence when they can, nullopt when the core is over the sequence limit.
std::optional<std::string> core_refutation(const Instance& instance, const std::vector<std::string>& core);

}  // namespace schedcheck::offers
