// Helpers shared by the tests of a provider's offers and exact methods: the quotes of an offer list, an instance on
// a finer grid, and instances on which exact methods struggled (issue 15), each naming where it came from. Our own.
#pragma once

#include "model/offers.hpp"

#include <nlohmann/json.hpp>

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

// An instance embedded below (JSON text, as `schedcheck solve offers -i` reads it).
inline Instance embedded(const char* text, const char* name) {
  return read_instance(nlohmann::json::parse(text), name, true);
}

// `schedcheck search offers --policy edf --seed 11` trial 41 (generate offers --seed 3755920640409978122 --size 10):
// the 2-task count is 85; before the program, no method here proved it (bnb 10 s, gecode 240 s, z3 120 s). bnb
// proves it since the search over the mirror image (0.08 s).
inline const char* kTrial41 = R"({"kind": "provider-offers", "name": "trial-41",
  "provider": {"now": 1.0, "processors": 8},
  "bot": {"id": "new", "deadline": 46.0, "task_runtime": 25.0, "tasks": 2},
  "running": [{"id": "r1", "procs": 4, "remaining": 7.0}, {"id": "r2", "procs": 1, "remaining": 19.0}],
  "waiting": [
    {"id": "b1", "type": "bot", "deadline": 53.0, "task_runtime": 14.0, "tasks": 2},
    {"id": "b2", "type": "bot", "deadline": 50.0, "task_runtime": 21.0, "tasks": 3},
    {"id": "b3", "type": "bot", "deadline": 28.0, "task_runtime": 2.0, "tasks": 3},
    {"id": "b4", "type": "bot", "deadline": 51.0, "task_runtime": 20.0, "tasks": 4},
    {"id": "b5", "type": "bot", "deadline": 14.0, "task_runtime": 5.0, "tasks": 3},
    {"id": "j6", "type": "local", "deadline": 30.0, "procs": 2, "runtime": 18.0},
    {"id": "b7", "type": "bot", "deadline": 61.0, "task_runtime": 27.0, "tasks": 3},
    {"id": "b8", "type": "bot", "deadline": 68.0, "task_runtime": 28.0, "tasks": 2},
    {"id": "j10", "type": "local", "deadline": 81.0, "procs": 7, "runtime": 24.0}]})";

inline Instance trial_41() { return embedded(kTrial41, "trial-41"); }

// Seed 13's trial 396 of `search offers --policy edf` (size 10): ten BoTs and a local job, every task one processor
// wide, on 8 processors. Its 6-task count (97) is a packing refutation: the active search had not proven it in 60 s.
inline const char* kSeed13Trial396 = R"({"kind": "provider-offers", "name": "seed-13-trial-396",
  "provider": {"now": 27.0, "processors": 8},
  "bot": {"id": "new", "deadline": 96.0, "task_runtime": 16.0, "tasks": 6},
  "running": [{"id": "r1", "procs": 1, "remaining": 20.0}],
  "waiting": [
    {"id": "b1", "type": "bot", "deadline": 58.0, "task_runtime": 3.0, "tasks": 4},
    {"id": "b2", "type": "bot", "deadline": 87.0, "task_runtime": 28.0, "tasks": 4},
    {"id": "b3", "type": "bot", "deadline": 60.0, "task_runtime": 16.0, "tasks": 4},
    {"id": "b4", "type": "bot", "deadline": 78.0, "task_runtime": 16.0, "tasks": 4},
    {"id": "b5", "type": "bot", "deadline": 93.0, "task_runtime": 28.0, "tasks": 1},
    {"id": "b6", "type": "bot", "deadline": 65.0, "task_runtime": 5.0, "tasks": 4},
    {"id": "j7", "type": "local", "deadline": 79.0, "procs": 1, "runtime": 13.0},
    {"id": "b9", "type": "bot", "deadline": 83.0, "task_runtime": 28.0, "tasks": 3},
    {"id": "b10", "type": "bot", "deadline": 71.0, "task_runtime": 8.0, "tasks": 3}]})";

inline Instance seed_13_trial_396() { return embedded(kSeed13Trial396, "seed-13-trial-396"); }

// Seed 12's trial 397 (size 10): a 5-processor local job that must start within 2 s of now, then one-processor BoT
// tasks on 8 processors.
inline const char* kSeed12Trial397 = R"({"kind": "provider-offers", "name": "seed-12-trial-397",
  "provider": {"now": 14.0, "processors": 8},
  "bot": {"id": "new", "deadline": 30.0, "task_runtime": 9.0, "tasks": 6},
  "running": [{"id": "r1", "procs": 1, "remaining": 2.0}],
  "waiting": [
    {"id": "b1", "type": "bot", "deadline": 48.0, "task_runtime": 13.0, "tasks": 4},
    {"id": "b2", "type": "bot", "deadline": 65.0, "task_runtime": 21.0, "tasks": 3},
    {"id": "b3", "type": "bot", "deadline": 54.0, "task_runtime": 8.0, "tasks": 4},
    {"id": "b4", "type": "bot", "deadline": 45.0, "task_runtime": 5.0, "tasks": 2},
    {"id": "b5", "type": "bot", "deadline": 43.0, "task_runtime": 18.0, "tasks": 2},
    {"id": "j7", "type": "local", "deadline": 26.0, "procs": 5, "runtime": 10.0},
    {"id": "b8", "type": "bot", "deadline": 41.0, "task_runtime": 9.0, "tasks": 4},
    {"id": "b10", "type": "bot", "deadline": 63.0, "task_runtime": 25.0, "tasks": 2}]})";

inline Instance seed_12_trial_397() { return embedded(kSeed12Trial397, "seed-12-trial-397"); }

// Seed 13's trial 526 of `search offers --policy edf`: two 2-processor jobs among one-processor tasks on 4
// processors, 7 processor-seconds to spare for 5 new tasks by 181.
inline const char* kSeed13Trial526 = R"({"kind": "provider-offers", "name": "seed-13-trial-526",
  "provider": {"now": 90.0, "processors": 4},
  "bot": {"id": "new", "deadline": 120.0, "task_runtime": 17.0, "tasks": 6},
  "running": [],
  "waiting": [
    {"id": "b1", "type": "bot", "deadline": 127.0, "task_runtime": 2.0, "tasks": 3},
    {"id": "j2", "type": "local", "deadline": 126.0, "procs": 2, "runtime": 11.0},
    {"id": "b3", "type": "bot", "deadline": 109.0, "task_runtime": 9.0, "tasks": 1},
    {"id": "b4", "type": "bot", "deadline": 109.0, "task_runtime": 3.0, "tasks": 1},
    {"id": "b5", "type": "bot", "deadline": 130.0, "task_runtime": 11.0, "tasks": 3},
    {"id": "j6", "type": "local", "deadline": 129.0, "procs": 2, "runtime": 12.0},
    {"id": "b7", "type": "bot", "deadline": 132.0, "task_runtime": 9.0, "tasks": 3},
    {"id": "b8", "type": "bot", "deadline": 119.0, "task_runtime": 1.0, "tasks": 4},
    {"id": "b9", "type": "bot", "deadline": 145.0, "task_runtime": 22.0, "tasks": 3},
    {"id": "b10", "type": "bot", "deadline": 170.0, "task_runtime": 26.0, "tasks": 3}]})";

inline Instance seed_13_trial_526() { return embedded(kSeed13Trial526, "seed-13-trial-526"); }

// Seed 13's trial 751 of `search offers --policy edf`: a 4-processor and a 3-processor job on 4 processors, 3
// processor-seconds to spare by 133 when one new task must finish by 131. The forward search took 223,000 nodes to
// refute that (and 339,000 for 2 tasks by 155): the conflict is at the end, after j7 (only b8's 14 s tasks can fill
// the 15 or 16 s between j7 and j10), and its mirror image meets it first.
inline const char* kSeed13Trial751 = R"({"kind": "provider-offers", "name": "seed-13-trial-751",
  "provider": {"now": 27.0, "processors": 4},
  "bot": {"id": "new", "deadline": 73.0, "task_runtime": 27.0, "tasks": 2},
  "running": [{"id": "r1", "procs": 1, "remaining": 5.0}, {"id": "r2", "procs": 2, "remaining": 4.0}],
  "waiting": [
    {"id": "b1", "type": "bot", "deadline": 90.0, "task_runtime": 29.0, "tasks": 3},
    {"id": "b2", "type": "bot", "deadline": 72.0, "task_runtime": 7.0, "tasks": 1},
    {"id": "j3", "type": "local", "deadline": 87.0, "procs": 1, "runtime": 25.0},
    {"id": "b4", "type": "bot", "deadline": 62.0, "task_runtime": 10.0, "tasks": 4},
    {"id": "b5", "type": "bot", "deadline": 61.0, "task_runtime": 2.0, "tasks": 3},
    {"id": "b6", "type": "bot", "deadline": 74.0, "task_runtime": 12.0, "tasks": 2},
    {"id": "j7", "type": "local", "deadline": 105.0, "procs": 4, "runtime": 22.0},
    {"id": "b8", "type": "bot", "deadline": 119.0, "task_runtime": 14.0, "tasks": 4},
    {"id": "b9", "type": "bot", "deadline": 83.0, "task_runtime": 3.0, "tasks": 2},
    {"id": "j10", "type": "local", "deadline": 133.0, "procs": 3, "runtime": 14.0}]})";

inline Instance seed_13_trial_751() { return embedded(kSeed13Trial751, "seed-13-trial-751"); }

}  // namespace schedcheck::offers::test
