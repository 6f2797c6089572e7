// Multiple resource partitions (model/partitions.hpp): paper 002 sec. 4 and Eq. 1, after Lawson & Smirni 2002.
// Our own code.
#include "model/partitions.hpp"

#include <fmt/format.h>

namespace schedcheck::cluster {

std::size_t Partitions::of(double estimate) const {
  for (std::size_t q = 0; q < bounds.size(); ++q)
    if (estimate < bounds[q]) return q;
  return bounds.size();
}

int Partitions::first(std::size_t q, int processors) const {
  const std::size_t n = count();
  if (q >= n) return processors;
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
  const double lo = q == 0 ? 0 : bounds[q - 1];
  return q < bounds.size() ? fmt::format("[{}, {})", lo, bounds[q]) : fmt::format("[{}, inf)", lo);
}

Partitions runtime_partitions() { return Partitions{{1000, 10000}, "runtime (Eq. 1)"}; }

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
