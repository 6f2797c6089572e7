// Suite `conservative_slow`: an independent, deliberately naive re-implementation of conservative backfilling
// with compression (Mu'alem & Feitelson 2001, as docs/policies.md reads it), differential against the engine and
// reference/cluster_policies on seeded small traces. The slow side shares no code with the fast one: no
// availability profile, no event queue; at every instant it recomputes the free processors from the list of all
// holds (running jobs until their estimated ends, every reservation) for every candidate start it tries.
// Count model only; O(jobs^3) an instant, so traces of up to ~40 jobs.
#include "counterexamples/workload_generator.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/simulation.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <limits>
#include <vector>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_conservative_slow {

using namespace schedcheck;

namespace {

struct Hold {
  std::size_t job;
  double start, end;
  int procs;
};

// Processors used at instant x by the holds, leaving out job `except`.
int used_at(const std::vector<Hold>& holds, double x, std::size_t except) {
  int used = 0;
  for (const auto& h : holds)
    if (h.job != except && h.start <= x && x < h.end) used += h.procs;
  return used;
}

bool fits(const std::vector<Hold>& holds, int processors, double a, double duration, int procs, std::size_t except) {
  if (used_at(holds, a, except) + procs > processors) return false;
  for (const auto& h : holds)  // usage only rises where a hold starts
    if (h.job != except && h.start > a && h.start < a + duration && used_at(holds, h.start, except) + procs > processors)
      return false;
  return true;
}

// Earliest start >= now (and < before) of a job against the holds: now, or the end of some hold.
double earliest(const std::vector<Hold>& holds, int processors, double now, double duration, int procs,
                std::size_t except, double before = std::numeric_limits<double>::infinity()) {
  std::vector<double> candidates{now};
  for (const auto& h : holds)
    if (h.job != except && h.end > now) candidates.push_back(h.end);
  std::sort(candidates.begin(), candidates.end());
  for (double c : candidates) {
    if (c >= before) break;
    if (fits(holds, processors, c, duration, procs, except)) return c;
  }
  return std::numeric_limits<double>::infinity();
}

std::vector<double> slow_conservative(const workload::Workload& w) {
  const std::size_t n = w.jobs.size();
  std::vector<double> start(n, -1), end(n, -1), reservation(n, -1);
  std::vector<std::size_t> queue;  // arrival order
  std::vector<std::size_t> running;
  std::size_t next = 0;
  bool early = false;
  const double inf = std::numeric_limits<double>::infinity();
  while (next < n || !queue.empty() || !running.empty()) {
    double t = next < n ? w.jobs[next].submit : inf;
    for (std::size_t j : running) t = std::min(t, end[j]);
    for (std::size_t j : queue)
      if (reservation[j] >= 0) t = std::min(t, reservation[j]);
    // Completions, then arrivals, then one pass.
    for (std::size_t k = 0; k < running.size();)
      if (end[running[k]] <= t) {
        if (end[running[k]] < start[running[k]] + w.jobs[running[k]].estimate) early = true;
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    while (next < n && w.jobs[next].submit <= t) queue.push_back(next++);
    auto holds = [&] {
      std::vector<Hold> out;
      for (std::size_t j : running) out.push_back({j, start[j], start[j] + w.jobs[j].estimate, w.jobs[j].procs});
      for (std::size_t j : queue)
        if (reservation[j] >= 0) out.push_back({j, reservation[j], reservation[j] + w.jobs[j].estimate, w.jobs[j].procs});
      return out;
    };
    if (early)  // compression: queue order, each to its earliest start before its reservation, one pass
      for (std::size_t j : queue)
        if (reservation[j] > t) {
          const double e = earliest(holds(), w.processors, t, w.jobs[j].estimate, w.jobs[j].procs, j, reservation[j]);
          if (e < reservation[j]) reservation[j] = e;
        }
    early = false;
    for (std::size_t j : queue)
      if (reservation[j] < 0)
        reservation[j] = earliest(holds(), w.processors, t, w.jobs[j].estimate, w.jobs[j].procs, n);
    for (std::size_t k = 0; k < queue.size();) {
      const std::size_t j = queue[k];
      if (reservation[j] <= t) {
        start[j] = t;
        end[j] = t + w.jobs[j].runtime();
        running.push_back(j);
        queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    }
  }
  return start;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(conservative_slow)

BOOST_AUTO_TEST_CASE(fast_equals_slow_on_generated_traces) {
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const std::size_t size = 5 + seed % 30;
    auto w = workload::generate_workload(seed, size);
    // Jobs of run time 0 (every seventh, half of them with an estimate of 0 too): the engine's two bugs found
    // while this was written were about such jobs.
    for (std::size_t j = 3; j < w.jobs.size(); j += 7) {
      w.jobs[j].run = 0;
      if (j % 2) w.jobs[j].estimate = 0;
    }
    sim::Simulation s(w.jobs, sim::single_cluster(w, cluster::cluster_policy("conservative")));
    const auto fast = s.run();
    const auto slow = slow_conservative(w);
    for (std::size_t j = 0; j < w.jobs.size(); ++j) {
      BOOST_TEST(fast.records[j].start == slow[j], "seed " << seed << " job " << w.jobs[j].id << ": fast (engine) "
                                                            << fast.records[j].start << ", slow " << slow[j] << " on "
                                                            << workload::write_instance(w).dump());
      ++compared;
    }
  }
  BOOST_TEST(compared > 7000u);  // 7,400 jobs, about 1,000 of them of run time 0
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_conservative_slow
