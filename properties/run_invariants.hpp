// Invariants checked on every decision of a simulated (or replayed) run, each named, each violation with the job,
// the instant and the event that caused it. Our own, after the guarantees of FCFS, EASY (Lifka 1995) and
// conservative backfilling (Mu'alem & Feitelson 2001). An InvariantChecker observes the engine
// (simulation/observer.hpp) with state of its own, so it does not trust the engine's bookkeeping; a run without
// one pays nothing.
#pragma once

#include "model/workload.hpp"
#include "simulation/observer.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::runcheck {

// The invariants' names, for the checks that report them.
namespace invariant {
inline constexpr const char* kCapacity = "capacity";
inline constexpr const char* kSubmit = "no-start-before-submit";
inline constexpr const char* kConserved = "jobs-conserved";
inline constexpr const char* kRuntime = "run-time-kept";
inline constexpr const char* kFcfs = "fcfs-order";
inline constexpr const char* kPivot = "easy-pivot-not-delayed";
inline constexpr const char* kMaximal = "easy-maximal";
inline constexpr const char* kGuarantee = "conservative-guarantee";
inline constexpr const char* kPartitionPivot = "partition-pivot-not-delayed";
inline constexpr const char* kBorrowing = "borrowing-delays-no-pivot";
inline constexpr const char* kReservation = "reservation-honoured";
inline constexpr const char* kSlots = "slots-free-when-published";
}  // namespace invariant

// A time in full: the shortest text that reads back as this double (1062652, not 1.06265e+06).
std::string time_text(double x);

struct InvariantInfo {
  std::string name;
  std::string source;
  std::string summary;
};
// Every invariant, in report order.
const std::vector<InvariantInfo>& invariants();
// The invariants a run of a cluster policy is checked for: those every run keeps, and those the catalogue says the
// policy promises (reference/cluster_policies.hpp); a name outside the catalogue gets the general ones. A run in which
// jobs arrive with advance reservations is also checked for `reservation-honoured`, from the first of them on, and one
// in which a cluster publishes free time slots for `slots-free-when-published`, from the first report on.
std::vector<std::string> applicable(const std::string& policy);

struct Violation {
  std::string invariant;
  double time = 0;
  std::string event;      // "pass", "completion", "end of run"
  std::int64_t job = -1;  // the job concerned (trace id), -1 when none
  std::string detail;     // one sentence
};

class InvariantChecker : public sim::Observer {
public:
  // `names`: the invariants to check (names from invariants()); `keep`: violations kept in full (all are counted).
  InvariantChecker(const workload::Workload& workload, std::vector<std::string> names, std::size_t keep = 50);
  // Clusters with policies of their own: `per_cluster[c]` the invariants checked on cluster c's decisions (a cluster
  // beyond the list gets the last entry). checked() lists every invariant any cluster is checked for.
  InvariantChecker(const workload::Workload& workload, std::vector<std::vector<std::string>> per_cluster,
                   std::size_t keep = 50);

  void on_arrival(const sim::ArrivalView& view) override;
  void on_pass(const sim::PassView& view) override;
  void on_completion(const sim::CompletionView& view) override;
  void on_publish(const sim::PublishView& view) override;
  void on_end(const sim::EndView& view) override;

  // Violations that name these jobs (trace ids) are neither counted nor kept: another check already reported the
  // incident (the audit's certain verdicts, properties/audit_certain.hpp).
  void skip(std::set<std::int64_t> jobs) { skip_ = std::move(jobs); }
  // Counts and keeps one violation per invariant and job, the first (an audit's differences: a reservation that keeps
  // moving is one finding, not one a pass).
  void once_per_job() { once_ = true; }

  const std::vector<std::string>& checked() const { return names_; }
  // The first `keep`, and the first of every invariant after them.
  const std::vector<Violation>& violations() const { return violations_; }
  std::size_t total() const { return total_; }
  const std::map<std::string, std::size_t>& counts() const { return counts_; }  // per checked invariant
  std::size_t decisions() const { return decisions_; }  // passes observed
  nlohmann::json to_json() const;

private:
  bool on(const char* name) const;
  void size_for(std::uint32_t cluster, int processors);
  void report(const char* invariant, double time, const char* event, std::int64_t job, std::string detail);
  void check_over_commit(const sim::PassView& view, std::size_t index, double start);

  const workload::Workload& workload_;
  std::vector<std::string> names_;
  std::set<std::int64_t> skip_;
  bool once_ = false;
  std::set<std::pair<const char*, std::int64_t>> seen_;  // with once_: (invariant, job) already reported
  std::size_t keep_;
  std::vector<Violation> violations_;
  std::map<std::string, std::size_t> counts_;
  std::size_t total_ = 0, decisions_ = 0;
  bool capacity_ = false, submit_ = false, conserved_ = false, runtime_ = false;
  struct Promises {                             // a cluster's policy-specific invariants, checked on its passes
    bool fcfs = false, pivot = false, maximal = false, guarantee = false, partition = false, borrowing = false;
  };
  std::vector<Promises> promises_;              // per cluster (the last entry for clusters beyond)
  const Promises& promises(std::uint32_t cluster) const { return promises_[std::min<std::size_t>(cluster, promises_.size() - 1)]; }
  // Independent state.
  std::vector<bool> sized_;                     // per cluster: seen (the two below are sized for it)
  std::vector<int> used_;                       // per cluster: processors held by running jobs
  std::vector<ProcessorSet> busy_;              // per cluster: processors held by running jobs
  std::vector<ProcessorSet> held_;              // per job: the processors it runs on (while running)
  std::vector<double> first_reservation_;       // per job: -1, or the first reservation seen
  std::vector<double> last_reservation_;        // per job: the latest reservation seen
  std::vector<double> arrived_at_;              // per job: when it reached its queue
  // Advance reservations (checked, and listed among checked(), from the first job that arrives with one): per job
  // its fixed start, -1 for none, -2 once reported missed.
  std::vector<double> advance_at_;
  bool advance_seen_ = false;
  bool published_ = false;  // a cluster published free time slots (slots-free-when-published is listed)
};

}  // namespace schedcheck::runcheck
