// The conformance suite's cases and verdicts (see conformance.hpp). Our own; the rules are docs/simulation.md's, the
// hand-computed starts are each case's arithmetic (the same traces as tests/test_simulation.cpp's where they exist).
#include "properties/conformance.hpp"

#include "model/input.hpp"
#include "model/profile.hpp"
#include "model/swf.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/simulation.hpp"
#include "simulation/summary.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <unordered_map>

namespace schedcheck::conformance {

namespace {

struct Hand {  // one job of a hand-made trace
  std::int64_t id;
  double submit, run, estimate;
  int procs;
};

std::string trace_text(const std::string& name, int processors, const std::vector<Hand>& jobs) {
  workload::Workload w;
  w.processors = processors;
  for (const Hand& j : jobs) {
    workload::Job job;
    job.id = j.id;
    job.submit = j.submit;
    job.run = j.run;
    job.estimate = j.estimate;
    job.procs = j.procs;
    w.jobs.push_back(job);
  }
  return workload::write_swf(w, {"schedcheck conformance case " + name + " (hand-made; its README gives the arithmetic)"});
}

Case hand(std::string name, std::string policy, std::size_t pivots, std::string options, std::string reading,
          std::string rule, std::string why, int processors, const std::vector<Hand>& jobs,
          std::map<std::int64_t, double> starts) {
  Case c;
  c.name = std::move(name);
  c.policy = std::move(policy);
  c.pivots = pivots;
  c.options = std::move(options);
  c.reading = std::move(reading);
  c.rule = std::move(rule);
  c.why = std::move(why);
  c.source = "hand-computed";
  c.swf = trace_text(c.name, processors, jobs);
  c.starts = std::move(starts);
  return c;
}

struct Window {
  const char* name;
  const char* trace;
  int first, records;
  const char* swf;
};
constexpr Window kWindows[] = {
#include "properties/conformance_windows.inc"
};

std::vector<Case> make_cases() {
  std::vector<Case> all;
  // The readings of the simulators docs/simulation.md names, word for word as its table gives them (GridSim's in the
  // count model).
  const std::string pyss = "--round floor --min-time 1 --estimate-at-least-run --estimates field9 --processor-field "
                           "requested --invalid-records unit-job --passes event";
  const std::string gridsim = "--processor-field requested --run-is-estimate --run-offset 1 --estimate-offset 1 "
                              "--min-time 2 --invalid-records one-processor";
  const std::string batsim = "--round floor --run-offset 1 --estimate-offset 5 --processor-field allocated-only";
  // P = 4. A (2, 10 s) runs [0,10); B (4, 5 s) at 1 waits for 10; C (1, 5 s) at 2 and E (1, 20 s) at 3.
  const std::vector<Hand> pivot_trace = {{1, 0, 10, 10, 2}, {2, 1, 5, 5, 4}, {3, 2, 5, 5, 1}, {5, 3, 20, 20, 1}};
  all.push_back(hand(
      "fcfs-head-blocks", "fcfs", 1, "", "default", "FCFS starts no job while one submitted before it waits",
      "P = 4. Job 1 (2 processors, 10 s) runs [0,10). Job 2 (4 processors) at 1 cannot start before 10. Jobs 3 and 5 "
      "(1 processor each) would fit at once but queue behind job 2: job 2 starts at 10, jobs 3 and 5 at 15. A FCFS that "
      "fills the holes is EASY under another name.",
      4, pivot_trace, {{1, 0}, {2, 10}, {3, 15}, {5, 15}}));
  all.push_back(hand(
      "easy-backfill-before-the-pivot", "easy", 1, "", "default",
      "EASY backfills a job that ends, by its estimate, before the first waiting job's reservation, and no job that "
      "would delay it",
      "P = 4, the trace of fcfs-head-blocks. Job 2 (4 processors) is the pivot, reserved [10,15). Job 3 (1 processor, "
      "5 s) at 2 ends at 7 <= 10: backfilled at 2. Job 5 (1 processor, 20 s) at 3 would run [3,23), across the "
      "reservation that needs all 4 processors: it waits and starts at 15. Starts 0, 10, 2, 15.",
      4, pivot_trace, {{1, 0}, {2, 10}, {3, 2}, {5, 15}}));
  all.push_back(hand(
      "easy-extra-processors", "easy", 1, "", "default",
      "EASY backfills a job that runs past the shadow time on the processors the pivot leaves spare then, and only "
      "on those",
      "P = 4. Job 1 (2 processors, 10 s) runs [0,10). Job 2 (3 processors) at 1 is the pivot: shadow time 10, 4 free "
      "then, 1 spare. Job 3 (1 processor, 20 s) at 2 ends at 22, past the shadow time, but takes only the spare "
      "processor: backfilled at 2. Job 4 (1 processor, 20 s) at 3: 1 processor free now, none spare at 10 any more: "
      "it waits; job 2 starts at 10 and job 4 at 15, when job 2 ends. A backfill that ignores the spare processors "
      "starts job 3 at 15; one that counts them twice starts job 4 at 3 and delays job 2.",
      4, {{1, 0, 10, 10, 2}, {2, 1, 5, 5, 3}, {3, 2, 20, 20, 1}, {4, 3, 20, 20, 1}}, {{1, 0}, {2, 10}, {3, 2}, {4, 15}}));
  all.push_back(hand(
      "easy-early-end-moves-the-pivot", "easy", 1, "", "default",
      "a job that ends before its estimate frees its processors then: the pivot's reservation moves earlier",
      "P = 4. Job 1 (2 processors, estimate 10, runs 3). Job 2 (4 processors, 5 s) at 1 is reserved at 10, job 1's "
      "estimated end. Job 1 ends at 3: job 2 starts at 3, not at 10.",
      4, {{1, 0, 3, 10, 2}, {2, 1, 5, 5, 4}}, {{1, 0}, {2, 3}}));
  // P = 4: J1 (1, 10 s) at 0; J4 (2, estimate 19, runs 9) at 1; at 3 J2 (4, estimate 13, runs 3) and J3 (2, estimate
  // 6, runs 3).
  const std::vector<Hand> pivots_trace = {{1, 0, 10, 10, 1}, {4, 1, 9, 19, 2}, {2, 3, 3, 13, 4}, {3, 3, 3, 6, 2}};
  all.push_back(hand(
      "easy-one-pivot", "easy", 1, "", "default", "EASY(1) reserves the first waiting job only",
      "P = 4. Jobs 1 (1 processor, 10 s) and 4 (2 processors, estimate 19, runs 9) run from 0 and 1. At 3 job 2 (4 "
      "processors) is reserved at 20 (job 4's estimated end) and job 3 (2 processors) waits: 1 processor free. At 10 "
      "jobs 1 and 4 end: job 2 starts at 10; job 3 starts when job 2 ends, at 13.",
      4, pivots_trace, {{1, 0}, {4, 1}, {2, 10}, {3, 13}}));
  all.push_back(hand(
      "easy-two-pivots", "easy", 2, "", "default", "EASY(2) holds a reservation for each of the first two waiting jobs",
      "The trace of easy-one-pivot, 2 pivots. Job 3 is a pivot too, reserved [10,16) (2 processors free over "
      "[10,20)). At 10, job 2 cannot start (job 3's reservation holds 2 processors until 16) and job 3's reservation "
      "is due: job 3 starts at 10. It ends at 13 (early): job 2 starts at 13. No certain check exists for 2 pivots or "
      "more (which job a reservation went to is the scheduler's choice): a schedule other than this one differs.",
      4, pivots_trace, {{1, 0}, {4, 1}, {2, 13}, {3, 10}}));
  all.push_back(hand(
      "easy-ties-at-one-instant", "easy", 1, "", "default",
      "jobs submitted at one instant queue in trace order; a completion and an arrival at one instant are both seen "
      "before the pass of that instant",
      "P = 2. At 0, jobs 1 (2 processors), 2 (1), 3 (2) and 4 (1), 5 s each, in that order: job 1 starts. At 5 job 1 "
      "ends: job 2 starts; job 3 (2 processors) is the pivot, reserved at 10; job 4 ends at 10 <= 10: backfilled at "
      "5. At 10 jobs 2 and 4 end and job 5 (2 processors) arrives: job 3 starts at 10 (it was first), job 5 at 15.",
      2, {{1, 0, 5, 5, 2}, {2, 0, 5, 5, 1}, {3, 0, 5, 5, 2}, {4, 0, 5, 5, 1}, {5, 10, 5, 5, 2}},
      {{1, 0}, {2, 5}, {3, 10}, {4, 5}, {5, 15}}));
  all.push_back(hand(
      "fcfs-completion-before-arrival", "fcfs", 1, "", "default",
      "processors freed at an instant are free for a job submitted at that instant",
      "P = 4. Job 1 (4 processors, 10 s) at 0; job 2 (4 processors) submitted at 10, when job 1 ends: it starts at "
      "10.",
      4, {{1, 0, 10, 10, 4}, {2, 10, 5, 5, 4}}, {{1, 0}, {2, 10}}));
  all.push_back(hand(
      "easy-zero-length-job", "easy", 1, "", "default",
      "a job that ends as it starts gives its processors back at that instant",
      "P = 2. Job 1 (1 processor, estimate 10, runs 0) and job 2 (2 processors, 5 s) at 0. Job 1 starts and ends at "
      "0; job 2 starts at 0 as well, not at 10 (job 1's estimated end).",
      2, {{1, 0, 0, 10, 1}, {2, 0, 5, 5, 2}}, {{1, 0}, {2, 0}}));
  all.push_back(hand(
      "easy-job-wider-than-the-machine", "easy", 1, "", "default",
      "a record asking more processors than the machine has is left out (schedcheck's reading: wider-than-machine) and "
      "blocks nobody",
      "P = 4. Job 1 (2 processors, 10 s) at 0; job 2 asks 8 processors at 1: no schedule can run it; job 3 (2 "
      "processors, 5 s) at 2 starts at once. A scheduler that keeps job 2 at the head of its queue never starts job "
      "3; one that cuts it to the machine (pyss) runs it, a row the audit cannot judge (differs).",
      4, {{1, 0, 10, 10, 2}, {2, 1, 5, 5, 8}, {3, 2, 5, 5, 2}}, {{1, 0}, {3, 2}}));
  all.push_back(hand(
      "easy-killed-at-estimate", "easy", 1, "--kill-at-request", "killed at the requested time",
      "a job that runs past its requested time is killed there (Slurm's, Batsim's and Alea's rule; --kill-at-request)",
      "P = 2. Job 1 (2 processors, requests 10 s, would run 20) is killed at 10; job 2 (2 processors, 5 s) at 1 starts "
      "at 10.",
      2, {{1, 0, 20, 10, 2}, {2, 1, 5, 5, 2}}, {{1, 0}, {2, 10}}));
  const std::vector<Hand> compression_trace = {{1, 0, 1, 10, 1}, {2, 0, 5, 5, 1}, {3, 0, 10, 10, 2}, {4, 0, 5, 5, 1}};
  all.push_back(hand(
      "conservative-compression-keeps-guarantees", "conservative", 1, "", "default",
      "after an early end, conservative backfilling moves reservations earlier in queue order and never later than "
      "the reservation a job got at its arrival",
      "P = 2. Jobs 1 (1 processor, estimate 10, runs 1) and 2 (1 processor, 5 s) start at 0. Job 3 (2 processors, 10 "
      "s) is reserved [10,20); job 4 (1 processor, 5 s) [5,10). Job 1 ends at 1: compression in queue order: job 3 "
      "still needs both processors for 10 s and [5,10) holds job 4: it stays at 10. Job 4, its own hold free, fits "
      "[1,6): it starts at 1. A schedule recomputed from scratch puts job 3 at 5 and job 4 at 15, past its reservation "
      "5.",
      2, compression_trace, {{1, 0}, {2, 0}, {3, 10}, {4, 1}}));
  all.push_back(hand(
      "conservative-reserves-at-arrival", "conservative", 1, "", "default",
      "conservative backfilling gives every job a reservation at its arrival and starts a later job only where it "
      "delays none",
      "P = 4, the trace of fcfs-head-blocks. Job 2 reserved [10,15); job 3 (1 processor, 5 s) reserved at its arrival "
      "at 2, where it fits at once; job 5 (1 processor, 20 s) has no 20 s window before job 2's reservation: "
      "reserved at 15.",
      4, pivot_trace, {{1, 0}, {2, 10}, {3, 2}, {5, 15}}));
  // tests/data/per-event-ties.swf: two jobs end early at one instant.
  const std::vector<Hand> ties_trace = {{1, 0, 10, 100, 2}, {2, 0, 10, 100, 2}, {3, 1, 50, 50, 3}, {4, 2, 50, 50, 2},
                                        {5, 200, 20, 100, 4}, {6, 201, 30, 30, 2}, {7, 220, 30, 30, 3}};
  all.push_back(hand(
      "conservative-two-ends-one-pass", "conservative", 1, "", "default",
      "one pass after all the events of an instant: compression sees both early ends at once",
      "P = 4. Jobs 1 and 2 (2 processors, estimate 100, run 10) start at 0. Job 3 (3 processors, 50 s) at 1 is "
      "reserved [100,150); job 4 (2 processors, 50 s) at 2 [150,200). At 10 both end; one pass: job 3, first in the "
      "queue, starts at 10 and job 4 at 60. Then t=200 job 5 (4, estimate 100, run 20) starts; job 6 (2, 30 s) at 201 "
      "is reserved at 300; at 220 job 5 ends and job 7 (3, 30 s) arrives: job 6 starts at 220, job 7 at 250.",
      4, ties_trace, {{1, 0}, {2, 0}, {3, 10}, {4, 60}, {5, 200}, {6, 220}, {7, 250}}));
  all.push_back(hand(
      "conservative-two-ends-pass-per-event", "conservative", 1, "--passes event", "one pass per event (pyss, Alea)",
      "a pass after every event: the first early end is compressed before the second is seen",
      "The trace of conservative-two-ends-one-pass, one pass after each event in trace order. At 10 job 1 ends first: "
      "job 3 still cannot start before 100 (job 2 holds 2 processors until then); job 4 fits [10,60): it starts. Job 2 "
      "ends: job 3 moves to 60, when job 4 ends. Jobs 3 and 4 swap: 60 and 10. Both schedules are legal: a scheduler "
      "of either kind differs on the other's case, and fails neither.",
      4, ties_trace, {{1, 0}, {2, 0}, {3, 60}, {4, 10}, {5, 200}, {6, 220}, {7, 250}}));
  // Another simulator's reading of the same records: pyss's (predictsim) integer times, at least 1 s, estimates raised
  // to the run time.
  all.push_back(hand(
      "easy-pyss-reading", "easy", 1, pyss,
      "pyss (predictsim)",
      "times read as pyss reads them: run and estimate rounded down, at least 1 s, the estimate raised to the run "
      "time; one pass per event",
      "P = 2. Job 1 (2 processors, runs 4.7 s, requests 3.2) reads as run 4, estimate 3: the scheduler believes 4 "
      "(the estimate raised to the run time) and the job is killed at 3. Job 2 (1 processor, runs 0.4 s, requests "
      "0.9) reads as 1 s and 1 s, job 3 (2 processors, 2.5 s) as 2 s, both at 1, job 2 first: it is the pivot, "
      "reserved at 4, and job 3 queues behind it. Job 1 ends at 3 and job 2 starts then; job 3 needs both processors "
      "and starts at 4, when job 2 ends. Read with fractional times, job 2 starts at 3.2 and job 3 at 3.6.",
      2, {{1, 0, 4.7, 3.2, 2}, {2, 1, 0.4, 0.9, 1}, {3, 1, 2.5, 2.5, 2}}, {{1, 0}, {2, 3}, {3, 4}}));
  for (const Window& w : kWindows) {
    auto window = [&](const std::string& policy, const std::string& suffix, const std::string& options,
                      const std::string& reading) {
      Case c;
      c.name = fmt::format("{}-{}-{}", w.name, policy, suffix);
      c.policy = policy;
      c.options = options;
      c.reading = reading;
      c.rule = fmt::format("{} on a real trace, {}", policy, reading);
      c.why = fmt::format("{} consecutive records of {} replayed from an empty machine: many jobs wait and are "
                          "backfilled, so that the rules of the hand-made cases meet each other. The certified "
                          "schedule is schedcheck's own run, which its audit finds clean.",
                          w.records, w.trace);
      c.source = fmt::format("{}, records {} to {} in file order (scripts/conformance-windows)", w.trace, w.first,
                             w.first + w.records - 1);
      c.swf = w.swf;
      all.push_back(std::move(c));
    };
    const std::string first(kWindows[0].name);
    window("fcfs", "killed", "--kill-at-request", "killed at the requested time");
    window("easy", "killed", "--kill-at-request", "killed at the requested time");
    window("easy", "exact", "--estimates runtime", "exact estimates (the run time)");
    window("conservative", "killed", "--kill-at-request", "killed at the requested time");
    if (w.name != first) continue;
    window("easy", "killed-pass-per-event", "--kill-at-request --passes event",
           "killed at the requested time, one pass per event");
    window("conservative", "killed-pass-per-event", "--kill-at-request --passes event",
           "killed at the requested time, one pass per event");
    window("easy", "pyss", pyss, "pyss (predictsim)");
    window("easy", "gridsim", gridsim, "GridSim 5's WorkloadFileReader");
    window("easy", "batsim", batsim, "Batsim's SWF converter and batsched");
  }
  return all;
}

bool same_time(double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b)); }

std::string time_text(double t) { return fmt::format("{}", t); }

}  // namespace

const std::vector<Case>& cases() {
  static const std::vector<Case> all = make_cases();
  return all;
}

const Case& find(const std::string& name) {
  for (const Case& c : cases())
    if (c.name == name) return c;
  throw InputError(fmt::format("conformance: no case named {} (`schedcheck conformance list` names them)",
                               quoted_text(name, 80)));
}

std::vector<jobs_csv::Row> certified(const Case& c, const workload::Workload& workload, bool pass_per_event) {
  sim::RunOptions options = sim::single_cluster(workload, cluster::cluster_policy(c.policy, c.pivots));
  options.clusters.front().pass_per_event = pass_per_event;
  options.stops_on_request = false;
  sim::Simulation simulation(workload.jobs, std::move(options));
  const sim::RunResult result = simulation.run();
  const std::string name = std::filesystem::path(workload.name).filename().string();
  std::vector<jobs_csv::Row> rows;
  for (std::size_t j = 0; j < workload.jobs.size(); ++j)
    if (result.records[j].state == sim::JobState::kFinished)
      rows.push_back(sim::job_row(workload.jobs[j], result.records[j], name));
  // A hand-made case's starts are its arithmetic: the run that certifies it must give them.
  if (!c.starts.empty()) {
    std::map<std::int64_t, double> starts;
    for (const auto& row : rows) starts[std::stoll(row.job_id)] = row.starting_time;
    if (starts != c.starts) {
      const auto text = [](const std::map<std::int64_t, double>& m) {
        std::string out;
        for (const auto& [id, t] : m) out += fmt::format("{}{}:{}", out.empty() ? "" : " ", id, t);
        return out;
      };
      throw std::logic_error(fmt::format("conformance case {}: schedcheck's run starts jobs at {}, the case's "
                                         "hand-computed starts are {}", c.name, text(starts), text(c.starts)));
    }
  }
  return rows;
}

std::string csv_text(const std::vector<jobs_csv::Row>& rows) {
  std::string out = jobs_csv::header();
  for (const auto& row : rows) out += jobs_csv::format(row);
  return out;
}

const char* to_string(Status status) {
  switch (status) {
    case Status::kPassed: return "passed";
    case Status::kDiffers: return "differs";
    case Status::kFailed: return "FAILED";
  }
  return "?";
}

Verdict judge(const Case& c, const workload::Workload& workload, bool pass_per_event,
              const std::vector<jobs_csv::ScheduleRow>& rows, const std::vector<jobs_csv::ScheduleRow>& expected) {
  Verdict v;
  runcheck::AuditOptions options;
  options.policy = cluster::cluster_policy(c.policy, c.pivots);
  options.pass_per_event = pass_per_event;
  options.keep = 3;
  v.audit = runcheck::audit_schedule(workload, rows, options);
  std::unordered_map<std::string, const jobs_csv::ScheduleRow*> want;
  for (const auto& row : expected) want.emplace(row.id, &row);
  std::string first_moved;
  std::size_t matched = 0;
  for (const auto& row : rows) {
    const auto it = want.find(row.id);
    const bool same = it != want.end() && same_time(row.start, it->second->start) &&
                      same_time(row.finish, it->second->finish);
    matched += it != want.end();
    if (same) continue;
    ++v.moved;
    if (first_moved.empty())
      first_moved = it == want.end()
                        ? fmt::format("job {} has a row (line {}) but no run in the certified schedule", row.id, row.line)
                        : fmt::format("job {} runs [{}, {}) (line {}), certified [{}, {})", row.id, time_text(row.start),
                                      time_text(row.finish), row.line, time_text(it->second->start),
                                      time_text(it->second->finish));
  }
  if (matched < expected.size()) {
    v.moved += expected.size() - matched;
    if (first_moved.empty()) first_moved = fmt::format("{} jobs of the certified schedule have no row", expected.size() - matched);
  }
  if (v.audit.total() > 0) {
    v.status = Status::kFailed;
    const runcheck::Violation& first = v.audit.violations.front();
    v.detail = fmt::format("{} at t={}{}: {}", first.invariant, time_text(first.time),
                           first.job >= 0 ? fmt::format(" (job {})", first.job) : "", first.detail);
    if (v.audit.total() > 1) v.detail += fmt::format(" (and {} more certain violations)", v.audit.total() - 1);
  } else if (v.moved > 0) {
    v.status = Status::kDiffers;
    v.detail = fmt::format("{} jobs run elsewhere than in the certified schedule, first {}; no certain violation",
                           v.moved, first_moved);
    if (const std::size_t d = v.audit.total_differences(); d > 0) {
      const runcheck::Violation& first = v.audit.differences.front();
      v.detail += fmt::format("; {} differences from schedcheck's replay, first {} at t={}{}: {}", d, first.invariant,
                              time_text(first.time), first.job >= 0 ? fmt::format(" (job {})", first.job) : "",
                              first.detail);
    }
    if (const std::size_t u = v.audit.total_uncertain(); u > 0)
      v.detail += fmt::format("; {} findings not certain, first: {}", u, v.audit.uncertain.front().detail);
    if (!v.audit.unchecked.empty()) v.detail += "; no certain check: " + v.audit.unchecked.front();
  }
  return v;
}

}  // namespace schedcheck::conformance
