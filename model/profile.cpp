// The availability profile (see profile.hpp). Our own.
#include "model/profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace schedcheck {

AvailabilityProfile::AvailabilityProfile(int processors, bool track_processors)
    : capacity_(processors), steps_{{-kForever, processors}} {
  if (track_processors) {
    if (processors < 1 || processors > kMaxTrackedProcessors)
      throw std::invalid_argument("processor identity is tracked for 1 to " + std::to_string(kMaxTrackedProcessors) +
                                  " processors");
    sets_ = ProcessorSet::all(processors).words();
    words_ = sets_.size();
  }
}

std::size_t AvailabilityProfile::step_index_at(double t) const {
  // Last step whose time is <= t (+ tolerance: an instant within tolerance of a breakpoint is that breakpoint).
  auto it = std::upper_bound(steps_.begin(), steps_.end(), t + kTimeTolerance,
                             [](double value, const Step& s) { return value < s.time; });
  return static_cast<std::size_t>(it - steps_.begin()) - 1;
}

std::size_t AvailabilityProfile::split_at(double t, std::size_t from) {
  // The step in force at t: the last one whose time is <= t (+ tolerance), at or after `from` (a forward scan: the
  // end of a window is usually a few steps after its start).
  std::size_t i = from;
  while (i + 1 < steps_.size() && steps_[i + 1].time <= t + kTimeTolerance) ++i;
  return split_after(i, t);
}
std::size_t AvailabilityProfile::split_at(double t) { return split_after(step_index_at(t), t); }
std::size_t AvailabilityProfile::split_after(std::size_t i, double t) {
  if (std::fabs(steps_[i].time - t) <= kTimeTolerance) return i;
  steps_.insert(steps_.begin() + static_cast<std::ptrdiff_t>(i) + 1, Step{t, steps_[i].free});
  if (words_) {
    const auto at = sets_.begin() + static_cast<std::ptrdiff_t>((i + 1) * words_);
    sets_.insert(at, words_, 0);
    std::memcpy(set_of(i + 1), set_of(i), words_ * sizeof(std::uint64_t));
  }
  return i + 1;
}

bool AvailabilityProfile::same(std::size_t a, std::size_t b) const {
  if (steps_[a].free != steps_[b].free) return false;
  return words_ == 0 || std::memcmp(set_of(a), set_of(b), words_ * sizeof(std::uint64_t)) == 0;
}

void AvailabilityProfile::merge_with_previous(std::size_t i) {
  if (i == 0 || i >= steps_.size() || !same(i - 1, i)) return;
  steps_.erase(steps_.begin() + static_cast<std::ptrdiff_t>(i));
  if (words_) {
    const auto at = sets_.begin() + static_cast<std::ptrdiff_t>(i * words_);
    sets_.erase(at, at + static_cast<std::ptrdiff_t>(words_));
  }
}

void AvailabilityProfile::add(double start, double end, int delta, const ProcessorSet* set, bool free_set) {
  if (!(end > start + kTimeTolerance) || (delta == 0 && !set)) return;
  const std::size_t first = split_at(start);
  const std::size_t last = split_at(end, first);  // exclusive; indices before `last` are unaffected by this insert
  // With identity, only the words the set has bits in change (a job's processors are usually a few words of many).
  const std::uint64_t* mine = set ? set->words().data() : nullptr;
  std::size_t lo = 0, hi = 0;
  if (set) {
    hi = words_;
    while (lo < hi && mine[lo] == 0) ++lo;
    while (hi > lo && mine[hi - 1] == 0) --hi;
  }
  for (std::size_t i = first; i < last; ++i) {
    steps_[i].free += delta;
    std::uint64_t* words = set ? set_of(i) : nullptr;
    for (std::size_t w = lo; w < hi; ++w) words[w] = free_set ? (words[w] | mine[w]) : (words[w] & ~mine[w]);
  }
  merge_with_previous(last);   // the higher index first: `first` stays valid
  merge_with_previous(first);
}

void AvailabilityProfile::reserve(double start, double end, int processors) {
  if (words_) throw std::logic_error("a profile with processor identity reserves processor sets, not counts");
  add(start, end, -processors, nullptr, false);
}

void AvailabilityProfile::release(double start, double end, int processors) {
  if (words_) throw std::logic_error("a profile with processor identity releases processor sets, not counts");
  add(start, end, processors, nullptr, true);
}

void AvailabilityProfile::reserve(double start, double end, const ProcessorSet& processors) {
  if (!words_) return reserve(start, end, processors.count());
  add(start, end, -processors.count(), &processors, false);
}

void AvailabilityProfile::release(double start, double end, const ProcessorSet& processors) {
  if (!words_) return release(start, end, processors.count());
  add(start, end, processors.count(), &processors, true);
}

void AvailabilityProfile::reserve(double start, double end, int processors, const ProcessorSet& on) {
  if (words_) reserve(start, end, on);
  else reserve(start, end, processors);
}

void AvailabilityProfile::release(double start, double end, int processors, const ProcessorSet& on) {
  if (words_) release(start, end, on);
  else release(start, end, processors);
}

void AvailabilityProfile::move(double from, double to, double duration, int processors) {
  if (words_) throw std::logic_error("a profile with processor identity moves processor sets, not counts");
  if (std::fabs(from - to) <= kTimeTolerance) return;
  // Where the windows overlap nothing changes: reserve where only the new one lies, release where only the old one.
  if (to < from) {
    add(to, std::min(to + duration, from), -processors, nullptr, false);
    add(std::max(to + duration, from), from + duration, processors, nullptr, true);
  } else {
    add(from, std::min(from + duration, to), processors, nullptr, true);
    add(std::max(from + duration, to), to + duration, -processors, nullptr, false);
  }
}

bool AvailabilityProfile::consistent(double start, double end) const {
  if (!words_) return true;
  std::size_t i = step_index_at(start);
  do {
    if (popcount_words(set_of(i), words_) != steps_[i].free) return false;
    ++i;
  } while (i < steps_.size() && steps_[i].time < end - kTimeTolerance);
  return true;
}

void AvailabilityProfile::forget_before(double t) {
  if (steps_.size() <= 64) return;  // fewer than 64 past steps: nothing to drop yet (see below)
  const std::size_t i = step_index_at(t);
  // Amortised: the past is dropped once it is a quarter of the profile and at least 64 steps, or 4096 steps
  // (queries never look at it; a binary search skips it).
  if (i < 64 || (4 * i < steps_.size() && i < 4096)) return;
  steps_.erase(steps_.begin(), steps_.begin() + static_cast<std::ptrdiff_t>(i));
  steps_.front().time = -kForever;
  if (words_) sets_.erase(sets_.begin(), sets_.begin() + static_cast<std::ptrdiff_t>(i * words_));
}

int AvailabilityProfile::min_free(double start, double end) const {
  std::size_t i = step_index_at(start);
  int lowest = steps_[i].free;
  for (++i; i < steps_.size() && steps_[i].time < end - kTimeTolerance; ++i) lowest = std::min(lowest, steps_[i].free);
  return lowest;
}

int AvailabilityProfile::max_free(double start, double end) const {
  std::size_t i = step_index_at(start);
  int highest = steps_[i].free;
  for (++i; i < steps_.size() && steps_[i].time < end - kTimeTolerance; ++i) highest = std::max(highest, steps_[i].free);
  return highest;
}

std::optional<double> AvailabilityProfile::earliest_start(int processors, double duration, double not_before,
                                                          double latest_start) const {
  if (processors > capacity_) return std::nullopt;
  if (words_) {
    const auto slot = earliest_slot(processors, duration, not_before, latest_start);
    return slot ? std::optional<double>(slot->start) : std::nullopt;
  }
  return earliest_count_start(processors, duration, not_before, latest_start, Hold{});
}

std::optional<double> AvailabilityProfile::earliest_count_start(int processors, double duration, double not_before,
                                                                double latest_start, const Hold& ignore) const {
  if (processors > capacity_) return std::nullopt;
  // The hold need not start or end on a breakpoint (adjacent equal steps are merged): a step's part inside the
  // window counts the hold's processors only where the part lies wholly inside the hold.
  auto free_over_part = [&](std::size_t k, double from, double to) {
    const bool covered = from >= ignore.start - kTimeTolerance && to <= ignore.end + kTimeTolerance;
    return steps_[k].free + (covered ? ignore.processors : 0);
  };
  double candidate = not_before;
  std::size_t i = step_index_at(not_before);
  if (ignore.processors == 0) {  // no hold: a window fits when no step it meets is short of processors
    const std::size_t n = steps_.size();
    while (candidate <= latest_start + kTimeTolerance) {
      const double window_end = candidate + duration - kTimeTolerance;
      std::size_t j = i;
      while (steps_[j].free >= processors) {
        if (++j == n || steps_[j].time >= window_end) return candidate;
      }
      if (j + 1 >= n) return std::nullopt;
      i = j + 1;
      candidate = steps_[i].time;
    }
    return std::nullopt;
  }
  while (candidate <= latest_start + kTimeTolerance) {
    const double window_end = candidate + duration;
    std::size_t j = i;
    bool fits = true;
    while (j < steps_.size() && (j == i || steps_[j].time < window_end - kTimeTolerance)) {
      const double from = std::max(steps_[j].time, candidate);
      const double to = std::min(j + 1 < steps_.size() ? steps_[j + 1].time : kForever, window_end);
      if (free_over_part(j, from, std::max(from, to)) < processors) {
        fits = false;
        break;
      }
      ++j;
    }
    if (fits) return candidate;
    // The next instant the free count can rise: a breakpoint, or an end of the hold (not a breakpoint when the
    // steps around it are equal).
    double next = j + 1 < steps_.size() ? steps_[j + 1].time : kForever;
    for (double b : {ignore.start, ignore.end})
      if (b > candidate + kTimeTolerance && b < next) next = b;
    if (next == kForever) return std::nullopt;
    candidate = next;
    while (i + 1 < steps_.size() && steps_[i + 1].time <= candidate + kTimeTolerance) ++i;  // candidates only rise
  }
  return std::nullopt;
}

std::optional<double> AvailabilityProfile::latest_count_start(int processors, double duration, double not_before,
                                                              double latest_start, const Hold& ignore) const {
  if (processors > capacity_) return std::nullopt;
  // The free count is piecewise constant on the steps cut at the hold's ends (which need not be breakpoints:
  // adjacent equal steps are merged); a piece inside the hold counts its processors.
  const bool hold = ignore.processors != 0 && ignore.end > ignore.start + kTimeTolerance;
  const std::size_t n = steps_.size();
  double candidate = latest_start;
  std::size_t at = step_index_at(candidate);  // the step in force at the candidate (candidates only fall)
  while (candidate >= not_before - kTimeTolerance) {
    // The leftmost piece of [candidate, candidate + duration) with too few free: the job must end by its start.
    const double window_end = candidate + duration;
    while (steps_[at].time > candidate + kTimeTolerance) --at;  // steps_[0] is at -infinity
    std::size_t j = at;
    double x = candidate;  // the start of the current piece, inside step j
    bool blocked = false;
    for (;;) {
      const double step_end = j + 1 < n ? steps_[j + 1].time : kForever;
      double piece_end = step_end;
      bool inside = false;
      if (hold) {
        inside = x >= ignore.start - kTimeTolerance && x < ignore.end - kTimeTolerance;
        if (ignore.start > x + kTimeTolerance) piece_end = std::min(piece_end, ignore.start);
        if (ignore.end > x + kTimeTolerance) piece_end = std::min(piece_end, ignore.end);
      }
      if (steps_[j].free + (inside ? ignore.processors : 0) < processors) {
        blocked = true;
        break;
      }
      if (piece_end >= window_end - kTimeTolerance) break;
      x = piece_end;
      if (x >= step_end - kTimeTolerance) ++j;
    }
    if (!blocked) return candidate;
    // The blocked piece begins at x, or before the candidate when it is the first piece: at the latest of its
    // step's start and the hold's ends not after the candidate.
    double block_start = x;
    if (x <= candidate + kTimeTolerance) {
      block_start = steps_[j].time;
      if (hold) {
        for (double b : {ignore.start, ignore.end})
          if (b <= candidate + kTimeTolerance) block_start = std::max(block_start, b);
      }
    }
    if (block_start <= -kForever) return std::nullopt;  // blocked since the beginning of time
    candidate = block_start - duration;
  }
  return std::nullopt;
}

bool AvailabilityProfile::free_on(const ProcessorSet& on, double start, double end, const Hold& ignore,
                                  const ProcessorSet& ignore_on) const {
  if (!words_) throw std::logic_error("free_on needs a profile with processor identity");
  const std::uint64_t* want = on.words().data();
  const std::uint64_t* extra = ignore_on.words().empty() ? nullptr : ignore_on.words().data();
  std::size_t i = step_index_at(start);
  do {
    const double from = std::max(steps_[i].time, start);
    const double to = std::min(i + 1 < steps_.size() ? steps_[i + 1].time : kForever, end);
    const bool covered = extra && from >= ignore.start - kTimeTolerance && std::max(from, to) <= ignore.end + kTimeTolerance;
    const std::uint64_t* set = set_of(i);
    for (std::size_t w = 0; w < words_; ++w)
      if (want[w] & ~(set[w] | (covered ? extra[w] : 0))) return false;
    ++i;
  } while (i < steps_.size() && steps_[i].time < end - kTimeTolerance);
  return true;
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest_slot(int processors, double duration,
                                                                            double not_before,
                                                                            double latest_start) const {
  if (!words_) {
    const auto start = earliest_start(processors, duration, not_before, latest_start);
    return start ? std::optional<Slot>(Slot{*start, {}}) : std::nullopt;
  }
  if (processors > capacity_) return std::nullopt;
  // As earliest_start, plus the common free set of the window. A step short of processors blocks every window
  // that contains it (jump past it); a window whose counts suffice but whose common set is too small moves one
  // step on. The windows' steps [lo, hi) only move forward, so their AND is kept by the two-stack sliding-window
  // aggregation: the front part [lo, mid) as suffix ANDs, the back part [mid, hi) as one running AND; amortised
  // O(words) a step instead of O(words x window).
  const std::size_t n = steps_.size(), W = words_;
  std::vector<std::uint64_t> suffix;            // suffix[(k - lo_base) * W ...]: AND of steps k..mid-1
  std::vector<std::uint64_t> back(W), common(W);
  std::size_t lo = 0, mid = 0, hi = 0, lo_base = 0;
  auto reset = [&](std::size_t at) { lo = mid = hi = lo_base = at; };
  auto rebuild_front = [&] {  // moves the back part to the front, as suffix ANDs
    lo_base = lo;
    suffix.assign((hi - lo) * W, 0);
    for (std::size_t k = hi; k-- > lo;) {
      std::uint64_t* out = suffix.data() + (k - lo_base) * W;
      const std::uint64_t* set = set_of(k);
      if (k + 1 == hi) std::memcpy(out, set, W * sizeof(std::uint64_t));
      else
        for (std::size_t w = 0; w < W; ++w) out[w] = set[w] & out[W + w];
    }
    mid = hi;
  };
  double candidate = not_before;
  std::size_t i = step_index_at(not_before);
  reset(i);
  while (candidate <= latest_start + kTimeTolerance) {
    bool blocked = false;
    while (hi < n && (hi == i || steps_[hi].time < candidate + duration - kTimeTolerance)) {
      if (steps_[hi].free < processors) {
        blocked = true;
        break;
      }
      const std::uint64_t* set = set_of(hi);
      if (hi == mid) std::memcpy(back.data(), set, W * sizeof(std::uint64_t));
      else
        for (std::size_t w = 0; w < W; ++w) back[w] &= set[w];
      ++hi;
    }
    if (blocked) {
      i = hi + 1;
      if (i >= n) return std::nullopt;
      reset(i);
      candidate = steps_[i].time;
      continue;
    }
    // The window's steps are [lo, hi) with lo == i.
    if (lo == mid) rebuild_front();
    const std::uint64_t* front = suffix.data() + (lo - lo_base) * W;
    for (std::size_t w = 0; w < W; ++w) common[w] = front[w] & (mid < hi ? back[w] : ~std::uint64_t{0});
    if (popcount_words(common.data(), W) >= processors)
      return Slot{candidate, lowest_of_words(common.data(), capacity_, processors)};
    ++lo;
    ++i;
    if (i >= n) return std::nullopt;
    candidate = steps_[i].time;
  }
  return std::nullopt;
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::slot_at(int processors, double start,
                                                                      double duration) const {
  if (processors > capacity_) return std::nullopt;
  if (!words_) return min_free(start, start + duration) >= processors ? std::optional<Slot>(Slot{start, {}}) : std::nullopt;
  if (min_free(start, start + duration) < processors) return std::nullopt;
  const ProcessorSet common = free_over(start, start + duration);
  if (common.count() < processors) return std::nullopt;
  return Slot{start, common.lowest(processors)};
}

ProcessorSet AvailabilityProfile::free_over(double start, double end) const {
  if (!words_) throw std::logic_error("free_over needs a profile with processor identity");
  ProcessorSet common(capacity_);
  std::size_t i = step_index_at(start);
  std::memcpy(common.words().data(), set_of(i), words_ * sizeof(std::uint64_t));
  for (++i; i < steps_.size() && steps_[i].time < end - kTimeTolerance; ++i) {
    const std::uint64_t* words = set_of(i);
    for (std::size_t w = 0; w < words_; ++w) common.words()[w] &= words[w];
  }
  return common;
}

double FillCursor::not_before(const AvailabilityProfile& profile, int processors) {
  if (processors > profile.capacity() || processors < 0) return from_;
  if (free_from_.empty()) free_from_.assign(static_cast<std::size_t>(profile.capacity()) + 1, from_);
  double& from = free_from_[static_cast<std::size_t>(processors)];
  const auto& steps = profile.steps();
  auto it = std::upper_bound(steps.begin(), steps.end(), from,
                             [](double t, const AvailabilityProfile::Step& step) { return t < step.time; });
  if (it != steps.begin()) --it;
  while (it->free < processors && std::next(it) != steps.end()) from = (++it)->time;
  return from;
}

}  // namespace schedcheck
