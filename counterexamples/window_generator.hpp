// Seeded queue windows (model/queue_window.hpp) and their shrinking candidates, for `search queue-window`. Our own.
// Settings (SplitMix64 from the seed; whole seconds): P ~ U{4, 8, 16}; now = 1000; 0-3 running jobs, each of
// U{1..P/2} processors while they fit, remaining U{1..100} s; n = size waiting jobs, submitted now - U{0..500} s (in
// queue order), processors U{1..max(1, P/4)} with probability 1/2 else U{1..P}, estimate U{1..100} s (P and the job
// sizes drawn as traces' are, counterexamples/job_sizes.hpp); objective: bounded-slowdown with probability 3/5, else
// wait or makespan.
#pragma once

#include "model/queue_window.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::window {

Instance generate_instance(std::uint64_t seed, std::size_t waiting);
// Simpler windows, most aggressive first: drop a waiting job, drop a running job, a waiting job submitted at now,
// an estimate or remaining time halved, a job half as wide, a machine one processor smaller (when all fits).
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace schedcheck::window
