// Seeded small traces for the run search and the simulation tests, and their shrinking candidates. Our own.
// Settings (all drawn with SplitMix64 from the seed; integer times, so every start is exact):
//   machine P ~ U{4, 8, 16}; n = size jobs; submit gaps ~ U{0..kMaxGap} s (about one in four jobs arrives with
//   the previous one); processors: with probability 1/2 U{1..max(1, P/4)}, else U{1..P} (narrow jobs dominate,
//   as in real logs); run time ~ U{1..kMaxRun} s (P, processors and run time: counterexamples/job_sizes.hpp, shared
//   with the queue windows); estimate = run x one of {1, 1, 1.5, 2, 4} rounded up (most users over-estimate, a
//   third are exact), and with probability 1/10 an under-estimate run/2 rounded up (the job is killed at its
//   estimate).
#pragma once

#include "model/workload.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::workload {

inline constexpr int kMaxGap = 20;
inline constexpr int kMaxRun = 50;

Workload generate_workload(std::uint64_t seed, std::size_t jobs);
// Simpler workloads than `w`, most aggressive first: drop a job; a job submitted with the one before it;
// estimate = run time; run time halved (estimate with it); a job half as wide; a machine one processor smaller
// (when every job still fits). Each candidate is a valid workload (ids kept, submit order kept).
std::vector<Workload> shrink_workload(const Workload& w);

}  // namespace schedcheck::workload
