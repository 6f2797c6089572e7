// The Grid-Federation of paper 004 on the simulation kernel: one GFA actor per cluster, manager of its local users'
// jobs (Algorithm 1: query the directory, bid, try the next contractor on a reject) and contractor for every job bid to
// it (Algorithm 2 as events: bid arrival, bid expiry, job finish, each followed by STRICTGREEDY over the bid queue),
// and the shared federation directory. Every admission decision goes to a DecisionProbe as an `sla-admission`
// instance. Paper 004 sec. 2-4; our own realisation of its GridSim entities. Limits: no message latency.
#pragma once

#include "model/federation.hpp"
#include "model/workload.hpp"
#include "properties/decision_probe.hpp"
#include "properties/registry.hpp"
#include "simulation/kernel.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace schedcheck::federation {

struct RunSpec {
  AdmissionMode admission = AdmissionMode::kOnArrival;  // how contractors admit bids (model/federation.hpp)
  double bid_share = 0;            // t_neg / d, with kBidQueue
  double oft_share = 1;            // the share of jobs whose user seeks optimisation for time
  std::uint64_t seed = 1;          // which jobs seek time when oft_share is between 0 and 1
  bool check = true;               // every (every-th) admission decision checked against the exact knapsack
};

using AdmissionProbe = DecisionProbe<sla::Instance, sla::Admission>;

struct FederationRun {
  RunLog log;
  sim::KernelStats stats;
  std::unique_ptr<AdmissionProbe> probe;  // with spec.check
  std::size_t decisions = 0;              // admission decisions taken (STRICTGREEDY passes over a non-empty queue,
                                          // or bids decided on arrival at a 0% bid time)
  std::size_t single_bid = 0;             // ... of which over one bid (a knapsack of one item: optimal by construction)
  std::size_t knapsack_checked = 0;       // checked decisions over two bids or more (real knapsacks) ...
  std::size_t knapsack_at_optimum = 0;    // ... and of those, at the proven optimum
  std::size_t accepted_at_expiry = 0;     // bids reserved by the expiry event (line 1.17) rather than by STRICTGREEDY
  double incentive_lost = 0;              // over the checked decisions: optimum - decision, summed
  bool interrupted = false;
};

// The federation's jobs: every cluster's window of its trace (`windows[m]`, model/federation.hpp trace_window: the
// window's start at 0), jobs of run time 0 left out (they carry no work and no incentive). Each job's user seeks time
// with probability oft_share (seeded).
std::vector<Job> federation_jobs(const std::vector<Cluster>& clusters, const std::vector<TraceWindow>& windows,
                                 double oft_share, std::uint64_t seed);

// Runs the contract net over `jobs` until every job is accepted and finished or dropped. `registry` gives the
// `sla-admission` problem the probe checks with. Stops early on a stop request (then `interrupted`).
FederationRun run_federation(const std::vector<Cluster>& clusters, const Settings& settings, std::vector<Job> jobs,
                             const RunSpec& spec, const Registry& registry);

}  // namespace schedcheck::federation
