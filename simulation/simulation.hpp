// A simulated run: one kernel (simulation/kernel.hpp), the jobs and their records, the observers, and the actors a
// composition adds: clusters (simulation/cluster_actor.hpp), a router above them (simulation/router_actor.hpp), or
// actors of an experiment's own. Our own. The systems of `schedcheck simulate` (one cluster, or several behind a
// router) are composed here once, from RunOptions; a replay of another scheduler's schedule in replay.hpp.
#pragma once

#include "model/workload.hpp"
#include "simulation/cluster_actor.hpp"
#include "simulation/jobs.hpp"
#include "simulation/kernel.hpp"
#include "simulation/router_actor.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::sim {

class Observer;

struct RunResult {
  std::vector<JobRecord> records;      // one per job, in the workload's order
  std::vector<ClusterCounters> clusters;
  std::size_t events = 0;
  std::size_t messages = 0;            // messages delivered
  std::map<std::string, std::size_t> messages_sent;  // by kind ("job", "status", ...)
  std::size_t job_messages = 0, status_messages = 0;  // sent: messages_sent["job"], ["status"]
  double end_time = 0;                 // time of the last processed event
  bool stopped = false;                // stop_time cut the run, or a stop request (then `interrupted` too)
  bool interrupted = false;            // a stop request (SIGINT/SIGTERM, support/stop.hpp) cut the run
  double wall_seconds = 0;
};

struct Progress {
  std::size_t finished = 0, total = 0;
  double now = 0;
  double wall_seconds = 0;
};

// Today's systems: one cluster, or several behind a router.
struct RunOptions {
  std::vector<ClusterSetup> clusters;  // one or more
  std::optional<RouterSetup> broker;   // required with several clusters; without, every job goes to cluster 0
  double stop_time = kForever;         // events after this time are not processed (paper 002: the last arrival)
  bool record_allocations = true;      // fill JobRecord::allocated
  // false: a nested run that must finish (a queue window played forward inside a check); a stop request
  // (SIGINT/SIGTERM) then ends the run around it instead of leaving this one's jobs unstarted.
  bool stops_on_request = true;
};

// One cluster of the workload's processors running `policy`: the common case (simulate, tests, the run search).
RunOptions single_cluster(const workload::Workload& workload, cluster::ClusterPolicy policy,
                          cluster::ResourceModel model = cluster::ResourceModel::kCount);

// Throws std::invalid_argument naming the first job that asks more processors than `widest` (or none).
void check_jobs_fit(const std::vector<workload::Job>& jobs, int widest);

class Simulation {
public:
  // An empty run over `jobs` (in submit order): add actors, then run().
  explicit Simulation(const std::vector<workload::Job>& jobs, RunLimits limits = {});
  // The system RunOptions describes: its clusters, and its router (which the workload then arrives at) or its one
  // cluster (which it arrives at). Every job must fit on the clusters it can be sent to.
  Simulation(const std::vector<workload::Job>& jobs, RunOptions options);
  // The jobs are the caller's and outlive the run: a temporary would not.
  Simulation(std::vector<workload::Job>&&, RunLimits = {}) = delete;
  Simulation(std::vector<workload::Job>&&, RunOptions) = delete;
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;
  ~Simulation();

  // A cluster (a ClusterActor, or a subclass constructed with (book, index, setup, observers, extra...)); clusters
  // are numbered in the order added.
  template <class C = ClusterActor, class... Extra>
  C& add_cluster(ClusterSetup setup, Extra&&... extra) {
    const auto index = static_cast<std::uint32_t>(clusters_.size());
    std::string name = setup.name;
    auto actor = std::make_unique<C>(book_, index, std::move(setup), observers_, std::forward<Extra>(extra)...);
    C& ref = *actor;
    cluster_ids_.push_back(kernel_.add(std::move(actor), std::move(name)));
    clusters_.push_back(&ref);
    return ref;
  }
  // A router over every cluster added so far; each cluster reports to it (setup.status_period) and the workload
  // arrives at it.
  RouterActor& add_router(RouterSetup setup);
  // Any other actor; the run owns it.
  template <class A>
  A& add_actor(std::unique_ptr<A> actor, std::string name) {
    A& ref = *actor;
    kernel_.add(std::move(actor), std::move(name));
    return ref;
  }

  void add_observer(Observer& observer) { observers_.push_back(&observer); }
  // Called about every `every_seconds` of wall time, and once at the end.
  void on_progress(std::function<void(const Progress&)> callback, double every_seconds = 1.0);

  RunResult run();

  const std::vector<workload::Job>& jobs() const { return book_.jobs; }
  JobBook& book() { return book_; }  // during the run (run() moves the records into its result)
  Kernel& kernel() { return kernel_; }
  const std::vector<ClusterActor*>& clusters() const { return clusters_; }
  const RouterActor* router() const { return router_; }
  double now() const { return kernel_.now(); }

private:
  JobBook book_;
  std::vector<Observer*> observers_;
  Kernel kernel_;
  std::vector<ClusterActor*> clusters_;
  std::vector<ActorId> cluster_ids_;
  RouterActor* router_ = nullptr;
  std::function<void(const Progress&)> progress_;
  double progress_every_ = 1.0;
};

}  // namespace schedcheck::sim
