// Routing policies of a router above several clusters, as pure functions of its snapshot (model/router.hpp):
// round-robin, and least-loaded (paper 002 sec. 4, the InterGrid gateway's baseline: the least loaded provider by its
// last status report; load as in Algorithm 1 line 6, the "load of waiting/running jobs": busy plus queued
// processors, over the cluster's processors). Our own readings: the router adds the processors it sent since the
// report; a job goes only where it fits; ties go to the next cluster after the last one used. The catalogue names
// every policy once: the CLI's choices and the docs derive from it.
#pragma once

#include "model/router.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace schedcheck::router {

// The next cluster after the last one used on which the job fits.
std::uint32_t round_robin(const Snapshot& snapshot);
// A cluster's load as the router sees it: (busy + queued + unreported processors) / processors; above 1 once jobs
// wait there.
double load(const ClusterStatus& cluster);
// The lowest load among the clusters the job fits on; ties: the first after `last` in cluster order.
std::uint32_t least_loaded(const Snapshot& snapshot);

struct RouterPolicy {
  std::string name;
  std::string source;
  std::string summary;
  bool needs_status_reports = false;   // routes on what the clusters report: a run without reports is refused
  std::function<std::uint32_t(const Snapshot&)> route;  // a cluster index on which the job fits
};
std::vector<RouterPolicy> router_policies();
RouterPolicy router_policy(const std::string& name);  // throws std::invalid_argument naming the known ones
std::vector<std::string> router_policy_names();

}  // namespace schedcheck::router
