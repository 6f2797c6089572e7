// SLA admission policies (see sla_policies.hpp): paper 004 Algorithm 2 and FCFS decided on arrival (sec. 4.2);
// fcfs-blocking and the timed placement are our own.
#include "reference/sla_policies.hpp"

#include "model/profile.hpp"

#include <algorithm>
#include <numeric>

namespace schedcheck::sla {

namespace {

// skip = reject the misfit and go on (Greedy-Backfilling, FCFS decided on arrival);
// block = stop at the first eligible misfit (fcfs-blocking, our own);
// once = stop after the first reservation (STRICTGREEDY as written: one RESERVE a call)
enum class OnMisfit { kSkip, kBlock, kOnce };

std::vector<std::size_t> arrival_order(const Instance& instance) {
  std::vector<std::size_t> order(instance.bids.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

Admission empty_admission(const Instance& instance) {
  return Admission{std::vector<bool>(instance.bids.size(), false), std::vector<double>(instance.bids.size(), 0.0)};
}

// Instant: a bid fits when p <= r (line 1.40: r >= p_{i,j,k}); RESERVE does r = r - p (line 1.33).
Admission admit_instant(const Instance& instance, const std::vector<std::size_t>& order, OnMisfit on_misfit) {
  Admission admission = empty_admission(instance);
  int r = instance.site.free_processors;
  for (std::size_t i : order) {
    const Bid& bid = instance.bids[i];
    if (!eligible(instance.site, bid)) continue;
    if (bid.procs <= r) {
      admission.accepted[i] = true;
      r -= bid.procs;
      if (on_misfit == OnMisfit::kOnce) break;
    } else if (on_misfit == OnMisfit::kBlock) {
      break;
    }
  }
  return admission;
}

// Timed: a bid fits when its earliest start on the profile lets it finish by its deadline d.
Admission admit_timed(const Instance& instance, const std::vector<std::size_t>& order, OnMisfit on_misfit) {
  Admission admission = empty_admission(instance);
  AvailabilityProfile profile(instance.site.processors);
  for (const auto& job : instance.running) profile.reserve(0, job.remaining, job.procs);
  for (std::size_t i : order) {
    const Bid& bid = instance.bids[i];
    if (!eligible(instance.site, bid)) continue;
    const double duration = response_time(instance.site, bid);
    const double latest_start = bid.deadline - duration;
    const auto start = latest_start < 0 ? std::nullopt : profile.earliest_start(bid.procs, duration, 0, latest_start);
    if (start) {
      admission.accepted[i] = true;
      admission.start[i] = *start;
      profile.reserve(*start, *start + duration, bid.procs);
    } else if (on_misfit == OnMisfit::kBlock) {
      break;
    }
  }
  return admission;
}

}  // namespace

std::vector<std::size_t> by_decreasing_incentive(const Instance& instance) {
  std::vector<std::size_t> order = arrival_order(instance);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return incentive(instance.site, instance.bids[a]) > incentive(instance.site, instance.bids[b]);
  });
  return order;
}

Admission greedy_backfilling(const Instance& instance) {
  return admit_instant(instance, by_decreasing_incentive(instance), OnMisfit::kSkip);
}
Admission greedy_backfilling_one(const Instance& instance) {
  return admit_instant(instance, by_decreasing_incentive(instance), OnMisfit::kOnce);
}
Admission fcfs(const Instance& instance) { return admit_instant(instance, arrival_order(instance), OnMisfit::kSkip); }
Admission fcfs_blocking(const Instance& instance) {
  return admit_instant(instance, arrival_order(instance), OnMisfit::kBlock);
}
Admission greedy_backfilling_timed(const Instance& instance) {
  return admit_timed(instance, by_decreasing_incentive(instance), OnMisfit::kSkip);
}
Admission fcfs_timed(const Instance& instance) {
  return admit_timed(instance, arrival_order(instance), OnMisfit::kSkip);
}
Admission fcfs_blocking_timed(const Instance& instance) {
  return admit_timed(instance, arrival_order(instance), OnMisfit::kBlock);
}

}  // namespace schedcheck::sla
