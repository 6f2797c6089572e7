// Provider-side policies of paper 000 section III: the EDF provider scheduler, genOffer with FEEDBACK (after
// Islam et al.), the offer list Phi (steps 1-4), and FreeTimeSlots (III-B, after Singh et al.). No Z3.
// EDF: waiting jobs in (deadline, arrival) order, each at its earliest fitting start on the availability profile,
// BoT tasks one by one; the new job arrives last. Other readings (GenOfferReading): the new job as one rigid job,
// starts strictly in deadline order, Delta truncated. Limits: none beyond memory (prefixes are cached per position).
#pragma once

#include "model/offers.hpp"
#include "model/profile.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::offers {

// Places `tasks` copies of a job (procs processors, runtime) one by one at their earliest starts >= not_before;
// returns the starts. Identical copies are placed in batches: as many as fit at the earliest start (the same
// result as one by one: a copy's earliest start never moves earlier after another copy is placed).
std::vector<double> place_copies(AvailabilityProfile& profile, int procs, double runtime, long long tasks,
                                 double not_before);
// The same, the starts written to `starts` (its old contents replaced, its storage reused).
void place_copies(AvailabilityProfile& profile, int procs, double runtime, long long tasks, double not_before,
                  std::vector<double>& starts);

// EDF's placement of one job of the order (tasks copies of procs x runtime): the earliest fitting starts at or after
// `floor`, the fill cursor skipping the front where fewer than procs processors are ever free; starts to `starts`.
void place_earliest(AvailabilityProfile& profile, FillCursor& fill, double floor, int procs, double runtime,
                    long long tasks, std::vector<double>& starts);

// One EDF run: the schedule, the first job (EDF order) that misses its deadline, and the new tasks' finish.
struct EdfRun {
  Schedule schedule;             // empty when the run stopped at the first late job
  std::string first_late;        // "" when every waiting job meets its deadline
  double new_finish = 0;         // when the new job's tasks finish (now when none)
  bool complete = true;          // false when stopped at the first late job
};

// The EDF scheduler of one provider snapshot, with the schedule prefix (the jobs ahead of a position) cached:
// the prefix before the new job's position does not depend on the new job.
class EdfScheduler {
public:
  // reading.rigid_bot: the new job's k tasks as one rigid k-processor job (k > P: rigid waves of P, then the rest,
  // back to back; ours). reading.strict_order: no job starts before the previous job of the order started.
  explicit EdfScheduler(const Instance& instance, GenOfferReading reading = {});
  const GenOfferReading& reading() const { return reading_; }

  const std::vector<std::size_t>& order() const { return order_; }  // waiting indices in EDF order
  // The new job's position for deadline d: the waiting jobs with deadline <= d go first (the new job arrives last).
  std::size_t position_of(double deadline) const;
  // EDF with `tasks` new tasks of `runtime` at `position` (0..waiting) in the order; tasks = 0: the current queue.
  // stop_at_first_late: stop once a waiting job misses its deadline (complete = false).
  EdfRun run(std::size_t position, long long tasks, double runtime, bool stop_at_first_late = false);
  // The deadline that puts the new job at each reachable position from `deadline` on: (position, interval start,
  // interval end). Interval end is the next larger waiting deadline, kForever for the last position.
  struct PositionInterval {
    std::size_t position;
    double from;
    double until;
  };
  std::vector<PositionInterval> positions_from(double deadline) const;

  // run() in two steps, for searches that keep few of their runs: the run without its schedule (the new job's
  // starts, the first late job, the new job's finish), then, if wanted, the schedule of the last such run.
  struct Tail {
    std::string first_late;
    double new_finish = 0;
    bool complete = true;
    std::vector<double> new_tasks;
  };
  Tail place_tail(std::size_t position, long long tasks, double runtime, bool stop_at_first_late);
  // The schedule of the last place_tail(position, ...) (complete: no stop at a late job).
  Schedule schedule_of(std::size_t position, std::vector<double> new_tasks) const;

private:
  // Where the next placement may start: the profile only fills up as jobs are placed (model/profile.hpp,
  // FillCursor from now). The starts are the same as a scan from now.
  struct Cursor {
    double last_start = 0;        // strict order: the latest start so far (nothing later in the order starts before it)
    FillCursor fill;
  };
  // The state after the jobs ahead of a position. Their starts are the same in every prefix that holds them (EDF
  // places the order's jobs one after another), so they are kept once, in prefix_starts_.
  struct Prefix {
    AvailabilityProfile profile;
    std::string first_late;
    Cursor cursor;
  };
  Prefix root() const;  // nothing placed yet: the running jobs' profile, the cursor at now
  const Prefix& prefix(std::size_t position);
  // Places a job of the order (tasks copies of procs x runtime) from max(now, last_start if strict) on; the starts
  // go to `starts`.
  void place_in_order(AvailabilityProfile& profile, int procs, double runtime, long long tasks, Cursor& cursor,
                      std::vector<double>& starts) const;
  // Places the waiting jobs at order positions [from, to) on `profile`, their starts to `starts` (by waiting index);
  // records the first late one in `first_late` (when it is empty).
  void place_range(AvailabilityProfile& profile, Cursor& cursor, std::string& first_late,
                   std::vector<std::vector<double>>& starts, std::size_t from, std::size_t to,
                   bool stop_at_first_late) const;
  std::vector<double> place_new_job(AvailabilityProfile& profile, long long tasks, double runtime, Cursor& cursor) const;

  const Instance& instance_;
  GenOfferReading reading_;
  std::vector<std::size_t> order_;
  std::map<std::size_t, Prefix> prefixes_;
  std::vector<std::vector<double>> prefix_starts_;  // by waiting index: the starts of every job placed in a prefix
  std::vector<std::vector<double>> tail_starts_;    // by waiting index: the last tail's starts (storage reused)
  bool tail_from_root_ = false;                     // the last tail placed the whole order (no cached prefix)
  Prefix scratch_{AvailabilityProfile(0), "", Cursor{0, FillCursor(0)}};  // the last tail's state (storage reused)
};

// genOffer(k) with FEEDBACK: EDF with the temporary job (k tasks, the BoT's deadline D); if every job meets its
// deadline the offer is (k, D). Otherwise binary search over the new job's positions between D's and the last
// for the earliest feasible one; the quote is max(interval start, the new job's completion) there.
// Relies on feasibility being monotone in the position (see feedback_feasibility, property
// feedback-monotone-assumption). Throws std::logic_error when even the last position fails (the accepted work is
// not EDF-feasible; the offers reader excludes that). Under reading.strict_order the accepted work (admitted by the
// backfilling EDF) can be late even then: the last position is offered anyway and the validator reports it.
CountOffer gen_offer(EdfScheduler& edf, const Instance& instance, long long tasks);
// The same, nullopt where gen_offer throws (an online provider whose accepted work EDF cannot re-plan: list
// scheduling is not monotone, so a plan that kept every deadline can be lost by re-running EDF later).
std::optional<CountOffer> gen_offer_if_edf_feasible(EdfScheduler& edf, const Instance& instance, long long tasks);
// Feasibility of every reachable position for k tasks, in order (for the linear scan that checks monotonicity).
struct PositionFeasibility {
  EdfScheduler::PositionInterval interval;
  bool feasible = false;
  double quote = 0;  // max(interval start, completion) when feasible
};
std::vector<PositionFeasibility> feedback_feasibility(EdfScheduler& edf, const Instance& instance, long long tasks);

// The offer list Phi: genOffer for every Delta count, smallest first, merged (step 4), under `reading`.
OfferList edf_offers(const Instance& instance, GenOfferReading reading = {});
// The provider's published free time slots: per-processor windows of the current EDF schedule (no new BoT),
// from now, over the whole queue; processors assigned at each start lowest-numbered-free first; equal windows
// grouped into one FreeSlot. The last window of each processor is open-ended (end = kForever).
std::vector<FreeSlot> free_time_slots(const Instance& instance, const Schedule& current);
// FreeTimeSlots offers: the k earliest task finishes inside the published slots, no rescheduling; quote
// max(D, the k-th finish).
OfferList free_time_slot_offers(const Instance& instance);

// deadline-feasibility by EDF: a schedule when EDF meets every deadline, else kNotFound naming the first late job.
FeasibilityAnswer edf_feasibility(const Instance& instance);
// "" when EDF schedules the accepted work alone within every deadline, else a sentence naming the late job.
std::string edf_accepted_work_violation(const Instance& instance);

}  // namespace schedcheck::offers
