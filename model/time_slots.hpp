// Free time slots of an availability profile: the windows a provider publishes to a gateway (paper 002 sec. 4,
// Fig. 2a: "the availability profile is scanned until a given time horizon thus creating windows of availability").
// The rule is the one of the paper's authors' profile (GridSim's and servsim's getTimeSlots): non-overlapping
// windows, each as long as the processors it names stay free. Pure; linear in the steps a slot crosses.
#pragma once

#include "model/partitions.hpp"
#include "model/processor_set.hpp"
#include "model/profile.hpp"

#include <string_view>
#include <vector>

namespace schedcheck {

// `processors` processors are free over [start, end); end = kForever for a window open at the horizon's end when
// the horizon is infinite. With processor identity, `on` names them (processors == on.count()); else `on` is empty.
struct TimeSlot {
  double start = 0;
  double end = 0;
  int processors = 0;
  ProcessorSet on;
  bool operator==(const TimeSlot&) const = default;
};

// The free time slots of `profile` over [from, horizon) (horizon kForever: every slot), in start order and, at one
// start, longest first. At each step of the profile, in time order, while processors of that step are free and in
// no slot yet: a slot starts there with them; it runs on through the following steps with the ones still free and
// unpublished, and ends at the first step where none of them is (or at the horizon); the slot keeps the processors
// of its last step (those free throughout), which are then published. Every free processor-second before the horizon
// lies in exactly one slot; nothing published is busy. Without processor identity the same on the counts.
std::vector<TimeSlot> free_time_slots(const AvailabilityProfile& profile, double from, double horizon = kForever);

// The free time slots a partition publishes (paper 002 Fig. 2b: the Grid partition's): those of the whole profile,
// each cut to partition q's share of processors (with identity: its own processors of the slot first, then the
// lowest-numbered others); none when the partition owns no processor.
std::vector<TimeSlot> partition_slots(const AvailabilityProfile& profile, double from, double horizon,
                                      const cluster::Partitions& partitions, std::size_t q, int processors);

// Paper 002's availability information as a message: the free time slots a cluster publishes (sim::ClusterActor on
// its own, or its policy through Decision::send).
struct FreeSlots {
  static constexpr std::string_view kind = "slots";
  double as_of = 0;
  std::vector<TimeSlot> slots;
};

}  // namespace schedcheck
