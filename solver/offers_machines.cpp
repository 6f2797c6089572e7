// The machine-assignment search for one-processor-wide providers (see offers_machines.hpp). Our own.
#include "solver/offers_machines.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace schedcheck::offers {

namespace {

constexpr std::int64_t kNoDeadline = std::int64_t{1} << 60;
constexpr double kMaxUnits = 1e15;               // grid units that stay exact in an int64 sum and in a double
constexpr std::int64_t kTableUnits = 1 << 11;    // the packing bound covers deadlines up to this many units ahead
constexpr std::size_t kPackingThresholds = 8;     // the packing bound: every task, then the longer ones (7 cuts)
constexpr std::size_t kMaxRememberedWords = std::size_t{1} << 22;  // failed states: at most 32 MiB a generation

std::int64_t units(double seconds, double scale) { return std::llround(seconds * scale); }
std::int64_t due_units(double deadline, double now, double scale) {  // finish <= deadline <=> finish <= this
  const double x = (deadline - now) * scale;
  return x >= kMaxUnits ? kNoDeadline : static_cast<std::int64_t>(std::floor(x + 1e-6));
}

// bits |= bits << shift (a 0/1 item added to a subset-sum set), in place, then no bit above `limit`.
void or_shifted(std::vector<std::uint64_t>& bits, std::int64_t shift, std::int64_t limit) {
  const std::size_t ws = static_cast<std::size_t>(shift) / 64, bs = static_cast<std::size_t>(shift) % 64;
  for (std::size_t i = bits.size(); i-- > ws;) {
    std::uint64_t v = bits[i - ws] << bs;
    if (bs != 0 && i > ws) v |= bits[i - ws - 1] >> (64 - bs);
    bits[i] |= v;
  }
  const auto last = static_cast<std::size_t>(limit) / 64;
  for (std::size_t i = last + 1; i < bits.size(); ++i) bits[i] = 0;
  if (last < bits.size() && limit % 64 != 63) bits[last] &= (std::uint64_t{2} << (limit % 64)) - 1;
}

}  // namespace

bool MachineSearch::sizes_fit(const Instance& instance, const std::vector<SerialJob>& jobs, double scale) {
  if (scale <= 0 || instance.processors < 1 || instance.processors > kMachinesMax) return false;
  for (const SerialJob& j : jobs)
    if (j.copies > 0 && j.duration * scale > kMaxUnits / 1e3) return false;
  for (const auto& r : instance.running)
    if (r.remaining * scale > kMaxUnits / 1e3) return false;
  return true;
}

bool MachineSearch::applies(const Instance& instance, const std::vector<SerialJob>& jobs, double scale) {
  return sizes_fit(instance, jobs, scale) &&
         std::all_of(jobs.begin(), jobs.end(), [](const SerialJob& j) { return j.copies == 0 || j.procs == 1; });
}

MachineSearch::MachineSearch(const Instance& instance, std::vector<SerialJob> jobs, std::size_t target, double scale,
                             Clock::time_point until)
    : now_(instance.now), scale_(scale), jobs_(std::move(jobs)), target_(target), until_(until),
      failed_(kMaxRememberedWords) {
  for (const SerialJob& j : jobs_) own_copies_.push_back(j.copies);
}

// The deadline order of this probe's tasks: groups by (deadline, longest runtime first, job), jobs of one
// (deadline, runtime) merged, and the work due by each deadline class. A job w processors wide given as w tasks (the
// bnb's relaxation) is a group of its own whose tasks take distinct machines: a schedule gives it w processors.
void MachineSearch::arrange(double bound) {
  bound_ = bound;
  struct Part {
    std::int64_t due, runtime;
    std::size_t job;
  };
  std::vector<Part> parts;
  for (std::size_t g = 0; g < jobs_.size(); ++g)
    if (jobs_[g].copies > 0)
      parts.push_back({due_units(g == target_ ? bound : jobs_[g].deadline, now_, scale_),
                       units(jobs_[g].duration, scale_), g});
  std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) {
    return std::tie(a.due, b.runtime, a.job) < std::tie(b.due, a.runtime, b.job);
  });
  groups_.clear();
  group_of_.clear();
  class_due_.clear();
  class_work_.clear();
  std::int64_t work = 0;
  for (const Part& p : parts) {
    const SerialJob& job = jobs_[p.job];
    const bool distinct = job.procs > 1 && own_copies_[p.job] == 1 && job.copies == job.procs;
    if (groups_.empty() || groups_.back().due != p.due || groups_.back().runtime != p.runtime || distinct ||
        groups_.back().distinct) {
      if (class_due_.empty() || class_due_.back() != p.due) {
        class_due_.push_back(p.due);
        class_work_.push_back(work);
      }
      groups_.push_back({p.due, p.runtime, group_of_.size(), 0, class_due_.size() - 1, {}, distinct});
    }
    Group& group = groups_.back();
    const auto copies = static_cast<std::size_t>(jobs_[p.job].copies);
    group.jobs.push_back(p.job);
    group.count += copies;
    group_of_.insert(group_of_.end(), copies, groups_.size() - 1);
    work += p.runtime * static_cast<std::int64_t>(copies);
    class_work_.back() = work;
  }
  starts_.assign(group_of_.size(), 0);
  saved_.assign(groups_.size(), {});
}

// At the start of `group`, loads sorted (checked there only: checking every node gave fewer nodes but more time):
// every later group still fits on the least loaded machine, and for each deadline class the work due by it fits in
// what the machines can still take of it: for a machine with load L, the most work of the remaining tasks due by the
// class that it can run in deadline order from L, each by its deadline (a subset-sum over queue ends, tasks in
// deadline order; a task counts on every machine, so this is a relaxation). The same for the longer tasks alone, which
// pack worse.
bool MachineSearch::bounds_hold(std::size_t group) {
  for (std::size_t h = group; h < groups_.size(); ++h)
    if (loads_.front() + groups_[h].runtime > groups_[h].due) return false;
  const std::size_t c0 = groups_[group].deadline_class;
  const std::int64_t last_due = groups_.back().due;
  if (last_due >= kNoDeadline || last_due - loads_.front() > kTableUnits) {
    for (std::size_t c = c0; c < class_due_.size() && class_due_[c] < kNoDeadline; ++c) {
      std::int64_t room = 0;  // far or no deadlines: the free time before each
      for (std::int64_t load : loads_) room += std::max<std::int64_t>(0, class_due_[c] - load);
      if (class_work_[c] - placed_work_ > room) return false;
    }
    return true;
  }
  // For the tasks at least `shortest` long (every task, then the longer ones alone: they pack worse).
  auto packs = [&](std::int64_t shortest) {
    room_.assign(class_due_.size(), 0);
    need_.assign(class_due_.size(), 0);
    std::int64_t work = 0;
    for (std::size_t h = group, c = c0; c < class_due_.size(); ++c) {
      for (; h < groups_.size() && groups_[h].deadline_class == c; ++h)
        if (groups_[h].runtime >= shortest) work += groups_[h].runtime * static_cast<std::int64_t>(groups_[h].count);
      need_[c] = work;
    }
    for (std::size_t k = 0; k < loads_.size();) {
      const std::int64_t base = loads_[k];
      std::size_t same = k + 1;
      while (same < loads_.size() && loads_[same] == base) ++same;
      const auto machines = static_cast<std::int64_t>(same - k);
      k = same;
      if (base >= last_due) break;
      reach_.assign(static_cast<std::size_t>(last_due - base) / 64 + 1, 0);
      reach_[0] = 1;  // queue ends, as offsets from base
      std::int64_t top = 0;
      for (std::size_t h = group, c = c0; c < class_due_.size(); ++c) {
        for (; h < groups_.size() && groups_[h].deadline_class == c; ++h) {
          const std::int64_t r = groups_[h].runtime, limit = groups_[h].due - base;
          if (r < shortest || r <= 0 || limit < r) continue;
          const auto copies = std::min(static_cast<std::int64_t>(groups_[h].count), limit / r);
          for (std::int64_t n = 0; n < copies; ++n) or_shifted(reach_, r, limit);
        }
        for (std::size_t w = reach_.size(); w-- > 0;)
          if (reach_[w] != 0) {
            top = static_cast<std::int64_t>(w * 64 + 63 - static_cast<std::size_t>(__builtin_clzll(reach_[w])));
            break;
          }
        room_[c] += machines * top;
      }
    }
    for (std::size_t c = c0; c < class_due_.size(); ++c)
      if (need_[c] > room_[c]) return false;
    return true;
  };
  runtimes_.clear();
  for (std::size_t h = group; h < groups_.size(); ++h) runtimes_.push_back(groups_[h].runtime);
  std::sort(runtimes_.begin(), runtimes_.end());
  runtimes_.erase(std::unique(runtimes_.begin(), runtimes_.end()), runtimes_.end());
  // Every task, then the tasks at least as long as each of the longest kPackingThresholds - 1 runtimes.
  for (std::size_t i = 0; i < runtimes_.size(); ++i)
    if ((i == 0 || i + kPackingThresholds > runtimes_.size()) && !packs(runtimes_[i])) return false;
  return true;
}

// The key of the state at a group's start: which jobs remain (their copies) and the sorted loads.
std::uint64_t MachineSearch::state_key(std::size_t group) {
  key_.assign(jobs_.size(), 0);
  for (std::size_t h = group; h < groups_.size(); ++h)
    for (std::size_t j : groups_[h].jobs) key_[j] = jobs_[j].copies;
  key_.insert(key_.end(), loads_.begin(), loads_.end());
  std::uint64_t hash = 0x9e3779b97f4a7c15ULL;
  for (std::int64_t w : key_) hash = (hash ^ static_cast<std::uint64_t>(w)) * 0x100000001b3ULL + (hash >> 29);
  return hash;
}

// Task `pos` (of its group) goes to the end of a machine at index `from` or later (copies of one group take machines
// in index order: each multiset of machines once; a distinct group's in increasing order: each set once); among
// machines of equal load, the first only.
void MachineSearch::search(std::size_t pos, std::size_t from) {
  if (const NodeCheck check = check_node(++nodes_, node_limit_, until_, turn_end_); check != NodeCheck::kGo) {
    stopped_ = true;  // unwinds: nothing below is remembered as failed
    over_budget_ = check == NodeCheck::kBudget;
    return;
  }
  if (pos == group_of_.size()) {
    found_now_ = true;
    found_.clear();
    for (const Group& group : groups_) {
      std::size_t p = group.first;
      for (std::size_t j : group.jobs)
        for (long long c = 0; c < jobs_[j].copies; ++c, ++p)
          found_.push_back({j, now_ + static_cast<double>(starts_[p]) / scale_});
    }
    return;
  }
  const std::size_t gi = group_of_[pos];
  const Group& group = groups_[gi];
  const bool opens = pos == group.first;
  std::uint64_t hash = 0;
  std::vector<std::int64_t> key;
  if (opens) {
    saved_[gi] = loads_;
    std::sort(loads_.begin(), loads_.end());
    from = 0;
    if (!bounds_hold(gi)) {
      loads_ = saved_[gi];
      return;
    }
    hash = state_key(gi);
    if (failed_.any(hash, key_, [&](double failed_under) { return bound_ <= failed_under + kTimeTolerance; })) {
      loads_ = saved_[gi];
      return;
    }
    key = key_;
  }
  const std::size_t m = loads_.size();
  for (std::size_t k = from; k < m; ++k) {
    if (k > from && (loads_[k] == loads_[from] || (k - 1 > from && loads_[k] == loads_[k - 1]))) continue;
    if (loads_[k] + group.runtime > group.due) continue;
    starts_[pos] = loads_[k];
    loads_[k] += group.runtime;
    placed_work_ += group.runtime;
    search(pos + 1, group.distinct ? k + 1 : k);
    loads_[k] -= group.runtime;
    placed_work_ -= group.runtime;
    if (found_now_ || stopped_) break;
  }
  if (opens) {
    if (!found_now_ && !stopped_) failed_.remember(hash, key, bound_);
    loads_ = saved_[gi];
  }
}

MachineSearch::Outcome MachineSearch::probe(const std::vector<double>& free_from, const std::vector<long long>& left,
                                            double bound, std::size_t node_budget, Clock::time_point turn_end) {
  for (std::size_t g = 0; g < jobs_.size(); ++g) jobs_[g].copies = left[g];
  loads_.clear();
  for (double t : free_from) loads_.push_back(std::max<std::int64_t>(0, units(t - now_, scale_)));
  arrange(bound);
  placed_work_ = 0;
  found_now_ = stopped_ = over_budget_ = false;
  node_limit_ = node_budget == 0 ? static_cast<std::size_t>(-1) : nodes_ + node_budget;
  turn_end_ = turn_end;
  search(0, 0);
  if (over_budget_) return Outcome::kBudget;
  if (stopped_) return Outcome::kStopped;
  return found_now_ ? Outcome::kFound : Outcome::kExhausted;
}

}  // namespace schedcheck::offers
