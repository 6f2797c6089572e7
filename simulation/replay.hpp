// Replaying a schedule another scheduler produced (schedcheck audit, and drawing a window's schedule): a cluster
// actor whose jobs start when the script says, end when it says, on the processors it says (if given); the
// cluster's policy then only makes the reservations it would hold around them (cluster::backfill_around), so that
// the run invariants can tell which start broke the policy's promises. Jobs the script does not start never join the
// queue. Our own.
#pragma once

#include "model/processor_set.hpp"
#include "simulation/cluster_actor.hpp"
#include "simulation/simulation.hpp"

#include <span>
#include <vector>

namespace schedcheck::sim {

struct Script {
  std::vector<double> start;           // per job; < 0: never started
  std::vector<double> end;
  std::vector<ProcessorSet> on;        // per job; empty sets: processors not given
};

class ReplayCluster : public ClusterActor {
public:
  // The script outlives the actor.
  ReplayCluster(JobBook& book, std::uint32_t index, ClusterSetup setup, const std::vector<Observer*>& observers,
                const Script& script);
  ReplayCluster(JobBook&, std::uint32_t, ClusterSetup, const std::vector<Observer*>&, Script&&) = delete;

  void on_start(Context& context) override;
  void on_timer(Context& context, std::uint64_t tag) override;

protected:
  cluster::Decision decide(const cluster::Snapshot& snapshot) override;
  double end_of(double now, std::uint32_t job) const override;
  // A job the schedule never starts does not join the queue: the replay goes on without it (the audit reports it once,
  // on the rows: jobs-conserved), instead of holding a reservation that falls due, and is remade, forever.
  bool admits(std::uint32_t job) const override { return script_.start[job] >= 0; }

private:
  static constexpr auto kScriptedStart = static_cast<Tag>(static_cast<std::uint64_t>(Tag::kOwn) + 1);
  const Script& script_;
};

// The schedule `script` gives `jobs` (every job fits on `setup`'s processors), replayed on one cluster whose policy
// makes the reservations around it; `observers` watch it as they watch a run.
RunResult replay(const std::vector<workload::Job>& jobs, ClusterSetup setup, const Script& script,
                 std::span<Observer* const> observers = {}, RunLimits limits = {});

}  // namespace schedcheck::sim
