// A simulated run and the composition of today's systems (see simulation.hpp). Our own.
#include "simulation/simulation.hpp"

#include "simulation/observer.hpp"

#include <algorithm>
#include <stdexcept>

namespace schedcheck::sim {

RunOptions single_cluster(const workload::Workload& workload, cluster::ClusterPolicy policy, cluster::ResourceModel model) {
  RunOptions options;
  ClusterSetup setup;
  setup.name = workload.name;
  setup.processors = workload.processors;
  setup.model = model;
  setup.policy = std::move(policy);
  options.clusters.push_back(std::move(setup));
  return options;
}

void check_jobs_fit(const std::vector<workload::Job>& jobs, int widest) {
  for (const auto& job : jobs)
    if (job.procs > widest || job.procs < 1)
      throw std::invalid_argument("job " + std::to_string(job.id) + " asks " + std::to_string(job.procs) +
                                  " processors: no cluster has that many");
}

Simulation::Simulation(const std::vector<workload::Job>& jobs, RunLimits limits) : book_(jobs), kernel_(limits) {}

Simulation::Simulation(const std::vector<workload::Job>& jobs, RunOptions options)
    : Simulation(jobs, RunLimits{options.stop_time, options.stops_on_request}) {
  if (options.clusters.empty()) throw std::invalid_argument("a simulation needs at least one cluster");
  if (options.clusters.size() > 1 && !options.broker)
    throw std::invalid_argument("several clusters need a broker to route jobs");
  int widest = 0;
  for (auto& setup : options.clusters) {
    widest = std::max(widest, setup.processors);
    setup.record_allocations = options.record_allocations;
    add_cluster(std::move(setup));
  }
  check_jobs_fit(jobs, widest);
  if (options.broker) add_router(std::move(*options.broker));
  else clusters_.front()->take_arrivals();
}

Simulation::~Simulation() = default;

RouterActor& Simulation::add_router(RouterSetup setup) {
  std::vector<std::pair<ActorId, const ClusterActor*>> targets;
  for (std::size_t c = 0; c < clusters_.size(); ++c) targets.emplace_back(cluster_ids_[c], clusters_[c]);
  const double latency = setup.latency, period = setup.status_period;
  auto actor = std::make_unique<RouterActor>(book_, std::move(setup), std::move(targets));
  RouterActor& ref = *actor;
  // Added (and started) after the clusters it routes to; the lanes keep the documented order of events whatever the
  // order the actors start in.
  const ActorId id = kernel_.add(std::move(actor), "router");
  for (ClusterActor* c : clusters_)
    c->link(ClusterActor::Links{id, latency, period, book_.jobs.empty() ? 0 : book_.jobs.front().submit});
  router_ = &ref;
  return ref;
}

void Simulation::on_progress(std::function<void(const Progress&)> callback, double every_seconds) {
  progress_ = std::move(callback);
  progress_every_ = every_seconds;
}

RunResult Simulation::run() {
  if (progress_)
    kernel_.on_progress([this](double now, double wall) { progress_(Progress{book_.finished, book_.jobs.size(), now, wall}); },
                        progress_every_);
  const KernelStats stats = kernel_.run();
  RunResult result;
  result.events = stats.events;
  result.messages = stats.messages;
  for (std::size_t k = 0; k < stats.sent_by_kind.size(); ++k) result.messages_sent[kernel_.kinds()[k]] = stats.sent_by_kind[k];
  const auto sent = [&](const char* kind) {
    const auto it = result.messages_sent.find(kind);
    return it == result.messages_sent.end() ? std::size_t{0} : it->second;
  };
  result.job_messages = sent("job");
  result.status_messages = sent("status");
  result.end_time = stats.end_time;
  result.stopped = stats.stopped;
  result.interrupted = stats.interrupted;
  result.wall_seconds = stats.wall_seconds;
  for (const ClusterActor* c : clusters_) result.clusters.push_back(c->state().counters);
  result.records = std::move(book_.records);
  for (Observer* o : observers_) o->on_end(EndView{book_.jobs, result});
  return result;
}

}  // namespace schedcheck::sim
