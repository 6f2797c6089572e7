// Multiple resource partitions of one cluster (paper 002 sec. 4, after Lawson & Smirni, JSSPP 2002): each job
// belongs to one partition by a predicate on its estimate or its origin, each partition owns a share of the
// processors. The runtime partitions of paper 002 Eq. 1 (0-1000 s, 1000-10000 s, >= 10000 s), equal shares (our
// reading, docs/policies.md); the local and Grid partitions of Fig. 2b, whose shares a load forecast sets.
#pragma once

#include "model/processor_set.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace schedcheck::cluster {

struct Partitions {
  // A job of estimate e is in the first partition q with e < bounds[q]; in the last when none (bounds ascending).
  std::vector<double> bounds;
  std::string name;  // "runtime (Eq. 1)"

  // By origin (Fig. 2b): partition 0 holds the local jobs, partition 1 the grid jobs (those that reached the cluster
  // through its gateway: Waiting::grid); `bounds` is then unused.
  bool by_origin = false;
  // The processors each partition owns, in partition order (empty: by `weights`); a share beyond the machine is cut.
  std::vector<int> shares;
  // Without `shares`: relative sizes, in partition order (empty: equal); partition q owns
  // floor(P x (w_0 + .. + w_{q-1}) / (w_0 + .. + w_{n-1})) onwards.
  std::vector<double> weights;

  std::size_t count() const { return by_origin ? 2 : bounds.size() + 1; }
  std::size_t of(double estimate, bool grid = false) const;
  // The processors partition q owns on a machine of P: `shares` in order, else equal shares of 0..P-1 in order, the
  // first ones one larger when P is not a multiple of the count (q's share: [P q / n, P (q + 1) / n)).
  int first(std::size_t q, int processors) const;
  int size(std::size_t q, int processors) const { return first(q + 1, processors) - first(q, processors); }
  ProcessorSet owned(std::size_t q, int processors) const;
  // "[0, 1000)", "[1000, 10000)", "[10000, inf)": partition q's estimates; "local", "grid" by origin.
  std::string range_text(std::size_t q) const;
};

// Paper 002 Eq. 1: p = 1 for 0 < tr < 1000, 2 for 1000 <= tr < 10000, 3 for 10000 <= tr (an estimate of 0 is in 1).
Partitions runtime_partitions();
// Fig. 2b: the local partition owns processors 0 .. P - grid - 1, the Grid partition the last `grid` (0 to P).
Partitions origin_partitions(int grid, int processors);
// The same with the Grid partition `percent` of any machine (0 to 100).
Partitions origin_partitions(double percent);

// Of the processors `free` (with identity), `count` preferring those of `owned`: the lowest-numbered owned ones first,
// then the lowest-numbered others (the borrowed ones). Fewer when `free` has fewer.
ProcessorSet prefer_owned(const ProcessorSet& free, const ProcessorSet& owned, int count);

}  // namespace schedcheck::cluster
