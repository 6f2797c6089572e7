// Exact SLA admission without Z3 (see sla_exact.hpp). Our own.
#include "solver/sla_exact.hpp"

#include "model/profile.hpp"
#include "support/stop.hpp"
#include "solver/serial_search.hpp"

#include <fmt/format.h>

#include <chrono>

namespace schedcheck::sla {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::size_t> eligible_bids(const Instance& instance) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    if (eligible(instance.site, instance.bids[i])) out.push_back(i);
  return out;
}

Admission empty_admission(const Instance& instance) {
  return Admission{std::vector<bool>(instance.bids.size(), false), std::vector<double>(instance.bids.size(), 0.0)};
}

}  // namespace

InstantKnapsack instant_knapsack(const Instance& instance) {
  InstantKnapsack k;
  k.capacity = instance.site.free_processors;
  for (std::size_t i = 0; i < instance.bids.size(); ++i) {
    const Bid& bid = instance.bids[i];
    if (!eligible(instance.site, bid)) continue;
    k.items.push_back({bid.id, bid.procs, incentive(instance.site, bid)});
    k.bid_of.push_back(i);
  }
  return k;
}

std::vector<std::vector<bool>> knapsack_starts(const InstantKnapsack& knapsack, const std::vector<Admission>& decisions) {
  std::vector<std::vector<bool>> starts;
  for (const Admission& a : decisions) {
    std::vector<bool> take(knapsack.items.size(), false);
    std::size_t accepted = 0, covered = 0;
    for (std::size_t k = 0; k < take.size(); ++k) {
      take[k] = a.accepted.at(knapsack.bid_of[k]);
      covered += take[k] ? 1 : 0;
    }
    for (const bool flag : a.accepted) accepted += flag;
    if (accepted == covered) starts.push_back(std::move(take));
  }
  return starts;
}

Admission admission_of(const Instance& instance, const InstantKnapsack& knapsack, const std::vector<bool>& take) {
  Admission admission = empty_admission(instance);
  for (std::size_t k = 0; k < take.size(); ++k) admission.accepted[knapsack.bid_of[k]] = take[k];
  return admission;
}

ExactResult<Admission> solve_instant_core(const Instance& instance, const SolveOptions& options,
                                          const std::vector<Admission>& incumbents, const knapsack::CoreLimits& limits) {
  const auto started = Clock::now();
  const InstantKnapsack knapsack = instant_knapsack(instance);
  std::size_t core_items = 0;
  const knapsack::Solution s =
      knapsack::solve_core(knapsack.items, knapsack.capacity, options, knapsack_starts(knapsack, incumbents),
                           &core_items, limits);
  ExactResult<Admission> result;
  result.status = s.status;
  result.objective = s.value;
  result.decision = admission_of(instance, knapsack, s.take);
  result.detail = s.status == ExactStatus::kOptimal
                      ? fmt::format("{} of {} items entered the core", core_items, knapsack.items.size())
                      : s.detail;
  result.seconds = seconds_since(started);
  const double left_ms = options.timeout_ms - result.seconds * 1e3;
  if (s.status == ExactStatus::kOptimal || s.effort_spent || left_ms <= 0 || stop_requested()) return result;
  // Only the state limit stops the core with time and effort left: the DP's table does not grow with the values.
  // The DP gets the whole effort budget (each step of a chain does: solver/result.hpp).
  result.chain.push_back({"core", "expanding core (Pisinger): the default", to_string(s.status), result.seconds});
  SolveOptions rest = options;
  rest.timeout_ms = static_cast<unsigned>(left_ms);
  ExactResult<Admission> dp = solve_instant_dp(instance, rest);
  result.chain.push_back({"dp", "the core's state list outgrew its limit (" + s.detail + ")", to_string(dp.status),
                          dp.seconds});
  if (dp.status == ExactStatus::kOptimal) {
    dp.chain = std::move(result.chain);
    result = std::move(dp);
  }
  result.seconds = seconds_since(started);
  return result;
}

ExactResult<Admission> solve_instant_dp(const Instance& instance, const SolveOptions& options) {
  const auto started = Clock::now();
  const auto until = started + std::chrono::milliseconds(options.timeout_ms);
  ExactResult<Admission> result;
  const auto items = eligible_bids(instance);
  long long total_procs = 0;
  for (auto i : items) total_procs += instance.bids[i].procs;
  const auto capacity = static_cast<std::size_t>(std::min<long long>(instance.site.free_processors, total_procs));
  if (items.size() * (capacity + 1) > kDpMaxCells) {
    result.detail = fmt::format("DP table of {} x {} cells exceeds the limit of {}; use the z3 method",
                                items.size(), capacity + 1, kDpMaxCells);
    result.seconds = seconds_since(started);
    return result;
  }
  // best[c]: highest incentive using at most c processors over the items seen so far.
  // took[k][c]: item k is taken in the best solution for capacity c after items 0..k.
  std::vector<double> best(capacity + 1, 0.0);
  std::vector<unsigned char> took(items.size() * (capacity + 1), 0);
  EffortMeter effort(options.effort, 1, kTableCellsPerUnit);
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (effort.spend(capacity + 1) || Clock::now() >= until || stop_requested()) {
      result.detail = stop_requested() ? stop_request_text()
                                       : limit_reached(effort, options.timeout_ms,
                                                       fmt::format(" after {} of {} bids", k, items.size()));
      result.seconds = seconds_since(started);
      return result;
    }
    const Bid& bid = instance.bids[items[k]];
    const double value = incentive(instance.site, bid);
    const auto weight = static_cast<std::size_t>(bid.procs);
    if (weight > capacity) continue;
    unsigned char* row = &took[k * (capacity + 1)];
    for (std::size_t c = capacity; c >= weight; --c) {
      const double with = best[c - weight] + value;
      if (with > best[c]) {
        best[c] = with;
        row[c] = 1;
      }
      if (c == weight) break;
    }
  }
  Admission admission = empty_admission(instance);
  std::size_t c = capacity;
  for (std::size_t k = items.size(); k-- > 0;) {
    if (took[k * (capacity + 1) + c]) {
      admission.accepted[items[k]] = true;
      c -= static_cast<std::size_t>(instance.bids[items[k]].procs);
    }
  }
  result.status = ExactStatus::kOptimal;
  result.objective = best[capacity];
  result.decision = std::move(admission);
  result.seconds = seconds_since(started);
  return result;
}

ExactResult<Admission> solve_instant_enumeration(const Instance& instance) {
  const auto started = Clock::now();
  ExactResult<Admission> result;
  const auto items = eligible_bids(instance);
  if (items.size() > kEnumerationMaxBids) {
    result.detail = fmt::format("{} eligible bids; enumeration is limited to {}", items.size(), kEnumerationMaxBids);
    return result;
  }
  std::uint32_t best_mask = 0;
  double best_value = 0;
  for (std::uint32_t mask = 1; mask < (std::uint32_t{1} << items.size()); ++mask) {
    long long procs = 0;
    double value = 0;
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (!(mask >> k & 1U)) continue;
      procs += instance.bids[items[k]].procs;
      value += incentive(instance.site, instance.bids[items[k]]);
    }
    if (procs <= instance.site.free_processors && value > best_value) {
      best_value = value;
      best_mask = mask;
    }
  }
  Admission admission = empty_admission(instance);
  for (std::size_t k = 0; k < items.size(); ++k)
    if (best_mask >> k & 1U) admission.accepted[items[k]] = true;
  result.status = ExactStatus::kOptimal;
  result.objective = best_value;
  result.decision = std::move(admission);
  result.seconds = seconds_since(started);
  return result;
}

ExactResult<Admission> solve_timed_sequences(const Instance& instance) {
  const auto started = Clock::now();
  ExactResult<Admission> result;
  const auto items = eligible_bids(instance);
  if (items.size() > kSequenceMaxBids) {
    result.detail = fmt::format("{} eligible bids; sequence enumeration is limited to {}", items.size(),
                                kSequenceMaxBids);
    return result;
  }
  AvailabilityProfile base(instance.site.processors);
  for (const auto& job : instance.running) base.reserve(0, job.remaining, job.procs);
  std::vector<SerialJob> jobs;
  for (std::size_t i : items) {
    const Bid& bid = instance.bids[i];
    jobs.push_back(SerialJob{bid.procs, response_time(instance.site, bid), bid.deadline, 1});
  }
  // Every prefix of a sequence (jobs placed at their earliest starts, each meeting its deadline) is a candidate.
  Admission best = empty_admission(instance);
  double best_value = 0;
  search_serial_schedules(base, 0.0, jobs, [&](const std::vector<SerialPlacement>& placed) {
    double value = 0;
    for (const auto& p : placed) value += incentive(instance.site, instance.bids[items[p.job]]);
    if (value > best_value) {
      best_value = value;
      best = empty_admission(instance);
      for (const auto& p : placed) {
        best.accepted[items[p.job]] = true;
        best.start[items[p.job]] = p.start;
      }
    }
    return Visit::kDescend;
  });
  result.status = ExactStatus::kOptimal;
  result.objective = best_value;
  result.decision = std::move(best);
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::sla
