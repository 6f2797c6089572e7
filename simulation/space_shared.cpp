// A space-shared resource (see space_shared.hpp). Our own.
#include "simulation/space_shared.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace schedcheck::sim {

SpaceSharedResource::SpaceSharedResource(int processors, Holding holding, bool keep_order)
    : processors_(processors),
      holding_(holding),
      keep_order_(keep_order),
      free_now_(holding == Holding::kCount ? ProcessorSet() : ProcessorSet::all(processors)) {}

const cluster::Running& SpaceSharedResource::start(Context& context, std::uint32_t job, int procs, double estimated_end,
                                                   double end, std::uint64_t end_tag, ProcessorSet on, bool grid) {
  const double now = context.now();
  if (holding_ == Holding::kLowest) on = free_now_.lowest(procs);
  else if (holding_ == Holding::kCount) on = ProcessorSet();
  cluster::Running r{job, procs, now, estimated_end, std::move(on), grid};
  if (end > now + kTimeTolerance) {  // it holds its processors over [now, end) (a shorter window is empty, as in the profile)
    if (holding_ != Holding::kCount) free_now_.subtract(r.on);
    busy_ += held(r);
  } else {
    holding_none_.push_back(job);
  }
  if (!keep_order_) {
    if (job >= slot_.size()) slot_.resize(std::size_t{job} + 1);
    slot_[job] = static_cast<std::uint32_t>(running_.size());
  }
  running_.push_back(std::move(r));
  context.wake_at(end, end_tag, Lane::kEnd);
  return running_.back();
}

SpaceSharedResource::Ended SpaceSharedResource::finish(double now, std::uint32_t job, AvailabilityProfile* profile) {
  std::size_t slot = running_.size();
  if (keep_order_) {
    for (std::size_t i = 0; i < running_.size(); ++i)
      if (running_[i].job == job) {
        slot = i;
        break;
      }
  } else if (job < slot_.size()) {
    slot = slot_[job];
  }
  if (slot >= running_.size() || running_[slot].job != job)
    throw std::logic_error("job " + std::to_string(job) + " ended, which was not running");
  Ended out{std::move(running_[slot]), false};
  if (keep_order_) {
    running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(slot));
  } else {
    if (slot + 1 != running_.size()) {
      running_[slot] = std::move(running_.back());
      slot_[running_[slot].job] = static_cast<std::uint32_t>(slot);
    }
    running_.pop_back();
  }
  // It held its processors unless its window was empty (a job of length 0), whenever it ends: an owner may end a job
  // before its end timer, in the instant it started (the cluster's pass per event ends jobs due within kTimeTolerance).
  const auto none = std::find(holding_none_.begin(), holding_none_.end(), job);
  if (none != holding_none_.end()) {
    holding_none_.erase(none);
  } else {
    busy_ -= held(out.job);
    if (holding_ != Holding::kCount) free_now_ |= out.job.on;
  }
  out.early = now < out.job.estimated_end - kTimeTolerance;
  if (out.early && profile) profile->release(now, out.job.estimated_end, out.job.procs, out.job.on);
  return out;
}

}  // namespace schedcheck::sim
