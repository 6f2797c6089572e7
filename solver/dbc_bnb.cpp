// Exact minimum-cost DBC schedule by branch and bound (see dbc_bnb.hpp). Our own.
// The bound: the remaining jobs' LP relaxation. A job's cost on a pool is cost-per-MI x length whatever the job, so
// only the MI each PE receives matters; a job is eligible on a PE while its length fits the PE's slack, and the
// longer the job the fewer PEs it fits (nested eligibility). A PE's capacity is the largest subset sum of the
// remaining lengths within its slack (exact on a decimal grid of lengths, else the one/two-job caps). Then the LP optimum is the greedy that
// takes the jobs longest first, each filling the cheapest eligible pools' remaining capacity (an exchange of equal
// MI between a longer and a shorter job keeps the cost and stays eligible), so the bound is exact for the relaxation.
#include "solver/dbc_bnb.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace schedcheck::dbc {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kCostSlack = 1e-9;     // relative: two costs this close are equal (then makespan decides), as the DP
constexpr double kEligibleSlack = 1e-9; // relative: the bound's eligibility test is looser than fits(), never tighter
constexpr unsigned kClockEvery = 4096;  // nodes between two looks at the clock

struct Pool {  // resources with equal MIPS and cost: one pool of identical PEs
  double mips = 0, cost = 0;
  std::vector<std::pair<std::size_t, int>> members;  // (resource index, usable PEs) in file order
  std::size_t pes = 0;                               // sum of usable PEs, capped at the number of jobs
};

double slack_of(double limit) { return limit + kFitSlack * std::max(1.0, std::fabs(limit)); }

class Search {
 public:
  Search(const Instance& instance, const SolveOptions& options)
      : instance_(instance), limit_(horizon(instance)), budget_(slack_of(instance.budget)),
        stop_at_(Clock::now() + std::chrono::milliseconds(options.timeout_ms)) {
    const std::size_t n = instance.jobs.size();
    for (std::size_t r = 0; r < instance.resources.size(); ++r) {
      const Resource& res = instance.resources[r];
      const int usable = usable_pes(instance, res);
      if (usable <= 0) continue;
      auto same = std::find_if(pools_.begin(), pools_.end(),
                               [&](const Pool& p) { return p.mips == res.mips && p.cost == res.cost; });
      if (same == pools_.end()) {
        pools_.push_back(Pool{res.mips, res.cost, {}, 0});
        same = pools_.end() - 1;
      }
      same->members.emplace_back(r, usable);
      same->pes = std::min<std::size_t>(n, same->pes + static_cast<std::size_t>(usable));
    }
    std::sort(pools_.begin(), pools_.end(), [](const Pool& a, const Pool& b) {
      return a.cost != b.cost ? a.cost < b.cost : a.mips > b.mips;  // cheapest first, then fastest
    });
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return instance.jobs[a].length > instance.jobs[b].length; });
    const std::size_t g = pools_.size();
    length_.resize(n);
    duration_.assign(n, std::vector<double>(g));
    cost_.assign(n, std::vector<double>(g));
    for (std::size_t i = 0; i < n; ++i) {
      const Job& job = instance.jobs[order_[i]];
      length_[i] = job.length;
      for (std::size_t k = 0; k < g; ++k) {
        const Resource& res = instance.resources[pools_[k].members.front().first];
        duration_[i][k] = duration(res, job);
        cost_[i][k] = job_cost(res, job);
      }
    }
    loads_.resize(g);
    for (std::size_t k = 0; k < g; ++k) loads_[k].assign(pools_[k].pes, 0.0);
    where_.assign(n, {0, 0});
    build_subset_sums();
  }

  void run() { visit(0, 0.0); }
  bool stopped() const { return stopped_; }
  bool found() const { return found_; }
  std::size_t nodes() const { return nodes_; }
  double root_bound() { return bound(0, limit_); }

  Schedule schedule() const {
    Schedule s = empty_schedule(instance_);
    std::vector<std::vector<double>> clock(pools_.size());
    for (std::size_t k = 0; k < pools_.size(); ++k) clock[k].assign(pools_[k].pes, 0.0);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const auto [k, p] = best_where_[i];
      std::size_t local = p;  // pool PE -> (member resource, its PE)
      for (const auto& [r, usable] : pools_[k].members) {
        if (local < static_cast<std::size_t>(usable)) {
          s.resource[order_[i]] = static_cast<int>(r);
          s.pe[order_[i]] = static_cast<int>(local);
          break;
        }
        local -= static_cast<std::size_t>(usable);
      }
      s.start[order_[i]] = clock[k][p];
      clock[k][p] += duration_[i][k];
    }
    return s;
  }

 private:
  // Cost of the LP relaxation for jobs i.. under a per-PE limit (kInf when even the relaxation has no solution).
  // Bins are single PEs (cheapest pool first): a job's MI may be split only over PEs where it fits whole, and a PE
  // holds at most the largest subset sum of the remaining lengths within its slack (suffix bitsets, when exact).
  double bound(std::size_t i, double limit) {
    const std::size_t n = order_.size();
    if (i == n) return 0;
    const double lim = slack_of(limit), shortest = length_[n - 1];
    bins_.clear();
    for (std::size_t k = 0; k < pools_.size(); ++k) {
      for (double load : loads_[k]) {
        const double mi = (lim - load) * pools_[k].mips;
        const double loose = mi * (1 + kEligibleSlack) + kEligibleSlack;
        if (loose < shortest) continue;  // no remaining job fits this PE
        bins_.push_back(Bin{pools_[k].cost, loose, usable(i, loose, mi)});
      }
    }
    double total = 0;
    std::size_t first = 0;  // bins before it are full
    for (std::size_t j = i; j < n; ++j) {
      double need = length_[j];
      while (first < bins_.size() && bins_[first].cap <= 0) ++first;
      for (std::size_t b_at = first; b_at < bins_.size(); ++b_at) {
        Bin& b = bins_[b_at];
        if (b.cap <= 0 || b.room < length_[j]) continue;
        const double take = std::min(need, b.cap);
        b.cap -= take;
        need -= take;
        total += take * b.cost;
        if (need <= 0) break;
      }
      if (need > kEligibleSlack * length_[j]) return kInf;
    }
    return total;
  }

  // An upper bound on the MI a PE of slack `mi` (`loose` with the eligibility slack) can hold from jobs i..
  double usable(std::size_t i, double loose, double mi) const {
    if (!grid_) {
      const double shortest = length_.back();
      if (loose < 2 * shortest) return largest_single(i, loose);
      if (loose < 3 * shortest) return std::max(largest_single(i, loose), largest_pair(i, loose));
      return mi;
    }
    const double r = std::floor(loose * scale_ + 1e-6);
    if (r >= static_cast<double>(bits_)) return mi;
    const std::size_t top = static_cast<std::size_t>(r);
    const std::uint64_t* words = reach_.data() + i * words_;
    std::size_t w = top / 64;
    std::uint64_t v = words[w] & ((top % 64 == 63) ? ~0ULL : ((1ULL << (top % 64 + 1)) - 1));
    if (!v && w > 0) {  // the nearest nonzero word below (bit 0 of word 0 is always set: the empty set)
      w = prev_[i * words_ + w - 1];
      v = words[w];
    }
    if (v) {
      const std::size_t best = w * 64 + 63 - static_cast<std::size_t>(__builtin_clzll(v));
      return std::min(mi * (1 + kEligibleSlack) + kEligibleSlack,
                      static_cast<double>(best) / scale_ * (1 + 1e-12) + 1e-9);
    }
    return 0;
  }

  // Lengths on a decimal grid (x 1, 10, ..., 1e4 integral): per suffix i, the bitset of subset sums of jobs i..
  void build_subset_sums() {
    grid_ = false;
    const std::size_t n = length_.size();
    if (n == 0) return;
    double max_room = 0;
    for (const Pool& p : pools_) max_room = std::max(max_room, slack_of(limit_) * p.mips);
    for (double s = 1; s <= 1e4; s *= 10) {
      bool ok = true;
      for (double l : length_) {
        const double x = l * s;
        if (!(x < 1e9) || std::fabs(x - std::round(x)) > 1e-6) { ok = false; break; }
      }
      if (ok) { scale_ = s; grid_ = true; break; }
    }
    if (!grid_) return;
    const double want = std::floor(max_room * (1 + 1e-6) * scale_) + 2;
    if (want > 1 << 24) { grid_ = false; return; }
    bits_ = static_cast<std::size_t>(want);
    words_ = (bits_ + 63) / 64;
    bits_ = words_ * 64;
    reach_.assign((n + 1) * words_, 0);
    reach_[n * words_] = 1;  // the empty set
    for (std::size_t j = n; j-- > 0;) {
      const std::uint64_t* from = reach_.data() + (j + 1) * words_;
      std::uint64_t* to = reach_.data() + j * words_;
      const std::size_t shift = static_cast<std::size_t>(std::llround(length_[j] * scale_));
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
    prev_.assign((n + 1) * words_, 0);
    for (std::size_t j = 0; j <= n; ++j) {
      std::uint32_t last = 0;
      for (std::size_t w = 0; w < words_; ++w) {
        if (reach_[j * words_ + w]) last = static_cast<std::uint32_t>(w);
        prev_[j * words_ + w] = last;
      }
    }
  }

  // Largest remaining length (jobs i.., longest first) within `room`, and the largest sum of two; 0 if none.
  double largest_single(std::size_t i, double room) const {
    for (std::size_t j = i; j < length_.size(); ++j)
      if (length_[j] <= room) return length_[j];
    return 0;
  }
  double largest_pair(std::size_t i, double room) const {
    double best = 0;
    std::size_t lo = length_.size() - 1;  // two pointers: a from the longest, b from the shortest
    for (std::size_t a = i; a < lo; ++a) {
      if (length_[a] + length_[lo] > room) continue;
      while (lo > a + 1 && length_[a] + length_[lo - 1] <= room) --lo;
      best = std::max(best, length_[a] + length_[lo]);
    }
    return best;
  }

  double current_makespan() const {
    double m = 0;
    for (const auto& pool : loads_)
      for (double load : pool) m = std::max(m, load);
    return m;
  }

  void visit(std::size_t i, double cost) {
    if (stopped_) return;
    if (++nodes_ % kClockEvery == 0 && Clock::now() >= stop_at_) {
      stopped_ = true;
      return;
    }
    const double lower = cost + bound(i, limit_);
    if (lower == kInf || lower > budget_) return;
    if (found_) {
      const double eps = kCostSlack * std::max(1.0, std::fabs(best_cost_));
      if (lower > best_cost_ + eps) return;
      if (lower >= best_cost_ - eps) {  // only a tie on cost is left: the makespan must drop strictly
        if (!(current_makespan() < best_makespan_)) return;
        if (cost + bound(i, best_makespan_) > best_cost_ + eps) return;
      }
    }
    const std::size_t n = order_.size();
    if (i == n) {
      const double span = current_makespan();
      const double eps = kCostSlack * std::max(1.0, std::fabs(best_cost_));
      if (!found_ || cost < best_cost_ - eps || (cost <= best_cost_ + eps && span < best_makespan_)) {
        found_ = true;
        best_cost_ = cost;
        best_makespan_ = span;
        best_where_ = where_;
      }
      return;
    }
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < pools_.size(); ++k) {
      const double d = duration_[i][k];
      std::vector<double>& loads = loads_[k];
      candidates.clear();
      for (std::size_t p = 0; p < loads.size(); ++p) {
        if (!fits(loads[p] + d, limit_)) continue;
        bool seen = false;  // identical PEs with equal loads give the same subtree
        for (std::size_t q : candidates) seen = seen || loads[q] == loads[p];
        if (!seen) candidates.push_back(p);
      }
      std::sort(candidates.begin(), candidates.end(),
                [&](std::size_t a, std::size_t b) { return loads[a] > loads[b]; });  // best fit first
      for (std::size_t p : candidates) {
        const double before = loads[p];
        loads[p] = before + d;
        where_[i] = {k, p};
        visit(i + 1, cost + cost_[i][k]);
        loads[p] = before;
        if (stopped_) return;
      }
    }
  }

  const Instance& instance_;
  const double limit_, budget_;
  const Clock::time_point stop_at_;
  std::vector<Pool> pools_;
  std::vector<std::size_t> order_;
  std::vector<double> length_;
  std::vector<std::vector<double>> duration_, cost_, loads_;
  std::vector<std::pair<std::size_t, std::size_t>> where_, best_where_;
  struct Bin {
    double cost, room, cap;
  };
  std::vector<Bin> bins_;
  bool grid_ = false;
  double scale_ = 1;
  std::size_t bits_ = 0, words_ = 0;
  std::vector<std::uint64_t> reach_;
  std::vector<std::uint32_t> prev_;  // per suffix and word: the last nonzero word at or before it
  bool stopped_ = false, found_ = false;
  double best_cost_ = kInf, best_makespan_ = kInf;
  std::size_t nodes_ = 0;
};

}  // namespace

ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options) {
  const auto started = Clock::now();
  ExactResult<Schedule> result;
  Search search(instance, options);
  const double root = search.root_bound();
  search.run();
  if (search.found()) {
    result.decision = search.schedule();
    result.objective = total_cost(instance, *result.decision);
    result.status = search.stopped() ? ExactStatus::kFeasible : ExactStatus::kOptimal;
    result.detail = search.stopped()
                        ? fmt::format("time limit of {} ms reached after {} nodes; cheapest schedule found kept "
                                      "(LP bound at the root {:.6g})", options.timeout_ms, search.nodes(), root)
                        : fmt::format("proven by branch and bound in {} nodes (LP bound at the root {:.6g})",
                                      search.nodes(), root);
  } else if (search.stopped()) {
    result.detail = fmt::format("time limit of {} ms reached after {} nodes before any schedule was found",
                                options.timeout_ms, search.nodes());
  } else {
    result.status = ExactStatus::kInfeasible;
    result.detail = root == kInf
                        ? fmt::format("proven by branch and bound: even split over the PEs where they fit, the jobs "
                                      "do not fit by {} s", horizon(instance))
                        : fmt::format("proven by branch and bound: no schedule assigns every job by {} s within "
                                      "Babsolute = {} (LP bound at the root {:.6g} G$)",
                                      horizon(instance), instance.budget, root);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace schedcheck::dbc
