// Exact minimum-cost DBC schedule by subset DP (see dbc_exact.hpp). Our own.
#include "solver/dbc_exact.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace schedcheck::dbc {

namespace {

using SteadyClock = std::chrono::steady_clock;

struct Value {
  double cost = kInf, makespan = kInf;
};
bool better(const Value& a, const Value& b) {
  const double eps = kCostSlack * std::max(1.0, std::fabs(b.cost));
  if (a.cost < b.cost - eps) return true;
  return a.cost <= b.cost + eps && a.makespan < b.makespan;
}

// One request lane of `width` PEs (model/dbc.hpp lane_width): per job subset the least time it needs, its requests
// one after another from t = 0, each a window of at most maxTr in which every PE runs its jobs back to back; kInf
// if a job may not run on the resource or the lane ends after `limit`. A one-PE lane needs the subset's load.
struct Lane {
  int width = 1;
  int pes = 1;  // width > 1: PEs the DP spreads a window over, min(width, jobs): more PEs than jobs never help
  std::vector<double> time;
  std::vector<std::uint32_t> window;              // width > 1: the request holding the subset's lowest job
  std::vector<std::vector<double>> span;          // width > 1: [q - 1][set]: least makespan of set on q PEs
  std::vector<std::vector<std::uint32_t>> split;  // width > 1: [q - 2][set]: one PE's jobs in that makespan
};

Lane make_lane(const std::vector<double>& load, std::uint32_t barred, int width, double window_limit, double limit) {
  const std::size_t all = load.size();
  Lane lane;
  lane.width = width;
  lane.time.assign(all, kInf);
  if (width == 1) {
    for (std::uint32_t t = 0; t < all; ++t)
      if (!(t & barred) && fits(load[t], limit)) lane.time[t] = load[t];
    return lane;
  }
  lane.span.push_back(load);
  lane.pes = std::min(width, std::max(1, __builtin_ctz(static_cast<std::uint32_t>(all))));  // all = 2^jobs
  for (int q = 2; q <= lane.pes; ++q) {  // P_q || Cmax by subsets: one PE takes the lowest job and a subset of the rest
    const auto& fewer = lane.span.back();
    std::vector<double> span(all, kInf);
    std::vector<std::uint32_t> split(all, 0);
    span[0] = 0;
    for (std::uint32_t t = 1; t < all; ++t) {
      const std::uint32_t low = t & (~t + 1), rest = t ^ low;
      for (std::uint32_t u = rest;; u = (u - 1) & rest) {
        const std::uint32_t one = u | low;
        const double m = std::max(load[one], fewer[t ^ one]);
        if (m < span[t]) {
          span[t] = m;
          split[t] = one;
        }
        if (u == 0) break;
      }
    }
    lane.span.push_back(std::move(span));
    lane.split.push_back(std::move(split));
  }
  const auto& window_span = lane.span.back();
  lane.window.assign(all, 0);
  lane.time[0] = 0;
  for (std::uint32_t t = 1; t < all; ++t) {
    if (t & barred) continue;
    const std::uint32_t low = t & (~t + 1), rest = t ^ low;
    for (std::uint32_t u = rest;; u = (u - 1) & rest) {  // the request holding the lowest job, then the others
      const std::uint32_t one = u | low;
      if (fits(window_span[one], window_limit)) {
        const double m = window_span[one] + lane.time[t ^ one];
        if (m < lane.time[t]) {
          lane.time[t] = m;
          lane.window[t] = one;
        }
      }
      if (u == 0) break;
    }
    if (!fits(lane.time[t], limit)) lane.time[t] = kInf;  // a superset needs at least as long
  }
  return lane;
}

// Best packing of job subsets onto the lanes of one resource: minimum makespan within `limit`.
struct Packing {
  std::vector<Lane> lanes;
  std::vector<int> first_pe;                      // per lane
  std::vector<double> makespan;                   // per subset, on all lanes; kInf if it does not fit
  std::vector<std::vector<std::uint32_t>> taken;  // [b][subset]: lane b's jobs in the best packing on lanes 0..b
};

Packing pack(const Instance& instance, std::size_t r, const std::vector<std::size_t>& jobs, double limit) {
  const std::size_t n = jobs.size();
  const std::uint32_t all = (std::uint32_t{1} << n);
  const Resource& res = instance.resources[r];
  std::vector<double> load(all, 0.0);
  std::uint32_t barred = 0;  // jobs longer than one request may be
  for (std::size_t i = 0; i < n; ++i)
    if (!eligible(instance, res, instance.jobs[jobs[i]])) barred |= std::uint32_t{1} << i;
  for (std::uint32_t t = 1; t < all; ++t) {
    const int low = __builtin_ctz(t);
    load[t] = load[t & (t - 1)] + duration(res, instance.jobs[jobs[static_cast<std::size_t>(low)]]);
  }
  const int usable = usable_pes(instance, res), width = lane_width(instance, res);
  Packing p;
  p.makespan.assign(all, kInf);
  p.makespan[0] = 0;
  // lanes of `width` PEs, the last one narrower; more lanes than jobs are never needed
  for (int pe = 0; pe < usable && p.first_pe.size() < std::max<std::size_t>(n, 1); pe += width) {
    const int w = std::min(width, usable - pe);
    if (p.lanes.empty() || p.lanes.front().width != w || p.lanes.back().width != w)
      p.lanes.push_back(make_lane(load, barred, w, window_limit(instance), limit));
    else
      p.lanes.push_back(p.lanes.back());
    p.first_pe.push_back(pe);
    const Lane& lane = p.lanes.back();
    std::vector<double> next = p.makespan;  // lane b takes nothing
    std::vector<std::uint32_t> taken(all, 0);
    const bool identical = lane.width == p.lanes.front().width;
    if (p.lanes.size() == 1) {  // the first lane takes the whole subset
      for (std::uint32_t t = 1; t < all; ++t)
        if (lane.time[t] < kInf) {
          next[t] = lane.time[t];
          taken[t] = t;
        }
      p.makespan = std::move(next);
      p.taken.push_back(std::move(taken));
      continue;
    }
    for (std::uint32_t t = 1; t < all; ++t) {
      // identical lanes: the new one takes the lowest job (symmetry); a narrower last lane: any subset
      const std::uint32_t low = identical ? t & (~t + 1) : 0, rest = t ^ low;
      for (std::uint32_t u = rest;; u = (u - 1) & rest) {
        const std::uint32_t one = u | low;
        if (one != 0 && lane.time[one] < kInf) {
          const double m = std::max(lane.time[one], p.makespan[t ^ one]);
          if (m < next[t]) {
            next[t] = m;
            taken[t] = one;
          }
        }
        if (u == 0) break;
      }
    }
    p.makespan = std::move(next);
    p.taken.push_back(std::move(taken));
  }
  return p;
}

// Lane b's jobs `mine` (bit i = jobs[i]) into the schedule: request after request, each PE back to back.
void place_lane(const Instance& instance, std::size_t r, const Packing& p, std::size_t b, std::uint32_t mine,
                const std::vector<std::size_t>& jobs, Schedule& s) {
  const Lane& lane = p.lanes[b];
  const Resource& res = instance.resources[r];
  auto run_on = [&](std::uint32_t set, int pe, double t) {
    for (std::size_t i = 0; set >> i; ++i)
      if (set >> i & 1U) {
        const std::size_t j = jobs[i];
        s.resource[j] = static_cast<int>(r);
        s.pe[j] = pe;
        s.start[j] = t;
        t += duration(res, instance.jobs[j]);
      }
  };
  if (lane.width == 1) return run_on(mine, p.first_pe[b], 0.0);
  double t0 = 0;
  while (mine != 0) {
    const std::uint32_t window = lane.window[mine];
    std::uint32_t rest = window;
    for (int q = lane.pes; q >= 2; --q) {
      const std::uint32_t one = lane.split[static_cast<std::size_t>(q - 2)][rest];
      run_on(one, p.first_pe[b] + lane.pes - q, t0);
      rest ^= one;
    }
    run_on(rest, p.first_pe[b] + lane.pes - 1, t0);
    t0 += lane.span.back()[window];
    mine ^= window;
  }
}

}  // namespace

std::optional<std::vector<std::pair<int, double>>> pack_resource(const Instance& instance, std::size_t r,
                                                                 const std::vector<std::size_t>& jobs, double limit) {
  if (jobs.size() > kDpMaxJobs) return std::nullopt;
  const Packing p = pack(instance, r, jobs, limit);
  std::uint32_t mine = (std::uint32_t{1} << jobs.size()) - 1;
  if (p.makespan[mine] == kInf) return std::nullopt;
  Schedule s = empty_schedule(instance);
  for (std::size_t b = p.taken.size(); mine != 0 && b-- > 0;) {
    const std::uint32_t one = p.taken[b][mine];
    place_lane(instance, r, p, b, one, jobs, s);
    mine ^= one;
  }
  std::vector<std::pair<int, double>> out;
  for (std::size_t j : jobs) out.emplace_back(s.pe[j], s.start[j]);
  return out;
}

ExactResult<Schedule> solve_dp(const Instance& instance, const SolveOptions& options) {
  const auto started = SteadyClock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(SteadyClock::now() - started).count(); };
  const auto stop_at = started + std::chrono::milliseconds(options.timeout_ms);
  ExactResult<Schedule> result;
  const std::size_t n = instance.jobs.size(), m = instance.resources.size();
  if (n > kDpMaxJobs) {
    result.detail = fmt::format("{} jobs; the subset DP is limited to {}", n, kDpMaxJobs);
    return result;
  }
  // Effort: 3^n steps a resource's packing and as many its DP step (the pairs of a subset and a subset of it).
  EffortMeter effort(options.effort, 1, kTableCellsPerUnit);
  const auto subset_pairs = static_cast<std::uint64_t>(std::pow(3.0, static_cast<double>(n)));
  auto out_of_time = [&](ExactResult<Schedule>& r) {  // checked once per resource: each step is O(3^n) at most
    if (!effort.spend(subset_pairs) && SteadyClock::now() < stop_at && !stop_requested()) return false;
    r.status = ExactStatus::kUnknown;
    r.detail = limit_reached(effort, options.timeout_ms, " in the subset DP");
    r.seconds = elapsed();
    return true;
  };
  const double limit = horizon(instance);
  std::vector<std::size_t> jobs(n);
  for (std::size_t j = 0; j < n; ++j) jobs[j] = j;
  const std::uint32_t all = (std::uint32_t{1} << n);

  std::vector<Packing> packing;
  std::vector<std::vector<double>> cost(m, std::vector<double>(all, 0.0));
  for (std::size_t r = 0; r < m; ++r) {
    if (out_of_time(result)) return result;
    packing.push_back(pack(instance, r, jobs, limit));
    for (std::uint32_t t = 1; t < all; ++t)
      cost[r][t] = cost[r][t & (t - 1)] + job_cost(instance, instance.resources[r], instance.jobs[static_cast<std::size_t>(__builtin_ctz(t))]);
  }
  // best[r][s]: the jobs s on resources 0..r-1; choice[r][s]: the subset resource r-1 takes.
  std::vector<std::vector<Value>> best(m + 1, std::vector<Value>(all));
  std::vector<std::vector<std::uint32_t>> choice(m + 1, std::vector<std::uint32_t>(all, 0));
  best[0][0] = Value{0, 0};
  for (std::size_t r = 0; r < m; ++r) {
    if (out_of_time(result)) return result;
    for (std::uint32_t s = 0; s < all; ++s)
      for (std::uint32_t t = s;; t = (t - 1) & s) {
        const Value& before = best[r][s ^ t];
        if (before.cost < kInf && packing[r].makespan[t] < kInf) {
          const Value v{before.cost + cost[r][t], std::max(before.makespan, packing[r].makespan[t])};
          if (better(v, best[r + 1][s])) {
            best[r + 1][s] = v;
            choice[r + 1][s] = t;
          }
        }
        if (t == 0) break;
      }
  }
  const Value& answer = best[m][all - 1];
  if (answer.cost == kInf) {
    result.status = ExactStatus::kInfeasible;
    std::string lonely;
    for (std::size_t j = 0; j < n; ++j) {
      bool anywhere = false;
      for (std::size_t r = 0; r < m; ++r) anywhere = anywhere || packing[r].makespan[std::uint32_t{1} << j] < kInf;
      if (!anywhere) {
        lonely += (lonely.empty() ? "" : ", ") + instance.jobs[j].id;
        result.core.push_back(instance.jobs[j].id);
      }
    }
    result.core_minimal = result.core.size() == 1;  // one job that fits nowhere alone is a minimal reason
    result.detail = lonely.empty()
                        ? fmt::format("proven by subset DP: the jobs do not pack onto the usable PEs by {} s", limit)
                        : fmt::format("proven by subset DP: job(s) {} finish after {} s even alone on the fastest PE, "
                                      "or run longer than maxTr = {} everywhere", lonely, limit, instance.broker.max_tr);
  } else if (!affordable(answer.cost, instance.budget)) {
    result.status = ExactStatus::kInfeasible;
    result.detail = fmt::format("proven by subset DP: the minimum cost of a schedule within {} s is {} G$ > Babsolute "
                                "= {}", limit, answer.cost, instance.budget);
  } else {
    Schedule s = empty_schedule(instance);
    std::uint32_t rest = all - 1;
    for (std::size_t r = m; r-- > 0;) {
      std::uint32_t mine = choice[r + 1][rest];
      rest ^= mine;
      for (std::size_t b = packing[r].taken.size(); mine != 0 && b-- > 0;) {
        const std::uint32_t one = packing[r].taken[b][mine];
        place_lane(instance, r, packing[r], b, one, jobs, s);
        mine ^= one;
      }
    }
    result.status = ExactStatus::kOptimal;
    result.objective = total_cost(instance, s);
    result.decision = std::move(s);
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace schedcheck::dbc
