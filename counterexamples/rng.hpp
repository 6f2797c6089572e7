// A seeded random source that gives the same numbers with every compiler and standard library:
// splitmix64 (Steele, Lea, Flood 2014) and our own bounded draws. std:: distributions differ between
// libraries, so a seed would not reproduce the same instance everywhere.
#pragma once

#include <cstdint>

namespace schedcheck {

class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform integer in [lo, hi] (modulo bias below 2^-40 for the ranges we use).
  long long integer(long long lo, long long hi) {
    return lo + static_cast<long long>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  // Uniform double in [lo, hi), from the top 53 bits.
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double probability) { return uniform(0, 1) < probability; }

private:
  std::uint64_t state_;
};

// Seed of trial t of a search started with `seed`: independent streams, reproducible one by one.
inline std::uint64_t trial_seed(std::uint64_t seed, std::uint64_t trial) {
  return SplitMix64(seed ^ (0xd1b54a32d192ed03ULL * (trial + 1))).next();
}

}  // namespace schedcheck
