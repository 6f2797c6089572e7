// The jobs that reach an actor from outside (a trace's submissions), as the actor's own timers: one arrival pending
// at a time in Lane::kArrival, the next armed as one falls due, so that arrivals at equal times come in the source's
// order (trace order). Our own. Limits: arrival times must not decrease along the source (the kernel refuses a timer
// before now); the owner's timers for the source carry first_tag + k for the k-th arrival.
#pragma once

#include "simulation/kernel.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace schedcheck::sim {

class JobSource {
public:
  JobSource() = default;  // no arrivals
  // `count` arrivals, the k-th at time_of(k), its timer tagged first_tag + k.
  JobSource(std::size_t count, std::function<double(std::size_t)> time_of, std::uint64_t first_tag)
      : count_(count), time_of_(std::move(time_of)), first_tag_(first_tag) {}
  // The arrivals of `jobs` only (indices into the owner's jobs, in arrival order): arrived() returns the index from
  // `jobs`, time_of takes it (a cluster's local jobs of a shared book, a gateway's grid jobs).
  JobSource(std::vector<std::uint32_t> jobs, std::function<double(std::size_t)> time_of, std::uint64_t first_tag)
      : count_(jobs.size()), time_of_(std::move(time_of)), first_tag_(first_tag), jobs_(std::move(jobs)) {}

  // Arms the first arrival (from the owner's on_start).
  void start(Context& context) { arm(context); }
  // An arrival's timer fell due: arms the next arrival (before whatever this one causes), returns this one's k.
  std::size_t arrived(Context& context, std::uint64_t tag) {
    arm(context);
    const auto k = static_cast<std::size_t>(tag - first_tag_);
    return jobs_.empty() ? k : jobs_[k];
  }
  std::size_t count() const { return count_; }

private:
  void arm(Context& context) {
    if (next_ >= count_) return;
    context.wake_at(time_of_(jobs_.empty() ? next_ : jobs_[next_]), first_tag_ + next_, Lane::kArrival);
    ++next_;
  }

  std::size_t count_ = 0;
  std::function<double(std::size_t)> time_of_;
  std::uint64_t first_tag_ = 0;
  std::size_t next_ = 0;  // the next arrival to arm
  std::vector<std::uint32_t> jobs_;  // empty: arrival k is job k
};

}  // namespace schedcheck::sim
