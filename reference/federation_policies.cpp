// The contract net's rules (see federation_policies.hpp): paper 004 sec. 2, 3.1, Eq. 2-3.
#include "reference/federation_policies.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedcheck::federation {

std::vector<std::size_t> directory_order(const std::vector<Cluster>& clusters, Objective objective,
                                         std::optional<std::size_t> home) {
  std::vector<std::size_t> order(clusters.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return objective == Objective::kTime ? clusters[a].mips > clusters[b].mips : clusters[a].price < clusters[b].price;
  });
  if (home) std::stable_partition(order.begin(), order.end(), [&](std::size_t m) { return m == *home; });
  return order;
}

bool can_meet(const Cluster& cluster, const Job& job, const Terms& terms, bool budget_test) {
  return job.procs <= cluster.processors &&
         sla::eligible(site(cluster, cluster.processors, budget_test), bid(job, terms, job.submit, ""));
}

std::optional<std::size_t> directory_answer(const std::vector<Cluster>& clusters, const std::vector<std::size_t>& order,
                                            const Job& job, const Terms& terms, std::size_t rank, bool budget_test) {
  for (const std::size_t m : order)
    if (can_meet(clusters[m], job, terms, budget_test) && rank-- == 0) return m;
  return std::nullopt;
}

double bid_interval(double t_neg, double given, bool integer) {
  const double half = std::max(0.0, t_neg - given) / 2;
  return integer ? std::floor(half) : half;
}

}  // namespace schedcheck::federation
