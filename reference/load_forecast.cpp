// Paper 002's load-forecast partitions, Algorithm 1 (reference/load_forecast.hpp). Our own code; each step names the
// algorithm's line it implements.
#include "reference/load_forecast.hpp"

#include "model/time_slots.hpp"
#include "reference/cluster_policies.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace schedcheck::cluster {

namespace {

double state_of(std::span<const StateValue> state, const std::string& name, double fallback) {
  for (const StateValue& v : state)
    if (v.name == name) return v.value;
  return fallback;
}

// percToProvide (line 8, or its correction) as processors of the Grid partition.
int grid_share(double load, int processors, bool literal) {
  const double perc = literal ? std::min(0.0, 1.0 - load) : std::max(0.0, 1.0 - load);
  return perc > 0 ? std::clamp(static_cast<int>(std::floor(perc * processors + 1e-9)), 0, processors) : 0;
}

// The profile the pass leaves: the decision's own copy, else (backfill copies nothing when only the last waiting
// job is placed) the snapshot's with the decision's placements added.
AvailabilityProfile after_pass(const Snapshot& s, const Decision& d) {
  if (d.profile) return *d.profile;
  AvailabilityProfile p = s.profile;
  for (const auto* list : {&d.start, &d.reserve})
    for (const Placement& x : *list) {
      const Waiting& job = s.queue[x.index];
      p.reserve(x.start, x.start + job.estimate, job.procs, x.on);
    }
  return p;
}

}  // namespace

double moving_average(std::span<const double> loads, std::size_t window) {
  const std::size_t n = std::min(loads.size(), window);
  if (n == 0) return 0;
  const double a = 2.0 / (static_cast<double>(window) + 1.0);
  double sum = 0, weights = 0, w = 1;
  for (std::size_t k = 0; k < n; ++k, w *= 1 - a) {
    sum += w * loads[loads.size() - 1 - k];
    weights += w;
  }
  return sum / weights;
}

double queue_load(const Snapshot& s, bool local) {
  long long procs = 0;
  for (const Waiting& w : s.queue)
    if (!local || !w.grid) procs += w.procs;
  for (const Running& r : s.running)
    if (!local || !r.grid) procs += r.procs;
  return s.processors > 0 ? static_cast<double>(procs) / s.processors : 0;
}

Partitions forecast_partitions(std::span<const StateValue> state, int processors) {
  return origin_partitions(static_cast<int>(state_of(state, "grid_share", 0)), processors);
}

Decision load_forecast(const Snapshot& s, const ForecastSettings& f) {
  const auto st = s.state;
  double next_slots = state_of(st, "next_slots", s.now);  // the first pass obtains the slots at once
  double next_check = state_of(st, "next_check", kForever);
  bool conservative = state_of(st, "conservative", 0) != 0;
  int share = static_cast<int>(state_of(st, "grid_share", 0));
  const bool slots_due = s.now >= next_slots - kTimeTolerance, check_due = s.now >= next_check - kTimeTolerance;
  if (!slots_due && !check_due) {  // any other pass: the current partitions and pivots; the state stays as it is
    const Partitions parts = origin_partitions(share, s.processors);
    Decision d = backfill(s, conservative ? kEveryJob : 1, &parts);
    d.wake_at = std::min(next_slots, next_check);
    return d;
  }
  double forecast = state_of(st, "forecast", 0);
  std::vector<double> loads(static_cast<std::size_t>(state_of(st, "loads", 0)));
  for (const StateValue& v : st)  // load_0 .. load_{n-1}
    if (v.name.starts_with("load_")) {
      const std::size_t k = std::stoul(v.name.substr(5));
      if (k < loads.size()) loads[k] = v.value;
    }

  Decision d;
  std::vector<TimeSlot> publish;
  bool inform = false;
  if (slots_due) {  // procedure getFreeTimeSlots
    // Lines 6-8 first: the load of the waiting and running jobs is the same before and after the pass of line 4
    // (a start moves a job from one to the other), so the pass may use the partitions the new share gives.
    const double actual = queue_load(s, false);                 // line 6
    if (s.now >= f.train_from - kTimeTolerance) {                // the local load of this interval, for the forecast
      loads.push_back(queue_load(s, true));
      if (loads.size() > f.window) loads.erase(loads.begin());
    }
    forecast = moving_average(loads, f.window);                 // line 7
    const double basis = f.share_from_forecast && !loads.empty() ? forecast : actual;
    share = grid_share(basis, s.processors, f.literal);         // line 8, as processors
    const Partitions parts = origin_partitions(share, s.processors);
    d = backfill(s, kEveryJob, &parts);                         // lines 3-4: pivots infinity, schedule the queue
    conservative = false;                                       // line 5: one pivot per partition again
    const bool positive = share > 0;                            // line 11 (percToProvide > 0)
    if (positive) {
      publish = partition_slots(after_pass(s, d), s.now, kForever, parts, 1, s.processors);  // lines 9-10
      inform = true;                                            // line 12: inform the gateway ...
      // ... and schedule a reallocation event (once there is a forecast: after the training period's first load)
      next_check = loads.empty() ? kForever : s.now + f.interval / static_cast<double>(f.checks);
    } else {
      next_check = kForever;
    }
    next_slots = (std::floor(s.now / f.interval + 1e-9) + 1) * f.interval;  // line 13
  } else {  // procedure reallocationEvent
    const double local = queue_load(s, true);                   // line 17 (line 18: the forecast kept)
    if (local > forecast) {                                     // line 19: underestimated
      // Lines 20-23: pivots infinity in both partitions, resized to the local load since the last resizing; one pass
      // in queue order (our reading of "starting with the local jobs": the two passes of lines 21 and 23 as one).
      share = grid_share(f.share_from_forecast ? local : queue_load(s, false), s.processors, f.literal);
      conservative = true;
      const Partitions parts = origin_partitions(share, s.processors);
      d = backfill(s, kEveryJob, &parts);
      publish = partition_slots(after_pass(s, d), s.now, kForever, parts, 1, s.processors);  // line 24
      inform = true;                                            // line 25
      next_check = kForever;
    } else {
      next_check += f.interval / static_cast<double>(f.checks);  // line 27
      if (next_check >= next_slots - kTimeTolerance) next_check = kForever;
      const Partitions parts = origin_partitions(share, s.processors);
      d = backfill(s, conservative ? kEveryJob : 1, &parts);
    }
  }
  if (inform) d.send.emplace_back(FreeSlots{s.now, std::move(publish)});
  d.wake_at = std::min(next_slots, next_check);
  PolicyState out = {{"next_slots", next_slots}, {"next_check", next_check}, {"conservative", conservative ? 1.0 : 0.0},
                     {"forecast", forecast},     {"grid_share", static_cast<double>(share)},
                     {"loads", static_cast<double>(loads.size())}};
  for (std::size_t k = 0; k < loads.size(); ++k) out.push_back({"load_" + std::to_string(k), loads[k]});
  d.state = std::move(out);
  return d;
}

}  // namespace schedcheck::cluster
