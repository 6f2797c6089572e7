// How properties watch a run (the arrows point one way: properties/ implements Observer, simulation/ calls it).
// Our own. Each call sees the cluster after the event was applied; a pass view still lists the jobs the pass
// started or rejected (decision.start and decision.reject index state.queue) with every reservation as the pass left
// it, and state.resource.running() ends with the jobs the pass started, in increasing queue index.
#pragma once

#include "model/cluster.hpp"
#include "simulation/cluster_actor.hpp"
#include "simulation/jobs.hpp"

namespace schedcheck::sim {

struct RunResult;

struct ArrivalView {
  double now;
  std::uint32_t cluster;
  std::uint32_t job;
  const JobBook& book;
};

struct PassView {
  double now;
  std::uint32_t cluster;
  const ClusterState& state;
  const cluster::Decision& decision;
  const JobBook& book;
};

struct CompletionView {
  double now;
  std::uint32_t cluster;
  std::uint32_t job;
  bool early;  // before its estimated end: capacity came back to the profile
  const JobBook& book;
};

struct PublishView {  // the free time slots a cluster publishes now, before they leave it
  double now;
  std::uint32_t cluster;
  const std::vector<TimeSlot>& slots;
  const ClusterState& state;
  const JobBook& book;
};

struct EndView {
  const std::vector<workload::Job>& jobs;
  const RunResult& result;
};

class Observer {
public:
  virtual ~Observer() = default;
  virtual void on_arrival(const ArrivalView&) {}
  virtual void on_pass(const PassView&) {}
  virtual void on_completion(const CompletionView&) {}
  virtual void on_publish(const PublishView&) {}
  virtual void on_end(const EndView&) {}
};

}  // namespace schedcheck::sim
