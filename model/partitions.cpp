// Multiple resource partitions (model/partitions.hpp): paper 002 sec. 4 and Eq. 1, after Lawson & Smirni 2002.
// Our own code.
#include "model/partitions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::cluster {

std::size_t Partitions::of(double estimate, bool grid) const {
  if (by_origin) return grid ? 1 : 0;
  for (std::size_t q = 0; q < bounds.size(); ++q)
    if (estimate < bounds[q]) return q;
  return bounds.size();
}

int Partitions::first(std::size_t q, int processors) const {
  const std::size_t n = count();
  if (q >= n) return processors;
  if (!shares.empty()) {
    long long sum = 0;
    for (std::size_t k = 0; k < q && k < shares.size(); ++k) sum += std::max(0, shares[k]);
    return static_cast<int>(std::min<long long>(sum, processors));
  }
  if (!weights.empty()) {
    double before = 0, all = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double w = k < weights.size() ? std::max(0.0, weights[k]) : 0.0;
      all += w;
      if (k < q) before += w;
    }
    if (all > 0) return static_cast<int>(std::floor(static_cast<double>(processors) * before / all + 1e-9));
  }
  // Equal shares, the remainder to the first ones: ceil(P q / n) splits P into shares that differ by at most one,
  // the larger first.
  const long long p = processors;
  return static_cast<int>((p * static_cast<long long>(q) + static_cast<long long>(n) - 1) / static_cast<long long>(n));
}

ProcessorSet Partitions::owned(std::size_t q, int processors) const {
  ProcessorSet set(processors);
  for (int i = first(q, processors); i < first(q + 1, processors); ++i) set.set(i);
  return set;
}

std::string Partitions::range_text(std::size_t q) const {
  if (by_origin) return q == 0 ? "local" : "grid";
  const double lo = q == 0 ? 0 : bounds[q - 1];
  return q < bounds.size() ? fmt::format("[{}, {})", lo, bounds[q]) : fmt::format("[{}, inf)", lo);
}

Partitions runtime_partitions() { return Partitions{{1000, 10000}, "runtime (Eq. 1)", false, {}, {}}; }

Partitions origin_partitions(double percent) {
  Partitions p;
  p.name = "local and grid (Fig. 2b)";
  p.by_origin = true;
  percent = std::clamp(percent, 0.0, 100.0);
  p.weights = {100 - percent, percent};
  return p;
}

Partitions origin_partitions(int grid, int processors) {
  Partitions p;
  p.name = "local and grid (Fig. 2b)";
  p.by_origin = true;
  grid = std::clamp(grid, 0, processors);
  p.shares = {processors - grid, grid};
  return p;
}

ProcessorSet prefer_owned(const ProcessorSet& free, const ProcessorSet& owned, int count) {
  ProcessorSet mine = free;
  mine &= owned;
  ProcessorSet chosen = mine.lowest(count);
  const int more = count - chosen.count();
  if (more > 0) {
    ProcessorSet others = free;
    others.subtract(owned);
    chosen |= others.lowest(more);
  }
  return chosen;
}

}  // namespace schedcheck::cluster
