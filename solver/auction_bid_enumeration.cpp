// The enumeration of auction-bid (solver/auction_bid_enumeration.hpp). Our own: a table of the cheapest charge of
// every resource for every set of free tasks (bisection on the bid), then every placement summed from the table.
#include "solver/auction_bid_enumeration.hpp"

#include "support/stop.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace schedcheck::auction_bid {

namespace {

constexpr double kEnumerationInfinity = std::numeric_limits<double>::infinity();
constexpr std::size_t kPlacementsPerClockRead = 1 << 16;

bool finishes_in_time(const Instance& instance, std::size_t r, double load, double bid) {
  return finish_time(instance, r, load, bid) <= instance.time_left;
}

}  // namespace

std::optional<double> bisected_bid(const Instance& instance, std::size_t r, double load) {
  const auction::Resource& spec = instance.resources[r].spec;
  if (load <= 0 || finishes_in_time(instance, r, load, spec.min_bid)) return spec.min_bid;
  if (!finishes_in_time(instance, r, load, spec.max_bid)) return std::nullopt;
  double lo = spec.min_bid, hi = spec.max_bid;  // lo misses the deadline, hi meets it
  for (int step = 0; step < kBidBisectionSteps && hi > lo; ++step) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (finishes_in_time(instance, r, load, mid) ? hi : lo) = mid;
  }
  return hi;
}

ExactResult<Plan> solve_enumeration(const Instance& instance, const SolveOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const auto until = started + std::chrono::milliseconds(options.timeout_ms);
  ExactResult<Plan> result;
  const std::size_t nr = instance.resources.size();
  std::vector<std::size_t> free;
  std::vector<double> base(nr, 0.0);
  for (std::size_t t = 0; t < instance.tasks.size(); ++t) {
    if (instance.tasks[t].running_on != kNoResource) base[instance.tasks[t].running_on] += instance.tasks[t].length;
    else free.push_back(t);
  }
  const std::size_t n = free.size();
  const double placements = std::pow(static_cast<double>(nr), static_cast<double>(n));
  if (n > kMaxEnumeratedTasks || placements > kMaxEnumeratedPlacements) {
    result.detail = fmt::format("{} free tasks on {} resources: {:.3g} placements, more than the enumeration's limit "
                                "({} tasks, {:g} placements)",
                                n, nr, placements, kMaxEnumeratedTasks, kMaxEnumeratedPlacements);
    result.seconds = seconds_since(started);
    return result;
  }
  // cost[r][mask]: the cheapest charge of r holding its running task and the free tasks in `mask`.
  const std::size_t masks = std::size_t{1} << n;
  std::vector<std::vector<double>> cost(nr, std::vector<double>(masks, kEnumerationInfinity));
  std::vector<std::vector<double>> bid(nr, std::vector<double>(masks, 0.0));
  for (std::size_t r = 0; r < nr; ++r)
    for (std::size_t mask = 0; mask < masks; ++mask) {
      double load = base[r];
      for (std::size_t i = 0; i < n; ++i)
        if (mask >> i & 1) load += instance.tasks[free[i]].length;
      const std::optional<double> b = bisected_bid(instance, r, load);
      if (!b) continue;
      bid[r][mask] = load > 0 ? *b : 0.0;
      cost[r][mask] = charge(instance, r, load, *b);
    }
  // Every placement, as an odometer over the free tasks' resources.
  std::vector<std::size_t> digit(n, 0), mask_of(nr, 0);
  mask_of[0] = masks - 1;
  double best = kEnumerationInfinity;
  std::vector<std::size_t> best_digits;
  std::size_t visited = 0;
  EffortMeter effort(options.effort);  // a placement a unit
  for (;;) {
    double total = 0;
    for (std::size_t r = 0; r < nr && total < best; ++r) total += cost[r][mask_of[r]];
    if (total < best) {
      best = total;
      best_digits = digit;
    }
    ++visited;
    if (effort.spend() ||
        (visited % kPlacementsPerClockRead == 0 && (std::chrono::steady_clock::now() >= until || stop_requested()))) {
      result.detail = stop_requested() ? stop_request_text() : limit_reached(effort, options.timeout_ms);
      result.detail += fmt::format(" after {} of {:g} placements", visited, placements);
      break;
    }
    std::size_t i = 0;
    for (; i < n; ++i) {  // the next placement: task i moves to the next resource, the ones before it back to 0
      mask_of[digit[i]] &= ~(std::size_t{1} << i);
      digit[i] = (digit[i] + 1) % nr;
      mask_of[digit[i]] |= std::size_t{1} << i;
      if (digit[i] != 0) break;
    }
    if (i == n) {
      result.detail = fmt::format("every one of the {:g} placements", placements);
      result.status = ExactStatus::kOptimal;
      break;
    }
  }
  const bool exhausted = result.status == ExactStatus::kOptimal;
  if (std::isfinite(best)) {
    Plan plan;
    plan.assign.assign(instance.tasks.size(), kNoResource);
    for (std::size_t t = 0; t < instance.tasks.size(); ++t)
      if (instance.tasks[t].running_on != kNoResource) plan.assign[t] = instance.tasks[t].running_on;
    for (std::size_t i = 0; i < n; ++i) plan.assign[free[i]] = best_digits[i];
    std::vector<std::size_t> final_mask(nr, 0);
    for (std::size_t i = 0; i < n; ++i) final_mask[best_digits[i]] |= std::size_t{1} << i;
    plan.bids.assign(nr, 0.0);
    for (std::size_t r = 0; r < nr; ++r) plan.bids[r] = bid[r][final_mask[r]];
    result.objective = best;
    result.decision = std::move(plan);
    if (!exhausted) result.status = ExactStatus::kFeasible;
  } else if (exhausted) {
    result.status = ExactStatus::kInfeasible;
    result.detail = "no placement finishes every resource's work by the deadline (" + result.detail + ")";
  }
  result.seconds = seconds_since(started);
  return result;
}

}  // namespace schedcheck::auction_bid
