// Exact minimum-cost DBC schedule by bin completion (see dbc_bnb.hpp). Our own.
// PEs ("bins") are filled one at a time, cheapest pool first, each with a whole set of the remaining jobs.
// Pruning: (1) the LP relaxation of the remaining jobs (below); (2) dominance: a bin's set is maximal (no remaining
// job still fits in it) and, on the grid, no remaining job could replace a shorter one of the set within its room;
// (3) symmetry: inside a pool of identical PEs, loads do not increase from bin to bin; (4) a table of explored
// states: the same remaining jobs at the same bin, reached again at no lower cost and under no looser symmetry cap,
// cannot lead anywhere new. (2) and (3) together keep an optimum: among minimum-cost schedules take the one whose
// per-pool sorted loads are lexicographically largest (pools cheapest first); moving a later job into a bin where it
// fits, or swapping it with a shorter job there when the difference fits, never costs more and makes that vector
// larger, so in it every bin is maximal and undominated. The same holds under the tie-break's shorter limits.
// The bound: a job's cost on a pool is cost-per-MI x length whatever the job, so only the MI each bin receives
// matters. A job may be split over bins where it fits whole (nested eligibility: the longer the job, the fewer the
// bins); a bin holds at most the largest subset sum of the remaining lengths within its room (exact on a decimal
// grid of lengths, else the one-job cap), and no more than the bin before it in the same pool. The greedy that
// takes the jobs longest first, each filling the cheapest eligible capacity, is optimal for that relaxation.
// On the grid (lengths x 1, 10, ..., 1e4 integral) every cost is a multiple of a granule (the pools' costs per MI
// share a decimal gcd), so a bound within a granule of the best cost prunes; and the sets of a bin come lazily, by
// exact subset sum from the largest down, each sum's sets by a depth-first walk that the suffix subset-sum bitsets
// keep off dead ends (an excluded job must not fit beside the set: maximality). Off the grid, sets are listed in
// bands of MI (largest first) by a plain depth-first walk.
// Tie-break (minimum makespan among minimum-cost schedules): the same search, cost capped at the minimum, first
// schedule only, under shorter per-PE limits: first just below the best makespan (usually impossible at once), then
// at the least makespan the LP bound allows (a bisection over the limit on the root bound), then bisecting.
#include "solver/dbc_bnb.hpp"
#include "solver/dbc_exact.hpp"

#include "support/stack.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>

namespace schedcheck::dbc {

namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr double kEligibleSlack = 1e-9;  // relative: the bound's rooms are looser than fits(), never tighter
constexpr double kMakespanStep = 1e-8;   // relative: the tie-break asks for a makespan shorter by at least this
constexpr unsigned kClockEvery = 256;    // nodes (and set-walk steps) between two looks at the clock
constexpr std::int64_t kMaxGridBits = std::int64_t{1} << 22;  // PE capacities beyond this (grid units): off the grid
constexpr std::size_t kMaxGridWords = std::size_t{1} << 23;   // bitset words of one node (n + 1 rows): 64 MB
constexpr std::size_t kMaxListed = std::size_t{1} << 24;      // off the grid: job entries in listed sets (64 MB)
constexpr std::size_t kMaxBand = std::size_t{1} << 20;        // off the grid: job entries in one band (4 MB)
constexpr std::size_t kMaxMemo = std::size_t{1} << 18;        // explored states kept (about 16 MB)
constexpr std::size_t kBelowFirst = 3;   // tie-break: successes "just below the best" before bisecting

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

// A per-PE limit: every PE done by `time` (fits()); on the grid also, per pool, the most grid units one PE holds
// (the tie-break's limits are these capacities, so that "shorter than the best makespan" is exact).
struct Limit {
  double time = kInf;
  std::vector<std::int64_t> caps;
};

class BinCompletion {
 public:
  // `effort`: the budget in steps (nodes and set-walk steps, each call of out_of_time(); 0: none).
  BinCompletion(const Instance& instance, SteadyClock::time_point stop_at, std::uint64_t effort)
      : instance_(instance), stop_at_(stop_at), effort_(effort) {
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
    choose_grid(horizon(instance));
  }

  bool on_grid() const { return grid_; }
  std::size_t nodes() const { return nodes_; }
  bool stopped() const { return stopped_; }
  // The time limit (or a stop request) has come: checked between the tie-break's root bounds.
  bool expired() {
    if (!stopped_ && (effort_.spent() || SteadyClock::now() >= stop_at_ || stop_requested())) stopped_ = true;
    return stopped_;
  }
  bool effort_spent() const { return effort_.spent(); }
  bool out_of_memory() const { return out_of_memory_; }  // stopped by kMaxListed rather than by the clock

  // Every PE done by `t`; on the grid, per pool the largest whole number of units U with fits(U / (scale x MIPS)).
  Limit at(double t) const {
    Limit limit{t, {}};
    if (!grid_) return limit;
    for (const Pool& pool : pools_) {
      const double per = scale_ * pool.mips;
      const double top = std::floor(std::min(slack_limit(t) * per, static_cast<double>(total_units_) + 1));
      auto ok = [&](std::int64_t u) { return fits(static_cast<double>(u) / per, t); };
      std::int64_t u = std::max<std::int64_t>(0, static_cast<std::int64_t>(top));
      while (u > 0 && !ok(u)) --u;
      while (u <= total_units_ && ok(u + 1)) ++u;
      limit.caps.push_back(std::min(u, total_units_));
    }
    return limit;
  }
  // Every PE done strictly (by kMakespanStep) before `makespan`, and by `cap`.
  Limit below(double makespan, const Limit& cap) const {
    Limit limit = at(makespan - kMakespanStep * std::max(1.0, makespan));
    limit.time = std::min(limit.time, cap.time);
    for (std::size_t k = 0; k < limit.caps.size(); ++k) limit.caps[k] = std::min(limit.caps[k], cap.caps[k]);
    return limit;
  }
  // The least makespan beyond what at(t) admits: on the grid the next capacity of some pool, else t + a step.
  double next_makespan(double t) const {
    if (!grid_) return t + kMakespanStep * std::max(1.0, t);
    const Limit here = at(t);
    double next = kInf;
    for (std::size_t k = 0; k < pools_.size(); ++k)
      next = std::min(next, static_cast<double>(here.caps[k] + 1) / (scale_ * pools_[k].mips));
    return next;
  }
  // On the grid: `a` admits no PE load that `b` does not (so nothing is left to try between them).
  bool within(const Limit& a, const Limit& b) const {
    for (std::size_t k = 0; k < a.caps.size(); ++k)
      if (a.caps[k] > b.caps[k]) return false;
    return grid_;
  }

  // A first schedule, longest job first onto the least-loaded PE of the cheapest pool where it fits (cost kInf
  // when a job fits nowhere). Only a starting incumbent: it lets a search stopped early still answer.
  Found greedy(const Limit& limit) {
    set_limit(limit);
    Found g;
    g.bin_of.assign(order_.size(), 0);
    std::vector<double> load(bin_pool_.size(), 0.0);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      std::size_t chosen = bin_pool_.size();
      for (std::size_t b = 0; b < bin_pool_.size(); ++b) {
        if (chosen < bin_pool_.size() && bin_pool_[b] != bin_pool_[chosen]) break;  // cheapest pool that fits
        const std::size_t k = bin_pool_[b];
        if (eligible_[i][k] && holds(k, load[b] + length_[i]) && (chosen == bin_pool_.size() || load[b] < load[chosen]))
          chosen = b;
      }
      if (chosen == bin_pool_.size()) return Found{};
      load[chosen] += length_[i];
      g.bin_of[i] = chosen;
    }
    return finish(std::move(g));
  }

  // A valid full schedule (the policy's) as a bin assignment within `limit`; nullopt when it is not one (a job
  // left unassigned, or a PE beyond what the bins model: loads over a capacity by the validator's tolerance).
  std::optional<Found> adopt(const Schedule& s, const Limit& limit) {
    set_limit(limit);
    if (s.resource.size() != order_.size()) return std::nullopt;
    Found f;
    f.bin_of.assign(order_.size(), 0);
    std::vector<std::vector<std::pair<std::size_t, int>>> used(pools_.size());  // per pool: (resource, PE) seen
    std::vector<double> load(bin_pool_.size(), 0.0);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const int r = s.resource[order_[i]];
      if (r < 0) return std::nullopt;
      std::size_t k = pools_.size();
      for (std::size_t p = 0; p < pools_.size() && k == pools_.size(); ++p)
        for (const auto& member : pools_[p].members)
          if (member.first == static_cast<std::size_t>(r)) k = p;
      if (k == pools_.size() || !eligible_[i][k]) return std::nullopt;
      const std::pair<std::size_t, int> pe{static_cast<std::size_t>(r), s.pe[order_[i]]};
      auto seen = std::find(used[k].begin(), used[k].end(), pe);
      if (seen == used[k].end()) {
        if (used[k].size() == pools_[k].pes) return std::nullopt;
        used[k].push_back(pe);
        seen = used[k].end() - 1;
      }
      const std::size_t bin = pool_first_bin_[k] + static_cast<std::size_t>(seen - used[k].begin());
      load[bin] += length_[i];
      if (!holds(k, load[bin])) return std::nullopt;
      f.bin_of[i] = bin;
    }
    return finish(std::move(f));
  }

  // The jobs that fit on no PE alone within `limit` (or run longer than maxTr everywhere), by id.
  std::vector<std::string> lonely(const Limit& limit) {
    set_limit(limit);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < order_.size(); ++i) {
      bool anywhere = false;
      for (std::size_t k = 0; k < pools_.size() && !anywhere; ++k) anywhere = eligible_[i][k] && holds(k, length_[i]);
      if (!anywhere) ids.push_back(instance_.jobs[order_[i]].id);
    }
    return ids;
  }

  // The LP bound of the whole instance under `limit` (kInf: even the relaxation has no solution).
  double root_bound(const Limit& limit) {
    set_limit(limit);
    Level& root = levels_.emplace_back();
    root.remaining.resize(order_.size());
    std::iota(root.remaining.begin(), root.remaining.end(), std::uint32_t{0});
    if (grid_ && !pools_.empty()) {
      grid_totals(root, 0);
      grid_caps(root, 0, true, total_units_, pools_.front().pes);
    } else {
      loose_caps(root, 0);
    }
    const double bound = relaxation(root, 0, kInf, kInf);
    levels_.pop_back();
    return bound;
  }

  // The cheapest schedule within `limit` with cost <= `cutoff` (each one found lowers the cutoff below itself by a
  // granule; `first_only`: stop at the first, as the tie-break does). Cost kInf when none.
  Found search(const Limit& limit, double cutoff, bool first_only) {
    set_limit(limit);
    cutoff_ = cutoff;
    first_only_ = first_only;
    best_ = Found{};
    finished_ = false;
    memo_.clear();
    const std::size_t n = order_.size();
    levels_.assign(bin_pool_.size() + 2, Level{});  // depth <= bins + 1; never resized during the search
    listed_ = 0;
    levels_[0].remaining.resize(n);
    std::iota(levels_[0].remaining.begin(), levels_[0].remaining.end(), std::uint32_t{0});
    bin_of_.assign(n, 0);
    visit(0, 0, 0.0, kInf);
    levels_.clear();
    return best_;
  }

  // The cost `cost` must beat to count as cheaper: by a granule on the grid, else by the relative slack.
  double cheaper_than(double cost) const {
    const double scale = std::max(1.0, std::fabs(cost));
    return cost - std::max(kCostSlack * scale, granule_ - 1e-9 * scale);
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
  struct Candidate {  // off the grid: one listed set of jobs for the bin being filled
    std::size_t first, count;  // positions in Level::members
    double length;             // total MI
  };
  struct Level {  // per depth: the remaining jobs (positions, longest first), their caps, the sets for its bin
    std::vector<std::uint32_t> remaining, members;
    std::vector<double> cap;  // per pool: the most MI one bin can hold from `remaining`
    std::vector<double> agg;  // per pool: the most MI its bins left hold together (kInf: no more than the caps say)
    std::vector<double> prefix;  // per pool p: the most MI the pools from this bin's to p hold together (kInf: unknown)
    std::vector<Candidate> candidates;
    // grid: per position t of `remaining` the subset sums of remaining[t..] up to the bin's capacity (grid_rows),
    // the unit totals of remaining[t..], per pool the first position it may run (eligibility is by length: a
    // suffix), and the set being walked (positions in `remaining`)
    std::vector<std::uint64_t> sums;                // this level's own rows
    std::vector<const std::uint64_t*> row;          // per position: its row (own, or the parent's)
    std::vector<std::size_t> row_words;             // per row: the words it uses (the rest reads as 0)
    std::size_t words = 0, first = 0;
    const Level* parent = nullptr;                   // the level whose bin took the jobs missing here
    std::size_t shared_from = 0, shift = 0;          // rows from shared_from on are the parent's rows + shift
    std::vector<std::int64_t> total;
    std::vector<std::size_t> from;
    std::vector<std::uint32_t> chosen;
    double bound = 0;  // the bound of the sets being walked (their sum fixes it)
  };
  struct Key {
    std::uint64_t low, high;
    std::size_t bin;
    bool operator==(const Key& o) const { return low == o.low && high == o.high && bin == o.bin; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = k.low * 0x9E3779B97F4A7C15ULL ^ (k.high + 0x632BE59BD9B4E019ULL + (k.low << 6));
      return static_cast<std::size_t>(h ^ (h >> 29) ^ (k.bin * 0xBF58476D1CE4E5B9ULL));
    }
  };
  struct Explored {
    double cost, previous;  // explored in full from this cost, under this symmetry cap (MI)
  };

  // Lengths on a decimal grid (x 1, 10, ..., 1e4 integral) make subset sums exact integers; used when the PEs'
  // capacities at `limit` stay within kMaxGridBits and one node's bitsets within kMaxGridWords.
  void choose_grid(double limit) {
    grid_ = false;
    if (length_.empty() || pools_.empty()) return;
    for (double s = 1; s <= 1e4; s *= 10) {
      bool ok = true;
      for (double l : length_) {
        const double x = l * s;
        if (!(x < static_cast<double>(kMaxGridBits)) || std::fabs(x - std::round(x)) > 1e-6) { ok = false; break; }
      }
      if (ok) { scale_ = s; grid_ = true; break; }
    }
    if (!grid_) return;
    units_.resize(length_.size());
    total_units_ = 0;
    for (std::size_t i = 0; i < length_.size(); ++i) total_units_ += units_[i] = std::llround(length_[i] * scale_);
    const Limit full = at(limit);  // capacities only shrink from here (the tie-break's limits are shorter)
    const std::int64_t widest = std::min(*std::max_element(full.caps.begin(), full.caps.end()), total_units_);
    if (widest >= kMaxGridBits || (length_.size() + 1) * (static_cast<std::size_t>(widest) / 64 + 1) > kMaxGridWords) {
      grid_ = false;
      return;
    }
    // The granule: every pool's cost per MI is an integer multiple of g / 10^p; a cost is then a multiple of
    // g / 10^p / scale. None (0) when a cost per MI is not a short decimal.
    granule_ = 0;
    for (double p = 1; p <= 1e6; p *= 10) {
      std::int64_t g = 0;
      bool ok = true;
      for (const Pool& pool : pools_) {
        const double x = pool.cost * p;
        if (!(x < 1e12) || std::fabs(x - std::round(x)) > 1e-9 * std::max(1.0, x)) { ok = false; break; }
        g = std::gcd(g, std::llround(x));
      }
      if (ok) {
        granule_ = static_cast<double>(g) / p / scale_;
        break;
      }
    }
  }

  void set_limit(const Limit& limit) {
    limit_ = limit;
    room_.resize(pools_.size());
    for (std::size_t k = 0; k < pools_.size(); ++k)
      room_[k] = grid_ ? (static_cast<double>(limit.caps[k]) + 0.5) / scale_
                       : slack_limit(limit.time) * pools_[k].mips * (1 + kEligibleSlack) + kEligibleSlack;
  }

  // A PE of pool k may hold `mi` MI of jobs (the sum of their lengths; their durations must fit the limit).
  bool holds(std::size_t k, double mi) const {
    if (grid_) return std::llround(mi * scale_) <= limit_.caps[k];
    return fits(mi / pools_[k].mips, limit_.time);
  }

  Found finish(Found f) const {
    std::vector<double> busy(bin_pool_.size(), 0.0);
    f.cost = 0;
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const std::size_t k = bin_pool_[f.bin_of[i]];
      busy[f.bin_of[i]] += duration_[i][k];
      f.cost += cost_[i][k];
    }
    f.makespan = busy.empty() ? 0 : *std::max_element(busy.begin(), busy.end());
    return f;
  }

  // Off the grid, per pool k >= `from_pool`: cap[k] = an upper bound on the MI one bin of it can hold from
  // `remaining`: the total when everything fits, the longest job that fits when two do not, else the room.
  void loose_caps(Level& here, std::size_t from_pool) const {
    const std::vector<std::uint32_t>& remaining = here.remaining;
    std::vector<double>& cap = here.cap;
    here.agg.assign(pools_.size(), kInf);
    here.prefix.assign(pools_.size(), kInf);
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

  // On the grid, a level's unit totals of remaining[t..] and, per pool k >= `from_pool`, the first position whose
  // job may run there (eligibility is by length: a suffix).
  void grid_totals(Level& here, std::size_t from_pool) const {
    const std::vector<std::uint32_t>& remaining = here.remaining;
    const std::size_t m = remaining.size();
    here.total.assign(m + 1, 0);
    for (std::size_t t = m; t-- > 0;) here.total[t] = here.total[t + 1] + units_[remaining[t]];
    here.from.assign(pools_.size(), m);
    for (std::size_t k = from_pool; k < pools_.size(); ++k) {
      std::size_t t = 0;
      while (t < m && !eligible_[remaining[t]][k]) ++t;
      here.from[k] = t;
    }
  }

  // row `to` (width words) = row `from` (had words, the rest 0) | row `from` << shift units.
  static void shift_or(const std::uint64_t* __restrict from, std::size_t had, std::uint64_t* __restrict to,
                       std::size_t width, std::size_t shift) {
    const std::size_t ws = shift / 64, bs = shift % 64;
    const std::size_t copy = std::min({had, width, ws});
    std::size_t w = 0;
    for (; w < copy; ++w) to[w] = from[w];
    for (; w < std::min(width, ws); ++w) to[w] = 0;
    if (ws >= width) return;
    // w >= ws: to[w] = from[w] | from[w - ws] << bs | from[w - ws - 1] >> (64 - bs), each only where it exists
    const std::size_t end = std::min(width, ws + had + (bs ? 1 : 0));
    if (bs == 0) {
      for (; w < std::min(end, had); ++w) to[w] = from[w] | from[w - ws];
      for (; w < end; ++w) to[w] = from[w - ws];
    } else {
      to[w] = (w < had ? from[w] : 0) | from[0] << bs;
      ++w;
      const std::size_t full = std::min(end, ws + had);  // both shifted sources exist below this
      for (; w < std::min(full, had); ++w) to[w] = from[w] | from[w - ws] << bs | from[w - ws - 1] >> (64 - bs);
      for (; w < full; ++w) to[w] = from[w - ws] << bs | from[w - ws - 1] >> (64 - bs);
      for (; w < end; ++w) to[w] = (w < had ? from[w] : 0) | from[w - ws - 1] >> (64 - bs);
    }
    for (; w < width; ++w) to[w] = w < had ? from[w] : 0;
  }

  // The largest set bit of `bits` (`words` words) in [lo, hi], or -1 when there is none.
  static std::int64_t largest_set(const std::uint64_t* bits, std::size_t words, std::int64_t hi, std::int64_t lo) {
    hi = std::min<std::int64_t>(hi, static_cast<std::int64_t>(words * 64) - 1);
    if (hi < lo || hi < 0) return -1;
    lo = std::max<std::int64_t>(lo, 0);
    std::size_t w = static_cast<std::size_t>(hi) / 64;
    const std::size_t bit = static_cast<std::size_t>(hi) % 64;
    std::uint64_t v = bits[w] & (bit == 63 ? ~0ULL : ((1ULL << (bit + 1)) - 1));
    const std::size_t lo_word = static_cast<std::size_t>(lo) / 64;
    while (true) {
      if (v) {
        const std::int64_t found = static_cast<std::int64_t>(w * 64 + 63 - static_cast<std::size_t>(__builtin_clzll(v)));
        return found >= lo ? found : -1;
      }
      if (w == lo_word) return -1;
      v = bits[--w];
    }
  }

  // The smallest set bit of `bits` (`words` words) in [lo, hi], or -1 when there is none.
  static std::int64_t smallest_set(const std::uint64_t* bits, std::size_t words, std::int64_t lo, std::int64_t hi) {
    hi = std::min<std::int64_t>(hi, static_cast<std::int64_t>(words * 64) - 1);
    lo = std::max<std::int64_t>(lo, 0);
    if (hi < lo) return -1;
    std::size_t w = static_cast<std::size_t>(lo) / 64;
    std::uint64_t v = bits[w] & (~0ULL << (static_cast<std::size_t>(lo) % 64));
    const std::size_t hi_word = static_cast<std::size_t>(hi) / 64;
    while (true) {
      if (v) {
        const std::int64_t found = static_cast<std::int64_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(v)));
        return found <= hi ? found : -1;
      }
      if (w == hi_word) return -1;
      v = bits[++w];
    }
  }

  // On the grid (after grid_totals): per pool k >= `from_pool`, here.cap = the most MI one bin of it holds: the
  // largest subset sum of the jobs that may run there within its capacity, exact when the one-row subset-sum pass
  // covers it (pool `from_pool`'s capacity; every pool's when `every_pool`), else the capacity or all those jobs.
  // here.agg = the most MI all its bins left hold together (`bins_left` of pool `from_pool`, every bin of the
  // others): the largest subset sum of those jobs within the bins' caps added up (a surrogate relaxation), when the
  // same pass covers it, directly or as the total less the smallest subset sum reaching the excess (sums near the
  // total are sparse); else the caps added up. Returns the largest subset sum of pool `from_pool`'s jobs up to
  // `most` units (its bin's best set when the previous bin of its pool held `most`).
  std::int64_t grid_caps(Level& here, std::size_t from_pool, bool every_pool, std::int64_t most, std::size_t bins_left) {
    const std::size_t m = here.remaining.size(), pools = pools_.size();
    std::size_t first = m;  // the pass covers every pool's jobs (the current pool's, and the longer ones of faster pools)
    for (std::size_t k = from_pool; k < pools; ++k) first = std::min(first, here.from[k]);
    std::int64_t top = std::min(limit_.caps[from_pool], here.total[here.from[from_pool]]);
    if (every_pool)
      for (std::size_t k = from_pool; k < pools; ++k) top = std::max(top, std::min(limit_.caps[k], here.total[here.from[k]]));
    const std::size_t words = static_cast<std::size_t>(top) / 64 + 1;
    scratch_[0].resize(words);
    scratch_[1].resize(words);
    std::uint64_t* row = scratch_[0].data();
    std::uint64_t* spare = scratch_[1].data();
    row[0] = 1;
    std::size_t width = 1;
    std::int64_t best = -1;
    here.cap.assign(pools, 0);
    here.agg.assign(pools, kInf);
    here.prefix.assign(pools, kInf);
    std::vector<std::int64_t>& cap_units = scratch_caps_;
    cap_units.assign(pools, 0);
    const auto covered = static_cast<std::int64_t>(words * 64);  // sums below this are in the row
    const auto mi = [&](std::int64_t units) { return (static_cast<double>(units) + 1e-6) / scale_; };
    // The most a set of remaining[t..] holds within `together` units (the row holds their subset sums).
    const auto surrogate = [&](std::size_t t, std::int64_t together) {
      const std::int64_t total = here.total[t];
      if (together >= total) return total;
      const std::int64_t excess = total - together, longest = t < m ? units_[here.remaining[t]] : 0;
      if (together < covered) return std::max<std::int64_t>(largest_set(row, width, together, 0), 0);
      if (excess + longest < covered) {  // some subset sum in [excess, excess + longest) exists
        const std::int64_t least = smallest_set(row, width, excess, excess + longest);
        if (least >= 0) return total - least;
      }
      return together;
    };
    auto read = [&](std::size_t t) {
      for (std::size_t k = from_pool; k < pools; ++k) {
        if (here.from[k] != t) continue;
        const std::int64_t total = here.total[t];
        std::int64_t cap = limit_.caps[k];
        if (total <= cap) cap = total;  // every job that may run there fits one bin
        else if (cap < covered) cap = std::max<std::int64_t>(largest_set(row, width, cap, 0), 0);
        here.cap[k] = mi(cap);
        if (k == from_pool) {
          best = largest_set(row, width, std::min(most, limit_.caps[k]), 0);
          cap = std::min(cap, std::max<std::int64_t>(best, 0));  // every bin left in the pool holds at most `most`
        }
        cap_units[k] = cap;
        here.agg[k] = mi(surrogate(t, static_cast<std::int64_t>(k == from_pool ? bins_left : pools_[k].pes) * cap));
      }
      // The pools from `from_pool` to p together (a prefix in cost order), once the pass reaches all their jobs.
      std::int64_t together = 0;
      std::size_t reach = m;
      for (std::size_t p = from_pool; p < pools; ++p) {
        together += static_cast<std::int64_t>(p == from_pool ? bins_left : pools_[p].pes) * cap_units[p];
        reach = std::min(reach, here.from[p]);
        if (reach == t && p > from_pool) here.prefix[p] = mi(surrogate(t, together));
      }
    };
    read(m);
    for (std::size_t t = m; t-- > first;) {
      const std::size_t next = std::min(words, static_cast<std::size_t>(here.total[t]) / 64 + 1);
      shift_or(row, width, spare, next, static_cast<std::size_t>(units_[here.remaining[t]]));
      std::swap(row, spare);
      width = next;
      read(t);
    }
    return best;
  }

  // On the grid (after grid_totals): per position t >= pool k's first, the subset sums of remaining[t..] up to
  // pool k's capacity, for the walk. Rows past the parent's last taken job are the parent's rows (the same suffix of
  // jobs) when those are as wide; row t is only as wide as the sums of remaining[t..] reach.
  void grid_rows(Level& here, std::size_t k) {
    const std::size_t m = here.remaining.size();
    const std::size_t first = here.from[k];
    const std::int64_t top = std::min(limit_.caps[k], here.total[first]);
    here.first = first;
    here.words = static_cast<std::size_t>(top) / 64 + 1;
    const std::size_t words = here.words;
    here.row.assign(m + 1, nullptr);
    here.row_words.assign(m + 1, 1);
    static const std::uint64_t kEmptySet = 1;
    here.row[m] = &kEmptySet;
    std::size_t own_end = m;
    if (here.parent && here.parent->words >= words) {
      const std::size_t parent_first = here.parent->first > here.shift ? here.parent->first - here.shift : 0;
      own_end = std::min(m, std::max({first, here.shared_from, parent_first}));
      for (std::size_t t = own_end; t < m; ++t) {
        here.row[t] = here.parent->row[t + here.shift];
        here.row_words[t] = here.parent->row_words[t + here.shift];
      }
    }
    std::size_t storage = 0;
    for (std::size_t t = first; t < own_end; ++t)
      storage += std::min(words, static_cast<std::size_t>(here.total[t]) / 64 + 1);
    here.sums.resize(storage);
    std::size_t at = storage;
    for (std::size_t t = own_end; t-- > first;) {
      const std::size_t width = std::min(words, static_cast<std::size_t>(here.total[t]) / 64 + 1);
      at -= width;
      shift_or(here.row[t + 1], here.row_words[t + 1], here.sums.data() + at, width,
               static_cast<std::size_t>(units_[here.remaining[t]]));
      here.row[t] = here.sums.data() + at;
      here.row_words[t] = width;
    }
  }

  // The largest subset sum of remaining[t..] in [lo, hi] (grid units, after grid_rows), or -1 when there is none.
  static std::int64_t largest_reachable(const Level& here, std::size_t t, std::int64_t hi, std::int64_t lo) {
    return largest_set(here.row[t], here.row_words[t], hi, lo);
  }
  static bool reachable(const Level& here, std::size_t t, std::int64_t sum) {
    if (sum < 0 || sum >= static_cast<std::int64_t>(here.row_words[t] * 64)) return false;
    return here.row[t][static_cast<std::size_t>(sum) / 64] >> (static_cast<std::size_t>(sum) % 64) & 1U;
  }

  // The LP relaxation's cost for `remaining` on the bins from `bin` on, the bin `bin` itself holding at most
  // `first_cap` MI and the later bins of its pool at most `same_pool_cap` MI each (`cap`: per pool, one bin's most).
  double relaxation(const Level& here, std::size_t bin, double first_cap, double same_pool_cap) {
    const std::vector<std::uint32_t>& remaining = here.remaining;
    const std::vector<double>& cap = here.cap;
    const std::vector<double>& agg = here.agg;
    if (remaining.empty()) return 0;
    classes_.clear();
    if (bin < bin_pool_.size()) {
      const std::size_t k = bin_pool_[bin];
      const double later = static_cast<double>(pool_first_bin_[k] + pools_[k].pes - bin - 1);
      classes_.push_back(Class{pools_[k].cost, room_[k], std::min(cap[k], first_cap), 1, k});
      if (later > 0) {
        // the pool's bins together hold at most agg[k]
        const double rest = std::max(0.0, std::min(later * std::min(cap[k], same_pool_cap), agg[k] - classes_[0].cap));
        classes_.push_back(Class{pools_[k].cost, room_[k], rest, 1, k});
      } else {
        classes_[0].cap = std::min(classes_[0].cap, agg[k]);
      }
      for (std::size_t p = k + 1; p < pools_.size(); ++p)
        classes_.push_back(Class{pools_[p].cost, room_[p], std::min(cap[p] * static_cast<double>(pools_[p].pes), agg[p]),
                                 1, p});
    }
    for (Class& c : classes_) c.cap *= c.count;  // from here on: the class's capacity left
    // Second bound, eligibility dropped: the MI on the classes up to j is at most A_j (their capacities added up,
    // and at the last class of pool p the surrogate prefix[p] of the pools up to p); cost >= sum_j cost_j x
    // (A_j - A_{j-1}) with A suffix-minimised (the prefixes nest) and capped at the total.
    double length = 0;
    for (std::uint32_t j : remaining) length += length_[j];
    prefix_.resize(classes_.size());
    double running = 0;
    for (std::size_t c = 0; c < classes_.size(); ++c) {
      running += classes_[c].cap;
      prefix_[c] = running;
      const std::size_t p = classes_[c].pool;
      if (c + 1 == classes_.size() || classes_[c + 1].pool != p) prefix_[c] = std::min(prefix_[c], here.prefix[p]);
    }
    for (std::size_t c = classes_.size(); c-- > 1;) prefix_[c - 1] = std::min(prefix_[c - 1], prefix_[c]);
    if (classes_.empty() || prefix_.back() < length * (1 - kEligibleSlack)) return kInf;
    double nested = 0, before = 0;
    for (std::size_t c = 0; c < classes_.size(); ++c) {
      const double upto = std::min(prefix_[c], length);
      nested += classes_[c].cost * (upto - before);
      before = upto;
    }
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
    return std::max(total, nested);
  }

  bool out_of_time() {
    if (stopped_) return true;
    if (stack_nearly_full() || effort_.spend() ||
        (++ticks_ % kClockEvery == 0 && (SteadyClock::now() >= stop_at_ || stop_requested())))
      stopped_ = true;
    return stopped_;
  }

  std::optional<Key> key(const Level& here, std::size_t bin) const {
    if (order_.size() > 128) return std::nullopt;
    Key k{0, 0, bin};
    for (std::uint32_t j : here.remaining) (j < 64 ? k.low : k.high) |= std::uint64_t{1} << (j % 64);
    return k;
  }

  // Fill bin `bin` (depth `depth` holds the remaining jobs); `previous` = MI of the previous bin of the same pool.
  void visit(std::size_t bin, std::size_t depth, double cost, double previous) {
    ++nodes_;
    if (out_of_time()) return;
    Level& here = levels_[depth];
    if (here.remaining.empty()) {
      if (cost <= cutoff_) {
        best_ = finish(Found{0, 0, bin_of_});
        cutoff_ = first_only_ ? cutoff_ : cheaper_than(best_.cost);  // only a cheaper one from here on
        finished_ = first_only_;
      }
      return;
    }
    if (bin == bin_pool_.size()) return;
    const std::size_t k = bin_pool_[bin];
    if (bin == pool_first_bin_[k]) previous = kInf;
    const std::optional<Key> state = key(here, bin);
    if (state) {
      const auto seen = memo_.find(*state);
      if (seen != memo_.end() && seen->second.cost <= cost + kCostSlack * std::max(1.0, std::fabs(cost)) &&
          seen->second.previous >= previous)
        return;
    }
    if (grid_) {
      visit_grid(bin, depth, cost, previous);
    } else {
      visit_bands(bin, depth, cost, previous);
    }
    if (state && !stopped_ && !finished_) {
      auto seen = memo_.find(*state);
      if (seen != memo_.end()) {
        if (cost <= seen->second.cost && previous >= seen->second.previous) seen->second = Explored{cost, previous};
      } else if (memo_.size() < kMaxMemo) {
        memo_.emplace(*state, Explored{cost, previous});
      }
    }
  }

  // On the grid: the bin's sets by exact subset sum, largest first, while the bound allows.
  void visit_grid(std::size_t bin, std::size_t depth, double cost, double previous) {
    const std::size_t k = bin_pool_[bin];
    Level& here = levels_[depth];
    loose_caps(here, k);  // first the bound without subset sums: it may prune at once
    const double loose = cost + relaxation(here, bin, std::min(room_[k], previous), std::min(room_[k], previous));
    if (loose > cutoff_) return;
    grid_totals(here, k);
    std::int64_t hi = std::min(limit_.caps[k], here.total[here.from[k]]);
    if (previous < kInf) hi = std::min<std::int64_t>(hi, std::llround(previous * scale_));
    const auto f = [&](std::int64_t sum) {
      const double mi = (static_cast<double>(sum) + 1e-6) / scale_;
      return cost + relaxation(here, bin, mi, mi);
    };
    // exact caps and the largest set: the bound before the walk's rows are built
    std::int64_t sum = grid_caps(here, k, false, hi, pool_first_bin_[k] + pools_[k].pes - bin);
    if (sum < 0 || f(sum) > cutoff_) return;
    grid_rows(here, k);
    while (sum >= 0) {
      here.bound = f(sum);
      if (here.bound > cutoff_) return;  // sums come down: the bound only rises
      here.chosen.clear();
      walk(bin, depth, cost, here.from[k], sum, limit_.caps[k] - sum, -1);
      if (stopped_ || finished_) return;
      if (sum == 0) return;
      sum = largest_reachable(levels_[depth], levels_[depth].from[k], sum - 1, 0);
    }
  }

  // The sets of remaining[t..] with exactly `need` more units, depth first (longest jobs in first): a job may be
  // left out only if it does not fit the bin's `slack` (maximality; the jobs come longest first, so from the first
  // one that fits every later one is in), and a job may be taken only if the shortest one left out so far (`out`
  // units, -1: none) exceeds it by more than the slack: else swapping the two (the longer one here, the shorter one
  // in its later bin) fits, never costs more and makes the loads lexicographically larger (see the top: such a set
  // is dominated). This also takes identical jobs in order.
  void walk(std::size_t bin, std::size_t depth, double cost, std::size_t t, std::int64_t need, std::int64_t slack,
            std::int64_t out) {
    if (out_of_time()) return;
    Level& here = levels_[depth];
    if (here.bound > cutoff_) return;  // a schedule found meanwhile lowered the cutoff below this sum's bound
    const std::size_t m = here.remaining.size();
    if (t == m || need == 0) {
      if (need != 0) return;
      if (t < m && units_[here.remaining[m - 1]] <= slack) return;  // the shortest one left out fits: not maximal
      return take(bin, depth, cost);
    }
    const std::int64_t u = units_[here.remaining[t]];
    const bool takeable = out < 0 || out - u > slack;
    if (u <= slack) {  // every job from t on fits beside the set: all of them in, or the set is not maximal
      if (here.total[t] != need || !takeable) return;
      const std::size_t size = here.chosen.size();
      for (std::size_t q = t; q < m; ++q) here.chosen.push_back(static_cast<std::uint32_t>(q));
      take(bin, depth, cost);
      levels_[depth].chosen.resize(size);
      return;
    }
    if (u <= need && takeable && reachable(here, t + 1, need - u)) {
      here.chosen.push_back(static_cast<std::uint32_t>(t));
      walk(bin, depth, cost, t + 1, need - u, slack, out);
      levels_[depth].chosen.pop_back();
      if (stopped_ || finished_) return;
    }
    if (reachable(levels_[depth], t + 1, need)) walk(bin, depth, cost, t + 1, need, slack, u);
  }

  // The set levels_[depth].chosen (positions in `remaining`) into bin `bin`; on to the next bin.
  void take(std::size_t bin, std::size_t depth, double cost) {
    const Level& here = levels_[depth];
    Level& next = levels_[depth + 1];
    const std::size_t k = bin_pool_[bin];
    next.remaining.clear();
    next.parent = grid_ ? &here : nullptr;
    next.shift = here.chosen.size();
    next.shared_from = here.chosen.empty() ? 0 : here.chosen.back() + 1 - here.chosen.size();
    double added = 0, length = 0;
    std::size_t c = 0;
    for (std::size_t t = 0; t < here.remaining.size(); ++t) {
      const std::uint32_t j = here.remaining[t];
      if (c < here.chosen.size() && here.chosen[c] == t) {
        ++c;
        bin_of_[j] = bin;
        added += cost_[j][k];
        length += length_[j];
      } else {
        next.remaining.push_back(j);
      }
    }
    visit(bin + 1, depth + 1, cost + added, length);
  }

  // Off the grid: sets in bands of MI, largest first, each band listed and sorted; a band that would list more
  // than kMaxBand jobs is halved and listed again, a small one doubles the next.
  void visit_bands(std::size_t bin, std::size_t depth, double cost, double previous) {
    Level& here = levels_[depth];
    const std::size_t k = bin_pool_[bin];
    // f(s): the bound when this bin holds s MI (then so do at most the later bins of its pool); non-increasing.
    const auto f = [&](double s) { return cost + relaxation(here, bin, s, s); };
    loose_caps(here, k);
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
    const double tolerance = 1e-9 * std::max(1.0, room_[k]);
    const double lowest = least - tolerance;  // exclusive
    double high = std::min(room_[k], previous + tolerance), width = high - lowest;
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
        here.chosen.clear();
        const auto in_set = here.members.begin() + static_cast<std::ptrdiff_t>(c.first);
        std::size_t s = 0;
        for (std::size_t t = 0; t < here.remaining.size() && s < c.count; ++t)
          if (in_set[static_cast<std::ptrdiff_t>(s)] == here.remaining[t]) {
            here.chosen.push_back(static_cast<std::uint32_t>(t));
            ++s;
          }
        take(bin, depth, cost);
        if (stopped_ || finished_) return;
      }
      if (here.members.size() < kMaxBand / 4) width *= 2;
      high = low;
    }
  }

  // Off the grid: every maximal set of levels_[depth].remaining for a bin of pool k with more than `low` and at
  // most `high` MI: it fits the limit and no job left out still fits; of identical jobs it takes the first ones.
  // Into levels_[depth].candidates / members; false when that would list over kMaxBand jobs.
  bool enumerate(std::size_t depth, std::size_t k, double low, double high) {
    Level& here = levels_[depth];
    listed_ -= here.members.size();
    here.candidates.clear();
    here.members.clear();
    listing_.clear();
    band_full_ = false;
    enum_least_ = low;
    enum_most_ = high;
    enum_suffix_total_.assign(here.remaining.size() + 1, 0);
    for (std::size_t t = here.remaining.size(); t-- > 0;)
      enum_suffix_total_[t] = enum_suffix_total_[t + 1] + length_[here.remaining[t]];
    extend(depth, k, 0, 0.0, kInf);
    listed_ += here.members.size();
    return !band_full_;
  }

  // Depth-first over remaining[t..]: include or leave out each job (longest first).
  void extend(std::size_t depth, std::size_t k, std::size_t t, double length, double shortest_out) {
    if (band_full_ || out_of_time()) return;
    Level& here = levels_[depth];
    const std::vector<std::uint32_t>& remaining = here.remaining;
    // maximal: the shortest job left out must not fit beside the set (pruned only when it clearly fits by the exact
    // room, so that fits() at the leaf has the last word)
    const double exact_room = slack_limit(limit_.time) * pools_[k].mips;
    const double need = std::max(enum_least_, shortest_out == kInf
                                                  ? -kInf
                                                  : exact_room - shortest_out - 1e-9 * std::max(1.0, exact_room));
    if (length + enum_suffix_total_[t] < need || length > enum_most_) return;
    if (t == remaining.size()) {
      if (length > enum_most_ || !(length > enum_least_)) return;
      double d = 0;
      for (std::uint32_t j : listing_) d += duration_[j][k];
      if (!fits(d, limit_.time)) return;
      double out = kInf;  // the shortest job left out (remaining is longest first)
      for (std::size_t q = remaining.size(), c = listing_.size(); q-- > 0;) {
        if (c > 0 && listing_[c - 1] == remaining[q]) { --c; continue; }
        if (eligible_[remaining[q]][k]) out = duration_[remaining[q]][k];  // else every one left out is longer
        break;
      }
      if (out != kInf && fits(d + out, limit_.time)) return;  // not maximal
      if (here.members.size() + listing_.size() > kMaxBand) {
        band_full_ = true;
        return;
      }
      if (listed_ + here.members.size() + listing_.size() > kMaxListed) {
        stopped_ = out_of_memory_ = true;
        return;
      }
      here.candidates.push_back(Candidate{here.members.size(), listing_.size(), length});
      here.members.insert(here.members.end(), listing_.begin(), listing_.end());
      return;
    }
    const std::uint32_t j = remaining[t];
    if (!eligible_[j][k]) {  // longer than one request may run here: never in the set, nor "left out" for maximality
      extend(depth, k, t + 1, length, shortest_out);
      return;
    }
    if (length + length_[j] <= enum_most_ && length_[j] != shortest_out) {  // identical jobs: the first ones
      listing_.push_back(j);
      extend(depth, k, t + 1, length + length_[j], shortest_out);
      listing_.pop_back();
    }
    extend(depth, k, t + 1, length, length_[j]);
  }

  const Instance& instance_;
  const SteadyClock::time_point stop_at_;
  EffortMeter effort_;
  std::vector<Pool> pools_;
  std::vector<std::size_t> bin_pool_, pool_first_bin_;  // per bin its pool; per pool its first bin
  std::vector<std::size_t> order_;                      // job positions, longest first -> instance index
  std::vector<double> length_;
  std::vector<std::vector<double>> duration_, cost_;    // per job position and pool
  std::vector<std::vector<char>> eligible_;             // per job position and pool: duration <= maxTr
  bool grid_ = false;
  double scale_ = 1, granule_ = 0;
  std::vector<std::int64_t> units_;                     // lengths in grid units
  std::int64_t total_units_ = 0;
  Limit limit_;
  std::vector<double> room_;                            // per pool: the MI a bin holds by the limit (loose)
  std::vector<Class> classes_;
  std::vector<double> prefix_;                          // relaxation's nested capacities
  std::vector<Level> levels_;
  std::vector<std::uint64_t> scratch_[2];               // grid_caps' two rows
  std::vector<std::int64_t> scratch_caps_;              // grid_caps' per-pool caps in units
  std::vector<std::uint32_t> listing_;
  std::vector<double> enum_suffix_total_;
  double enum_least_ = 0, enum_most_ = 0;
  std::vector<std::size_t> bin_of_;
  std::unordered_map<Key, Explored, KeyHash> memo_;
  double cutoff_ = kInf;
  bool first_only_ = false, finished_ = false, stopped_ = false;
  Found best_;
  bool out_of_memory_ = false, band_full_ = false;
  std::size_t nodes_ = 0, ticks_ = 0, listed_ = 0;
};

double since(SteadyClock::time_point t) { return std::chrono::duration<double>(SteadyClock::now() - t).count(); }

}  // namespace

std::string bins_model_gap(const Instance& instance) {
  if (std::isinf(window_limit(instance))) return "";
  for (const Resource& res : instance.resources)
    if (lane_width(instance, res) > 1)
      return fmt::format("{} has request lanes of {} PEs (maxProc > 1, maxPendingRequests below its usable PEs) with "
                         "maxTr = {} per request: its PEs share request windows, which bins cannot express",
                         res.id, lane_width(instance, res), instance.broker.max_tr);
  return "";
}

ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options,
                                const std::vector<Schedule>& incumbents) {
  const StackWatch stack;
  const auto started = SteadyClock::now();
  ExactResult<Schedule> result;
  if (const std::string gap = bins_model_gap(instance); !gap.empty()) {
    result.detail = gap;
    result.seconds = since(started);
    return result;
  }
  BinCompletion search(instance, started + std::chrono::milliseconds(options.timeout_ms), options.effort);
  const double limit = horizon(instance);
  const Limit full = search.at(limit);
  const double root = search.root_bound(full);
  // Phase 1: the minimum cost, below the best of the greedy schedule and the incumbents within the budget.
  Found best = search.greedy(full);
  std::string start = "greedy";
  for (const Schedule& s : incumbents) {
    const std::optional<Found> adopted = search.adopt(s, full);
    const bool cheaper = adopted && (best.cost == kInf || adopted->cost < search.cheaper_than(best.cost));
    if (cheaper || (adopted && adopted->cost <= best.cost + kCostSlack * std::max(1.0, best.cost) &&
                    adopted->makespan < best.makespan)) {
      best = *adopted;
      start = "the policy's schedule";
    }
  }
  if (!affordable(best.cost, instance.budget)) best = Found{};
  const double cutoff = best.cost < kInf ? search.cheaper_than(best.cost) : slack_limit(instance.budget);
  if (Found cheaper = search.search(full, cutoff, false); cheaper.cost < kInf) {
    best = std::move(cheaper);
    start = "";
  }
  const bool cost_proven = !search.stopped();
  const std::size_t cost_nodes = search.nodes();
  const double cost_seconds = since(started);
  // Phase 2: the shortest makespan at (within kCostSlack of) that cost. `impossible`: no schedule of that cost has
  // every PE done by it; first just below the best, then at the least makespan the LP bound allows, then bisect.
  std::size_t probes = 0;
  bool span_proven = false;
  if (best.cost < kInf && cost_proven) {
    const double cost_cap = best.cost + kCostSlack * std::max(1.0, std::fabs(best.cost));
    // Probes: just below the best (impossible: done); after the first success, the LP's least (possible: done);
    // after a success, just below the best again (after kBelowFirst of them, and after a successful midpoint: a
    // midpoint); after an impossible midpoint, the next midpoint. A midpoint is moved up to the next makespan the
    // grid can take when it admits nothing new. Successes are cheap (the first schedule found), failures proofs.
    double impossible = 0;   // no schedule of the minimum cost has every PE done by this
    double lp_least = -kInf;  // the least limit the LP bound allows (bisection on the root bound), once needed
    const auto least_by_lp = [&] {
      double below = impossible, possible = best.makespan;
      for (int step = 0; step < 64 && possible - below > kMakespanStep * std::max(1.0, possible); ++step) {
        if (search.expired()) break;
        const double mid = (below + possible) / 2;
        (search.root_bound(search.at(mid)) <= cost_cap ? possible : below) = mid;
        if (search.within(search.at(possible), search.at(below))) break;
      }
      impossible = below;
      return possible;
    };
    enum class Probe { kBelow, kLeast, kMiddle } next_probe = Probe::kBelow;
    bool tried_least = false;
    std::size_t found = 0;  // shorter schedules found (each "just below" success is cheap; each failure a proof)
    while (!search.stopped()) {
      const Limit shorter = search.below(best.makespan, full);
      if (best.makespan <= lp_least || search.within(shorter, search.at(impossible)) ||
          best.makespan - impossible <= kMakespanStep * std::max(1.0, best.makespan)) {
        span_proven = true;
        break;
      }
      const Probe kind = next_probe;
      if (kind == Probe::kLeast) {
        lp_least = least_by_lp();
        if (search.stopped()) break;
        if (best.makespan <= lp_least) continue;  // proven above
      }
      double probe_time = kind == Probe::kLeast ? lp_least : (impossible + best.makespan) / 2;
      if (kind == Probe::kMiddle && search.within(search.at(probe_time), search.at(impossible)))
        probe_time = std::min(search.next_makespan(impossible), (probe_time + best.makespan) / 2);
      const Limit probe = kind == Probe::kBelow ? shorter : search.at(probe_time);
      ++probes;
      Found next = search.search(probe, cost_cap, true);
      if (search.stopped()) break;
      if (next.cost == kInf) {
        if (kind == Probe::kBelow) {  // nothing shorter than the best
          span_proven = true;
          break;
        }
        impossible = std::max(impossible, probe_time);
        next_probe = kind == Probe::kLeast ? Probe::kBelow : Probe::kMiddle;
      } else {
        best = std::move(next);
        ++found;
        next_probe = !tried_least ? Probe::kLeast : found <= kBelowFirst ? Probe::kBelow : Probe::kMiddle;
        if (kind == Probe::kMiddle) next_probe = Probe::kBelow;
        tried_least = true;
      }
    }
  }
  result.phase_seconds = {{"cost", cost_seconds}};
  if (best.cost < kInf && cost_proven) result.phase_seconds.emplace_back("tie-break", since(started) - cost_seconds);
  const std::string method = search.on_grid() ? "bin completion on the grid" : "bin completion (off the grid)";
  const std::string stop_text =
      search.out_of_memory()
          ? fmt::format("the limit of {} listed jobs in candidate sets", kMaxListed)
          : stop_requested() ? stop_request_text()
          : stack.hit()      ? fmt::format("the stack limit of {} KiB (the search's depth; ulimit -s)",
                                           thread_stack_bytes() / 1024)
          : search.effort_spent() ? fmt::format("the effort budget of {}", options.effort)
                             : fmt::format("the time limit of {} ms", options.timeout_ms);
  // "<the limit> was reached after N nodes<then>"; the effort budget in its one wording (solver/result.hpp).
  const auto reached = [&](const std::string& then) {
    const std::string after = fmt::format(" after {} nodes{}", search.nodes(), then);
    return search.effort_spent() && !stop_requested() && !stack.hit() && !search.out_of_memory()
               ? effort_budget_reached(options.effort, after)
               : stop_text + " was reached" + after;
  };
  if (best.cost < kInf) {
    result.decision = search.schedule(best);
    result.objective = total_cost(instance, *result.decision);
    result.status = cost_proven && span_proven ? ExactStatus::kOptimal : ExactStatus::kFeasible;
    if (!cost_proven)
      result.detail = reached(fmt::format("; cheapest schedule found kept{} (LP bound at the root {:.6g})",
                                          start.empty() ? "" : " (" + start + ")", root));
    else if (!span_proven)
      result.detail = fmt::format("minimum cost proven, but {} stopped the makespan tie-break after {} nodes "
                                  "(LP bound at the root {:.6g})", stop_text, search.nodes(), root);
    else
      result.detail = fmt::format("proven by {}: cost in {} nodes, makespan in {} probe(s), {} nodes (LP bound at "
                                  "the root {:.6g})", method, cost_nodes, probes, search.nodes() - cost_nodes, root);
  } else if (search.stopped()) {
    result.detail = reached(" before any schedule was found");
  } else {
    result.status = ExactStatus::kInfeasible;
    result.core = search.lonely(full);  // each of them alone has no schedule
    result.core_minimal = result.core.size() == 1;
    result.detail = root == kInf
                        ? fmt::format("proven by {}: even split over the PEs where they fit, the jobs do not fit by "
                                      "{} s", method, limit)
                        : fmt::format("proven by {}: no schedule assigns every job by {} s within Babsolute = {} (LP "
                                      "bound at the root {:.6g} G$)", method, limit, instance.budget, root);
  }
  result.seconds = since(started);
  return result;
}

}  // namespace schedcheck::dbc
