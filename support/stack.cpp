// The stack test of recursive searches (see stack.hpp). Our own.
#include "support/stack.hpp"

#include <pthread.h>

#include <cstdint>

namespace schedcheck {

namespace {

struct Bounds {
  std::uintptr_t low = 0;   // the lowest usable address; 0: unknown
  std::size_t size = 0;
};

Bounds read_bounds() {
  Bounds bounds;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return bounds;
  void* address = nullptr;
  std::size_t size = 0, guard = 0;
  if (pthread_attr_getstack(&attributes, &address, &size) == 0 && address) {
    pthread_attr_getguardsize(&attributes, &guard);
    bounds.low = reinterpret_cast<std::uintptr_t>(address) + guard;
    bounds.size = size > guard ? size - guard : 0;
  }
  pthread_attr_destroy(&attributes);
  return bounds;
}

bool& hit_flag() {
  thread_local bool hit = false;
  return hit;
}

const Bounds& bounds() {
  thread_local const Bounds cached = read_bounds();
  return cached;
}

}  // namespace

std::size_t thread_stack_bytes() { return bounds().size; }

bool stack_nearly_full() {
  const Bounds& b = bounds();
  if (b.low == 0) return false;
  const std::size_t reserve = b.size / 4 < kStackReserveBytes ? b.size / 4 : kStackReserveBytes;
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (here >= b.low + reserve) return false;
  hit_flag() = true;
  return true;
}

StackWatch::StackWatch() : outer_(hit_flag()) { hit_flag() = false; }
StackWatch::~StackWatch() { hit_flag() = hit_flag() || outer_; }
bool StackWatch::hit() const { return hit_flag(); }

std::string stack_limit_reached(std::string_view then) {
  return "stack limit of " + std::to_string(thread_stack_bytes() / 1024) + " KiB reached (the search's depth; ulimit -s)" +
         std::string(then);
}

}  // namespace schedcheck
