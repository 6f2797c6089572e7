// The availability profile (see profile.hpp). Our own.
#include "model/profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace schedcheck {

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
    sets_.assign(kBlock * words_, 0);
    std::copy(all.begin(), all.end(), sets_.begin());
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
      const std::size_t area = kBlock * words_;
      sets_.insert(sets_.begin() + static_cast<std::ptrdiff_t>((p.b + 1) * area), area, 0);
      std::memcpy(sets_.data() + (p.b + 1) * area, sets_.data() + p.b * area + half * words_,
                  (kBlock - half) * words_ * sizeof(std::uint64_t));
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
    std::uint64_t* from = set_of(Pos{q.b, q.k - 1});
    std::memmove(from + 2 * words_, from + words_, (block.n - q.k) * words_ * sizeof(std::uint64_t));
    std::memcpy(from + words_, from, words_ * sizeof(std::uint64_t));
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
    std::uint64_t* at_p = set_of(p);
    std::memmove(at_p, at_p + words_, (block.n - p.k - 1) * words_ * sizeof(std::uint64_t));
  }
  --block.n;
  --count_;
  if (block.n == 0 && blocks_.size() > 1) {
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(p.b));
    summary_.erase(summary_.begin() + static_cast<std::ptrdiff_t>(p.b));
    if (words_) {
      const auto area = static_cast<std::ptrdiff_t>(kBlock * words_);
      sets_.erase(sets_.begin() + static_cast<std::ptrdiff_t>(p.b) * area,
                  sets_.begin() + static_cast<std::ptrdiff_t>(p.b + 1) * area);
    }
  } else if (p.k == 0) {  // its first step changed (inside a block the step removed equals the one before it)
    summarise(p.b);
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

void AvailabilityProfile::shift(Pos first, Pos last, int delta, const ProcessorSet* set, bool free_set) {
  // With identity, only the words the set has bits in change (a job's processors are usually a few words of many).
  const std::uint64_t* mine = set ? set->words().data() : nullptr;
  std::size_t lo = 0, hi = 0;
  if (set) {
    hi = words_;
    while (lo < hi && mine[lo] == 0) ++lo;
    while (hi > lo && mine[hi - 1] == 0) --hi;
  }
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
        std::uint64_t* words = set_of(Pos{b, k});
        for (std::size_t w = lo; w < hi; ++w) words[w] = free_set ? (words[w] | mine[w]) : (words[w] & ~mine[w]);
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
  Pos first = split_at(start);
  const std::size_t blocks = blocks_.size();
  const Pos last = split_at(end, first);  // exclusive
  if (blocks_.size() != blocks) first = step_at(start);  // a block was split: `first` may have moved
  shift(first, last, delta, set, free_set);
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
  shift(pc, pe, -early, nullptr, early > 0);
  shift(pa, pb, early, nullptr, early < 0);
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
  for (std::size_t b = 0; b < p.b; ++b) count_ -= blocks_[b].n;
  blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<std::ptrdiff_t>(p.b));
  summary_.erase(summary_.begin(), summary_.begin() + static_cast<std::ptrdiff_t>(p.b));
  if (words_) sets_.erase(sets_.begin(), sets_.begin() + static_cast<std::ptrdiff_t>(p.b * kBlock * words_));
  blocks_.front().t[0] = -kForever;
  summary_.front().first = -kForever;
}

double AvailabilityProfile::first_free(double t, int processors) const {
  const Pos i = step_at(t);
  if (free_of(i) >= processors) return t;
  const Pos j = first_with_free(next(i), processors, kForever);
  return is_end(j) ? kForever : time_of(j);
}

int AvailabilityProfile::extreme_free(double start, double end, bool highest) const {
  const Pos i = step_at(start);
  int out = free_of(i);
  auto take = [&](int v) { out = highest ? std::max(out, v) : std::min(out, v); };
  const double until = end - kTimeTolerance;
  for (std::size_t b = i.b, k = i.k + 1; b < blocks_.size(); ++b, k = 0) {
    const Block& block = blocks_[b];
    if (k == 0) {
      if (summary_[b].first >= until) break;
      if (b + 1 < blocks_.size() && summary_[b + 1].first < until) {  // the whole block lies in the window
        take(highest ? summary_[b].highest : summary_[b].lowest);
        continue;
      }
    }
    for (; k < block.n; ++k) {
      if (block.t[k] >= until) return out;
      take(block.f[k] + block.lazy);
    }
  }
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
  // As earliest_start, plus the common free set of the window. A step short of processors blocks every window
  // that contains it (jump past it); a window whose counts suffice but whose common set is too small moves one
  // step on. The windows' steps [lo, hi) only move forward, so their AND is kept by the two-stack sliding-window
  // aggregation: the front part [lo, mid) as suffix ANDs, the back part [mid, hi) as one running AND; amortised
  // O(words) a step instead of O(words x window).
  // Positions go with their ordinals (steps from the search's first step) to index the suffix ANDs.
  struct At {
    Pos p;
    std::size_t o = 0;
  };
  const std::size_t W = words_;
  std::vector<std::uint64_t> suffix;            // suffix[(k - lo_base) * W ...]: AND of steps k..mid-1
  std::vector<std::uint64_t> back(W), common(W);
  At lo, mid, hi;  // lo is also the window's first step
  std::size_t lo_base = 0;
  auto advance = [&](At& x) { x.p = next(x.p); ++x.o; };
  auto reset = [&](At x) { lo = mid = hi = x; lo_base = x.o; };
  auto rebuild_front = [&] {  // moves the back part to the front, as suffix ANDs
    lo_base = lo.o;
    suffix.assign((hi.o - lo.o) * W, 0);
    Pos k = hi.p;
    for (std::size_t ko = hi.o; ko-- > lo.o;) {
      k = prev(k);
      std::uint64_t* out = suffix.data() + (ko - lo_base) * W;
      const std::uint64_t* set = set_of(k);
      if (ko + 1 == hi.o) std::memcpy(out, set, W * sizeof(std::uint64_t));
      else
        for (std::size_t w = 0; w < W; ++w) out[w] = set[w] & out[W + w];
    }
    mid = hi;
  };
  double candidate = not_before;
  reset(At{step_at(not_before), 0});
  while (candidate <= latest_start + kTimeTolerance) {
    bool blocked = false;
    while (!is_end(hi.p) && (hi.o == lo.o || time_of(hi.p) < candidate + duration - kTimeTolerance)) {
      if (free_of(hi.p) < processors) {
        blocked = true;
        break;
      }
      const std::uint64_t* set = set_of(hi.p);
      if (hi.o == mid.o) std::memcpy(back.data(), set, W * sizeof(std::uint64_t));
      else
        for (std::size_t w = 0; w < W; ++w) back[w] &= set[w];
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
    // The window's steps are [lo, hi).
    if (lo.o == mid.o) rebuild_front();
    const std::uint64_t* front = suffix.data() + (lo.o - lo_base) * W;
    for (std::size_t w = 0; w < W; ++w) common[w] = front[w] & (mid.o < hi.o ? back[w] : ~std::uint64_t{0});
    if (popcount_words(common.data(), W) >= processors)
      return Slot{candidate, lowest_of_words(common.data(), capacity_, processors)};
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
  const ProcessorSet common = free_over(start, start + duration);
  if (common.count() < processors) return std::nullopt;
  return Slot{start, common.lowest(processors)};
}

ProcessorSet AvailabilityProfile::free_over(double start, double end) const {
  if (!words_) throw std::logic_error("free_over needs a profile with processor identity");
  ProcessorSet common(capacity_);
  Pos i = step_at(start);
  std::memcpy(common.words().data(), set_of(i), words_ * sizeof(std::uint64_t));
  for (i = next(i); !is_end(i) && time_of(i) < end - kTimeTolerance; i = next(i)) {
    const std::uint64_t* words = set_of(i);
    for (std::size_t w = 0; w < words_; ++w) common.words()[w] &= words[w];
  }
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
