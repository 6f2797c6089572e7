// The availability profile: free processors of a space-shared machine as a step function of time, optionally
// with the identity of the free processors (a set a step: the `processors` resource model, as in GridSim's
// profile of free processor ranges). Our own (the usual conservative-backfilling profile of Mu'alem & Feitelson,
// cf. paper 002 "availability profile"). Exact on the times it is given; breakpoints closer than kTimeTolerance
// are one breakpoint; adjacent equal steps are merged. The steps are kept in blocks of at most 32 with each block's
// fewest and most free: an insert or erase moves one block, and queries, linear in the steps they cross, skip
// whole blocks where the counts settle the answer. With identity each step's set lives in a slot of one pool, so an
// insert, an erase or a block split moves slot numbers, never sets; each block also keeps the processors free at all
// of its steps, so that the processors free over a window cost one AND a whole block it covers.
#pragma once

#include "model/processor_set.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace schedcheck {

// Times are seconds; breakpoints within this distance are treated as the same instant, so that a
// rational start time from an exact solver, rounded to a double, does not create a phantom overlap.
inline constexpr double kTimeTolerance = 1e-6;
inline constexpr double kForever = std::numeric_limits<double>::infinity();

class AvailabilityProfile {
public:
  struct Step {
    double time;     // from this time ...
    int free;        // ... until the next step's time, this many processors are free (may be < 0: over-used)
  };
  // A window found for a job: when, and (with processor identity) on which processors.
  struct Slot {
    double start = 0;
    ProcessorSet processors;  // empty without processor identity
  };

  // `track_processors`: also keep which processors are free (reserve/release then take sets).
  explicit AvailabilityProfile(int processors, bool track_processors = false);

  int capacity() const { return capacity_; }
  bool tracks_processors() const { return words_ > 0; }
  // Every step in time order, the first at -infinity (a copy: for small profiles and tests).
  std::vector<Step> steps() const;
  std::size_t step_count() const { return count_; }

  // Marks `processors` as busy over [start, end). Never refuses: over-use shows as free < 0.
  void reserve(double start, double end, int processors);
  // Gives back what reserve() took (the inverse: used when a job ends before its estimate or a reservation moves).
  void release(double start, double end, int processors);
  // With processor identity: marks exactly these processors busy (resp. free again) over [start, end).
  // Precondition for reserve: they are free over the whole window (a backfilling engine only reserves what a
  // query returned); the count follows the set.
  void reserve(double start, double end, const ProcessorSet& processors);
  void release(double start, double end, const ProcessorSet& processors);
  // A job's hold, whichever the profile tracks: the set `on` with processor identity, else the count.
  void reserve(double start, double end, int processors, const ProcessorSet& on);
  void release(double start, double end, int processors, const ProcessorSet& on);
  // Without processor identity: a hold of `processors` over [from, from + duration) moves to [to, to + duration)
  // (release then reserve, touching only the steps where the two windows differ: a compression's short shifts).
  void move(double from, double to, double duration, int processors);
  // With processor identity: every step of [start, end) has exactly as many processors in its set as its count
  // (false after a set was reserved over processors that were not free). Without identity: true.
  bool consistent(double start, double end) const;

  // Whether the two profiles are the same step function from t on (breakpoints within kTimeTolerance, equal counts
  // and sets), however their steps are stored.
  bool same_from(const AvailabilityProfile& other, double t) const;

  // Drops the steps that end at or before t (the past of a simulation); queries before t are then undefined.
  void forget_before(double t);

  // Fewest / most free processors at any instant of [start, end).
  int min_free(double start, double end) const { return extreme_free(start, end, false); }
  int max_free(double start, double end) const { return extreme_free(start, end, true); }
  // Free processors at instant t.
  int free_at(double t) const { return free_of(step_at(t)); }
  // The first instant at or after t with at least `processors` free (t itself when enough are free then); kForever
  // when there is none. No window for that many can start earlier.
  double first_free(double t, int processors) const;
  // Earliest t >= not_before with at least `processors` free over [t, t + duration); nullopt when more
  // processors are asked for than the machine has, or the start would be later than latest_start.
  std::optional<double> earliest_start(int processors, double duration, double not_before,
                                       double latest_start = kForever) const;
  // A job's hold on the profile, for searches that should see it as free (where could this job go instead?).
  struct Hold {
    double start = 0, end = 0;
    int processors = 0;
  };
  // Latest t in [not_before, latest_start] with at least `processors` free over [t, t + duration), on the counts
  // alone (processor identity ignored), with `ignore` counted as free; nullopt when there is none. The mirror of
  // earliest_count_start.
  std::optional<double> latest_count_start(int processors, double duration, double not_before, double latest_start,
                                           const Hold& ignore) const;
  std::optional<double> latest_count_start(int processors, double duration, double not_before,
                                           double latest_start) const {
    return latest_count_start(processors, duration, not_before, latest_start, Hold{});
  }
  // earliest_start on the counts alone (with or without processor identity), with `ignore` counted as free:
  // exact for the count model, a necessary condition with processor identity.
  std::optional<double> earliest_count_start(int processors, double duration, double not_before, double latest_start,
                                             const Hold& ignore) const;
  // With processor identity: whether every processor of `on` is free over [start, end), the processors `ignore_on`
  // of the hold `ignore` counted as free where it lies (a job asking whether it could run on `on` instead).
  bool free_on(const ProcessorSet& on, double start, double end, const Hold& ignore, const ProcessorSet& ignore_on) const;
  // The same window search, plus (with processor identity) the lowest-numbered `processors` processors that are
  // free over the whole window: a window opens only where some set of that size stays free throughout.
  std::optional<Slot> earliest_slot(int processors, double duration, double not_before,
                                    double latest_start = kForever) const;
  // With processor identity: earliest_slot with the hold `ignore` on `ignore_on` counted as free, for a job asking
  // whether it could start before its own hold (`duration` at most the hold's): the slot the profile without the
  // hold would give, among the starts before ignore.start; nullopt when none is there.
  std::optional<Slot> earliest_slot(int processors, double duration, double not_before, double latest_start,
                                    const Hold& ignore, const ProcessorSet& ignore_on) const;
  // Whether `processors` fit over [start, start + duration) (with identity: on some common set; the slot's set).
  std::optional<Slot> slot_at(int processors, double start, double duration) const;
  // With processor identity: the processors free over the whole of [start, end).
  ProcessorSet free_over(double start, double end) const;

private:
  friend class FillCursor;
  // Steps are stored in blocks (a sorted sequence split into runs of at most kBlock steps, none empty); a position
  // is (block, offset). Inserting or erasing a step moves at most one block's steps; lookups by time are a binary
  // search over the blocks' first times, then inside one block.
  static constexpr std::size_t kBlock = 32;
  struct Block {
    std::uint32_t n = 0;
    int lazy = 0;      // added to every f: a change over the whole block is one addition (shift())
    double t[kBlock];  // the steps' times ...
    int f[kBlock];     // ... and free processors, less `lazy`
  };
  struct Summary {  // a block's first time (a copy, searched without touching the blocks), fewest and most free
    double first;
    int lowest, highest;
  };
  struct Pos {
    std::size_t b = 0, k = 0;
    bool operator==(const Pos&) const = default;
  };
  double time_of(Pos p) const { return blocks_[p.b].t[p.k]; }
  int free_of(Pos p) const { return blocks_[p.b].f[p.k] + blocks_[p.b].lazy; }
  bool is_end(Pos p) const { return p.b >= blocks_.size(); }
  Pos next(Pos p) const {
    if (++p.k == blocks_[p.b].n) { ++p.b; p.k = 0; }
    return p;
  }
  Pos prev(Pos p) const {  // of the end: the last step
    if (p.k == 0) { --p.b; p.k = blocks_[p.b].n - 1; } else { --p.k; }
    return p;
  }
  bool has_next(Pos p) const { return p.k + 1 < blocks_[p.b].n || p.b + 1 < blocks_.size(); }
  double next_time(Pos p) const {
    if (p.k + 1 < blocks_[p.b].n) return blocks_[p.b].t[p.k + 1];
    return p.b + 1 < blocks_.size() ? summary_[p.b + 1].first : kForever;
  }
  const std::uint64_t* set_of(Pos p) const { return sets_.data() + std::size_t{slots_[p.b * kBlock + p.k]} * words_; }
  std::uint64_t* set_of(Pos p) { return sets_.data() + std::size_t{slots_[p.b * kBlock + p.k]} * words_; }
  const std::uint64_t* common_of(std::size_t b) const { return sets_.data() + std::size_t{common_[b]} * words_; }
  std::uint64_t* common_of(std::size_t b) { return sets_.data() + std::size_t{common_[b]} * words_; }
  std::uint32_t new_slot();                 // a free slot of the pool (the pool may grow: set pointers go stale)
  // Recomputes words [lo, hi) of block b's common set from its steps.
  void recommon(std::size_t b, std::size_t lo, std::size_t hi);

  // The last step whose time is <= limit, at or after step `from` (block 0's first step is at -infinity).
  Pos last_at_or_before(double limit, Pos from) const;
  // The step in force at t (an instant within kTimeTolerance of a breakpoint is that breakpoint), searched from `from`.
  Pos step_at(double t, Pos from) const { return last_at_or_before(t + kTimeTolerance, from); }
  Pos step_at(double t) const { return step_at(t, Pos{0, 0}); }
  // Ensures a breakpoint at t (snapped), t at or after step `from`'s time; returns its position.
  Pos split_at(double t, Pos from);
  Pos split_at(double t) { return split_at(t, Pos{0, 0}); }
  Pos insert_after(Pos p, double t);  // a new step at t, a copy of step p, right after it
  void erase(Pos p);                  // step p, equal to the step before it (a merge)
  // `delta` free processors over [start, end), or with a set its members (made free, or busy).
  void add(double start, double end, int delta, const ProcessorSet* set, bool free_set);
  // add() on the steps [first, last) (breakpoints already there), the summaries kept; no merging. [lo, hi): the words
  // outside which the set is zero.
  void shift(Pos first, Pos last, int delta, const ProcessorSet* set, bool free_set, std::size_t lo, std::size_t hi);
  bool same(Pos a, Pos b) const;  // equal free count (and set)
  void merge_with_previous(Pos p);   // removes step p when it equals the step before
  void summarise(std::size_t b);      // recomputes block b's summary
  int extreme_free(double start, double end, bool highest) const;  // min_free, or max_free
  // The steps in force over [start, end) in time order, the step at start first: on_step(Pos) for each, or
  // on_block(b) instead for a whole block all of whose steps lie in the window.
  template <class OnStep, class OnBlock>
  void for_window(double start, double end, OnStep on_step, OnBlock on_block) const;
  // The first step at or after `from` (in time order) with at least `processors` free, not later than `not_after`;
  // the end when there is none.
  Pos first_with_free(Pos from, int processors, double not_after) const;
  // The first step at or after `from` with fewer than `processors` free or a time >= `before`; whole blocks with
  // enough free may be skipped past `before` (then the end or a later step is returned).
  Pos first_short(Pos from, int processors, double before) const;

  int capacity_;
  std::size_t words_ = 0;             // words a set; 0 without processor identity
  std::size_t count_ = 1;             // steps in all blocks
  std::vector<Block> blocks_;         // sorted by time, blocks_[0].t[0] == -infinity
  std::vector<Summary> summary_;      // one a block
  // With identity: kBlock slot numbers a block (step k of block b: slots_[b * kBlock + k]), the pool of sets (words_
  // words a slot: the free processors of a step) and its unused slots.
  std::vector<std::uint32_t> slots_;
  std::vector<std::uint64_t> sets_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> common_;  // a block: the slot of the AND of its steps' sets
};

// Where searches for a free window may start in a profile that only fills up (reservations, no releases): the
// first instant at or after `from` with at least p processors free never moves earlier, so it is kept per p and
// found by scanning on from where it was; starting earliest_start there gives the same start as from `from`, without
// rescanning the full front of a long schedule. Create one per profile being filled; a release invalidates it.
class FillCursor {
public:
  explicit FillCursor(double from) : from_(from) {}
  // The first instant at or after `from` with at least `processors` free (`from` when more than the machine has).
  double not_before(const AvailabilityProfile& profile, int processors);

private:
  double from_;
  std::vector<double> free_from_;  // [p]; empty until used
};

}  // namespace schedcheck
