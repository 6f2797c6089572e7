// A router above several clusters as an actor: the workload's jobs arrive here, a pure routing policy
// (reference/router_policies.hpp) picks a cluster from what the clusters last reported, and the job travels there as
// a message (JobArrives) with the latency; status reports (StatusReport messages) update what it knows. Our own;
// paper 002's gateway is the least-loaded router with reports every ten minutes.
#pragma once

#include "model/router.hpp"
#include "reference/router_policies.hpp"
#include "simulation/cluster_actor.hpp"
#include "simulation/job_source.hpp"
#include "simulation/jobs.hpp"
#include "simulation/kernel.hpp"

#include <deque>
#include <vector>

namespace schedcheck::sim {

struct RouterSetup {
  router::RouterPolicy policy;
  double latency = 0;          // seconds a message takes, either way
  double status_period = 0;    // clusters report their status every this many seconds (0: never)
};
// The setup of a built-in routing policy; throws std::invalid_argument for an unknown name, a latency outside [0, 1e9]
// s, a status period neither 0 nor in [0.001, 1e12] s, or a policy that needs status reports without them.
RouterSetup router_setup(const std::string& policy, double latency, double status_period);

class RouterActor : public Actor {
public:
  // `clusters`: the actors it routes to, with their ids, in cluster-index order.
  RouterActor(JobBook& book, RouterSetup setup, std::vector<std::pair<ActorId, const ClusterActor*>> clusters);

  // Only these jobs of the book (indices, in submit order) arrive here (the others go to their clusters directly);
  // before the run starts.
  void route_only(std::vector<std::uint32_t> jobs);

  const RouterSetup& setup() const { return setup_; }
  const std::vector<router::ClusterStatus>& view() const { return view_; }

  void on_start(Context& context) override;
  void on_message(Context& context, const Message& message) override;
  void on_timer(Context& context, std::uint64_t tag) override;

private:
  void route(Context& context, std::uint32_t job);

  JobBook& book_;
  RouterSetup setup_;
  std::vector<std::pair<ActorId, const ClusterActor*>> clusters_;
  std::vector<router::ClusterStatus> view_;
  struct Sent {                         // a job sent to a cluster that no report has included yet
    double arrives;                     // when it reaches the cluster
    int procs;
  };
  std::vector<std::deque<Sent>> unreported_;  // per cluster, in sending order
  JobSource arrivals_;  // the book's jobs in submit order; its timers are the only ones the router sets
  std::uint32_t last_ = router::kNone;
};

}  // namespace schedcheck::sim
