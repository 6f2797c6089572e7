// Exact minimum-cost DBC schedule by bin completion (see dbc_bnb.hpp). Our own.
// PEs ("bins") are filled one at a time, cheapest pool first, each with a whole set of the remaining jobs.
// Pruning: (1) the LP relaxation of the remaining jobs (below); (2) dominance: a bin's set is maximal (no remaining
// job still fits in it); (3) symmetry: inside a pool of identical PEs, loads do not increase from bin to bin.
// (2) and (3) together keep an optimum: among minimum-cost schedules take the one whose per-pool sorted loads are
// lexicographically largest (pools cheapest first); moving a later job into a bin where it fits never costs more and
// makes that vector larger, so in it every bin is maximal. (2) may raise the makespan, so the makespan tie-break is
// a second phase: minimum cost again, capped at the proven minimum, under a per-PE limit just below the best
// makespan (usually already impossible), bisecting between the shortest impossible limit and the best when not.
// The bound: a job's cost on a pool is cost-per-MI x length whatever the job, so only the MI each bin receives
// matters. A job may be split over bins where it fits whole (nested eligibility: the longer the job, the fewer the
// bins); a bin holds at most the largest subset sum of the remaining lengths within its room (exact on a decimal
// grid of lengths, else the one-job cap), and no more than the bin before it in the same pool. The greedy that
// takes the jobs longest first, each filling the cheapest eligible capacity, is optimal for that relaxation.
#include "solver/dbc_bnb.hpp"
#include "model/stop.hpp"

#include "solver/dbc_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>

namespace schedcheck::dbc {

namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kCostSlack = 1e-9;      // relative: two costs this close are equal (then makespan decides), as the DP
constexpr double kEligibleSlack = 1e-9;  // relative: the bound's rooms are looser than fits(), never tighter
constexpr double kMakespanStep = 1e-8;   // relative: phase 2 asks for a makespan shorter by at least this
constexpr unsigned kClockEvery = 256;    // nodes (and enumerated sets) between two looks at the clock
constexpr double kMaxGridBits = 1 << 22;  // subset-sum bitsets longer than this (in grid units) fall back to caps
constexpr std::size_t kMaxGridWords = std::size_t{1} << 23;  // and their suffix table (n + 1 bitsets) to 64 MB
constexpr std::size_t kMaxListed = std::size_t{1} << 24;     // job entries in enumerated sets, all depths (64 MB)
constexpr std::size_t kMaxBand = std::size_t{1} << 20;       // job entries in the sets of one band (4 MB)

struct Pool {  // resources with equal MIPS and cost: one pool of identical PEs
  double mips = 0, cost = 0;
  std::vector<std::pair<std::size_t, int>> members;  // (resource index, usable PEs) in file order
  std::size_t pes = 0;                               // sum of usable PEs, capped at the number of jobs
};

struct Class {  // bins of the LP relaxation that share cost, room and capacity (and pool: which jobs may run there)
  double cost, room, cap, count;
  std::size_t pool;
};

struct Found {  // a complete schedule
  double cost = kInf, makespan = kInf;
  std::vector<std::size_t> bin_of;  // per job position (longest first): its bin
};

class BinCompletion {
 public:
  BinCompletion(const Instance& instance, SteadyClock::time_point stop_at) : instance_(instance), stop_at_(stop_at) {
    const std::size_t n = instance.jobs.size();
    for (std::size_t r = 0; r < instance.resources.size(); ++r) {
      const Resource& res = instance.resources[r];
      const int usable = usable_pes(instance, res);
      if (usable <= 0) continue;
      const double rate = cost_per_mi(instance, res);  // equal MIPS and cost: equal in either cost unit
      auto same = std::find_if(pools_.begin(), pools_.end(),
                               [&](const Pool& p) { return p.mips == res.mips && p.cost == rate; });
      if (same == pools_.end()) {
        pools_.push_back(Pool{res.mips, rate, {}, 0});
        same = pools_.end() - 1;
      }
      same->members.emplace_back(r, usable);
      same->pes = std::min<std::size_t>(n, same->pes + static_cast<std::size_t>(usable));
    }
    std::sort(pools_.begin(), pools_.end(), [](const Pool& a, const Pool& b) {
      return a.cost != b.cost ? a.cost < b.cost : a.mips > b.mips;  // cheapest first, then fastest
    });
    for (std::size_t k = 0; k < pools_.size(); ++k) {
      pool_first_bin_.push_back(bin_pool_.size());
      bin_pool_.insert(bin_pool_.end(), pools_[k].pes, k);
    }
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return instance.jobs[a].length > instance.jobs[b].length; });
    length_.resize(n);
    duration_.assign(n, std::vector<double>(pools_.size()));
    cost_.assign(n, std::vector<double>(pools_.size()));
    eligible_.assign(n, std::vector<char>(pools_.size()));
    for (std::size_t i = 0; i < n; ++i) {
      const Job& job = instance.jobs[order_[i]];
      length_[i] = job.length;
      for (std::size_t k = 0; k < pools_.size(); ++k) {
        const Resource& res = instance.resources[pools_[k].members.front().first];
        duration_[i][k] = duration(res, job);
        cost_[i][k] = job_cost(instance, res, job);
        eligible_[i][k] = eligible(instance, res, job);  // by length: the longest jobs are the ineligible ones
      }
    }
    choose_grid();
  }

  std::size_t nodes() const { return nodes_; }
  bool stopped() const { return stopped_; }
  bool out_of_memory() const { return out_of_memory_; }  // stopped by kMaxListed rather than by the clock

  // A first schedule, longest job first onto the least-loaded PE of the cheapest pool where it fits (cost kInf
  // when a job fits nowhere). Only a starting incumbent: it lets a search stopped early still answer.
  Found greedy(double limit) const {
    Found g;
    g.bin_of.assign(order_.size(), 0);
    std::vector<double> load(bin_pool_.size(), 0.0);
    double cost = 0;
    for (std::size_t i = 0; i < order_.size(); ++i) {
      std::size_t chosen = bin_pool_.size();
      for (std::size_t b = 0; b < bin_pool_.size(); ++b) {
        if (chosen < bin_pool_.size() && bin_pool_[b] != bin_pool_[chosen]) break;  // cheapest pool that fits
        if (eligible_[i][bin_pool_[b]] && fits(load[b] + duration_[i][bin_pool_[b]], limit) &&
            (chosen == bin_pool_.size() || load[b] < load[chosen]))
          chosen = b;
      }
      if (chosen == bin_pool_.size()) return Found{};
      load[chosen] += duration_[i][bin_pool_[chosen]];
      cost += cost_[i][bin_pool_[chosen]];
      g.bin_of[i] = chosen;
    }
    g.cost = cost;
    g.makespan = load.empty() ? 0 : *std::max_element(load.begin(), load.end());
    return g;
  }

  // The LP bound of the whole instance under per-PE limit `limit` (kInf: even the relaxation has no solution).
  double root_bound(double limit) {
    set_limit(limit);
    std::vector<std::uint32_t> all(order_.size());
    std::iota(all.begin(), all.end(), std::uint32_t{0});
    std::vector<double> caps;
    loose_caps(all, 0, caps);
    if (!pools_.empty()) exact_caps(all, 0, caps);
    return relaxation(all, 0, kInf, kInf, caps);
  }

  // The cheapest schedule with every PE done by `limit` and cost <= `cutoff` (phase 1: each one found lowers the
  // cutoff below itself; `first_only`: stop at the first, as phase 2 does). nullopt-like: cost kInf when none.
  Found search(double limit, double cutoff, bool first_only) {
    set_limit(limit);
    cutoff_ = cutoff;
    first_only_ = first_only;
    best_ = Found{};
    finished_ = false;
    const std::size_t n = order_.size();
    levels_.assign(bin_pool_.size() + 2, Level{});  // depth <= bins + 1; never resized during the search
    listed_ = 0;
    levels_[0].remaining.resize(n);
    std::iota(levels_[0].remaining.begin(), levels_[0].remaining.end(), std::uint32_t{0});
    bin_of_.assign(n, 0);
    visit(0, 0, 0.0, 0.0, kInf);
    return best_;
  }

  Schedule schedule(const Found& found) const {
    Schedule s = empty_schedule(instance_);
    std::vector<double> clock(bin_pool_.size(), 0.0);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const std::size_t bin = found.bin_of[i], k = bin_pool_[bin];
      std::size_t local = bin - pool_first_bin_[k];  // pool PE -> (member resource, its PE)
      for (const auto& [r, usable] : pools_[k].members) {
        if (local < static_cast<std::size_t>(usable)) {
          s.resource[order_[i]] = static_cast<int>(r);
          s.pe[order_[i]] = static_cast<int>(local);
          break;
        }
        local -= static_cast<std::size_t>(usable);
      }
      s.start[order_[i]] = clock[bin];
      clock[bin] += duration_[i][k];
    }
    return s;
  }

 private:
  struct Candidate {  // one set of jobs for the bin being filled
    std::size_t first, count;  // positions in Level::members
    double length;             // total MI
  };
  struct Level {  // per depth: the remaining jobs (positions, longest first), their caps, the sets for its bin
    std::vector<std::uint32_t> remaining, members;
    std::vector<double> cap;  // per pool: the most MI one bin can hold from `remaining` (loose_caps, exact_caps)
    std::vector<Candidate> candidates;
  };

  // Lengths on a decimal grid (x 1, 10, ..., 1e4 integral) make subset sums exact integers.
  void choose_grid() {
    grid_ = false;
    if (length_.empty()) return;
    for (double s = 1; s <= 1e4; s *= 10) {
      bool ok = true;
      for (double l : length_) {
        const double x = l * s;
        if (!(x < kMaxGridBits) || std::fabs(x - std::round(x)) > 1e-6) { ok = false; break; }
      }
      if (ok) { scale_ = s; grid_ = true; break; }
    }
    if (!grid_) return;
    units_.resize(length_.size());
    for (std::size_t i = 0; i < length_.size(); ++i) units_[i] = std::llround(length_[i] * scale_);
  }

  void set_limit(double limit) {
    limit_ = limit;
    room_.resize(pools_.size());
    room_units_.resize(pools_.size());
    for (std::size_t k = 0; k < pools_.size(); ++k) {
      const double mi = slack_limit(limit) * pools_[k].mips;
      room_[k] = mi * (1 + kEligibleSlack) + kEligibleSlack;
      room_units_[k] = grid_ && room_[k] * scale_ < kMaxGridBits
                           ? static_cast<std::int64_t>(std::floor(room_[k] * scale_ + 1e-6)) : -1;
    }
  }

  // Per pool k >= `from_pool`: cap[k] = an upper bound on the MI one bin of it can hold from `remaining` without
  // subset sums: the total when everything fits, the longest job that fits when two do not, else the room.
  void loose_caps(const std::vector<std::uint32_t>& remaining, std::size_t from_pool, std::vector<double>& cap) const {
    cap.assign(pools_.size(), 0);
    double total = 0;
    for (std::uint32_t j : remaining) total += length_[j];
    const double shortest = remaining.empty() ? 0 : length_[remaining.back()];
    for (std::size_t k = from_pool; k < pools_.size(); ++k) {
      cap[k] = std::min(room_[k], total);
      if (room_[k] < 2 * shortest && room_[k] < total) {
        cap[k] = 0;
        for (std::uint32_t j : remaining)
          if (length_[j] <= room_[k] && eligible_[j][k]) { cap[k] = length_[j]; break; }
      }
    }
  }

  // Tightens `cap` (from loose_caps) on the grid: a bin whose room is at most that of pool `from_pool` holds at
  // most the largest subset sum of `remaining` within its room. Fills suffix_ (per position t of `remaining`: the
  // subset sums of remaining[t..], words_ words each) wide enough for a bin of pool `from_pool`; suffix_ready_ says
  // whether it did (off the grid, or too wide).
  void exact_caps(const std::vector<std::uint32_t>& remaining, std::size_t from_pool, std::vector<double>& cap) {
    suffix_ready_ = false;
    if (!grid_ || room_units_[from_pool] < 0) return;
    std::int64_t total_units = 0;
    for (std::uint32_t j : remaining) total_units += units_[j];
    const std::int64_t top = std::min(room_units_[from_pool], total_units);
    words_ = static_cast<std::size_t>(top) / 64 + 1;
    if ((remaining.size() + 1) * words_ > kMaxGridWords) return;
    build_suffix_sums(remaining);
    suffix_ready_ = true;
    for (std::size_t k = from_pool; k < pools_.size(); ++k) {
      if (room_units_[k] < 0 || room_units_[k] > top) continue;  // wider than the bitsets: the loose cap stays
      const std::int64_t best = largest_reachable(suffix_.data(), room_units_[k], 0);
      cap[k] = std::min(cap[k], static_cast<double>(best) / scale_ * (1 + 1e-12) + 1e-9);
    }
  }

  void build_suffix_sums(const std::vector<std::uint32_t>& remaining) {
    const std::size_t m = remaining.size();
    suffix_.resize((m + 1) * words_);  // every row below is written in full
    std::fill(suffix_.begin() + static_cast<std::ptrdiff_t>(m * words_), suffix_.end(), 0);
    suffix_[m * words_] = 1;  // the empty set
    for (std::size_t t = m; t-- > 0;) {
      const std::uint64_t* from = suffix_.data() + (t + 1) * words_;
      std::uint64_t* to = suffix_.data() + t * words_;
      const std::size_t shift = static_cast<std::size_t>(units_[remaining[t]]);
      const std::size_t ws = shift / 64, bs = shift % 64;
      for (std::size_t w = 0; w < words_; ++w) {
        std::uint64_t v = from[w];
        if (w >= ws) {
          const std::size_t src = w - ws;
          v |= bs ? (from[src] << bs) | (src > 0 ? from[src - 1] >> (64 - bs) : 0) : from[src];
        }
        to[w] = v;
      }
    }
  }

  // The largest set bit of `bits` in [lo, hi] (grid units), or -1 when there is none.
  std::int64_t largest_reachable(const std::uint64_t* bits, std::int64_t hi, std::int64_t lo) const {
    hi = std::min<std::int64_t>(hi, static_cast<std::int64_t>(words_ * 64) - 1);
    if (hi < lo || hi < 0) return -1;
    lo = std::max<std::int64_t>(lo, 0);
    std::size_t w = static_cast<std::size_t>(hi) / 64;
    const std::size_t bit = static_cast<std::size_t>(hi) % 64;
    std::uint64_t v = bits[w] & (bit == 63 ? ~0ULL : ((1ULL << (bit + 1)) - 1));
    const std::size_t lo_word = static_cast<std::size_t>(lo) / 64;
    while (true) {
      if (v) {
        const std::int64_t found = static_cast<std::int64_t>(w * 64 + 63 - __builtin_clzll(v));
        return found >= lo ? found : -1;
      }
      if (w == lo_word) return -1;
      v = bits[--w];
    }
  }

  // The LP relaxation's cost for `remaining` on the bins from `bin` on, the bin `bin` itself holding at most
  // `first_cap` MI and the later bins of its pool at most `same_pool_cap` MI each (`cap` from loose_caps / exact_caps).
  double relaxation(const std::vector<std::uint32_t>& remaining, std::size_t bin, double first_cap,
                    double same_pool_cap, const std::vector<double>& cap) {
    if (remaining.empty()) return 0;
    classes_.clear();
    if (bin < bin_pool_.size()) {
      const std::size_t k = bin_pool_[bin];
      const double later = static_cast<double>(pool_first_bin_[k] + pools_[k].pes - bin - 1);
      classes_.push_back(Class{pools_[k].cost, room_[k], std::min(cap[k], first_cap), 1, k});
      if (later > 0) classes_.push_back(Class{pools_[k].cost, room_[k], std::min(cap[k], same_pool_cap), later, k});
      for (std::size_t p = k + 1; p < pools_.size(); ++p)
        classes_.push_back(Class{pools_[p].cost, room_[p], cap[p], static_cast<double>(pools_[p].pes), p});
    }
    for (Class& c : classes_) c.cap *= c.count;  // from here on: the class's capacity left
    double total = 0;
    for (std::uint32_t j : remaining) {
      double need = length_[j];
      for (Class& c : classes_) {
        if (c.cap <= 0 || c.room < length_[j] || !eligible_[j][c.pool]) continue;
        const double take = std::min(need, c.cap);
        c.cap -= take;
        need -= take;
        total += take * c.cost;
        if (need <= 0) break;
      }
      if (need > kEligibleSlack * length_[j]) return kInf;
    }
    return total;
  }

  bool out_of_time() {
    if (stopped_) return true;
    if (++ticks_ % kClockEvery == 0 && (SteadyClock::now() >= stop_at_ || stop_requested())) stopped_ = true;
    return stopped_;
  }

  // Fill bin `bin` (depth `depth` holds the remaining jobs); `previous` = MI of the previous bin of the same pool.
  void visit(std::size_t bin, std::size_t depth, double cost, double span, double previous) {
    ++nodes_;
    if (out_of_time()) return;
    Level& here = levels_[depth];
    if (here.remaining.empty()) {
      if (cost <= cutoff_) {
        best_ = Found{cost, span, bin_of_};
        cutoff_ = cost - kCostSlack * std::max(1.0, std::fabs(cost));  // phase 1: only a cheaper one from here on
        finished_ = first_only_;
      }
      return;
    }
    if (bin == bin_pool_.size()) return;
    const std::size_t k = bin_pool_[bin];
    if (bin == pool_first_bin_[k]) previous = kInf;
    // f(s): the bound when this bin holds s MI (then so do at most the later bins of its pool); non-increasing.
    const auto f = [&](double s) { return cost + relaxation(here.remaining, bin, s, s, here.cap); };
    loose_caps(here.remaining, k, here.cap);
    if (!(f(previous) <= cutoff_)) return;  // pruned before any subset sum is built
    exact_caps(here.remaining, k, here.cap);
    if (!(f(previous) <= cutoff_)) return;
    double least = 0;  // sets of less MI cannot lead under the cutoff
    if (f(0) > cutoff_) {
      double lo = 0, hi = std::min(here.cap[k], previous);  // f(lo) > cutoff >= f(hi)
      for (int step = 0; step < 60 && hi - lo > 1e-9 * std::max(1.0, hi); ++step) {
        const double mid = (lo + hi) / 2;
        (f(mid) > cutoff_ ? lo : hi) = mid;
      }
      least = lo;
    }
    // The sets come in bands of MI, largest first, each sorted: a band that would list more than kMaxBand jobs is
    // halved and listed again, a small one doubles the next.
    const double tolerance = 1e-9 * std::max(1.0, room_[k]);
    const double lowest = least - tolerance;  // exclusive
    double high = std::min(room_[k], previous + tolerance), width = high - lowest;
    Level& next = levels_[depth + 1];
    while (high > lowest) {
      const double low = std::max(lowest, high - width);
      if (!enumerate(depth, k, low, high)) {
        if (stopped_) return;
        width /= 2;
        if (!(high - width < high)) {  // one MI value alone lists too many sets
          stopped_ = out_of_memory_ = true;
          return;
        }
        continue;
      }
      std::sort(here.candidates.begin(), here.candidates.end(),
                [](const Candidate& a, const Candidate& b) { return a.length > b.length; });
      for (const Candidate& c : here.candidates) {
        if (f(c.length) > cutoff_) return;  // children come by decreasing MI: the rest cannot lead under the cutoff
        next.remaining.clear();
        double added = 0, busy = 0;
        const auto in_set = here.members.begin() + static_cast<std::ptrdiff_t>(c.first);
        std::size_t s = 0;
        for (std::uint32_t j : here.remaining) {
          if (s < c.count && in_set[static_cast<std::ptrdiff_t>(s)] == j) {
            ++s;
            bin_of_[j] = bin;
            added += cost_[j][k];
            busy += duration_[j][k];
          } else {
            next.remaining.push_back(j);
          }
        }
        visit(bin + 1, depth + 1, cost + added, std::max(span, busy), c.length);
        if (stopped_ || finished_) return;
      }
      if (here.members.size() < kMaxBand / 4) width *= 2;
      high = low;
    }
  }

  // Every maximal set of levels_[depth].remaining for a bin of pool k with more than `low` and at most `high` MI:
  // it fits the limit and no job left out still fits; of identical jobs it takes the first ones (they are
  // interchangeable). Into levels_[depth].candidates / members; false when that would list over kMaxBand jobs.
  bool enumerate(std::size_t depth, std::size_t k, double low, double high) {
    Level& here = levels_[depth];
    listed_ -= here.members.size();
    here.candidates.clear();
    here.members.clear();
    chosen_.clear();
    band_full_ = false;
    enum_least_ = low;
    enum_most_ = high;
    if (suffix_ready_) {
      enum_most_units_ = std::min(static_cast<std::int64_t>(std::floor(enum_most_ * scale_ + 1e-6)), room_units_[k]);
    } else {  // without subset sums, extend() prunes on the total of the lengths still to decide
      enum_suffix_total_.assign(here.remaining.size() + 1, 0);
      for (std::size_t t = here.remaining.size(); t-- > 0;)
        enum_suffix_total_[t] = enum_suffix_total_[t + 1] + length_[here.remaining[t]];
    }
    extend(depth, k, 0, 0.0, 0, kInf);
    listed_ += here.members.size();
    return !band_full_;
  }

  // Depth-first over remaining[t..]: include or leave out each job (longest first).
  void extend(std::size_t depth, std::size_t k, std::size_t t, double length, std::int64_t units, double shortest_out) {
    if (band_full_ || out_of_time()) return;
    Level& here = levels_[depth];
    const std::vector<std::uint32_t>& remaining = here.remaining;
    // maximal: the shortest job left out must not fit beside the set (pruned only when it clearly fits by the exact
    // room, so that fits() at the leaf has the last word)
    const double exact_room = slack_limit(limit_) * pools_[k].mips;
    const double need = std::max(enum_least_, shortest_out == kInf
                                                  ? -kInf
                                                  : exact_room - shortest_out - 1e-9 * std::max(1.0, exact_room));
    if (suffix_ready_) {
      const std::int64_t lo = static_cast<std::int64_t>(std::ceil((need - length) * scale_ - 1e-6));
      if (largest_reachable(suffix_.data() + t * words_, enum_most_units_ - units, std::max<std::int64_t>(lo, 0)) < 0)
        return;
    } else if (length + enum_suffix_total_[t] < need || length > enum_most_) {
      return;
    }
    if (t == remaining.size()) {
      if (length > enum_most_ || !(length > enum_least_)) return;
      double d = 0;
      for (std::uint32_t j : chosen_) d += duration_[j][k];
      if (!fits(d, limit_)) return;
      double out = kInf;  // the shortest job left out (remaining is longest first)
      for (std::size_t q = remaining.size(), c = chosen_.size(); q-- > 0;) {
        if (c > 0 && chosen_[c - 1] == remaining[q]) { --c; continue; }
        if (eligible_[remaining[q]][k]) out = duration_[remaining[q]][k];  // else every one left out is longer
        break;
      }
      if (out != kInf && fits(d + out, limit_)) return;  // not maximal
      if (here.members.size() + chosen_.size() > kMaxBand) {
        band_full_ = true;
        return;
      }
      if (listed_ + here.members.size() + chosen_.size() > kMaxListed) {
        stopped_ = out_of_memory_ = true;
        return;
      }
      here.candidates.push_back(Candidate{here.members.size(), chosen_.size(), length});
      here.members.insert(here.members.end(), chosen_.begin(), chosen_.end());
      return;
    }
    const std::uint32_t j = remaining[t];
    if (!eligible_[j][k]) {  // longer than one request may run here: never in the set, nor "left out" for maximality
      extend(depth, k, t + 1, length, units, shortest_out);
      return;
    }
    if (length + length_[j] <= enum_most_ && length_[j] != shortest_out) {  // identical jobs: the first ones
      chosen_.push_back(j);
      extend(depth, k, t + 1, length + length_[j], grid_ ? units + units_[j] : 0, shortest_out);
      chosen_.pop_back();
    }
    extend(depth, k, t + 1, length, units, length_[j]);
  }

  const Instance& instance_;
  const SteadyClock::time_point stop_at_;
  std::vector<Pool> pools_;
  std::vector<std::size_t> bin_pool_, pool_first_bin_;  // per bin its pool; per pool its first bin
  std::vector<std::size_t> order_;                      // job positions, longest first -> instance index
  std::vector<double> length_;
  std::vector<std::vector<double>> duration_, cost_;    // per job position and pool
  std::vector<std::vector<char>> eligible_;             // per job position and pool: duration <= maxTr
  bool grid_ = false;
  double scale_ = 1;
  std::vector<std::int64_t> units_;                     // lengths in grid units
  double limit_ = 0;
  std::vector<double> room_;                            // per pool: the MI a bin holds by the limit (loose)
  std::vector<std::int64_t> room_units_;
  std::size_t words_ = 0;
  bool suffix_ready_ = false;
  std::vector<std::uint64_t> suffix_;
  std::vector<Class> classes_;
  std::vector<Level> levels_;
  std::vector<std::uint32_t> chosen_;
  std::vector<double> enum_suffix_total_;
  double enum_least_ = 0, enum_most_ = 0;
  std::int64_t enum_most_units_ = 0;
  std::vector<std::size_t> bin_of_;
  double cutoff_ = kInf;
  bool first_only_ = false, finished_ = false, stopped_ = false;
  Found best_;
  bool out_of_memory_ = false, band_full_ = false;
  std::size_t nodes_ = 0, ticks_ = 0, listed_ = 0;
};

}  // namespace

ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options) {
  const auto started = SteadyClock::now();
  ExactResult<Schedule> result;
  for (const Resource& res : instance.resources) {
    if (lane_width(instance, res) == 1) continue;
    // A PE is a bin here; a lane of several PEs shares its request windows, which bins cannot express.
    const std::string why = fmt::format("{} has request lanes of {} PEs (maxProc > 1, maxPendingRequests below its "
                                        "usable PEs): bin completion does not model shared request windows",
                                        res.id, lane_width(instance, res));
    if (instance.jobs.size() > kDpMaxJobs) {
      result.detail = why + fmt::format("; the subset DP is limited to {} jobs", kDpMaxJobs);
    } else {
      result = solve_dp(instance, options);
      result.detail = why + "; answered by the subset DP" + (result.detail.empty() ? "" : ": " + result.detail);
    }
    result.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
    return result;
  }
  BinCompletion search(instance, started + std::chrono::milliseconds(options.timeout_ms));
  const double limit = horizon(instance);
  const double root = search.root_bound(limit);
  // Phase 1: the minimum cost, below the greedy schedule's when that one is within the budget.
  Found best = search.greedy(limit);
  if (!affordable(best.cost, instance.budget)) best = Found{};
  const double cutoff = best.cost < kInf ? best.cost - kCostSlack * std::max(1.0, std::fabs(best.cost))
                                         : slack_limit(instance.budget);
  if (Found cheaper = search.search(limit, cutoff, false); cheaper.cost < kInf) best = std::move(cheaper);
  const bool cost_proven = !search.stopped();
  // Phase 2: the shortest makespan at (within kCostSlack of) that cost, by bisection on the per-PE limit: no
  // schedule of that cost ends by `shortest_impossible`. The first probe asks for just below the best makespan
  // (often already impossible); then bisect until the two are within kMakespanStep.
  std::size_t rounds = 0;
  if (best.cost < kInf) {
    const double cost_cap = best.cost + kCostSlack * std::max(1.0, std::fabs(best.cost));
    double shortest_impossible = 0;
    bool just_below = true;
    while (!search.stopped()) {
      const double step = kMakespanStep * std::max(1.0, best.makespan);
      if (best.makespan - shortest_impossible <= step) break;
      const double probe = just_below ? best.makespan - step : (shortest_impossible + best.makespan) / 2;
      ++rounds;
      Found next = search.search(probe, cost_cap, true);
      if (search.stopped()) break;
      const bool impossible = next.cost == kInf;
      if (impossible && just_below) break;  // the best makespan is the shortest
      if (impossible) shortest_impossible = probe;
      else best = std::move(next);
      just_below = impossible;  // after an impossible midpoint, ask whether the best is already the shortest
    }
  }
  const std::string stop_text =
      search.out_of_memory()
          ? fmt::format("the limit of {} listed jobs in candidate sets", kMaxListed)
          : fmt::format("the time limit of {} ms", options.timeout_ms);
  if (best.cost < kInf) {
    result.decision = search.schedule(best);
    result.objective = total_cost(instance, *result.decision);
    result.status = search.stopped() ? ExactStatus::kFeasible : ExactStatus::kOptimal;
    if (!cost_proven)
      result.detail = fmt::format("{} was reached after {} nodes; cheapest schedule found kept (LP bound at the root {:.6g})",
                                  stop_text, search.nodes(), root);
    else if (search.stopped())
      result.detail = fmt::format("minimum cost proven, but {} stopped the makespan tie-break after {} nodes "
                                  "(LP bound at the root {:.6g})", stop_text, search.nodes(), root);
    else
      result.detail = fmt::format("proven by bin completion in {} nodes, {} makespan probe(s) (LP bound at the root "
                                  "{:.6g})", search.nodes(), rounds, root);
  } else if (search.stopped()) {
    result.detail = fmt::format("{} was reached after {} nodes before any schedule was found", stop_text, search.nodes());
  } else {
    result.status = ExactStatus::kInfeasible;
    result.detail = root == kInf
                        ? fmt::format("proven by bin completion: even split over the PEs where they fit, the jobs "
                                      "do not fit by {} s", limit)
                        : fmt::format("proven by bin completion: no schedule assigns every job by {} s within "
                                      "Babsolute = {} (LP bound at the root {:.6g} G$)",
                                      limit, instance.budget, root);
  }
  result.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
  return result;
}

}  // namespace schedcheck::dbc
