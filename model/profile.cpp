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

std::size_t AvailabilityProfile::split_at(double t) {
  const std::size_t i = step_index_at(t);
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
  const std::size_t last = split_at(end);  // exclusive; indices before `last` are unaffected by this insert
  for (std::size_t i = first; i < last; ++i) {
    steps_[i].free += delta;
    if (set) {
      std::uint64_t* words = set_of(i);
      const std::uint64_t* mine = set->words().data();
      for (std::size_t w = 0; w < words_; ++w) words[w] = free_set ? (words[w] | mine[w]) : (words[w] & ~mine[w]);
    }
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
  const std::size_t i = step_index_at(t);
  // Amortised: the past is dropped once it is a good part of the profile (queries never look at it).
  if (i < 64 && 4 * i < steps_.size()) return;
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
  // Candidate starts: not_before and every later breakpoint (a window can only open at a breakpoint).
  double candidate = not_before;
  std::size_t i = step_index_at(not_before);
  while (candidate <= latest_start + kTimeTolerance) {
    // Scan forward from the candidate; jump past the first step that lacks processors.
    std::size_t j = i;
    bool fits = true;
    while (j < steps_.size() && (j == i || steps_[j].time < candidate + duration - kTimeTolerance)) {
      if (steps_[j].free < processors) {
        fits = false;
        break;
      }
      ++j;
    }
    if (fits) return candidate;
    // Next candidate: the first breakpoint after the blocking step j.
    if (j + 1 >= steps_.size()) return std::nullopt;  // blocked forever (cannot happen once jobs end)
    i = j + 1;
    candidate = steps_[i].time;
  }
  return std::nullopt;
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest_slot(int processors, double duration,
                                                                            double not_before,
                                                                            double latest_start) const {
  if (!words_) {
    const auto start = earliest_start(processors, duration, not_before, latest_start);
    return start ? std::optional<Slot>(Slot{*start, {}}) : std::nullopt;
  }
  if (processors > capacity_) return std::nullopt;
  // As earliest_start, with the common free set of the window: a step short of processors blocks every window
  // that contains it (jump past it); a window whose common set shrinks below the need moves one step on.
  std::vector<std::uint64_t> common(words_);
  double candidate = not_before;
  std::size_t i = step_index_at(not_before);
  while (candidate <= latest_start + kTimeTolerance) {
    std::size_t next = i + 1;
    if (steps_[i].free >= processors) {
      std::memcpy(common.data(), set_of(i), words_ * sizeof(std::uint64_t));
      bool fits = true;
      for (std::size_t j = i + 1; j < steps_.size() && steps_[j].time < candidate + duration - kTimeTolerance; ++j) {
        if (steps_[j].free < processors) {
          fits = false;
          next = j + 1;
          break;
        }
        const std::uint64_t* words = set_of(j);
        for (std::size_t w = 0; w < words_; ++w) common[w] &= words[w];
        if (popcount_words(common.data(), words_) < processors) {
          fits = false;
          break;
        }
      }
      if (fits) return Slot{candidate, lowest_of_words(common.data(), capacity_, processors)};
    }
    if (next >= steps_.size()) return std::nullopt;
    i = next;
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

}  // namespace schedcheck
