// The time-indexed view of a provider's schedules on its time grid, shared by the integer program (offers_mip) and
// the SAT encoding (offers_sat): one group a waiting job (its identical copies), then the new tasks, each with its
// width, duration and latest start in grid units from now, and the processors free at each grid step. Our own.
// Exact on the grid of offers_exact.hpp time_grid (with grid data every feasible schedule left-shifts to one with
// starts on the grid); a horizon of at most kGridMaxHorizonUnits grid units, of which at most kGridMaxSteps matter.
#pragma once

#include "model/offers.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace schedcheck::offers {

inline constexpr double kGridMaxHorizonUnits = 1e9;  // longest running job + all the work, in grid units
inline constexpr long long kGridMaxSteps = 2'000'000;  // grid steps a program may look at (its rows, its free array)

struct GridProgram {
  std::string why_not;                // not applicable (times off the grid, a horizon too long)
  bool trivially_infeasible = false;  // a job that cannot end by its deadline even alone, or wider than the machine
  double scale = 1;                   // grid units a second
  struct Group {
    std::size_t job;     // serial_jobs index (waiting jobs, then the new tasks)
    int procs;
    long long duration;  // grid units
    long long latest;    // latest start, grid units from now
    long long copies;
  };
  std::vector<Group> groups;
  long long end = 0;     // every group ends by then
  long long starts = 0;  // start values over all groups (sum of latest + 1)
};

// The groups of the instance with `new_tasks` new tasks due by `bound` (absolute), deadlines beyond the horizon
// (now + the longest running job + all the work: every active schedule ends by then) cut to it.
GridProgram grid_program(const Instance& instance, long long new_tasks, double bound);
// Processors free (P less the running jobs) at each grid step of [0, p.end).
std::vector<int> grid_free(const GridProgram& p, const Instance& instance);
// The first grid step at or after the absolute time t, from now (at least 0).
long long grid_units_above(double t, const Instance& instance, double scale);

}  // namespace schedcheck::offers
