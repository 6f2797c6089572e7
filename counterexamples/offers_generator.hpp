// Seeded random provider snapshots (accepted work + a new BoT) and shrinking candidates, for search, tests and
// benchmarks. Our own; paper 000 section V draws deadlines as runtime + submission + k, we use integer slack.
// Settings (SplitMix64 from the seed; all times integers so that counterexamples read exactly):
//   P = 2^U{log2 min..log2 max} (default 4..16); now ~ U{0..100}; running jobs ~ U{0..2}, procs U{1..P/2},
//   remaining U{1..30}; n = size waiting jobs, each a local job (p ~ U{1..P}, runtime U{1..30}) or a BoT part
//   (tasks U{1..4}, task runtime U{1..30}) with probability 1/2; deadline = now + runtime + U{0..40}.
//   Admitted (repair = true): jobs are accepted one at a time and a deadline EDF cannot keep is raised to the
//   job's EDF completion when placed last (a job still infeasible is dropped): accepted work is EDF-feasible
//   and near the edge. New BoT: tasks U{2..6}, task runtime U{1..30}, deadline = now + runtime + U{0..60}.
#pragma once

#include "model/offers.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::offers {

struct GeneratorSettings {
  int min_processors = 4;
  int max_processors = 16;   // powers of two between these
  bool repair = true;        // admit jobs one by one keeping the accepted work EDF-feasible
  bool with_bot = true;
  long long max_part_tasks = 4;
  long long max_bot_tasks = 6;
};

Instance generate_instance(std::uint64_t seed, std::size_t waiting, const GeneratorSettings& settings = {});
// Simpler instances, most aggressive first: drop a waiting or running job, fewer tasks, fewer processors for a
// job or the provider, now = 0 (all times shifted). Candidates may be rejected by the reader; search skips those.
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace schedcheck::offers
