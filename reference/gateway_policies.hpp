// The InterGrid gateway's choice of provider from the free time slots providers publish (paper 002 sec. 4, "Earliest
// start time": the gateway is given the providers' availability information and the job, and submits the job to
// the provider that can start it first, the first such provider on a tie). Pure functions of what the gateway knows;
// no clock. Limits: the slots are taken as published, whatever changed at the provider since.
#pragma once

#include "model/profile.hpp"
#include "model/time_slots.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace schedcheck::gateway {

// The availability a gateway reads off a provider's slots: at each instant from `now`, the processors of the slots
// that hold it (with identity, which); busy elsewhere, and after the last slot boundary only the slots open for ever
// stay free. Exact for a sound and complete report of an infinite horizon (model/time_slots.hpp).
AvailabilityProfile view_of_slots(int processors, bool identity, const std::vector<TimeSlot>& slots, double now);

struct Pick {
  std::size_t provider = 0;
  double start = 0;
};
// The earliest start of a job of `procs` processors for `duration` seconds over the views, the first provider on a
// tie; nullopt when no provider can ever start it (wider than every view).
std::optional<Pick> earliest_start(const std::vector<AvailabilityProfile>& views, int procs, double duration, double now);

}  // namespace schedcheck::gateway
