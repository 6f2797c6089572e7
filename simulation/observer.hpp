// How properties watch a run (the arrows point one way: properties/ implements Observer, simulation/ calls it).
// Our own. Each call sees the engine after the event was applied; a pass view still lists the jobs the pass
// started (decision.start indices into state.queue) with every reservation as the pass left it, and
// state.running ends with the jobs the pass started, in increasing queue index.
#pragma once

#include "simulation/engine.hpp"

namespace schedcheck::sim {

struct ArrivalView {
  double now;
  std::uint32_t cluster;
  std::uint32_t job;
  const Simulation& simulation;
};

struct PassView {
  double now;
  std::uint32_t cluster;
  const ClusterState& state;
  const cluster::Decision& decision;
  const Simulation& simulation;
};

struct CompletionView {
  double now;
  std::uint32_t cluster;
  std::uint32_t job;
  bool early;  // before its estimated end: capacity came back to the profile
  const Simulation& simulation;
};

struct EndView {
  const Simulation& simulation;
  const RunResult& result;
};

class Observer {
public:
  virtual ~Observer() = default;
  virtual void on_arrival(const ArrivalView&) {}
  virtual void on_pass(const PassView&) {}
  virtual void on_completion(const CompletionView&) {}
  virtual void on_end(const EndView&) {}
};

}  // namespace schedcheck::sim
