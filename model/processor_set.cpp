// Processor sets and Batsim's interval syntax (see processor_set.hpp). Our own.
#include "model/processor_set.hpp"

#include <bit>
#include <charconv>

namespace schedcheck {

namespace {
std::size_t word_count(int size) { return (static_cast<std::size_t>(size) + 63) / 64; }
}  // namespace

ProcessorSet::ProcessorSet(int size) : size_(size), words_(word_count(size), 0) {}

ProcessorSet ProcessorSet::all(int size) { return first(size, size); }

ProcessorSet ProcessorSet::first(int size, int count) {
  ProcessorSet set(size);
  const std::size_t full = static_cast<std::size_t>(count) / 64;
  for (std::size_t w = 0; w < full; ++w) set.words_[w] = ~std::uint64_t{0};
  if (count % 64) set.words_[full] = (std::uint64_t{1} << (count % 64)) - 1;
  return set;
}

int popcount_words(const std::uint64_t* words, std::size_t n) {
  int total = 0;
  for (std::size_t w = 0; w < n; ++w) total += std::popcount(words[w]);
  return total;
}

int ProcessorSet::count() const { return popcount_words(words_.data(), words_.size()); }

ProcessorSet& ProcessorSet::operator|=(const ProcessorSet& other) {
  for (std::size_t w = 0; w < words_.size(); ++w) words_[w] |= other.words_[w];
  return *this;
}
ProcessorSet& ProcessorSet::operator&=(const ProcessorSet& other) {
  for (std::size_t w = 0; w < words_.size(); ++w) words_[w] &= other.words_[w];
  return *this;
}
ProcessorSet& ProcessorSet::subtract(const ProcessorSet& other) {
  for (std::size_t w = 0; w < words_.size(); ++w) words_[w] &= ~other.words_[w];
  return *this;
}
bool ProcessorSet::intersects(const ProcessorSet& other) const {
  for (std::size_t w = 0; w < words_.size(); ++w)
    if (words_[w] & other.words_[w]) return true;
  return false;
}
bool ProcessorSet::contains(const ProcessorSet& other) const {
  for (std::size_t w = 0; w < words_.size(); ++w)
    if (other.words_[w] & ~words_[w]) return false;
  return true;
}

std::uint64_t lowest_bits(std::uint64_t bits, int k) {
  if (std::popcount(bits) <= k) return bits;
  std::uint64_t taken = 0;
  for (; k > 0; --k) {
    const std::uint64_t low = bits & (~bits + 1);  // lowest set bit
    taken |= low;
    bits ^= low;
  }
  return taken;
}

ProcessorSet lowest_of_words(const std::uint64_t* words, int size, int k) {
  ProcessorSet out(size);
  const std::size_t n = word_count(size);
  for (std::size_t w = 0; w < n && k > 0; ++w) {
    out.words()[w] = lowest_bits(words[w], k);
    k -= std::popcount(out.words()[w]);
  }
  return out;
}

ProcessorSet ProcessorSet::lowest(int k) const { return lowest_of_words(words_.data(), size_, k); }

std::vector<int> ProcessorSet::members() const {
  std::vector<int> out;
  for (std::size_t w = 0; w < words_.size(); ++w)
    for (std::uint64_t bits = words_[w]; bits; bits &= bits - 1)
      out.push_back(static_cast<int>(w * 64) + std::countr_zero(bits));
  return out;
}

std::string ProcessorSet::to_intervals() const {
  std::string out;
  int run_start = -1, previous = -2;
  auto flush = [&] {
    if (run_start < 0) return;
    if (!out.empty()) out += ' ';
    out += std::to_string(run_start);
    if (previous > run_start) out += '-' + std::to_string(previous);
  };
  for (int i : members()) {
    if (i != previous + 1) {
      flush();
      run_start = i;
    }
    previous = i;
  }
  flush();
  return out;
}

std::optional<ProcessorSet> ProcessorSet::parse_intervals(std::string_view text, int size, std::string* error) {
  ProcessorSet set(size);
  auto fail = [&](const std::string& why) -> std::optional<ProcessorSet> {
    if (error) *error = why;
    return std::nullopt;
  };
  std::size_t i = 0;
  auto number = [&](long long& value) {
    const char* begin = text.data() + i;
    const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
    if (ec != std::errc() || end == begin) return false;
    i += static_cast<std::size_t>(end - begin);
    return true;
  };
  while (true) {
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size()) break;
    long long a = 0, b = 0;
    if (!number(a)) return fail("expected a processor number or a range a-b");
    b = a;
    if (i < text.size() && text[i] == '-') {
      ++i;
      if (!number(b)) return fail("expected the end of a range a-b");
    }
    if (b < a) return fail("range " + std::to_string(a) + "-" + std::to_string(b) + " decreases (write the smaller number first)");
    if (a < 0 || b >= size)
      return fail("range " + std::to_string(a) + "-" + std::to_string(b) + " is outside 0-" + std::to_string(size - 1));
    for (long long p = a; p <= b; ++p) {
      if (set.test(static_cast<int>(p))) return fail("processor " + std::to_string(p) + " is listed twice");
      set.set(static_cast<int>(p));
    }
    if (i < text.size() && text[i] != ' ') return fail("expected a space between ranges");
  }
  return set;
}

}  // namespace schedcheck
