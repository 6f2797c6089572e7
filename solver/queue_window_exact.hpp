// Exact methods for a queue window (model/queue_window.hpp). Our own formulations:
//   bnb (the default): depth-first search over active schedules built in start order, bounded by each remaining
//     job's cost at its earliest start on the current profile, states seen before cut, jobs of one shape in submit
//     order, starting from the decisions at hand; any size (exponential in the worst case).
//   sequences: serial schedule generation over every job sequence (active schedules contain an optimum of every
//     regular objective, Kolisch 1996) with branch and bound; identical jobs branch as one; up to kMaxSequenceJobs.
//   gecode: a CP model (cumulative with edge finding, the running jobs as fixed tasks, smallest-start branching, BAB);
//     integer times; the bounded-slowdown sum is scaled by the lcm of the jobs' max(estimate, 10) and refused
//     (unknown) when that would overflow Gecode's integers; up to kMaxGecodeJobs (its left-justification constraints
//     grow with the square of the jobs: 2,000 jobs took 1.4 GB and several times a 2 s limit to build).
// Jobs of estimate 0 hold nothing (their window is empty): both methods start them at now.
#pragma once

#include "model/queue_window.hpp"
#include "solver/result.hpp"
#include "solver/serial_search.hpp"

namespace schedcheck::window {

inline constexpr std::size_t kMaxSequenceJobs = 12;
inline constexpr std::size_t kMaxGecodeJobs = 250;

// The waiting jobs both searches branch on: one SerialJob per group of identical jobs (processors, estimate, submit;
// `copies` of them), groups in submit order (ties: queue order), and the jobs of estimate 0 apart (they hold nothing
// and start at now).
struct JobGroups {
  std::vector<SerialJob> jobs;
  std::vector<std::vector<std::size_t>> members;  // waiting indices of each group, in queue order
  std::vector<std::size_t> zero;
};
JobGroups group_jobs(const Instance& instance);

ExactResult<Schedule> solve_bnb(const Instance& instance, const SolveOptions& options,
                                const std::vector<Schedule>& incumbents = {});
ExactResult<Schedule> solve_sequences(const Instance& instance, const SolveOptions& options);
ExactResult<Schedule> solve_gecode(const Instance& instance, const SolveOptions& options);

}  // namespace schedcheck::window
