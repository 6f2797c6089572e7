// Routing policies (see router_policies.hpp). Round-robin: our own baseline; least-loaded: paper 002 sec. 4.
#include "reference/router_policies.hpp"

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

std::uint32_t least_loaded(const Snapshot& s) {
  std::uint32_t best = 0;
  double best_load = kForever;
  for (std::uint32_t c = 0; c < s.clusters.size(); ++c) {
    const auto& st = s.clusters[c];
    if (s.job.procs > st.processors) continue;
    const double load = static_cast<double>(st.busy) / st.processors;
    if (load < best_load) {
      best_load = load;
      best = c;
    }
  }
  return best;
}

std::vector<RouterPolicy> router_policies() {
  return {
      {"round-robin", "our own baseline", "the next cluster after the last one used on which the job fits", false,
       round_robin},
      {"least-loaded", "paper 002 sec. 4 (the InterGrid gateway's baseline)",
       "the lowest share of busy processors in the clusters' last status reports (ties: the lower index)", true,
       least_loaded},
  };
}

std::vector<std::string> router_policy_names() {
  std::vector<std::string> names;
  for (const auto& p : router_policies()) names.push_back(p.name);
  return names;
}

RouterPolicy router_policy(const std::string& name) {
  std::string known;
  for (RouterPolicy& p : router_policies()) {
    if (p.name == name) return std::move(p);
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw std::invalid_argument("unknown broker policy '" + name + "' (known: " + known + ")");
}

}  // namespace schedcheck::router
