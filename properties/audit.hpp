// Auditing a schedule another simulator produced against the promises of the policy it claims to follow (`schedcheck
// audit`, the C++ API, the Python module). Our own. The rows are matched to the trace's jobs by id; jobs-conserved,
// no-start-before-submit, run-time-kept, capacity and processor exclusivity are checked on the rows directly
// (model/run_schedule.hpp). The policy's own invariants (the catalogue's promises: fcfs-order; easy-pivot-not-delayed,
// easy-maximal; conservative-guarantee) are judged twice: certain verdicts bound every reservation a legal scheduler
// could have made (properties/audit_certain.hpp), and the replay (simulation/replay.hpp: the jobs start and end when
// the schedule says, our policy makes the reservations it would hold around them) reports differences from
// schedcheck's own reservations, which another legal order of passes may explain. A violation is reported once.
// A schedule of several clusters is audited cluster by cluster; a row's arrival (ScheduleRow::arrival: a broker's
// latency after the submission) is when its job entered its cluster's queue.
#pragma once

#include "model/jobs_csv.hpp"
#include "model/workload.hpp"
#include "properties/audit_certain.hpp"
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace schedcheck::runcheck {

// One cluster of a schedule of several: its size, the policy it claims to follow and its resource model.
struct AuditCluster {
  int processors = 0;
  cluster::ClusterPolicy policy;
  cluster::ResourceModel model = cluster::ResourceModel::kCount;
};

struct AuditOptions {
  cluster::ClusterPolicy policy;             // the policy the schedule claims to follow (cluster::cluster_policy)
  cluster::ResourceModel model = cluster::ResourceModel::kCount;
  // A schedule of several clusters: each row's cluster index (ScheduleRow::cluster) names one of these, and each
  // cluster is audited apart, against its own size, policy and model (processors numbered within the cluster).
  // Empty: one cluster of the workload's processors, with `policy` and `model`.
  std::vector<AuditCluster> clusters;
  bool pass_per_event = false;               // the replay decides after every event (sim::ClusterSetup)
  // A broker's latency, seconds: a row that gives no arrival (ScheduleRow::arrival) reached its cluster this long after
  // its job's submission.
  double latency = 0;
  std::string cluster_column = "cluster";    // for error messages
  std::size_t keep = 10;                     // violations kept in full, after the replay's ten times that many
  std::string schedule = "schedule";         // the schedule's name and its processors column, for error messages
  std::string processors_column = "allocated_resources";
  // Jobs the schedule may have run that these rows and this workload do not show (the audit of several clusters
  // passes each cluster the jobs without a row); the audit adds those it finds itself.
  std::vector<Unseen> unseen;
};

struct AuditResult {
  std::size_t jobs = 0, rows = 0;
  std::size_t overran = 0;                   // jobs that ran past their estimate (not killed)
  // --model processors on rows that name no processors: each job's set reconstructed by the lowest-free rule (GridSim's
  // and Alea's). The certain verdicts do not depend on it (with only running jobs in the profile they judge, k
  // processors free at an instant stay free: any sets give the same), the replay's differences do, and processor
  // exclusivity is not checked.
  bool reconstructed = false;
  std::map<std::string, std::size_t> counts; // certain violations of every invariant checked certainly (0: it holds)
  std::vector<Violation> violations;         // the first ones (by time), and the first of every invariant
  // The replay's findings on the policy's invariants that no certain verdict reports: differences between the
  // schedule and the reservations schedcheck would hold around it (0: the replay agrees).
  std::map<std::string, std::size_t> difference_counts;
  std::vector<Violation> differences;        // the first ones (by time), and the first of every invariant
  std::vector<std::string> unchecked;        // promises with no certain check here, and why
  // Findings that rest on what the schedule does not show, never counted as certain: a row of a record the reading
  // rules skip (jobs-conserved), and the policy's verdicts at an instant when an unseen job may have waited or run.
  std::map<std::string, std::size_t> uncertain_counts;
  std::vector<Violation> uncertain;          // the first ones (by time), and the first of every invariant
  std::size_t total() const;                 // certain violations
  std::size_t total_differences() const;
  std::size_t total_uncertain() const;
};

// Throws InputError when, with processor identity, a row does not name its job's processors while others do (rows
// that name none get reconstructed sets, AuditResult::reconstructed); when rows name clusters
// other than 0 and `clusters` is empty (a schedule of several clusters audited as one); and, with `clusters`, when
// the rows have no cluster index or one out of range.
AuditResult audit_schedule(const workload::Workload& workload, const std::vector<jobs_csv::ScheduleRow>& rows,
                           const AuditOptions& options);

// The findings a verdict prints: the first `show` (by time), then the first of every invariant not among them.
std::vector<const Violation*> shown(const std::vector<Violation>& found, std::size_t show);

// The verdict: jobs, rows, overran_estimate, violations_total, violations_by_invariant, the violations shown
// (certain), differences_total, differences_by_invariant, the differences shown, not_certain_total,
// not_certain_by_invariant, the not-certain findings shown, no_certain_check.
nlohmann::json to_json(const AuditResult& result, std::size_t show);

}  // namespace schedcheck::runcheck
