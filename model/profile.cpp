// The availability profile (see profile.hpp). Our own.
#include "model/profile.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace schedcheck {

namespace {

struct WordRange {  // words [lo, hi) of a set
  std::size_t lo = 0, hi = 0;
};

// The scratch of the window searches with processor identity, one a thread: a search allocates nothing once its
// thread has searched a window as large. Past kKeptWords words it is given back after the search.
struct SearchScratch {
  static constexpr std::size_t kKeptWords = std::size_t{1} << 20;
  std::vector<std::uint64_t> back, suffix;
  std::vector<WordRange> suffix_range;
  std::vector<char> in_hold;
  struct Trim {
    SearchScratch& s;
    ~Trim() {
      if (s.suffix.size() > kKeptWords) s = SearchScratch{};
    }
  };
};

SearchScratch& search_scratch() {
  thread_local SearchScratch scratch;
  return scratch;
}

}  // namespace

AvailabilityProfile::AvailabilityProfile(int processors, bool track_processors) : capacity_(processors), blocks_(1) {
  blocks_[0].n = 1;
  blocks_[0].t[0] = -kForever;
  blocks_[0].f[0] = processors;
  summary_.push_back(Summary{-kForever, processors, processors});
  if (track_processors) {
    if (processors < 1 || processors > kMaxTrackedProcessors)
      throw std::invalid_argument("processor identity is tracked for 1 to " + std::to_string(kMaxTrackedProcessors) +
                                  " processors");
    const auto all = ProcessorSet::all(processors).words();
    words_ = all.size();
    sets_ = all;
    slots_.assign(kBlock, 0);
    common_.push_back(new_slot());
    std::copy(all.begin(), all.end(), common_of(0));
  }
}

std::uint32_t AvailabilityProfile::new_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  const auto slot = static_cast<std::uint32_t>(sets_.size() / words_);
  sets_.resize(sets_.size() + words_);
  return slot;
}

void AvailabilityProfile::recommon(std::size_t b, std::size_t lo, std::size_t hi) {
  std::uint64_t* common = common_of(b);
  std::fill(common + lo, common + hi, ~std::uint64_t{0});
  for (std::size_t k = 0; k < blocks_[b].n; ++k) {
    const std::uint64_t* set = set_of(Pos{b, k});
    for (std::size_t w = lo; w < hi; ++w) common[w] &= set[w];
  }
}

std::vector<AvailabilityProfile::Step> AvailabilityProfile::steps() const {
  std::vector<Step> out;
  out.reserve(count_);
  for (const Block& block : blocks_)
    for (std::size_t k = 0; k < block.n; ++k) out.push_back(Step{block.t[k], block.f[k] + block.lazy});
  return out;
}

AvailabilityProfile::Pos AvailabilityProfile::last_at_or_before(double limit, Pos from) const {
  // From `from` on: in its block when the next block starts later (the end of a window is usually near its start),
  // else a search over the later blocks' first times; then a search in the block found.
  std::size_t b = from.b, k = from.k;
  if (b + 1 < blocks_.size() && summary_[b + 1].first <= limit) {
    const auto found = std::upper_bound(summary_.begin() + static_cast<std::ptrdiff_t>(b) + 2, summary_.end(), limit,
                                        [](double value, const Summary& s) { return value < s.first; });
    b = static_cast<std::size_t>(found - summary_.begin()) - 1;
    k = 0;
  }
  const Block& block = blocks_[b];
  const double* it = std::upper_bound(block.t + k + 1, block.t + block.n, limit);
  return Pos{b, static_cast<std::size_t>(it - block.t) - 1};
}

AvailabilityProfile::Pos AvailabilityProfile::split_at(double t, Pos from) {
  const Pos p = step_at(t, from);
  if (std::fabs(time_of(p) - t) <= kTimeTolerance) return p;
  return insert_after(p, t);
}

AvailabilityProfile::Pos AvailabilityProfile::insert_after(Pos p, double t) {
  Pos q{p.b, p.k + 1};
  if (blocks_[p.b].n == kBlock) {  // full: its upper half becomes a new block after it
    constexpr std::size_t half = kBlock / 2;
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(p.b) + 1, Block{});
    Block& low = blocks_[p.b];
    Block& high = blocks_[p.b + 1];
    std::copy(low.t + half, low.t + kBlock, high.t);
    std::copy(low.f + half, low.f + kBlock, high.f);
    high.n = kBlock - half;
    high.lazy = low.lazy;
    low.n = half;
    if (words_) {
      const auto at = static_cast<std::ptrdiff_t>((p.b + 1) * kBlock);
      slots_.insert(slots_.begin() + at, kBlock, 0);
      std::copy(slots_.begin() + at - static_cast<std::ptrdiff_t>(half), slots_.begin() + at, slots_.begin() + at);
      const std::uint32_t slot = new_slot();
      common_.insert(common_.begin() + static_cast<std::ptrdiff_t>(p.b) + 1, slot);
      recommon(p.b, 0, words_);
      recommon(p.b + 1, 0, words_);
    }
    summary_.insert(summary_.begin() + static_cast<std::ptrdiff_t>(p.b) + 1, Summary{});
    summarise(p.b);
    summarise(p.b + 1);
    if (q.k > half) q = Pos{p.b + 1, q.k - half};
  }
  Block& block = blocks_[q.b];
  std::copy_backward(block.t + q.k, block.t + block.n, block.t + block.n + 1);
  std::copy_backward(block.f + q.k, block.f + block.n, block.f + block.n + 1);
  block.t[q.k] = t;
  block.f[q.k] = block.f[q.k - 1];
  if (words_) {
    const std::uint32_t slot = new_slot();
    std::uint32_t* slots = slots_.data() + q.b * kBlock;
    std::copy_backward(slots + q.k, slots + block.n, slots + block.n + 1);
    slots[q.k] = slot;
    std::memcpy(set_of(q), set_of(Pos{q.b, q.k - 1}), words_ * sizeof(std::uint64_t));
  }
  ++block.n;
  ++count_;
  return q;
}

void AvailabilityProfile::erase(Pos p) {
  Block& block = blocks_[p.b];
  std::copy(block.t + p.k + 1, block.t + block.n, block.t + p.k);
  std::copy(block.f + p.k + 1, block.f + block.n, block.f + p.k);
  if (words_) {
    std::uint32_t* slots = slots_.data() + p.b * kBlock;
    free_slots_.push_back(slots[p.k]);
    std::copy(slots + p.k + 1, slots + block.n, slots + p.k);
  }
  --block.n;
  --count_;
  if (block.n == 0 && blocks_.size() > 1) {
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(p.b));
    summary_.erase(summary_.begin() + static_cast<std::ptrdiff_t>(p.b));
    if (words_) {
      const auto area = static_cast<std::ptrdiff_t>(kBlock);
      slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(p.b) * area,
                   slots_.begin() + static_cast<std::ptrdiff_t>(p.b + 1) * area);
      free_slots_.push_back(common_[p.b]);
      common_.erase(common_.begin() + static_cast<std::ptrdiff_t>(p.b));
    }
  } else if (p.k == 0) {  // its first step changed (inside a block the step removed equals the one before it)
    summarise(p.b);
    if (words_) recommon(p.b, 0, words_);
  }
}

void AvailabilityProfile::summarise(std::size_t b) {
  const Block& block = blocks_[b];
  Summary& out = summary_[b];
  out.first = block.t[0];
  int lowest = block.f[0], highest = block.f[0];
  for (std::size_t k = 1; k < block.n; ++k) {
    lowest = std::min(lowest, block.f[k]);
    highest = std::max(highest, block.f[k]);
  }
  out.lowest = lowest + block.lazy;
  out.highest = highest + block.lazy;
}

AvailabilityProfile::Pos AvailabilityProfile::first_with_free(Pos j, int processors, double not_after) const {
  const Pos none{blocks_.size(), 0};
  while (!is_end(j)) {
    const Block& block = blocks_[j.b];
    if (j.k == 0) {
      if (summary_[j.b].first > not_after) return none;
      if (summary_[j.b].highest < processors) {  // none in this block
        j = Pos{j.b + 1, 0};
        continue;
      }
    }
    const int need = processors - block.lazy;  // in the block's stored counts
    for (; j.k < block.n; ++j.k) {
      if (block.t[j.k] > not_after) return none;
      if (block.f[j.k] >= need) return j;
    }
    j = Pos{j.b + 1, 0};
  }
  return none;
}

AvailabilityProfile::Pos AvailabilityProfile::first_short(Pos j, int processors, double before) const {
  while (!is_end(j)) {
    const Block& block = blocks_[j.b];
    if (j.k == 0) {
      if (summary_[j.b].first >= before) return j;
      if (summary_[j.b].lowest >= processors) {  // none short in this block
        j = Pos{j.b + 1, 0};
        continue;
      }
    }
    const int need = processors - block.lazy;  // in the block's stored counts
    for (; j.k < block.n; ++j.k)
      if (block.t[j.k] >= before || block.f[j.k] < need) return j;
    j = Pos{j.b + 1, 0};
  }
  return j;
}

bool AvailabilityProfile::same(Pos a, Pos b) const {
  if (free_of(a) != free_of(b)) return false;
  return words_ == 0 || std::memcmp(set_of(a), set_of(b), words_ * sizeof(std::uint64_t)) == 0;
}

void AvailabilityProfile::merge_with_previous(Pos p) {
  if (!is_end(p) && p.k >= blocks_[p.b].n) p = Pos{p.b + 1, 0};  // just past a block's last step: the next block's first
  if (p == Pos{} || is_end(p) || !same(prev(p), p)) return;
  erase(p);
}

void AvailabilityProfile::shift(Pos first, Pos last, int delta, const ProcessorSet* set, bool free_set, std::size_t lo,
                                std::size_t hi) {
  const std::uint64_t* mine = set ? set->words().data() : nullptr;
  // Block by block over the contiguous counts (and sets). A block's summary is shifted where the whole block changed;
  // where part of it did, the bound the change moves towards follows from the changed steps, and the other is
  // recomputed only when one of them held it.
  for (std::size_t b = first.b; b <= last.b && b < blocks_.size(); ++b) {
    Block& block = blocks_[b];
    const std::size_t from = b == first.b ? first.k : 0, to = b == last.b ? last.k : block.n;
    if (from >= to) continue;
    Summary& sum = summary_[b];
    const bool whole = from == 0 && to == block.n;
    int least = block.f[from], most = block.f[from];
    if (whole) {
      block.lazy += delta;  // every step of the block: one addition (its summary shifts below)
    } else {
      for (std::size_t k = from; k < to; ++k) {
        least = std::min(least, block.f[k]);
        most = std::max(most, block.f[k]);
        block.f[k] += delta;
      }
      least += block.lazy;
      most += block.lazy;
    }
    if (set) {
      for (std::size_t k = from; k < to; ++k) {
        if (k + 4 < to) __builtin_prefetch(set_of(Pos{b, k + 4}) + lo, 1);  // steps' sets lie apart in the pool
        std::uint64_t* words = set_of(Pos{b, k});
        for (std::size_t w = lo; w < hi; ++w) words[w] = free_set ? (words[w] | mine[w]) : (words[w] & ~mine[w]);
      }
      // The common set loses what any step lost, and gains what every step gained.
      std::uint64_t* common = common_of(b);
      if (!free_set) {
        for (std::size_t w = lo; w < hi; ++w) common[w] &= ~mine[w];
      } else if (whole) {
        for (std::size_t w = lo; w < hi; ++w) common[w] |= mine[w];
      } else {
        recommon(b, lo, hi);
      }
    }
    if (whole) {
      sum.lowest += delta;
      sum.highest += delta;
    } else if (delta < 0) {
      sum.lowest = std::min(sum.lowest, least + delta);
      if (most == sum.highest) summarise(b);
    } else if (delta > 0) {
      sum.highest = std::max(sum.highest, most + delta);
      if (least == sum.lowest) summarise(b);
    }
  }
}

void AvailabilityProfile::add(double start, double end, int delta, const ProcessorSet* set, bool free_set) {
  if (!(end > start + kTimeTolerance) || (delta == 0 && !set)) return;
  // With identity, only the words the set has bits in change (a job's processors are usually a few words of many);
  // the count is its members.
  std::size_t lo = 0, hi = 0;
  if (set) {
    const std::uint64_t* mine = set->words().data();
    hi = words_;
    while (lo < hi && mine[lo] == 0) ++lo;
    while (hi > lo && mine[hi - 1] == 0) --hi;
    delta = popcount_words(mine + lo, hi - lo);
    if (!free_set) delta = -delta;
  }
  Pos first = split_at(start);
  const std::size_t blocks = blocks_.size();
  const Pos last = split_at(end, first);  // exclusive
  if (blocks_.size() != blocks) first = step_at(start);  // a block was split: `first` may have moved
  shift(first, last, delta, set, free_set, lo, hi);
  merge_with_previous(last);   // the later position first: `first` stays valid (its block keeps `first`)
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
  add(start, end, 0, &processors, false);
}

void AvailabilityProfile::release(double start, double end, const ProcessorSet& processors) {
  if (!words_) return release(start, end, processors.count());
  add(start, end, 0, &processors, true);
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
  // The four ends in time order are split from one another (one search from the start), then the two parts shift.
  const double a = std::min(from, to), b = std::min(a + duration, std::max(from, to));
  const double c = std::max(a + duration, std::max(from, to)), e = std::max(from, to) + duration;
  if (!(b > a + kTimeTolerance) && !(e > c + kTimeTolerance)) return;  // a hold of no length (add() skips it too)
  const std::size_t blocks = blocks_.size();
  Pos pa = split_at(a);
  const double ta = time_of(pa);  // the breakpoints each end snapped to
  Pos pb = split_at(b, pa);
  const double tb = time_of(pb);
  Pos pc = split_at(c, pb);
  const double tc = time_of(pc);
  const Pos pe = split_at(e, pc);
  if (blocks_.size() != blocks) {  // a block was split: the earlier positions may have moved; found again exactly
    pa = last_at_or_before(ta, Pos{});
    pb = last_at_or_before(tb, pa);
    pc = last_at_or_before(tc, pb);
  }
  const int early = to < from ? -processors : processors;  // [a, b): the new window's own part if it is earlier
  shift(pc, pe, -early, nullptr, early > 0, 0, 0);
  shift(pa, pb, early, nullptr, early < 0, 0, 0);
  merge_with_previous(pe);  // later positions first: the earlier ones stay valid
  merge_with_previous(pc);
  merge_with_previous(pb);
  merge_with_previous(pa);
}

bool AvailabilityProfile::consistent(double start, double end) const {
  if (!words_) return true;
  Pos i = step_at(start);
  do {
    if (popcount_words(set_of(i), words_) != free_of(i)) return false;
    i = next(i);
  } while (!is_end(i) && time_of(i) < end - kTimeTolerance);
  return true;
}

bool AvailabilityProfile::same_from(const AvailabilityProfile& other, double t) const {
  if (capacity_ != other.capacity_ || words_ != other.words_) return false;
  // Over the union of both profiles' breakpoints: every stretch longer than twice the tolerance has the same free
  // count and set in both (where breakpoints snapped depends on the order of the edits; slivers are not compared).
  Pos a = step_at(t), b = other.step_at(t);
  for (double from = t;;) {
    const double until = std::min(next_time(a), other.next_time(b));
    if (until - from > 2 * kTimeTolerance) {
      if (free_of(a) != other.free_of(b)) return false;
      if (words_ && std::memcmp(set_of(a), other.set_of(b), words_ * sizeof(std::uint64_t)) != 0) return false;
    }
    if (until == kForever) return true;
    if (next_time(a) == until) a = next(a);
    if (other.next_time(b) == until) b = other.next(b);
    from = until;
  }
}

void AvailabilityProfile::forget_before(double t) {
  // Whole blocks before the one in force at t are dropped (queries never look at them), in amortised batches: once
  // 4 blocks or a quarter of the blocks are past. The block in force at t keeps its earlier steps.
  const Pos p = step_at(t);
  if (p.b == 0 || (p.b < 4 && 4 * p.b < blocks_.size())) return;
  for (std::size_t b = 0; b < p.b; ++b) {
    count_ -= blocks_[b].n;
    if (!words_) continue;
    free_slots_.insert(free_slots_.end(), slots_.begin() + static_cast<std::ptrdiff_t>(b * kBlock),
                       slots_.begin() + static_cast<std::ptrdiff_t>(b * kBlock + blocks_[b].n));
    free_slots_.push_back(common_[b]);
  }
  if (words_) common_.erase(common_.begin(), common_.begin() + static_cast<std::ptrdiff_t>(p.b));
  blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<std::ptrdiff_t>(p.b));
  summary_.erase(summary_.begin(), summary_.begin() + static_cast<std::ptrdiff_t>(p.b));
  if (words_) slots_.erase(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(p.b * kBlock));
  blocks_.front().t[0] = -kForever;
  summary_.front().first = -kForever;
}

double AvailabilityProfile::first_free(double t, int processors) const {
  const Pos i = step_at(t);
  if (free_of(i) >= processors) return t;
  const Pos j = first_with_free(next(i), processors, kForever);
  return is_end(j) ? kForever : time_of(j);
}

template <class OnStep, class OnBlock>
void AvailabilityProfile::for_window(double start, double end, OnStep on_step, OnBlock on_block) const {
  const Pos i = step_at(start);
  on_step(i);
  const double until = end - kTimeTolerance;
  for (std::size_t b = i.b, k = i.k + 1; b < blocks_.size(); ++b, k = 0) {
    const Block& block = blocks_[b];
    if (k == 0) {
      if (summary_[b].first >= until) return;
      if (b + 1 < blocks_.size() && summary_[b + 1].first < until) {  // the whole block lies in the window
        on_block(b);
        continue;
      }
    }
    for (; k < block.n; ++k) {
      if (block.t[k] >= until) return;
      on_step(Pos{b, k});
    }
  }
}

int AvailabilityProfile::extreme_free(double start, double end, bool highest) const {
  int out = free_of(step_at(start));
  auto take = [&](int v) { out = highest ? std::max(out, v) : std::min(out, v); };
  for_window(start, end, [&](Pos p) { take(free_of(p)); },
             [&](std::size_t b) { take(highest ? summary_[b].highest : summary_[b].lowest); });
  return out;
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
  auto free_over_part = [&](Pos k, double from, double to) {
    const bool covered = from >= ignore.start - kTimeTolerance && to <= ignore.end + kTimeTolerance;
    return free_of(k) + (covered ? ignore.processors : 0);
  };
  double candidate = not_before;
  Pos i = step_at(not_before);
  if (ignore.processors == 0) {  // no hold: a window fits when no step it meets is short of processors
    for (;;) {
      if (candidate > latest_start + kTimeTolerance) return std::nullopt;
      const double window_end = candidate + duration - kTimeTolerance;
      if (free_of(i) >= processors) {
        const Pos j = first_short(next(i), processors, window_end);
        if (is_end(j) || time_of(j) >= window_end) return candidate;
        i = j;  // short of processors: no window containing it fits
      }
      i = first_with_free(next(i), processors, latest_start + kTimeTolerance);
      if (is_end(i)) return std::nullopt;
      candidate = time_of(i);
    }
  }
  // With a hold: blocks whose steps all have enough free without it, or lie inside it with enough free with it, are
  // skipped inside a window; steps that cannot start a window (short even with the hold, or short and clear of it)
  // are skipped as candidates.
  const double hold_from = ignore.start - kTimeTolerance, hold_to = ignore.end + kTimeTolerance;
  auto next_first = [&](std::size_t b) { return b + 1 < blocks_.size() ? summary_[b + 1].first : kForever; };
  auto block_fits = [&](std::size_t b) {
    const Summary& sum = summary_[b];
    return sum.lowest >= processors || (sum.lowest + ignore.processors >= processors && sum.first >= hold_from &&
                                        next_first(b) <= hold_to);
  };
  auto cannot_start = [&](int free, double from, double to) {
    return free + ignore.processors < processors || (free < processors && (to < hold_from || from > hold_to));
  };
  while (candidate <= latest_start + kTimeTolerance) {
    const double window_end = candidate + duration;
    Pos j = i;
    bool fits = true;
    while (!is_end(j) && (j == i || time_of(j) < window_end - kTimeTolerance)) {
      if (j.k == 0 && !(j == i) && block_fits(j.b)) {
        j = Pos{j.b + 1, 0};
        continue;
      }
      const double from = std::max(time_of(j), candidate);
      const double to = std::min(next_time(j), window_end);
      if (free_over_part(j, from, std::max(from, to)) < processors) {
        fits = false;
        break;
      }
      j = next(j);
    }
    if (fits) return candidate;
    // The next instant the free count can rise: a breakpoint, or an end of the hold (not a breakpoint when the
    // steps around it are equal).
    double next_rise = next_time(j);
    bool at_breakpoint = true;
    for (double b : {ignore.start, ignore.end})
      if (b > candidate + kTimeTolerance && b < next_rise) {
        next_rise = b;
        at_breakpoint = false;
      }
    if (next_rise == kForever) return std::nullopt;
    if (at_breakpoint) {  // the steps from the next one on that cannot start a window are passed over
      Pos k = next(j);
      const double not_after = latest_start + kTimeTolerance;
      while (!is_end(k)) {
        if (k.k == 0 && summary_[k.b].first <= not_after &&
            cannot_start(summary_[k.b].highest, summary_[k.b].first, next_first(k.b))) {
          k = Pos{k.b + 1, 0};
          continue;
        }
        if (time_of(k) > not_after || !cannot_start(free_of(k), time_of(k), next_time(k))) break;
        k = next(k);
      }
      if (is_end(k)) return std::nullopt;
      next_rise = time_of(k);
      i = k;
    }
    candidate = next_rise;
    while (has_next(i) && time_of(next(i)) <= candidate + kTimeTolerance) i = next(i);  // candidates only rise
  }
  return std::nullopt;
}

std::optional<double> AvailabilityProfile::latest_count_start(int processors, double duration, double not_before,
                                                              double latest_start, const Hold& ignore) const {
  if (processors > capacity_) return std::nullopt;
  // The free count is piecewise constant on the steps cut at the hold's ends (which need not be breakpoints:
  // adjacent equal steps are merged); a piece inside the hold counts its processors.
  const bool hold = ignore.processors != 0 && ignore.end > ignore.start + kTimeTolerance;
  double candidate = latest_start;
  Pos here = step_at(candidate);  // the step in force at the candidate (candidates only fall)
  while (candidate >= not_before - kTimeTolerance) {
    // The leftmost piece of [candidate, candidate + duration) with too few free: the job must end by its start.
    const double window_end = candidate + duration;
    while (time_of(here) > candidate + kTimeTolerance) here = prev(here);  // the first step is at -infinity
    Pos j = here;
    double x = candidate;  // the start of the current piece, inside step j
    bool blocked = false;
    for (;;) {
      const double step_end = next_time(j);
      double piece_end = step_end;
      bool inside = false;
      if (hold) {
        inside = x >= ignore.start - kTimeTolerance && x < ignore.end - kTimeTolerance;
        if (ignore.start > x + kTimeTolerance) piece_end = std::min(piece_end, ignore.start);
        if (ignore.end > x + kTimeTolerance) piece_end = std::min(piece_end, ignore.end);
      }
      if (free_of(j) + (inside ? ignore.processors : 0) < processors) {
        blocked = true;
        break;
      }
      if (piece_end >= window_end - kTimeTolerance) break;
      x = piece_end;
      if (x >= step_end - kTimeTolerance) j = next(j);
    }
    if (!blocked) return candidate;
    // The blocked piece begins at x, or before the candidate when it is the first piece: at the latest of its
    // step's start and the hold's ends not after the candidate.
    double block_start = x;
    if (x <= candidate + kTimeTolerance) {
      block_start = time_of(j);
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
  Pos i = step_at(start);
  do {
    const double from = std::max(time_of(i), start);
    const double to = std::min(next_time(i), end);
    const bool covered = extra && from >= ignore.start - kTimeTolerance && std::max(from, to) <= ignore.end + kTimeTolerance;
    const std::uint64_t* set = set_of(i);
    for (std::size_t w = 0; w < words_; ++w)
      if (want[w] & ~(set[w] | (covered ? extra[w] : 0))) return false;
    i = next(i);
  } while (!is_end(i) && time_of(i) < end - kTimeTolerance);
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
  // A job that fits at not_before: one window, its free set read block by block.
  if (not_before <= latest_start + kTimeTolerance)
    if (auto slot = slot_at(processors, not_before, duration)) return slot;
  return earliest_slot(processors, duration, not_before, latest_start, Hold{}, ProcessorSet());
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest_slot(int processors, double duration,
                                                                            double not_before, double latest_start,
                                                                            const Hold& ignore,
                                                                            const ProcessorSet& ignore_on) const {
  if (!words_) throw std::logic_error("earliest_slot with a hold needs a profile with processor identity");
  if (processors > capacity_) return std::nullopt;
  // As earliest_start, plus the common free set of the window. A step short of processors blocks every window
  // that contains it (jump past it); a window whose counts suffice but whose common set is too small moves one
  // step on. The windows' steps [lo, hi) only move forward, so their AND is kept by the two-stack sliding-window
  // aggregation: the front part [lo, mid) as suffix ANDs, the back part [mid, hi) as one running AND; amortised
  // O(words) a step instead of O(words x window).
  // The hold counts as free on the steps from its start on: a window that starts before the hold ends inside it
  // (its duration is at most the hold's), so a step's part in such a window lies in the hold if the step starts in it.
  // Positions go with their ordinals (steps from the search's first step) to index the suffix ANDs.
  struct At {
    Pos p;
    std::size_t o = 0;
  };
  const std::size_t W = words_;
  const bool hold = ignore.processors != 0 && !ignore_on.words().empty();
  const std::uint64_t* extra = hold ? ignore_on.words().data() : nullptr;
  // Each AND is kept with the range of words [lo, hi) outside which it is zero (words there are not written): an AND
  // only narrows, and most of a busy machine's words are empty over a long window.
  using Range = WordRange;
  auto trim = [](const std::uint64_t* x, Range& r) {
    while (r.lo < r.hi && x[r.lo] == 0) ++r.lo;
    while (r.hi > r.lo && x[r.hi - 1] == 0) --r.hi;
  };
  // out = the step's set (with the hold's where `in`), or over `r` = other AND the step's set; r narrowed to out.
  auto first_of = [&](std::uint64_t* out, Pos p, bool in, Range& r) {
    const std::uint64_t* set = set_of(p);
    if (in)
      for (std::size_t w = 0; w < W; ++w) out[w] = set[w] | extra[w];
    else
      std::memcpy(out, set, W * sizeof(std::uint64_t));
    r = Range{0, W};
    trim(out, r);
  };
  auto meet = [&](std::uint64_t* out, const std::uint64_t* other, Pos p, bool in, Range& r) {
    const std::uint64_t* set = set_of(p);
    if (in)
      for (std::size_t w = r.lo; w < r.hi; ++w) out[w] = other[w] & (set[w] | extra[w]);
    else
      for (std::size_t w = r.lo; w < r.hi; ++w) out[w] = other[w] & set[w];
    trim(out, r);
  };
  // Scratch, read only where written: the back part's AND, and the front part's suffix ANDs (suffix[(k - lo_base) *
  // W ...]: AND of steps k..mid-1) with their ranges.
  SearchScratch& scratch = search_scratch();
  const SearchScratch::Trim trim_after{scratch};
  scratch.back.resize(W);
  std::uint64_t* const back = scratch.back.data();
  Range back_range;
  std::vector<std::uint64_t>& suffix = scratch.suffix;
  std::vector<Range>& suffix_range = scratch.suffix_range;
  std::vector<char>& in_hold = scratch.in_hold;  // by ordinal from lo_base (with a hold): the step gains the hold's set
  At lo, mid, hi;  // lo is also the window's first step
  std::size_t lo_base = 0;
  auto covered = [&](Pos p, double candidate) {
    return hold && std::max(time_of(p), candidate) >= ignore.start - kTimeTolerance;
  };
  // Every window tried starts before the hold and lasts `duration`, so each holds the steps from the hold's start to
  // not_before + duration: too few processors free on them, on counts or on a common set, and none fits.
  if (hold && ignore.start < not_before + duration) {
    int fewest = capacity_;
    std::fill(back, back + W, ~std::uint64_t{0});
    auto meet_held = [&](const std::uint64_t* set) {
      for (std::size_t w = 0; w < W; ++w) back[w] &= set[w] | extra[w];
    };
    for_window(
        ignore.start, not_before + duration,
        [&](Pos p) {
          if (time_of(p) < ignore.start - kTimeTolerance) return;  // the step before the hold's
          fewest = std::min(fewest, free_of(p) + ignore.processors);
          meet_held(set_of(p));
        },
        [&](std::size_t b) {
          fewest = std::min(fewest, summary_[b].lowest + ignore.processors);
          meet_held(common_of(b));
        });
    if (fewest < processors || popcount_words(back, W) < processors) return std::nullopt;
  }
  auto advance = [&](At& x) { x.p = next(x.p); ++x.o; };
  auto reset = [&](At x) {
    lo = mid = hi = x;
    lo_base = x.o;
    in_hold.clear();
  };
  in_hold.clear();
  auto rebuild_front = [&] {  // moves the back part to the front, as suffix ANDs
    const std::size_t first = lo.o - lo_base;  // in_hold's index of lo
    if (suffix.size() < (hi.o - lo.o) * W) suffix.resize((hi.o - lo.o) * W);
    if (suffix_range.size() < hi.o - lo.o) suffix_range.resize(hi.o - lo.o);
    Pos k = hi.p;
    for (std::size_t ko = hi.o; ko-- > lo.o;) {
      k = prev(k);
      const std::size_t at = ko - lo.o;
      std::uint64_t* out = suffix.data() + at * W;
      const bool in = hold && in_hold[first + at];
      if (ko + 1 == hi.o) {
        first_of(out, k, in, suffix_range[at]);
      } else {
        suffix_range[at] = suffix_range[at + 1];
        meet(out, out + W, k, in, suffix_range[at]);
      }
    }
    if (hold) in_hold.erase(in_hold.begin(), in_hold.begin() + static_cast<std::ptrdiff_t>(first));
    lo_base = lo.o;
    mid = hi;
  };
  // With a hold, only starts before it are tried.
  auto tried = [&](double candidate) {
    return candidate <= latest_start + kTimeTolerance && !(hold && candidate >= ignore.start - kTimeTolerance);
  };
  double candidate = not_before;
  reset(At{step_at(not_before), 0});
  while (tried(candidate)) {
    bool blocked = false;
    while (!is_end(hi.p) && (hi.o == lo.o || time_of(hi.p) < candidate + duration - kTimeTolerance)) {
      const bool in = covered(hi.p, candidate);
      if (free_of(hi.p) + (in ? ignore.processors : 0) < processors) {
        blocked = true;
        break;
      }
      if (hold) in_hold.push_back(in);
      if (hi.o == mid.o) first_of(back, hi.p, in, back_range);
      else meet(back, back, hi.p, in, back_range);
      advance(hi);
    }
    if (blocked) {
      At after = hi;
      advance(after);
      if (is_end(after.p)) return std::nullopt;
      reset(after);
      candidate = time_of(after.p);
      continue;
    }
    // The window's steps are [lo, hi); with the front part empty their AND is the back part's.
    // A slot at the candidate when the AND of a and b (b null: a alone) over r has enough processors.
    auto slot_from = [&](const std::uint64_t* a, const std::uint64_t* b, Range r) -> std::optional<Slot> {
      int found = 0;
      for (std::size_t w = r.lo; w < r.hi; ++w) found += std::popcount(a[w] & (b ? b[w] : ~std::uint64_t{0}));
      if (found < processors) return std::nullopt;
      ProcessorSet common(capacity_);
      for (std::size_t w = r.lo; w < r.hi; ++w) common.words()[w] = a[w] & (b ? b[w] : ~std::uint64_t{0});
      return Slot{candidate, common.lowest(processors)};
    };
    if (lo.o == mid.o) {
      if (auto slot = slot_from(back, nullptr, back_range)) return slot;
      rebuild_front();
    }
    const std::size_t at = lo.o - lo_base;
    const Range front_range = suffix_range[at];
    Range both = front_range;
    if (mid.o < hi.o) both = Range{std::max(front_range.lo, back_range.lo), std::min(front_range.hi, back_range.hi)};
    if (both.hi < both.lo) both.hi = both.lo;
    if (auto slot = slot_from(suffix.data() + at * W, mid.o < hi.o ? back : nullptr, both)) return slot;
    advance(lo);
    if (is_end(lo.p)) return std::nullopt;
    candidate = time_of(lo.p);
  }
  return std::nullopt;
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::slot_at(int processors, double start,
                                                                      double duration) const {
  if (processors > capacity_) return std::nullopt;
  if (!words_) return min_free(start, start + duration) >= processors ? std::optional<Slot>(Slot{start, {}}) : std::nullopt;
  if (min_free(start, start + duration) < processors) return std::nullopt;
  // The lowest `processors` of the processors free over the window: the window's sets (a step's, or a whole block's
  // common one) ANDed a few words at a time, from the lowest, until enough are found.
  std::vector<const std::uint64_t*> parts;
  for_window(start, start + duration, [&](Pos p) { parts.push_back(set_of(p)); },
             [&](std::size_t b) { parts.push_back(common_of(b)); });
  constexpr std::size_t kChunk = 8;
  Slot slot{start, ProcessorSet(capacity_)};
  int wanted = processors;
  for (std::size_t from = 0; from < words_ && wanted > 0; from += kChunk) {
    const std::size_t n = std::min(kChunk, words_ - from);
    std::uint64_t chunk[kChunk];
    std::memcpy(chunk, parts[0] + from, n * sizeof(std::uint64_t));
    for (std::size_t k = 1; k < parts.size(); ++k) {  // until nothing is left of the slice (on a busy machine, soon)
      std::uint64_t any = 0;
      for (std::size_t w = 0; w < n; ++w) any |= chunk[w] &= parts[k][from + w];
      if (any == 0) break;
    }
    for (std::size_t w = 0; w < n && wanted > 0; ++w) {
      const std::uint64_t taken = lowest_bits(chunk[w], wanted);
      slot.processors.words()[from + w] = taken;
      wanted -= std::popcount(taken);
    }
  }
  if (wanted > 0) return std::nullopt;
  return slot;
}

ProcessorSet AvailabilityProfile::free_over(double start, double end) const {
  if (!words_) throw std::logic_error("free_over needs a profile with processor identity");
  ProcessorSet common = ProcessorSet::all(capacity_);
  std::uint64_t* out = common.words().data();
  auto meet = [&](const std::uint64_t* set) {
    for (std::size_t w = 0; w < words_; ++w) out[w] &= set[w];
  };
  for_window(start, end, [&](Pos p) { meet(set_of(p)); }, [&](std::size_t b) { meet(common_of(b)); });
  return common;
}

double FillCursor::not_before(const AvailabilityProfile& profile, int processors) {
  if (processors > profile.capacity() || processors < 0) return from_;
  if (free_from_.empty()) free_from_.assign(static_cast<std::size_t>(profile.capacity()) + 1, from_);
  double& from = free_from_[static_cast<std::size_t>(processors)];
  // The step in force at `from` (exactly: no tolerance), then on to the first with enough free (first_free's search,
  // without its tolerance; the last step when none has).
  const auto it = profile.last_at_or_before(from, AvailabilityProfile::Pos{0, 0});
  if (profile.free_of(it) < processors && profile.has_next(it)) {
    const auto found = profile.first_with_free(profile.next(it), processors, kForever);
    from = profile.time_of(profile.is_end(found) ? profile.prev(found) : found);
  }
  return from;
}

}  // namespace schedcheck
