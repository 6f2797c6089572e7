// Serial schedule generation search (see serial_search.hpp). Our own.
#include "solver/serial_search.hpp"

#include "support/stack.hpp"

#include "support/stop.hpp"

#include <algorithm>
#include <cmath>

namespace schedcheck {

namespace {

// `fill` (a profile that only fills up): skips the front where fewer than job.procs processors are ever free; the
// same start as without it.
std::optional<double> earliest_in_time(const AvailabilityProfile& profile, double not_before, const SerialJob& job,
                                       FillCursor* fill = nullptr) {
  const double latest_start = job.deadline - job.duration;
  if (latest_start < not_before) return std::nullopt;
  const double from = fill ? std::max(not_before, fill->not_before(profile, job.procs)) : not_before;
  return profile.earliest_start(job.procs, job.duration, from, latest_start);
}

}  // namespace

bool search_serial_schedules(const AvailabilityProfile& base, double not_before, const std::vector<SerialJob>& jobs,
                             const std::function<Visit(const std::vector<SerialPlacement>&)>& on_node) {
  std::vector<long long> left(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) left[j] = jobs[j].copies;
  std::vector<SerialPlacement> placed;
  bool stopped = false;
  std::function<void(const AvailabilityProfile&)> extend = [&](const AvailabilityProfile& profile) {
    const Visit visit = on_node(placed);
    if (visit == Visit::kStop) stopped = true;
    if (visit != Visit::kDescend) return;
    for (std::size_t j = 0; j < jobs.size() && !stopped; ++j) {
      if (left[j] == 0) continue;
      const auto start = earliest_in_time(profile, not_before, jobs[j]);
      if (!start) continue;
      AvailabilityProfile next = profile;
      next.reserve(*start, *start + jobs[j].duration, jobs[j].procs);
      --left[j];
      placed.push_back({j, *start});
      extend(next);
      placed.pop_back();
      ++left[j];
    }
  };
  extend(base);
  return !stopped;
}

std::optional<std::vector<SerialPlacement>> serial_schedule(const AvailabilityProfile& base, double not_before,
                                                            const std::vector<SerialJob>& jobs,
                                                            const std::vector<std::size_t>& sequence,
                                                            std::chrono::steady_clock::time_point until) {
  AvailabilityProfile profile = base;
  FillCursor fill(not_before);
  std::vector<SerialPlacement> placed;
  const bool limited = until != std::chrono::steady_clock::time_point::max();
  for (std::size_t j : sequence) {
    if (limited && placed.size() % 256 == 255 &&
        (std::chrono::steady_clock::now() >= until || stop_requested()))
      return std::nullopt;
    const auto start = earliest_in_time(profile, not_before, jobs[j], &fill);
    if (!start) return std::nullopt;
    profile.reserve(*start, *start + jobs[j].duration, jobs[j].procs);
    placed.push_back({j, *start});
  }
  return placed;
}

std::uint64_t active_state_key(const AvailabilityProfile& profile, double now, double scale, double from, double t,
                               std::size_t last, const std::vector<long long>& left, std::vector<std::int64_t>& key) {
  key.clear();
  auto units = [&](double x) { return static_cast<std::int64_t>(std::llround((x - now) * scale)); };
  from = std::max(from, now);
  key.push_back(units(from));
  key.push_back(units(t));
  key.push_back(static_cast<std::int64_t>(last));
  for (long long l : left) key.push_back(l);
  const auto& steps = profile.steps();
  // A step in one word when it fits (bit 62 set: 42 bits of time, 20 of free processors); else -1, time, free.
  constexpr std::int64_t kPacked = std::int64_t{1} << 62, kTimeLimit = std::int64_t{1} << 42, kFreeLimit = 1 << 20;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (i + 1 < steps.size() && steps[i + 1].time <= from + kTimeTolerance) continue;  // before `from`
    const std::int64_t time = i == 0 || steps[i].time < from ? units(from) : units(steps[i].time);
    const int free = steps[i].free;
    if (time >= 0 && time < kTimeLimit && free >= 0 && free < kFreeLimit) {
      key.push_back(kPacked | (time << 20) | free);
    } else {
      key.push_back(-1);
      key.push_back(time);
      key.push_back(free);
    }
  }
  std::uint64_t h = 1469598103934665603ULL;
  for (std::int64_t v : key) {
    h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 1099511628211ULL;
  }
  return h;
}

void StateMemory::remember(std::uint64_t hash, const std::vector<std::int64_t>& key, double value) {
  const std::size_t words = key.size() + kEntryOverheadWords;
  if (words_ + words > max_words_) {
    older_.swap(newer_);
    newer_.clear();
    words_ = 0;
  }
  words_ += words;
  Entry& slot = newer_[hash];
  slot.key = key;
  slot.value = value;
}

NodeCheck check_node(std::size_t nodes, std::size_t node_limit, std::chrono::steady_clock::time_point until,
                     std::chrono::steady_clock::time_point turn_end) {
  constexpr std::size_t kNodesPerClockRead = 256;
  if (stack_nearly_full()) return NodeCheck::kStopped;  // one frame a node: no deeper
  if (nodes % kNodesPerClockRead == 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until || stop_requested()) return NodeCheck::kStopped;
    if (now >= turn_end) return NodeCheck::kBudget;
  }
  return nodes >= node_limit ? NodeCheck::kBudget : NodeCheck::kGo;
}

double sequence_count(const std::vector<SerialJob>& jobs) {
  // log of (sum c)! / prod c!
  double total = 0, log_count = 0;
  for (const auto& job : jobs) {
    for (long long c = 1; c <= job.copies; ++c) {
      total += 1;
      log_count += std::log(total) - std::log(static_cast<double>(c));
    }
  }
  return std::exp(log_count);
}

}  // namespace schedcheck
