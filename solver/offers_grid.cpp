// The time-indexed view of a provider's schedules (see offers_grid.hpp). Our own.
#include "solver/offers_grid.hpp"

#include "solver/offers_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::offers {

GridProgram grid_program(const Instance& instance, long long new_tasks, double bound) {
  GridProgram p;
  const long long scale = time_grid(instance, all_jobs(instance), new_tasks);
  if (scale == 0) {
    p.why_not = "times off the 1 ms grid (now, runtimes, remaining times and binding deadlines)";
    return p;
  }
  p.scale = static_cast<double>(scale);
  const double work = active_span(instance, all_jobs(instance), new_tasks);  // checked before rounding to grid units
  if (!(work * p.scale <= kGridMaxHorizonUnits)) {
    p.why_not = fmt::format("a horizon of {:g} s on a {:g} s grid (limit {:g} grid units)", work, 1 / p.scale,
                            kGridMaxHorizonUnits);
    return p;
  }
  auto units = [&](double x) { return static_cast<long long>(std::llround(x * p.scale)); };
  // Every active schedule ends by now + the longest running job + all the work (serial generation leaves no gap
  // longer than that): later starts are never needed, and deadlines beyond it never bind.
  long long horizon = 0;
  for (const auto& r : instance.running) horizon = std::max(horizon, units(r.remaining));
  const std::vector<SerialJob> jobs = serial_jobs(instance, new_tasks);
  for (const SerialJob& j : jobs) horizon += units(j.duration) * j.copies;
  for (std::size_t g = 0; g < jobs.size(); ++g) {
    const SerialJob& j = jobs[g];
    const double due = g < instance.waiting.size() ? j.deadline : bound;
    long long end = horizon;
    if (due - instance.now < static_cast<double>(horizon) / p.scale)
      end = static_cast<long long>(std::floor((due - instance.now) * p.scale + 1e-6));
    const long long duration = units(j.duration);
    const long long latest = end - duration;
    if (latest < 0 || j.procs > instance.processors) p.trivially_infeasible = true;
    p.groups.push_back({g, j.procs, duration, latest, j.copies});
    p.end = std::max(p.end, end);
    p.starts += std::max(0LL, latest + 1);
  }
  if (p.end > kGridMaxSteps)
    p.why_not = fmt::format("{} grid steps of {:g} s to the last deadline or bound (limit {})", p.end, 1 / p.scale,
                            kGridMaxSteps);
  return p;
}

std::vector<int> grid_free(const GridProgram& p, const Instance& instance) {
  const AvailabilityProfile free = running_profile(instance);
  std::vector<int> out(static_cast<std::size_t>(std::max(0LL, p.end)));
  for (std::size_t u = 0; u < out.size(); ++u)
    out[u] = free.free_at(instance.now + (static_cast<double>(u) + 0.5) / p.scale);
  return out;
}

long long grid_units_above(double t, const Instance& instance, double scale) {
  return std::max(0LL, static_cast<long long>(std::ceil((t - instance.now) * scale - 1e-6)));
}

}  // namespace schedcheck::offers
