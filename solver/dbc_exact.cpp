// Exact minimum-cost DBC schedule by subset DP (see dbc_exact.hpp). Our own.
#include "solver/dbc_exact.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace schedcheck::dbc {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kCostSlack = 1e-9;  // relative: two costs this close are equal (then makespan decides)

struct Value {
  double cost = kInf, makespan = kInf;
};
bool better(const Value& a, const Value& b) {
  const double eps = kCostSlack * std::max(1.0, std::fabs(b.cost));
  if (a.cost < b.cost - eps) return true;
  return a.cost <= b.cost + eps && a.makespan < b.makespan;
}

// Best packing of job subsets onto the usable PEs of one resource: minimum makespan within `limit`.
struct Packing {
  std::vector<double> makespan;                   // per subset, on all usable PEs; kInf if it does not fit
  std::vector<std::vector<std::uint32_t>> first;  // [b - 1][subset]: one PE's jobs in the best packing on b PEs
};

Packing pack(const Instance& instance, std::size_t r, const std::vector<std::size_t>& jobs, double limit) {
  const std::size_t n = jobs.size();
  const std::uint32_t all = (std::uint32_t{1} << n);
  std::vector<double> load(all, 0.0);
  for (std::uint32_t t = 1; t < all; ++t) {
    const int low = __builtin_ctz(t);
    load[t] = load[t & (t - 1)] + duration(instance.resources[r], instance.jobs[jobs[static_cast<std::size_t>(low)]]);
  }
  const std::size_t pes = std::min<std::size_t>(static_cast<std::size_t>(usable_pes(instance, instance.resources[r])), n);
  // g[t]: best makespan of t on b PEs, built up b = 1..pes.
  Packing p;
  p.makespan.assign(all, kInf);
  p.first.assign(1, std::vector<std::uint32_t>(all, 0));
  p.makespan[0] = 0;
  for (std::uint32_t t = 1; t < all; ++t)
    if (fits(load[t], limit)) {
      p.makespan[t] = load[t];
      p.first[0][t] = t;
    }
  for (std::size_t b = 2; b <= pes; ++b) {
    Packing next = p;
    next.first.push_back(p.first.back());
    for (std::uint32_t t = 1; t < all; ++t) {
      const std::uint32_t low = t & (~t + 1);
      const std::uint32_t rest = t ^ low;
      // one PE takes `low` plus a subset u of the rest; the other b - 1 PEs take the remainder
      for (std::uint32_t u = rest;; u = (u - 1) & rest) {
        const std::uint32_t one = u | low;
        if (fits(load[one], limit)) {
          const double m = std::max(load[one], p.makespan[t ^ one]);
          if (m < next.makespan[t]) {
            next.makespan[t] = m;
            next.first.back()[t] = one;
          }
        }
        if (u == 0) break;
      }
    }
    p = std::move(next);
  }
  return p;
}

}  // namespace

ExactResult<Schedule> solve_dp(const Instance& instance) {
  const auto started = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  ExactResult<Schedule> result;
  const std::size_t n = instance.jobs.size(), m = instance.resources.size();
  if (n > kDpMaxJobs) {
    result.detail = fmt::format("{} jobs; the subset DP is limited to {}", n, kDpMaxJobs);
    return result;
  }
  const double limit = horizon(instance);
  std::vector<std::size_t> jobs(n);
  for (std::size_t j = 0; j < n; ++j) jobs[j] = j;
  const std::uint32_t all = (std::uint32_t{1} << n);

  std::vector<Packing> packing;
  std::vector<std::vector<double>> cost(m, std::vector<double>(all, 0.0));
  for (std::size_t r = 0; r < m; ++r) {
    packing.push_back(pack(instance, r, jobs, limit));
    for (std::uint32_t t = 1; t < all; ++t)
      cost[r][t] = cost[r][t & (t - 1)] + job_cost(instance.resources[r], instance.jobs[static_cast<std::size_t>(__builtin_ctz(t))]);
  }
  // best[r][s]: the jobs s on resources 0..r-1; choice[r][s]: the subset resource r-1 takes.
  std::vector<std::vector<Value>> best(m + 1, std::vector<Value>(all));
  std::vector<std::vector<std::uint32_t>> choice(m + 1, std::vector<std::uint32_t>(all, 0));
  best[0][0] = Value{0, 0};
  for (std::size_t r = 0; r < m; ++r)
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
  const Value& answer = best[m][all - 1];
  if (answer.cost == kInf) {
    result.status = ExactStatus::kInfeasible;
    std::string lonely;
    for (std::size_t j = 0; j < n; ++j) {
      bool anywhere = false;
      for (std::size_t r = 0; r < m; ++r) anywhere = anywhere || packing[r].makespan[std::uint32_t{1} << j] < kInf;
      if (!anywhere) lonely += (lonely.empty() ? "" : ", ") + instance.jobs[j].id;
    }
    result.detail = lonely.empty()
                        ? fmt::format("proven by subset DP: the jobs do not pack onto the usable PEs by {} s", limit)
                        : fmt::format("proven by subset DP: job(s) {} finish after {} s even alone on the fastest PE",
                                      lonely, limit);
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
      for (std::size_t k = 0, b = packing[r].first.size(); mine != 0 && b > 0; ++k, --b) {
        const std::uint32_t one = packing[r].first[b - 1][mine];
        double t = 0;
        for (std::size_t j = 0; j < n; ++j)
          if (one >> j & 1U) {
            s.resource[j] = static_cast<int>(r);
            s.pe[j] = static_cast<int>(k);
            s.start[j] = t;
            t += duration(instance.resources[r], instance.jobs[j]);
          }
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
