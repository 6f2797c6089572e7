// Auditing another simulator's schedule (see audit.hpp). Our own.
#include "properties/audit.hpp"

#include "model/run_schedule.hpp"
#include "properties/audit_certain.hpp"
#include "simulation/replay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <unordered_map>

namespace schedcheck::runcheck {

namespace {
std::size_t sum(const std::map<std::string, std::size_t>& counts) {
  std::size_t n = 0;
  for (const auto& [name, count] : counts) n += count;
  return n;
}
}  // namespace

std::size_t AuditResult::total() const { return sum(counts); }
std::size_t AuditResult::total_differences() const { return sum(difference_counts); }

namespace {

constexpr std::uint32_t kNoCluster = 0xffffffffu;

AuditResult audit_clusters(const workload::Workload& w, const std::vector<jobs_csv::ScheduleRow>& rows,
                           const AuditOptions& options);

// What jobs-conserved says of a row of no job, and of a job no row names.
std::string unknown_row(const jobs_csv::ScheduleRow& row) {
  return fmt::format("line {}: job {} is not a job of the trace (unknown id, or a record the reading rules skip)",
                     row.line, row.id);
}
std::string missing_job(const workload::Job& job) {
  return fmt::format("job {} (submitted at {}) is not in the schedule", job.id, job.submit);
}

// The checks made on the rows themselves (not by the replay): each counted, the first 1,000 kept, and the first of
// every invariant however many of another come before it.
struct RowChecks {
  std::map<std::string, std::size_t> counts{
      {"jobs-conserved", 0}, {"no-start-before-submit", 0}, {"run-time-kept", 0}, {"capacity", 0}};
  std::vector<Violation> violations;
  void note(const char* invariant, double time, std::int64_t job, std::string detail) {
    if (++counts[invariant] == 1 || violations.size() < 1000)
      violations.push_back(Violation{invariant, time, "schedule row", job, std::move(detail)});
  }
};

// A trace's jobs by id as the schedule's rows name them.
std::unordered_map<std::string, std::size_t> job_index(const workload::Workload& w) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) index.emplace(std::to_string(w.jobs[j].id), j);
  return index;
}

// The workload as the cluster's queue saw it: a job whose row gives its arrival (a broker's latency after its
// submission) entered the queue then, and the queue is in arrival order (trace order among equal times, as the
// broker sent them). An arrival before the submission is no-start-before-submit, and the job is read as submitted.
struct Arrived {
  workload::Workload workload;
  std::vector<bool> late;  // per job of `workload`: it reached the queue after its submission
};
std::optional<Arrived> arrived(const workload::Workload& w, const std::vector<jobs_csv::ScheduleRow>& rows,
                               RowChecks& direct) {
  std::unordered_map<std::string, double> at;
  for (const auto& row : rows)
    if (row.arrival) at.emplace(row.id, *row.arrival);
  if (at.empty()) return std::nullopt;
  Arrived out{w, {}};
  std::vector<std::pair<workload::Job, bool>> jobs;
  for (const auto& job : w.jobs) {
    const auto it = at.find(std::to_string(job.id));
    if (it == at.end() || std::abs(it->second - job.submit) <= kTimeTolerance) {
      jobs.emplace_back(job, false);
    } else if (it->second < job.submit) {
      direct.note("no-start-before-submit", it->second, job.id,
                  fmt::format("job {} reached its cluster at {}, before its submit time {}", job.id, it->second, job.submit));
      jobs.emplace_back(job, false);
    } else {
      jobs.emplace_back(job, true);
      jobs.back().first.submit = it->second;
    }
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first.submit < b.first.submit; });
  out.workload.jobs.clear();
  for (auto& [job, late] : jobs) {
    out.workload.jobs.push_back(job);
    out.late.push_back(late);
  }
  return out;
}

}  // namespace

AuditResult audit_schedule(const workload::Workload& trace, const std::vector<jobs_csv::ScheduleRow>& rows,
                           const AuditOptions& options) {
  if (!options.clusters.empty()) return audit_clusters(trace, rows, options);
  for (const auto& row : rows)
    if (row.cluster && *row.cluster > 0)
      throw InputError(fmt::format("{}: line {}: column {}: job {} ran on cluster {}: a schedule of several clusters; "
                                   "give their sizes (--clusters P1,P2,...) to audit each against its own",
                                   options.schedule, row.line, options.cluster_column, quoted_text(row.id), *row.cluster));
  const cluster::ResourceModel model = options.model;
  RowChecks direct;
  auto note = [&](const char* invariant, double time, std::int64_t job, std::string detail) {
    direct.note(invariant, time, job, std::move(detail));
  };
  const std::optional<Arrived> queue = arrived(trace, rows, direct);
  const workload::Workload& w = queue ? queue->workload : trace;

  std::vector<ProcessorSet> on(w.jobs.size());  // --model processors: each job's processors, checked
  const auto index = job_index(w);
  RunSchedule s;
  s.start.assign(w.jobs.size(), -1);
  s.end.assign(w.jobs.size(), -1);
  s.allocated.assign(w.jobs.size(), std::nullopt);
  bool any_allocation = false;
  for (const auto& row : rows) {
    const auto it = index.find(row.id);
    if (it == index.end()) {
      note("jobs-conserved", row.start, -1, unknown_row(row));
      continue;
    }
    const std::size_t j = it->second;
    s.start[j] = row.start;
    s.end[j] = row.finish;
    if (row.allocated && !row.allocated->empty()) {
      s.allocated[j] = row.allocated;
      any_allocation = true;
    }
    if (model == cluster::ResourceModel::kProcessors) {  // the replay starts each job on its processors: they must say
      std::string error;
      const auto set = row.allocated ? ProcessorSet::parse_intervals(*row.allocated, w.processors, &error) : std::nullopt;
      if (!set || set->count() != w.jobs[j].procs)
        throw InputError(fmt::format("{}: line {}: column {}: expected the {} processors of job {} (--model processors), "
                                     "got {}{}", options.schedule, row.line, options.processors_column, w.jobs[j].procs, quoted_text(row.id),
                                     quoted_text(row.allocated ? *row.allocated : ""), error.empty() ? "" : " (" + error + ")"));
      on[j] = *set;
    }
  }
  if (!any_allocation) s.allocated.clear();
  std::size_t overran = 0;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    const auto& job = w.jobs[j];
    if (s.start[j] < 0) {
      note("jobs-conserved", job.submit, job.id, missing_job(job));
      continue;
    }
    if (s.start[j] < job.submit - kTimeTolerance)
      note("no-start-before-submit", s.start[j], job.id,
           queue && queue->late[j]
               ? fmt::format("job {} starts at {}, before it reached its cluster at {}", job.id, s.start[j], job.submit)
               : fmt::format("job {} starts at {}, before its submit time {}", job.id, s.start[j], job.submit));
    const double ran = s.end[j] - s.start[j];
    if (std::abs(ran - job.runtime()) > kTimeTolerance * std::max(1.0, ran))
      note("run-time-kept", s.end[j], job.id,
           fmt::format("job {} runs {} s; its run time is {} and its estimate {}: it should run {}", job.id, ran,
                       job.run, job.estimate, job.runtime()));
    if (ran > job.estimate) ++overran;
  }
  double at = 0;
  std::int64_t culprit = -1;
  if (std::string why = capacity_violation(w, s, &at, &culprit); !why.empty()) note("capacity", at, culprit, why);
  if (std::string why = processor_violation(w, s, &at, &culprit); !why.empty()) note("capacity", at, culprit, why);

  // Certain verdicts first, from the rows alone; on a schedule that overbooks processors a sweep over its rows
  // means nothing, and the policy's promises are judged by the replay only.
  CertainResult certain;
  if (direct.counts["capacity"] == 0) {
    CertainInput in;
    in.workload = &w;
    in.start = &s.start;
    in.end = &s.end;
    in.on = &on;
    in.policy = options.policy;
    in.model = model;
    certain = certain_verdicts(in);
  } else {
    for (const auto& name : options.policy.promises)
      certain.unchecked.push_back(name + ": the schedule overbooks processors");
  }

  // The replay: the schedule's starts and ends; our policy's reservations around them. A job that ran past its
  // estimate was not killed by the audited scheduler: the replay believes its run as its estimate.
  workload::Workload replay = w;
  sim::Script script;
  script.start = s.start;
  script.end = s.end;
  script.on = std::move(on);
  for (std::size_t j = 0; j < w.jobs.size(); ++j)
    if (s.start[j] >= 0) replay.jobs[j].estimate = std::max(replay.jobs[j].estimate, s.end[j] - s.start[j]);
  sim::ClusterSetup setup = sim::single_cluster(replay, options.policy, model).clusters.front();
  setup.record_allocations = false;
  setup.pass_per_event = options.pass_per_event;
  InvariantChecker checker(replay, options.policy.promises, options.keep * 10);
  checker.skip(std::move(certain.named));
  checker.once_per_job();
  sim::Observer* observers[] = {&checker};
  sim::replay(replay.jobs, std::move(setup), script, observers);

  AuditResult result;
  result.jobs = w.jobs.size();
  result.rows = rows.size();
  result.overran = overran;
  result.violations = std::move(direct.violations);
  result.violations.insert(result.violations.end(), certain.violations.begin(), certain.violations.end());
  std::stable_sort(result.violations.begin(), result.violations.end(),
                   [](const auto& x, const auto& y) { return x.time < y.time; });
  result.counts = std::move(direct.counts);
  for (const auto& [name, count] : certain.counts) result.counts[name] = count;
  result.difference_counts = checker.counts();
  result.differences = checker.violations();
  result.unchecked = std::move(certain.unchecked);
  return result;

}

namespace {

// Each cluster's rows audited as a schedule of its own (its jobs, its size, its policy); the jobs no row names and the
// rows of no job are reported here, once.
AuditResult audit_clusters(const workload::Workload& w, const std::vector<jobs_csv::ScheduleRow>& rows,
                           const AuditOptions& options) {
  const std::size_t n = options.clusters.size();
  RowChecks direct;
  auto note = [&](const char* invariant, double time, std::int64_t job, std::string detail) {
    direct.note(invariant, time, job, std::move(detail));
  };
  const auto index = job_index(w);
  std::vector<workload::Workload> parts(n);
  std::vector<std::vector<jobs_csv::ScheduleRow>> part_rows(n);
  std::vector<std::uint32_t> cluster_of(w.jobs.size(), kNoCluster);
  for (const auto& row : rows) {
    if (!row.cluster)  // the reader fills every row's cluster when the column is there
      throw InputError(fmt::format("{}: no column {} in the header: --clusters audits each cluster's jobs apart and "
                                   "needs each row's cluster (name the column with --cluster-column)", options.schedule,
                                   quoted_text(options.cluster_column)));
    if (*row.cluster >= n)
      throw InputError(fmt::format("{}: line {}: column {}: expected a cluster index from 0 to {} (--clusters gives {}), "
                                   "got {}", options.schedule, row.line, options.cluster_column, n - 1, n, *row.cluster));
    const auto it = index.find(row.id);
    if (it == index.end()) {
      note("jobs-conserved", row.start, -1, unknown_row(row));
      continue;
    }
    cluster_of[it->second] = *row.cluster;
    part_rows[*row.cluster].push_back(row);
    part_rows[*row.cluster].back().cluster.reset();  // a schedule of one cluster from here on
  }
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {  // in submit order, as each part's jobs must be
    const auto& job = w.jobs[j];
    const std::uint32_t c = cluster_of[j];
    if (c == kNoCluster) {
      note("jobs-conserved", job.submit, job.id, missing_job(job));
    } else if (job.procs > options.clusters[c].processors) {  // reported here, left out of its cluster's audit
      note("capacity", job.submit, job.id,
           fmt::format("job {} asks {} processors and runs on cluster {} of {}", job.id, job.procs, c,
                       options.clusters[c].processors));
      cluster_of[j] = kNoCluster;
    } else {
      parts[c].jobs.push_back(job);
    }
  }
  for (auto& part : part_rows)
    std::erase_if(part, [&](const jobs_csv::ScheduleRow& row) { return cluster_of[index.at(row.id)] == kNoCluster; });
  AuditResult result;
  result.jobs = w.jobs.size();
  result.rows = rows.size();
  result.counts = std::move(direct.counts);
  result.violations = std::move(direct.violations);
  for (std::size_t c = 0; c < n; ++c) {
    parts[c].name = fmt::format("{} cluster {}", w.name, c);
    parts[c].processors = options.clusters[c].processors;
    AuditOptions one = options;
    one.clusters.clear();
    one.policy = options.clusters[c].policy;
    one.model = options.clusters[c].model;
    AuditResult part = audit_schedule(parts[c], part_rows[c], one);
    result.overran += part.overran;
    for (const auto& [name, count] : part.counts) result.counts[name] += count;
    for (const auto& [name, count] : part.difference_counts) result.difference_counts[name] += count;
    for (auto* list : {&part.violations, &part.differences})
      for (auto& v : *list) {
        v.detail = fmt::format("cluster {}: {}", c, v.detail);
        (list == &part.violations ? result.violations : result.differences).push_back(std::move(v));
      }
    for (auto& why : part.unchecked)
      if (std::find(result.unchecked.begin(), result.unchecked.end(), why) == result.unchecked.end())
        result.unchecked.push_back(std::move(why));
  }
  for (auto* list : {&result.violations, &result.differences})
    std::stable_sort(list->begin(), list->end(), [](const auto& x, const auto& y) { return x.time < y.time; });
  return result;
}

}  // namespace

std::vector<const Violation*> shown(const std::vector<Violation>& found, std::size_t show) {
  std::vector<const Violation*> out;
  std::set<std::string> named;
  for (std::size_t k = 0; k < found.size() && k < show; ++k) {
    out.push_back(&found[k]);
    named.insert(found[k].invariant);
  }
  for (std::size_t k = show; k < found.size(); ++k)
    if (named.insert(found[k].invariant).second) out.push_back(&found[k]);
  return out;
}

nlohmann::json to_json(const AuditResult& r, std::size_t show) {
  nlohmann::json out;
  out["jobs"] = r.jobs;
  out["rows"] = r.rows;
  out["overran_estimate"] = r.overran;
  out["violations_total"] = r.total();
  out["violations_by_invariant"] = r.counts;
  out["differences_total"] = r.total_differences();
  out["differences_by_invariant"] = r.difference_counts;
  out["no_certain_check"] = r.unchecked;
  auto list = [&](const std::vector<Violation>& from) {
    nlohmann::json items = nlohmann::json::array();
    for (const Violation* v : shown(from, show))
      items.push_back({{"invariant", v->invariant}, {"time", v->time}, {"job", v->job}, {"detail", v->detail}});
    return items;
  };
  out["violations"] = list(r.violations);
  out["differences"] = list(r.differences);
  return out;
}

}  // namespace schedcheck::runcheck
