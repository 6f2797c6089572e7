// A space-shared resource as an actor holds it: P processors, each held by at most one running job from its start to
// its end; the running set, each job's end timer (Lane::kEnd), the processors it holds, and its end (early when before
// its estimated end: the owner's profile gets the rest of its hold back). Our own, after GridSim's space-shared
// machines. Limits: rigid jobs; the owner keeps its records (which job, when) and decides what starts.
#pragma once

#include "model/cluster.hpp"  // cluster::Running
#include "model/processor_set.hpp"
#include "model/profile.hpp"
#include "simulation/kernel.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::sim {

// Which processors a job holds.
enum class Holding : std::uint8_t {
  kNamed,   // those its start names, as many as it asks (processor identity)
  kLowest,  // the lowest-numbered free ones, as many as are free up to what it asks (counts, with an allocation)
  kCount,   // as many as it asks, none named
};

// The verbs an owner uses (start, finish, free, busy, running) carry no rule of space sharing but `end`, when a job
// ends on its processors alone, so that a time-shared resource can offer the same ones.
class SpaceSharedResource {
public:
  // `keep_order`: an end leaves the running set in start order (else the last running job takes the ended one's place).
  SpaceSharedResource(int processors, Holding holding, bool keep_order = false);

  int processors() const { return processors_; }
  int busy() const { return busy_; }                         // processors the running jobs hold
  int free() const { return processors_ - busy_; }
  const ProcessorSet& free_set() const { return free_now_; }  // with kNamed, kLowest: processors no running job holds
  // The running jobs: a job started goes last; an end closes its gap keeping the order (keep_order), else the last job
  // takes its place.
  const std::vector<cluster::Running>& running() const { return running_; }

  // Starts `job` (the owner's number) now on `procs` processors (`on` with kNamed, else ignored), expected back at
  // `estimated_end`, ending at `end` (>= now), when the owner gets `end_tag` in Lane::kEnd and calls finish. A job
  // that ends as it starts (within kTimeTolerance, as the profile reads its window) holds no processor, so jobs
  // started at the same instant may use them.
  const cluster::Running& start(Context& context, std::uint32_t job, int procs, double estimated_end, double end,
                                std::uint64_t end_tag, ProcessorSet on = {}, bool grid = false);

  struct Ended {
    cluster::Running job;
    bool early = false;  // now before its estimated end
  };
  // `job` ends now (it was started and has not ended): its processors come back; an early end gives `profile` (the
  // owner's plan, if it keeps one on this resource) the rest of its hold, [now, estimated end).
  Ended finish(double now, std::uint32_t job, AvailabilityProfile* profile = nullptr);

private:
  int held(const cluster::Running& r) const { return holding_ == Holding::kLowest ? r.on.count() : r.procs; }

  int processors_;
  Holding holding_;
  bool keep_order_;
  int busy_ = 0;
  ProcessorSet free_now_;
  std::vector<cluster::Running> running_;
  std::vector<std::uint32_t> slot_;  // without keep_order: job -> its index in running_
  std::vector<std::uint32_t> holding_none_;  // running jobs started with an empty window: they hold no processor
};

}  // namespace schedcheck::sim
