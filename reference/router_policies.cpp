// Routing policies (see router_policies.hpp). Round-robin: our own baseline; least-loaded: paper 002 sec. 4 and
// Algorithm 1 line 6 ("load of waiting/running jobs").
#include "reference/router_policies.hpp"

#include "model/input.hpp"
#include "model/profile.hpp"

#include <stdexcept>

namespace schedcheck::router {

std::uint32_t round_robin(const Snapshot& s) {
  const auto n = static_cast<std::uint32_t>(s.clusters.size());
  const std::uint32_t first = s.last == kNone ? 0 : (s.last + 1) % n;
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t c = (first + k) % n;
    if (s.job.procs <= s.clusters[c].processors) return c;
  }
  return 0;
}

double load(const ClusterStatus& c) {
  return static_cast<double>(static_cast<long long>(c.busy) + c.queued_processors + c.unreported_processors) /
         c.processors;
}

std::uint32_t least_loaded(const Snapshot& s) {
  // Ties go to the first cluster after the last one used (round-robin among the least loaded), not always to the
  // lowest index: once every cluster reports the same load, jobs still spread.
  const auto n = static_cast<std::uint32_t>(s.clusters.size());
  const std::uint32_t first = s.last == kNone ? 0 : (s.last + 1) % n;
  std::uint32_t best = kNone;
  double best_load = kForever;
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t c = (first + k) % n;
    if (s.job.procs > s.clusters[c].processors) continue;
    const double l = load(s.clusters[c]);
    if (l < best_load) {
      best_load = l;
      best = c;
    }
  }
  return best == kNone ? 0 : best;
}

std::vector<RouterPolicy> router_policies() {
  return {
      {"round-robin", "our own baseline", "the next cluster after the last one used on which the job fits", false,
       round_robin},
      {"least-loaded", "paper 002 sec. 4 (the InterGrid gateway's baseline)",
       "the lowest load (busy + queued processors in the last status report + processors sent there since, over its "
       "processors); ties: the next cluster after the last one used", true,
       least_loaded},
  };
}

std::vector<std::string> router_policy_names() {
  std::vector<std::string> names;
  for (const auto& p : router_policies()) names.push_back(p.name);
  return names;
}

RouterPolicy router_policy(const std::string& name) {
  for (RouterPolicy& p : router_policies())
    if (p.name == name) return std::move(p);
  throw std::invalid_argument("unknown broker policy '" + name + "' (known: " + joined(router_policy_names()) + ")");
}

}  // namespace schedcheck::router
