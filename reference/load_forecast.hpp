// Paper 002's load-forecast partitions (Mf, sec. 4 and Algorithm 1: getFreeTimeSlots and reallocationEvent) as a
// pure cluster policy: EASY backfilling over the local and Grid partitions of Fig. 2b, resized every interval by
// percToProvide (line 8: the load of the waiting and running jobs, or with share_from_forecast the forecast); the
// forecast, a weighted exponential moving average of the local load over the last 25 intervals, decides at each
// reallocation event whether to turn conservative (pivots = infinity) until the next interval. Its memory between
// passes is its PolicyState (named numbers below). Readings: docs/policies.md (`easy-forecast`).
#pragma once

#include "model/cluster.hpp"
#include "model/partitions.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace schedcheck::cluster {

struct ForecastSettings {
  double interval = 7200;    // seconds between getFreeTimeSlots (the availability information's interval)
  std::size_t window = 25;   // intervals the moving average weighs
  std::size_t checks = 4;    // reallocation events per interval (line 27 schedules the next one)
  // Line 8 as printed, percToProvide = min{0, 1 - actualLoad}: never positive, so line 11 never informs the gateway
  // and the Grid partition owns no processor. false: the evident correction, max{0, 1 - actualLoad}.
  bool literal = true;
  // Line 8 reads actualLoad (every waiting and running job, line 6), as printed; true: the other reading of the text
  // ("resized ... according to the number of resources expected to be available over the next interval"): the
  // forecast local load of line 7, and at a reallocation event the local load of line 17.
  bool share_from_forecast = false;
  // The training period's start (paper 002 sec. 5.1: "the second week is used as training period"): local loads
  // observed before it are not kept, and no reallocation event comes before the first kept one.
  double train_from = 0;
};

// The weighted exponential moving average of `loads` (oldest first): weights (1 - a)^k, k = 0 for the newest,
// a = 2 / (n + 1) over the last n = window values; 0 when empty.
double moving_average(std::span<const double> loads, std::size_t window);

// The loads Algorithm 1 reads off a snapshot: processors asked by the waiting and running jobs over the machine's
// (line 6: every job; line 17, `local`: the local jobs only, Waiting::grid false).
double queue_load(const Snapshot& snapshot, bool local);

// One pass of Mf. State it keeps (Snapshot::state / Decision::state): next_slots (the next getFreeTimeSlots),
// next_check (the next reallocation event, or infinity), conservative (1 while pivots = infinity), forecast, grid_share
// (the processors of the Grid partition in this pass), loads (how many local loads are kept) and load_0 .. load_{n-1}.
// A pass at or after next_slots runs getFreeTimeSlots (lines 3-13) and publishes through Decision::send when the
// share is positive; one at or after next_check runs reallocationEvent (lines 17-27); any other pass is EASY (or
// conservative) backfilling over the current partitions. Always asks to be called at the next of the two times.
Decision load_forecast(const Snapshot& snapshot, const ForecastSettings& settings);

// The partitions a pass of Mf used: the local and Grid partitions with the state's grid_share (none before its
// first pass: every processor the local partition's).
Partitions forecast_partitions(std::span<const StateValue> state, int processors);

}  // namespace schedcheck::cluster
