// Helpers shared by the tests of a provider's offers and exact methods: the quotes of an offer list, an instance on
// a finer grid, and instances on which exact methods struggled (tests/data/offers), each naming where it
// came from. Our own.
#pragma once

#include "model/offers.hpp"
#include "model/workload.hpp"

#include <string>
#include <vector>

namespace schedcheck::offers::test {

inline std::vector<double> quotes(const OfferList& list) {
  std::vector<double> out;
  for (const auto& o : list.per_count) out.push_back(o.completion);
  return out;
}

inline std::string joined(const std::vector<double>& values) {
  std::string out;
  for (double v : values) {
    if (!out.empty()) out += ' ';
    out += std::to_string(v);
  }
  return out;
}

// Every time divided by `divisor`: data on the 1 / divisor s grid (x / 10 is the double nearest to the decimal;
// x * 0.1 need not be, and is then refused as off the grid).
inline Instance scaled(Instance instance, double divisor) {
  instance.now /= divisor;
  for (auto& r : instance.running) r.remaining /= divisor;
  for (auto& w : instance.waiting) w.runtime /= divisor, w.deadline /= divisor;
  if (instance.bot) instance.bot->task_runtime /= divisor, instance.bot->deadline /= divisor;
  return instance;
}

// An instance of tests/data/offers (each file also runs as `schedcheck solve offers -i FILE`), read as the CLI reads it.
inline Instance from_data(const std::string& file) {
  const std::string path = std::string(SCHEDCHECK_SOURCE_DIR) + "/tests/data/offers/" + file;
  return read_instance(workload::read_instance_file(path), path, true);
}

// `schedcheck search offers --policy edf --seed 11` trial 41 (generate offers --seed 3755920640409978122 --size 10):
// the 2-task count is 85; before the program, no method here proved it (bnb 10 s, gecode 240 s, z3 120 s). bnb
// proves it since the search over the mirror image (0.08 s).
inline Instance trial_41() { return from_data("trial-41.json"); }

// Seed 13's trial 396 of `search offers --policy edf` (size 10): ten BoTs and a local job, every task one processor
// wide, on 8 processors. Its 6-task count (97) is a packing refutation: the active search had not proven it in 60 s.
inline Instance seed_13_trial_396() { return from_data("seed-13-trial-396.json"); }

// Seed 12's trial 397 (size 10): a 5-processor local job that must start within 2 s of now, then one-processor BoT
// tasks on 8 processors.
inline Instance seed_12_trial_397() { return from_data("seed-12-trial-397.json"); }

// Seed 13's trial 526 of `search offers --policy edf`: two 2-processor jobs among one-processor tasks on 4
// processors, 7 processor-seconds to spare for 5 new tasks by 181.
inline Instance seed_13_trial_526() { return from_data("seed-13-trial-526.json"); }

// Seed 13's trial 751 of `search offers --policy edf`: a 4-processor and a 3-processor job on 4 processors, 3
// processor-seconds to spare by 133 when one new task must finish by 131. The forward search took 223,000 nodes to
// refute that (and 339,000 for 2 tasks by 155): the conflict is at the end, after j7 (only b8's 14 s tasks can fill
// the 15 or 16 s between j7 and j10), and its mirror image meets it first.
inline Instance seed_13_trial_751() { return from_data("seed-13-trial-751.json"); }

}  // namespace schedcheck::offers::test
