// Replaying another scheduler's schedule (see replay.hpp). Our own.
#include "simulation/replay.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace schedcheck::sim {

ReplayCluster::ReplayCluster(JobBook& book, std::uint32_t index, ClusterSetup setup,
                             const std::vector<Observer*>& observers, const Script& script)
    : ClusterActor(book, index, std::move(setup), observers), script_(script) {
  if (script_.start.size() != book.jobs.size() || script_.end.size() != book.jobs.size() ||
      script_.on.size() != book.jobs.size())
    throw std::invalid_argument("a replay script needs a start, an end and processors (maybe none) for every job");
  take_arrivals();
}

void ReplayCluster::on_start(Context& context) {
  ClusterActor::on_start(context);
  for (std::uint32_t j = 0; j < book_.jobs.size(); ++j)
    if (script_.start[j] >= 0) context.wake_at(script_.start[j], Timer::of(kScriptedStart, j));
}

void ReplayCluster::on_timer(Context& context, std::uint64_t t) {
  if (Timer::due(t) != kScriptedStart) return ClusterActor::on_timer(context, t);
  // A scripted start falls due: a pass now, if the job still waits here.
  const auto job = static_cast<std::uint32_t>(Timer::index(t));
  const JobRecord& r = book_.records[job];
  if (r.state == JobState::kWaiting && r.cluster == index_ && std::abs(script_.start[job] - context.now()) <= kTimeTolerance)
    context.end_of_instant();
}

double ReplayCluster::end_of(double now, std::uint32_t job) const { return std::max(now, script_.end[job]); }

cluster::Decision ReplayCluster::decide(const cluster::Snapshot& snapshot) {
  std::vector<cluster::Placement> forced;
  std::vector<std::size_t> ending_now;  // forced jobs of length 0: their end makes another pass at this instant
  for (std::size_t i = 0; i < snapshot.queue.size(); ++i) {
    const std::uint32_t job = snapshot.queue[i].job;
    if (script_.start[job] < 0 || script_.start[job] > snapshot.now + kTimeTolerance) continue;
    cluster::Placement p{i, snapshot.now, {}};
    if (st_.setup.model == cluster::ResourceModel::kProcessors) p.on = script_.on[job];
    forced.push_back(std::move(p));
    if (script_.end[job] <= snapshot.now + kTimeTolerance) ending_now.push_back(i);
  }
  // Another pass follows at this instant when a job started now ends now (its completion comes before the next
  // pass): the replayed scheduler may have started some jobs only then, on the processors that job gave back.
  // One pass per event: the scripted-start timer of every forced job asked for a pass at the end of this instant, so
  // a job that does not fit after this event waits for a later event's pass, or that one.
  const auto& parts = st_.setup.policy.partitions;
  return cluster::backfill_around(snapshot, st_.setup.policy.pivots, forced, ending_now, in_event_pass_,
                                  parts ? &*parts : nullptr);
}

RunResult replay(const std::vector<workload::Job>& jobs, ClusterSetup setup, const Script& script,
                 std::span<Observer* const> observers, RunLimits limits) {
  check_jobs_fit(jobs, setup.processors);
  Simulation simulation(jobs, limits);
  simulation.add_cluster<ReplayCluster>(std::move(setup), script);
  for (Observer* o : observers) simulation.add_observer(*o);
  return simulation.run();
}

}  // namespace schedcheck::sim
