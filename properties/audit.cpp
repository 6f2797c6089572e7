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
std::size_t AuditResult::total_uncertain() const { return sum(uncertain_counts); }

namespace {

constexpr std::uint32_t kNoCluster = 0xffffffffu;

AuditResult audit_clusters(const workload::Workload& w, const std::vector<jobs_csv::ScheduleRow>& rows,
                           const AuditOptions& options);

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

// What the rows say of jobs the audit cannot see, once each: a certain jobs-conserved violation for a job no row
// names and for a row of no job, a not-certain one for a row of a record the reading rules skip; and the span in which
// each may have waited or held processors (Unseen), on which no verdict is certain.
class Unseeing {
public:
  explicit Unseeing(const workload::Workload& trace) {
    for (const auto& r : trace.skipped_records) skipped_.emplace(std::to_string(r.id), &r);
  }
  // A job of the trace that no row names: it may have run anywhere from its submission on.
  void missing(const workload::Job& job, RowChecks& direct) {
    direct.note("jobs-conserved", job.submit, job.id,
                fmt::format("job {} (submitted at {}, {} processors) is not in the schedule: no row names it, so no "
                            "verdict from {} on is certain (it may have waited or run then)", job.id, job.submit,
                            job.procs, job.submit));
    unseen.push_back(Unseen{job.submit, kForever, std::to_string(job.id), "has no row"});
  }
  // A row whose id is no job of the workload read.
  void unknown(const jobs_csv::ScheduleRow& row, RowChecks& direct) {
    const auto it = skipped_.find(row.id);
    if (it == skipped_.end()) {
      direct.note("jobs-conserved", row.start, -1,
                  fmt::format("line {}: job {} is not a job of the trace (no record of the trace has its id)", row.line,
                              row.id));
      unseen.push_back(Unseen{row.start, row.finish, row.id, "is a row of no job of the trace"});
      return;
    }
    const workload::SkippedRecord& r = *it->second;
    const std::string why = fmt::format("is a record the reading rules skip ({})", workload::explain(r.why));
    if (++uncertain.counts["jobs-conserved"] == 1 || uncertain.violations.size() < 1000)
      uncertain.violations.push_back(Violation{
          "jobs-conserved", row.start, "schedule row", r.id,
          fmt::format("line {}: job {} {}: the audit leaves it out, and no verdict from its submission ({}) to its end "
                      "({}) is certain; read such records as the audited simulator does (--invalid-records)",
                      row.line, row.id, why, r.submit, row.finish)});
    unseen.push_back(Unseen{r.submit, row.finish, row.id, why});
  }
  std::vector<Unseen> unseen;
  RowChecks uncertain{{}, {}};

private:
  std::unordered_map<std::string, const workload::SkippedRecord*> skipped_;
};

// Each job's processors when the schedule names none: at each start, in time order (ends first, then starts in queue
// order), the lowest-numbered processors no running job holds, as GridSim's PERangeList::selectPEs and Alea's
// AdvancedSpaceShared::allocatePEtoGridlet choose among the free ones. A job of length 0 holds what it gets for no
// time. On an overfull machine (a capacity violation, reported) a job gets the free ones and then the lowest held.
std::vector<ProcessorSet> lowest_free(const workload::Workload& w, const RunSchedule& s) {
  std::vector<ProcessorSet> on(w.jobs.size());
  std::vector<std::pair<double, std::size_t>> starts;
  for (std::size_t j = 0; j < w.jobs.size(); ++j)
    if (s.start[j] >= 0) starts.emplace_back(s.start[j], j);
  std::stable_sort(starts.begin(), starts.end());
  std::set<std::pair<double, std::size_t>> running;  // (end, job)
  ProcessorSet free = ProcessorSet::all(w.processors);
  for (const auto& [start, j] : starts) {
    while (!running.empty() && running.begin()->first <= start + kTimeTolerance) {
      free |= on[running.begin()->second];
      running.erase(running.begin());
    }
    const int procs = w.jobs[j].procs;
    on[j] = free.lowest(procs);
    if (on[j].count() < procs) {
      ProcessorSet held = ProcessorSet::all(w.processors);
      on[j] |= held.subtract(free).lowest(procs - on[j].count());
    }
    if (s.end[j] > start + kTimeTolerance) {
      free.subtract(on[j]);
      running.emplace(s.end[j], j);
    }
  }
  return on;
}

// A trace's jobs by id as the schedule's rows name them.
std::unordered_map<std::string, std::size_t> job_index(const workload::Workload& w) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) index.emplace(std::to_string(w.jobs[j].id), j);
  return index;
}

// The workload as the cluster's queue saw it: a job whose row gives its arrival (a broker's latency after its
// submission), or whose row gives none when the audit is told the latency, entered the queue then, and the queue is in
// arrival order (trace order among equal times, as the broker sent them). An arrival before the submission is
// no-start-before-submit, and the job is read as submitted.
struct Arrived {
  workload::Workload workload;
  std::vector<bool> late;  // per job of `workload`: it reached the queue after its submission
};
std::optional<Arrived> arrived(const workload::Workload& w, const std::vector<jobs_csv::ScheduleRow>& rows,
                               double latency, RowChecks& direct) {
  std::unordered_map<std::string, std::optional<double>> at;  // per row: its arrival, if it gives one
  for (const auto& row : rows) at.emplace(row.id, row.arrival);
  if (latency <= 0 && std::none_of(rows.begin(), rows.end(), [](const auto& row) { return row.arrival.has_value(); }))
    return std::nullopt;
  Arrived out{w, {}};
  std::vector<std::pair<workload::Job, bool>> jobs;
  for (const auto& job : w.jobs) {
    const auto it = at.find(std::to_string(job.id));
    // A row without an arrival: the job reached its cluster the latency after its submission.
    const double arrival = it == at.end() ? job.submit : it->second.value_or(job.submit + latency);
    if (std::abs(arrival - job.submit) <= kTimeTolerance) {
      jobs.emplace_back(job, false);
    } else if (arrival < job.submit) {
      direct.note("no-start-before-submit", arrival, job.id,
                  fmt::format("job {} reached its cluster at {}, before its submit time {}", job.id, arrival, job.submit));
      jobs.emplace_back(job, false);
    } else {
      jobs.emplace_back(job, true);
      jobs.back().first.submit = arrival;
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
  const std::optional<Arrived> queue = arrived(trace, rows, options.latency, direct);
  const workload::Workload& w = queue ? queue->workload : trace;

  std::vector<ProcessorSet> on(w.jobs.size());  // --model processors: each job's processors, checked
  const auto index = job_index(w);
  RunSchedule s;
  s.start.assign(w.jobs.size(), -1);
  s.end.assign(w.jobs.size(), -1);
  s.allocated.assign(w.jobs.size(), std::nullopt);
  bool any_allocation = false;
  Unseeing unseeing(trace);
  // --model processors on a schedule that names no processor anywhere (pyss's, Alea's, GridSim's files): the sets are
  // reconstructed below by the lowest-free rule instead of read.
  const bool reconstruct = model == cluster::ResourceModel::kProcessors &&
                           std::none_of(rows.begin(), rows.end(), [](const jobs_csv::ScheduleRow& row) {
                             return row.allocated && !row.allocated->empty();
                           });
  for (const auto& row : rows) {
    const auto it = index.find(row.id);
    if (it == index.end()) {
      unseeing.unknown(row, direct);
      continue;
    }
    const std::size_t j = it->second;
    s.start[j] = row.start;
    s.end[j] = row.finish;
    if (row.allocated && !row.allocated->empty()) {
      s.allocated[j] = row.allocated;
      any_allocation = true;
    }
    if (model == cluster::ResourceModel::kProcessors && !reconstruct) {  // the replay starts each job on its processors
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
  if (reconstruct) on = lowest_free(w, s);
  std::size_t overran = 0;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    const auto& job = w.jobs[j];
    if (s.start[j] < 0) {
      unseeing.missing(job, direct);
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
    in.unseen = options.unseen;
    in.unseen.insert(in.unseen.end(), unseeing.unseen.begin(), unseeing.unseen.end());
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
  result.reconstructed = reconstruct;
  result.violations = std::move(direct.violations);
  result.violations.insert(result.violations.end(), certain.violations.begin(), certain.violations.end());
  std::stable_sort(result.violations.begin(), result.violations.end(),
                   [](const auto& x, const auto& y) { return x.time < y.time; });
  result.counts = std::move(direct.counts);
  for (const auto& [name, count] : certain.counts) result.counts[name] = count;
  result.difference_counts = checker.counts();
  result.differences = checker.violations();
  result.unchecked = std::move(certain.unchecked);
  result.uncertain_counts = std::move(unseeing.uncertain.counts);
  for (const auto& [name, count] : certain.withheld_counts) result.uncertain_counts[name] += count;
  result.uncertain = std::move(unseeing.uncertain.violations);
  result.uncertain.insert(result.uncertain.end(), certain.withheld.begin(), certain.withheld.end());
  std::stable_sort(result.uncertain.begin(), result.uncertain.end(),
                   [](const auto& x, const auto& y) { return x.time < y.time; });
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
  std::vector<std::vector<Unseen>> part_unseen(n);  // a job without a row is unseen on every cluster
  Unseeing unseeing(w);
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
      const std::size_t before = unseeing.unseen.size();
      unseeing.unknown(row, direct);
      part_unseen[*row.cluster].insert(part_unseen[*row.cluster].end(), unseeing.unseen.begin() + before,
                                       unseeing.unseen.end());
      unseeing.unseen.resize(before);
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
      unseeing.missing(job, direct);
    } else if (job.procs > options.clusters[c].processors) {  // reported here, left out of its cluster's audit
      note("capacity", job.submit, job.id,
           fmt::format("job {} asks {} processors and runs on cluster {} of {}", job.id, job.procs, c,
                       options.clusters[c].processors));
      cluster_of[j] = kNoCluster;
      double end = kForever;
      for (const auto& row : part_rows[c])
        if (row.id == std::to_string(job.id)) end = row.finish;
      part_unseen[c].push_back(Unseen{job.submit, end, std::to_string(job.id), "is wider than its cluster"});
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
  result.uncertain_counts = std::move(unseeing.uncertain.counts);
  result.uncertain = std::move(unseeing.uncertain.violations);
  for (std::size_t c = 0; c < n; ++c) {
    parts[c].name = fmt::format("{} cluster {}", w.name, c);
    parts[c].processors = options.clusters[c].processors;
    AuditOptions one = options;
    one.clusters.clear();
    one.policy = options.clusters[c].policy;
    one.model = options.clusters[c].model;
    one.unseen = unseeing.unseen;
    one.unseen.insert(one.unseen.end(), part_unseen[c].begin(), part_unseen[c].end());
    AuditResult part = audit_schedule(parts[c], part_rows[c], one);
    result.overran += part.overran;
    result.reconstructed |= part.reconstructed;
    for (const auto& [name, count] : part.counts) result.counts[name] += count;
    for (const auto& [name, count] : part.difference_counts) result.difference_counts[name] += count;
    for (const auto& [name, count] : part.uncertain_counts) result.uncertain_counts[name] += count;
    for (auto [from, to] : {std::pair{&part.violations, &result.violations}, std::pair{&part.differences, &result.differences},
                            std::pair{&part.uncertain, &result.uncertain}})
      for (auto& v : *from) {
        v.detail = fmt::format("cluster {}: {}", c, v.detail);
        to->push_back(std::move(v));
      }
    for (auto& why : part.unchecked)
      if (std::find(result.unchecked.begin(), result.unchecked.end(), why) == result.unchecked.end())
        result.unchecked.push_back(std::move(why));
  }
  for (auto* list : {&result.violations, &result.differences, &result.uncertain})
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
  out["processors_reconstructed"] = r.reconstructed;
  out["violations_total"] = r.total();
  out["violations_by_invariant"] = r.counts;
  out["differences_total"] = r.total_differences();
  out["differences_by_invariant"] = r.difference_counts;
  out["not_certain_total"] = r.total_uncertain();
  out["not_certain_by_invariant"] = r.uncertain_counts;
  out["no_certain_check"] = r.unchecked;
  auto list = [&](const std::vector<Violation>& from) {
    nlohmann::json items = nlohmann::json::array();
    for (const Violation* v : shown(from, show))
      items.push_back({{"invariant", v->invariant}, {"time", v->time}, {"job", v->job}, {"detail", v->detail}});
    return items;
  };
  out["violations"] = list(r.violations);
  out["differences"] = list(r.differences);
  out["not_certain"] = list(r.uncertain);
  return out;
}

}  // namespace schedcheck::runcheck
