// Brute force on the processor x time grid for `slot-report` (solver/slot_report_grid.hpp). Our own.
#include "solver/slot_report_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace schedcheck::slots {

namespace {

// The elementary intervals [times[k], times[k+1]) of [now, measure_end), and per interval and processor whether the
// holds leave it free (with identity), or per interval the free count.
struct Grid {
  std::vector<double> times;
  std::vector<std::vector<char>> free_on;  // [interval][processor], identity only
  std::vector<int> free;                    // [interval]
};

std::optional<Grid> make_grid(const Instance& instance, const std::vector<double>& extra_times) {
  const double end = measure_end(instance);
  Grid grid;
  grid.times = {instance.now, end};
  auto add = [&](double t) {
    if (t > instance.now && t < end) grid.times.push_back(t);
  };
  for (const Hold& hold : instance.holds) { add(hold.start); add(hold.end); }
  for (double t : extra_times) add(t);
  std::sort(grid.times.begin(), grid.times.end());
  grid.times.erase(std::unique(grid.times.begin(), grid.times.end(),
                               [](double a, double b) { return b - a <= kTimeTolerance; }),
                   grid.times.end());
  if (grid.times.size() < 2) grid.times = {instance.now};  // nothing before the open end
  const std::size_t intervals = grid.times.size() - 1;
  const auto p = static_cast<std::size_t>(instance.processors);
  if (intervals * p > kMaxCells) return std::nullopt;
  grid.free.assign(intervals, instance.processors);
  if (instance.identity) grid.free_on.assign(intervals, std::vector<char>(p, 1));
  for (const Hold& hold : instance.holds)
    for (std::size_t k = 0; k < intervals; ++k) {
      const double mid = (grid.times[k] + grid.times[k + 1]) / 2;
      if (!(hold.start <= mid && mid < hold.end)) continue;
      grid.free[k] -= hold.processors;
      if (instance.identity)
        for (int q : hold.on.members()) grid.free_on[k][static_cast<std::size_t>(q)] = 0;
    }
  return grid;
}

bool covers(const TimeSlot& slot, double a, double b) { return slot.start <= a + kTimeTolerance && b <= slot.end + kTimeTolerance; }

}  // namespace

ExactResult<SlotReport> solve_grid(const Instance& instance, const SolveOptions&) {
  ExactResult<SlotReport> result;
  const auto grid = make_grid(instance, {});
  if (!grid) {
    result.detail = fmt::format("more than {} grid cells", kMaxCells);
    return result;
  }
  const bool open = std::isinf(instance.horizon);
  const std::size_t intervals = grid->times.size() - 1;
  SlotReport report;
  if (instance.identity) {
    for (int q = 0; q < instance.processors; ++q) {
      const auto qi = static_cast<std::size_t>(q);
      std::size_t k = 0;
      while (k <= intervals) {
        const bool tail = k == intervals;  // [measure_end, for ever): free on every processor
        if (tail ? !open : !grid->free_on[k][qi]) { ++k; continue; }
        const std::size_t first = k;
        while (k < intervals && grid->free_on[k][qi]) ++k;
        const bool reaches_end = k == intervals;
        TimeSlot slot{grid->times[first], reaches_end && open ? kForever : grid->times[k], 1,
                      ProcessorSet(instance.processors)};
        slot.on.set(q);
        if (slot.end > slot.start + kTimeTolerance) report.slots.push_back(std::move(slot));
        if (reaches_end) break;
      }
    }
  } else {
    for (std::size_t k = 0; k < intervals; ++k)
      if (grid->free[k] > 0) report.slots.push_back({grid->times[k], grid->times[k + 1], grid->free[k], {}});
    if (open) report.slots.push_back({grid->times.back(), kForever, instance.processors, {}});
  }
  result.status = ExactStatus::kOptimal;
  result.objective = published_area(instance, report);
  result.decision = std::move(report);
  result.detail = fmt::format("{} elementary intervals x {} processors", intervals, instance.processors);
  return result;
}

std::optional<std::string> first_unpublished(const Instance& instance, const SlotReport& report) {
  std::vector<double> extra;
  for (const TimeSlot& slot : report.slots) { extra.push_back(slot.start); extra.push_back(slot.end); }
  const auto grid = make_grid(instance, extra);
  if (!grid) return std::nullopt;
  for (std::size_t k = 0; k + 1 < grid->times.size(); ++k) {
    const double a = grid->times[k], b = grid->times[k + 1];
    if (instance.identity) {
      ProcessorSet left(instance.processors);
      for (int q = 0; q < instance.processors; ++q)
        if (grid->free_on[k][static_cast<std::size_t>(q)]) left.set(q);
      for (const TimeSlot& slot : report.slots)
        if (covers(slot, a, b)) left.subtract(slot.on);
      if (!left.empty())
        return fmt::format("t={:g}..{:g}: processors {} free and in no slot", a, b, left.to_intervals());
    } else {
      int published = 0;
      for (const TimeSlot& slot : report.slots)
        if (covers(slot, a, b)) published += slot.processors;
      if (published < grid->free[k])
        return fmt::format("t={:g}..{:g}: {} of the {} free processors in no slot", a, b, grid->free[k] - published,
                           grid->free[k]);
    }
  }
  return std::string();
}

}  // namespace schedcheck::slots
