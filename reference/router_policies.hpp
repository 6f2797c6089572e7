// Routing policies of a router above several clusters, as pure functions of its snapshot (model/router.hpp):
// round-robin, and least-loaded (paper 002 sec. 4, the InterGrid gateway's baseline: the provider with the lowest
// share of busy processors in its last status report). Our own readings: a job goes only where it fits; ties go to
// the lower cluster index. The catalogue names every policy once: the CLI's choices and the docs derive from it.
#pragma once

#include "model/router.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace schedcheck::router {

// The next cluster after the last one used on which the job fits.
std::uint32_t round_robin(const Snapshot& snapshot);
// The lowest share of busy processors in the clusters' last reports among those the job fits on.
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
