// A set of processor numbers 0..size-1 (a dynamic bitset), and Batsim's interval syntax for it ("0-3 7 9-10").
// Our own. Used where a job holds specific processors: the `processors` resource model of the simulation and
// the `allocated_resources` column of a per-job CSV. Sizes up to kMaxTrackedProcessors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedcheck {

// Beyond this, tracking processor identity costs more memory per profile step than it is worth.
inline constexpr int kMaxTrackedProcessors = 1 << 20;

class ProcessorSet {
public:
  ProcessorSet() = default;
  explicit ProcessorSet(int size);                       // the empty set over 0..size-1
  static ProcessorSet all(int size);                     // every processor
  static ProcessorSet first(int size, int count);        // 0..count-1

  int size() const { return size_; }
  int count() const;
  bool empty() const { return count() == 0; }
  bool test(int i) const { return (words_[static_cast<std::size_t>(i) >> 6] >> (i & 63)) & 1u; }
  void set(int i) { words_[static_cast<std::size_t>(i) >> 6] |= std::uint64_t{1} << (i & 63); }
  void reset(int i) { words_[static_cast<std::size_t>(i) >> 6] &= ~(std::uint64_t{1} << (i & 63)); }

  ProcessorSet& operator|=(const ProcessorSet& other);
  ProcessorSet& operator&=(const ProcessorSet& other);
  ProcessorSet& subtract(const ProcessorSet& other);     // this \ other
  bool intersects(const ProcessorSet& other) const;
  bool contains(const ProcessorSet& other) const;        // other is a subset of this
  bool operator==(const ProcessorSet& other) const = default;

  // The k lowest-numbered members (fewer when the set has fewer).
  ProcessorSet lowest(int k) const;
  // Members in increasing order.
  std::vector<int> members() const;

  // Batsim's interval syntax: maximal runs "a-b" or single "a", separated by one space; "" for the empty set.
  std::string to_intervals() const;
  // Parses that syntax (runs may come in any order, not overlapping); nullopt with `error` set on bad text or a
  // processor outside 0..size-1.
  static std::optional<ProcessorSet> parse_intervals(std::string_view text, int size, std::string* error = nullptr);

  const std::vector<std::uint64_t>& words() const { return words_; }
  std::vector<std::uint64_t>& words() { return words_; }

private:
  int size_ = 0;
  std::vector<std::uint64_t> words_;
};

// Word-level helpers over raw bitset storage of `n` words (the profile stores one set a step in one flat array).
int popcount_words(const std::uint64_t* words, std::size_t n);
// The k lowest set bits of one word (all of them when it has at most k).
std::uint64_t lowest_bits(std::uint64_t bits, int k);
// The k lowest set bits of `words` as a set over 0..size-1.
ProcessorSet lowest_of_words(const std::uint64_t* words, int size, int k);

}  // namespace schedcheck
