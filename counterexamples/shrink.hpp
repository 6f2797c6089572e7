// Shrinking candidates for any problem: copy the instance, apply one simplification, normalise the fields derived
// from others (free processors, absolute deadline, ...), keep the copy if it is still a valid instance.
// Our own; every problem's generator builds its candidate list with it.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace schedcheck {

template <class Instance>
class ShrinkCandidates {
public:
  // Fixes derived fields of a changed copy; returns false to drop a copy that is no longer a valid instance.
  using Normalise = std::function<bool(Instance&)>;

  explicit ShrinkCandidates(const Instance& base, Normalise normalise = {})
      : base_(base), normalise_(std::move(normalise)) {}

  // One candidate: the base with `change` applied.
  template <class Change>
  void add(Change&& change) {
    Instance copy = base_;
    change(copy);
    if (!normalise_ || normalise_(copy)) out_.push_back(std::move(copy));
  }
  // One candidate per element of the list `items`, each without that element.
  template <class Item>
  void drop_each(std::vector<Item> Instance::*items) {
    for (std::size_t i = 0; i < (base_.*items).size(); ++i)
      add([&](Instance& c) { (c.*items).erase((c.*items).begin() + static_cast<std::ptrdiff_t>(i)); });
  }

  std::vector<Instance> take() { return std::move(out_); }

private:
  const Instance& base_;
  Normalise normalise_;
  std::vector<Instance> out_;
};

}  // namespace schedcheck
