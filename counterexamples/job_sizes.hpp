// The machine and rigid-job sizes the cluster generators draw (queue windows, window_generator.hpp; traces,
// workload_generator.hpp): one distribution for both. Our own. Settings (SplitMix64, whole numbers): machine
// P ~ U{4, 8, 16}; a job's processors U{1..max(1, P/4)} with probability 1/2, else U{1..P} (narrow jobs dominate, as
// in real logs); its length U{1..longest} s. The draws are made in this order, so a seed gives the same sizes.
#pragma once

#include "counterexamples/rng.hpp"

#include <algorithm>

namespace schedcheck {

inline int draw_machine_processors(SplitMix64& rng) {
  const int sizes[] = {4, 8, 16};
  return sizes[rng.integer(0, 2)];
}

struct JobSize {
  int procs;
  double seconds;  // the job's length: a queue window's estimate, a trace's run time
};

inline JobSize draw_job_size(SplitMix64& rng, int processors, int longest_seconds) {
  JobSize size{};
  size.procs = rng.chance(0.5) ? static_cast<int>(rng.integer(1, std::max(1, processors / 4)))
                               : static_cast<int>(rng.integer(1, processors));
  size.seconds = static_cast<double>(rng.integer(1, longest_seconds));
  return size;
}

}  // namespace schedcheck
