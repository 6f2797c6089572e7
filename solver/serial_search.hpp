// Serial schedule generation (SGS) over job sequences, shared by the exact methods without Z3: a depth-first
// search that extends a sequence by one job (or one copy of a job with identical copies) placed at its earliest
// start on the availability profile. Over all sequences, serial generation yields every active schedule, and some
// active schedule is optimal for any regular objective under deadlines (Kolisch 1996). Our own implementation.
#pragma once

#include "model/profile.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace schedcheck {

struct SerialJob {
  int procs = 1;
  double duration = 0;
  double deadline = kForever;  // latest finish: a job whose earliest start misses it ends the branch
  long long copies = 1;        // identical copies (tasks of a BoT part): the search branches on "next copy of
                               // this job", never on copy identity, so it visits multiset permutations only
};

struct SerialPlacement {
  std::size_t job = 0;
  double start = 0;
};

enum class Visit { kDescend, kPrune, kStop };

// Calls on_node at the root and after every placement with the placements so far (in sequence order); the
// answer decides whether to extend this sequence, skip its extensions, or end the whole search.
// Returns false when on_node stopped the search.
bool search_serial_schedules(const AvailabilityProfile& base, double not_before, const std::vector<SerialJob>& jobs,
                             const std::function<Visit(const std::vector<SerialPlacement>&)>& on_node);

// The serial schedule of one sequence (a job index once per copy); nullopt when a job misses its deadline, or when
// `until` passes or a stop is requested before the last placement (tens of thousands of jobs take seconds).
std::optional<std::vector<SerialPlacement>> serial_schedule(
    const AvailabilityProfile& base, double not_before, const std::vector<SerialJob>& jobs,
    const std::vector<std::size_t>& sequence,
    std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max());

// The state of a search over active schedules in start order, as words: the current start t and tie index `last`,
// the remaining copies of each job, and the profile from `from` (at least `now`) on (times in units of 1 / scale from
// now, free counts). Into `key` (cleared first); returns its hash. Two nodes with equal keys have the same subtrees
// when no remaining job fits anywhere before `from` (so the profile before it decides nothing).
std::uint64_t active_state_key(const AvailabilityProfile& profile, double now, double scale, double from, double t,
                               std::size_t last, const std::vector<long long>& left, std::vector<std::int64_t>& key);

// A bounded memory of fully explored states of such a search (keys from active_state_key), each with one number
// (the bound it failed under, the cost that led to it...). Two generations: when the newer holds `max_words` words
// (keys and the map's own words, about 12 an entry) it becomes the older and the older is dropped, so the most
// recent states are always kept.
class StateMemory {
 public:
  explicit StateMemory(std::size_t max_words) : max_words_(max_words) {}
  // Whether this state is remembered, in either generation, with a number for which `good` holds.
  template <class Good>
  bool any(std::uint64_t hash, const std::vector<std::int64_t>& key, Good good) const {
    for (const auto* generation : {&newer_, &older_})
      if (const auto it = generation->find(hash); it != generation->end() && it->second.key == key && good(it->second.value))
        return true;
    return false;
  }
  void remember(std::uint64_t hash, const std::vector<std::int64_t>& key, double value);

 private:
  struct Entry {
    std::vector<std::int64_t> key;
    double value = 0;
  };
  static constexpr std::size_t kEntryOverheadWords = 12;
  std::size_t max_words_, words_ = 0;
  std::unordered_map<std::uint64_t, Entry> newer_, older_;
};

// The stop test of a depth-first search with a time limit and a turn (an end time and a node budget), made at each
// node: kStopped at the time limit, a stop signal or the end of the thread's stack (support/stack.hpp: a node is a
// frame), kBudget at the turn's end or past `node_limit` nodes. The clock is read every 256th node only.
enum class NodeCheck { kGo, kStopped, kBudget };
NodeCheck check_node(std::size_t nodes, std::size_t node_limit, std::chrono::steady_clock::time_point until,
                     std::chrono::steady_clock::time_point turn_end);

// How many distinct sequences of all copies exist (the multinomial coefficient), as a double (inf on overflow).
double sequence_count(const std::vector<SerialJob>& jobs);

}  // namespace schedcheck
