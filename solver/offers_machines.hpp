// The bnb's search for tasks that are all one processor wide (BoT tasks, one-processor local jobs) on processors that
// only come free from a time on (a provider's running jobs end; in the bnb, the jobs placed so far all start by then):
// the processors are then identical machines, each free from its own time, and a machine runs its tasks best in
// deadline order (Jackson 1955; all are released by then), so a schedule is an assignment of the tasks, taken in
// deadline order, to the ends of the machines' queues. Our own. Exact on data on a grid (time_grid); limits:
// at most kMachinesMax processors, the node budget and the time limit; the packing bound only for deadlines within
// 2048 grid steps of a machine's queue end (else the free time before each deadline). It also decides the bnb's
// relaxation, where a job w processors wide is given as w one-processor tasks on distinct machines.
#pragma once

#include "model/offers.hpp"
#include "solver/serial_search.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace schedcheck::offers {

inline constexpr int kMachinesMax = 256;

class MachineSearch {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Outcome { kFound, kExhausted, kStopped, kBudget };  // as the bnb's probes

  // Whether the instance is small enough for the search (processors, times in grid units), and with `applies`
  // also every task of `jobs` (SerialJob per waiting job, then the new tasks) one processor wide.
  static bool sizes_fit(const Instance& instance, const std::vector<SerialJob>& jobs, double scale);
  static bool applies(const Instance& instance, const std::vector<SerialJob>& jobs, double scale);

  // `target`: the job whose deadline each probe sets (the new tasks), or -1 for none. `instance`: now.
  MachineSearch(const Instance& instance, std::vector<SerialJob> jobs, std::size_t target, double scale,
                Clock::time_point until);

  // A schedule of `left` copies of each job (all one processor wide; a single job w wide given as w copies: its tasks
  // on distinct machines) on machines free from the given times (seconds,
  // ascending, one a processor) meeting every deadline, the target's being `bound`: the rest of a schedule whose
  // placed jobs all start by the first of these times, so that processors only come free from then on. At most
  // `node_budget` nodes (0: no budget) and until `turn_end` (then kBudget). Failed states are kept with the bound
  // they failed under, for later probes.
  Outcome probe(const std::vector<double>& free_from, const std::vector<long long>& left, double bound,
                std::size_t node_budget, Clock::time_point turn_end);
  const std::vector<SerialPlacement>& found_schedule() const { return found_; }
  std::size_t nodes() const { return nodes_; }

 private:
  struct Group {  // tasks of one (deadline, runtime): interchangeable
    std::int64_t due = 0, runtime = 0;
    std::size_t first = 0, count = 0;  // positions in the deadline order
    std::size_t deadline_class = 0;    // index of `due` among the distinct deadlines
    std::vector<std::size_t> jobs;     // the jobs whose copies these are, in this order
    bool distinct = false;             // the w tasks of one job w processors wide (a relaxation): distinct machines
  };
  void arrange(double bound);
  bool bounds_hold(std::size_t group);
  void search(std::size_t pos, std::size_t from);
  std::uint64_t state_key(std::size_t group);

  double now_, scale_;
  std::vector<SerialJob> jobs_;  // copies: those of this probe
  std::vector<long long> own_copies_;  // the jobs' copies as given (jobs_ holds each probe's)
  std::size_t target_;
  Clock::time_point until_, turn_end_ = Clock::time_point::max();
  std::vector<std::int64_t> loads_;    // during a search: each machine's queue end
  std::vector<std::vector<std::int64_t>> saved_;  // a group's loads before sorting, by group
  std::vector<Group> groups_;
  std::vector<std::size_t> group_of_;     // position -> group
  std::vector<std::int64_t> starts_;      // position -> start (grid units)
  std::vector<std::int64_t> class_due_;   // per deadline class: the deadline
  std::vector<std::int64_t> class_work_;  // per deadline class: the work of every task due by it
  std::vector<std::int64_t> room_, need_, runtimes_;      // bounds_hold: per class, what the machines can still take
  std::vector<std::uint64_t> reach_;    // bounds_hold: reachable queue ends of one machine
  std::int64_t placed_work_ = 0;
  double bound_ = 0;
  std::vector<SerialPlacement> found_;
  std::vector<std::int64_t> key_;
  StateMemory failed_;
  std::size_t nodes_ = 0, node_limit_ = 0;
  bool found_now_ = false, stopped_ = false, over_budget_ = false;
};

}  // namespace schedcheck::offers
