// Run summaries and per-job rows (see summary.hpp). Our own.
#include "simulation/summary.hpp"

#include <algorithm>

namespace schedcheck::sim {

RunSummary summarise(const workload::Workload& workload, const RunResult& result, int processors,
                     const MetricsWindow& window) {
  RunSummary s;
  s.records = workload.records;
  s.skipped = workload.skipped;
  s.simulated = workload.jobs.size();
  s.events = result.events;
  s.messages = result.messages;
  s.wall_seconds = result.wall_seconds;
  s.stopped = result.stopped && !result.interrupted;
  s.interrupted = result.interrupted;
  for (const auto& c : result.clusters) {
    s.passes += c.passes;
    s.starts += c.starts;
    s.backfilled += c.backfilled;
    s.max_queue = std::max(s.max_queue, c.max_queue);
  }
  if (workload.jobs.empty()) return s;
  const double first_submit = workload.jobs.front().submit;
  s.window_from = first_submit + window.warmup;
  s.window_to = window.stop_at_last_arrival ? workload.jobs.back().submit : result.end_time;
  double last_end = first_submit, busy = 0;
  std::vector<double> waits, responses, slowdowns;
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const auto& job = workload.jobs[j];
    const auto& r = result.records[j];
    if (r.state == JobState::kRunning) ++s.running;
    if (r.state == JobState::kRejected) ++s.rejected;
    if (r.state == JobState::kWaiting || r.state == JobState::kInTransit || r.state == JobState::kPending) ++s.waiting;
    if (r.state == JobState::kRunning || r.state == JobState::kFinished) {
      const double end = r.state == JobState::kFinished ? r.end : result.end_time;
      busy += job.procs * std::max(0.0, std::min(end, s.window_to) - std::max(r.start, s.window_from));
    }
    if (r.state != JobState::kFinished) continue;
    ++s.finished;
    s.killed += job.killed();
    last_end = std::max(last_end, r.end);
    if (job.submit < s.window_from || job.submit > s.window_to) continue;
    const double wait = r.start - job.submit, run = r.end - r.start;
    waits.push_back(wait);
    responses.push_back(wait + run);
    slowdowns.push_back(bounded_slowdown(wait, run));
  }
  s.makespan = last_end - first_submit;
  if (!window.stop_at_last_arrival) s.window_to = std::max(s.window_to, last_end);
  s.measured = waits.size();
  const double span = s.window_to - s.window_from;
  s.utilisation = span > 0 ? busy / (static_cast<double>(processors) * span) : 0;
  s.wait = statistics(std::move(waits));
  s.response = statistics(std::move(responses));
  s.slowdown = statistics(std::move(slowdowns));
  return s;
}

nlohmann::json to_json(const RunSummary& s) {
  auto stats = [](const Stats& st) {
    return nlohmann::json{{"count", st.count}, {"mean", st.mean}, {"median", st.median}, {"p95", st.p95}, {"max", st.max}};
  };
  nlohmann::json skipped = nlohmann::json::object();
  for (std::size_t k = 0; k < s.skipped.size(); ++k) skipped[workload::to_string(static_cast<workload::Skip>(k))] = s.skipped[k];
  nlohmann::json out = {{"records", s.records},
          {"simulated", s.simulated},
          {"skipped", skipped},
          {"finished", s.finished},
          {"waiting_at_end", s.waiting},
          {"running_at_end", s.running},
          {"killed_at_estimate", s.killed},
          {"measured", s.measured},
          {"window", {{"from", s.window_from}, {"to", s.window_to}}},
          {"makespan", s.makespan},
          {"utilisation", s.utilisation},
          {"wait", stats(s.wait)},
          {"response", stats(s.response)},
          {"bounded_slowdown", stats(s.slowdown)},
          {"events", s.events},
          {"passes", s.passes},
          {"starts", s.starts},
          {"backfilled", s.backfilled},
          {"max_queue", s.max_queue},
          {"messages", s.messages},
          {"stopped_at_last_arrival", s.stopped},
          {"interrupted", s.interrupted},
          {"wall_seconds", s.wall_seconds},
          {"jobs_per_second", s.wall_seconds > 0 ? static_cast<double>(s.simulated) / s.wall_seconds : 0.0}};
  if (s.rejected) out["rejected"] = s.rejected;  // only a policy outside the catalogue rejects jobs
  return out;
}

jobs_csv::Row job_row(const workload::Job& job, const JobRecord& record, const std::string& workload_name) {
  jobs_csv::Row row;
  row.job_id = std::to_string(job.id);
  row.workload_name = workload_name;
  row.submission_time = job.submit;
  row.requested_number_of_resources = job.procs;
  row.requested_time = job.estimate;
  row.success = !job.killed();
  row.starting_time = record.start;
  row.finish_time = record.end;
  row.execution_time = record.end - record.start;
  row.allocated_resources = record.allocated;
  row.bounded_slowdown = bounded_slowdown(record.start - job.submit, record.end - record.start);
  return row;
}

}  // namespace schedcheck::sim
