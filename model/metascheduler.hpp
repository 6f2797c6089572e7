// Paper 000's evaluation model (section V-A): the two deadline schemas, the deadlines they give (T_r + T_s + k), the
// delay metrics of Figures 2-4 (jobs delayed, work delayed, Total Weighted Delay, Eq. V.1), the load adjustment, the
// system of Table II read from a scenario file, and the log of a run that the run properties read. Paper 000 sec. V-A;
// the readings are named where the text is ambiguous (docs/policies.md). Limits: value types and arithmetic only; the
// online metascheduler that produces the log is in experiments/metascheduler/.
#pragma once

#include "model/profile.hpp"  // kForever
#include "model/scenario.hpp"
#include "model/workload.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace schedcheck::metascheduler {

// A deadline schema: k takes one of three values, uniformly (sec. V-A, DEADLINES).
struct DeadlineSchema {
  std::string name;
  std::array<double, 3> k{};   // seconds
};
DeadlineSchema schema_1();     // 18 hours, 36 hours, 10 days
DeadlineSchema schema_2();     // 12 hours, 1 day, 1 week (more jobs with tighter deadlines)
// The schema's k for a uniform draw u in [0, 1): the first value for u < 1/3, the second below 2/3, else the third.
double k_of(const DeadlineSchema& schema, double u);
// The deadline T_r + T_s + k: submission time T_r, estimated run time T_s (the paper's names), k from the schema.
double deadline(double submit, double estimate, double k);

// A job as the delay metrics see it.
struct Delayed {
  double submit = 0;           // T^s of Eq. V.1 (see total_weighted_delay)
  double deadline = 0;         // D_j, the deadline the user asked for
  double new_deadline = 0;     // D^N_j, the deadline the system gave (= D_j when it was met)
  long long tasks = 1;         // R_j, the job's tasks (a BoT's tasks; a local job's processors)
  double work = 0;             // processors x required time
  bool delayed() const;        // D^N_j > D_j
};

// Jobs delayed (Fig. 2): how many have D^N_j > D_j.
std::size_t jobs_delayed(const std::vector<Delayed>& jobs);
// Work delayed (Fig. 3): the work of those jobs.
double work_delayed(const std::vector<Delayed>& jobs);
// Total Weighted Delay (Eq. V.1): the sum over delayed jobs of R_j ((D^N_j - T^s_j) / (D_j - T^s_j) - 1) x 100.
// Reading: T^s_j is the job's submission time, as the sentence after Eq. V.1 says ("T^s_j is the job submitted time");
// the deadline formula a page earlier calls the submission time T^r and the estimated run time T^s. A job whose
// D_j is not after its submission adds nothing (the ratio is undefined), and is counted by `undefined`.
double total_weighted_delay(const std::vector<Delayed>& jobs, std::size_t* undefined = nullptr);

// The load of `jobs` on `processors` over a window: the sum of processors x run time (the time a job runs in the
// simulation: its run time, cut at its estimate), over processors x window.
double load(const std::vector<workload::Job>& jobs, int processors, double window);
// Sec. V-A, LOAD: "we fixed the simulation time interval and modified the number of jobs in the traces" to reach each
// cluster's load of Table II. Our rule, seeded: take the jobs submitted in [start, start + window), shifted to start at
// 0; while the load is below `target`, append the jobs of the following windows in trace order, each shifted back by a
// whole number of windows (so they keep their time of day); while it is above, remove jobs drawn at random (seeded)
// until it is at most `target`. The result is by submit time; its load is within one job's work of the target,
// unless the trace runs out.
std::vector<workload::Job> adjust_load(const std::vector<workload::Job>& trace, double start, double window,
                                       int processors, double target, std::uint64_t seed);

// ---- the system of sec. V-A, from a scenario file (examples/scenarios/metascheduler.json) ----
// Readings of the system where paper 000 leaves room (docs/policies.md, Readings), each a key of the scenario's
// "sweep" block; the first value of each is the default.
// "dispatch": what a provider starts. Sec. III-A says only that providers schedule by EDF and keep every accepted
// deadline; when EDF re-run from scratch would break one, the provider keeps its committed plan (providers.hpp), our
// own fall-back. EDF itself never idles a processor that accepted work could use, hence the default.
enum class Dispatch {
  kWorkConserving,  // "work-conserving": the plan's starts, and waiting work that fits now without moving a
                    // committed start
  kPlannedStarts,   // "planned-starts": the plan's starts only; processors freed early stay idle until then
};
// "fts_part_deadline": the deadline a provider accepts a BoT part with under FreeTimeSlots (sec. III-B gives none;
// sec. III-A: the BoT's information the metascheduler passes on "includes ... deadline", the user's).
enum class FtsPartDeadline {
  kBotDeadline,     // "bot-deadline": the user's deadline D, or the part's completion in its slots when later (an
                    // offer part's rule)
  kSlotEnd,         // "slot-end": the part's completion in the free slots it was composed from (a slot booked as
                    // an advance reservation)
};
// "req_time_filter": what Table II's "Job Req Time" ranges (estimate_hours) bound.
enum class ReqTimeFilter {
  kRunTime,         // "run-time": the time a job runs (workload::Job::runtime(), its run time cut at its request)
  kRequested,       // "requested": its requested time (workload::Job::estimate, the trace's field 9)
};

struct Cluster {                 // a resource provider: an EDF cluster replaying a local trace
  std::string name;
  int processors = 0;
  std::size_t workload = 0;      // index into the scenario's workloads
  double start_days = 0;         // where its window starts in the trace (days from the trace's first job)
  double load = 0;               // the local load of Table II (0 to 1)
  // Table II's "Job Req Time" range, read as a filter: jobs whose time (Settings::req_time_filter) lies outside are
  // left out (seconds).
  double min_estimate = 0, max_estimate = kForever;
};

struct External {                // the metascheduler's external Bags-of-Tasks
  std::size_t workload = 0;
  int min_processors = 1;        // jobs of at least this many processors (SDSC Blue: 64)
  double start_days = 0;
  double load = 0;               // over the clusters' processors together
  double min_estimate = 0, max_estimate = kForever;  // as Cluster's
};

struct Settings {
  double days = 60;                                  // the simulated window
  std::vector<std::string> policies;                 // offer-composition policies (free-time-slots: the slot providers)
  std::vector<std::string> schemas = {"schema-1", "schema-2"};
  std::size_t seeds = 30;                            // deadline seeds per schema and policy
  std::uint64_t load_seed = 1;                       // the load adjustment's removals (the same for every run)
  // Decision checks: every composition with `composition_exact`; every offers_every-th offer list with offers_exact.
  // The effort budget (SolveOptions::effort; 0: none) is what ends a check, the same on every machine; the time
  // limit is a safety net ten times (offer lists: 25 times, for their five Delta counts) what the budget takes here.
  std::string composition_exact = "exact";
  unsigned composition_timeout_ms = 20'000;
  std::uint64_t composition_effort = 500'000;        // about 2 s of work
  std::size_t offers_every = 100;                    // 0: offer lists are not compared with the optimum
  std::string offers_exact = "auto";
  unsigned offers_timeout_ms = 5'000;                // the whole list
  std::uint64_t offers_effort = 50'000;              // each Delta count: about 200 ms of work
  std::size_t keep_worst = 5;
  double quick_days = 4;
  std::size_t quick_seeds = 2;
  Dispatch dispatch = Dispatch::kWorkConserving;                    // sweep.dispatch
  FtsPartDeadline fts_part_deadline = FtsPartDeadline::kBotDeadline;  // sweep.fts_part_deadline
  ReqTimeFilter req_time_filter = ReqTimeFilter::kRunTime;       // sweep.req_time_filter
};

struct System {
  scenario::Scenario scenario;
  std::vector<Cluster> clusters;
  External external;
  Settings settings;
  int processors() const;        // all clusters together
};

// Reads the clusters' `parameters` ({"workload", "start_days", "load", "estimate_hours"}) and the `sweep` block.
// `policies`: the composition policies the sweep may name. Throws InputError naming the file and field.
System read(const scenario::Scenario& scenario, const std::vector<std::string>& policies);
// "schema-1" or "schema-2"; throws std::invalid_argument otherwise.
DeadlineSchema schema_named(const std::string& name);

// ---- the jobs of a run ----
inline constexpr std::size_t kExternal = static_cast<std::size_t>(-1);

struct Job {
  std::size_t cluster = kExternal;  // a local job's cluster; kExternal for a BoT
  std::int64_t trace_id = 0;
  double submit = 0;                // T_r, on the run's clock (every window starts at 0)
  int procs = 1;                    // a local job's processors; a BoT's tasks (one per processor of the trace's job)
  double estimate = 0;              // T_s: the estimated run time (of each task of a BoT)
  double run = 0;                   // how long it (each task) runs: the trace's run time cut at the estimate
  double deadline = 0;              // D = T_r + T_s + k
  bool bot() const { return cluster == kExternal; }
};

// The jobs of the system over `days`, without deadlines: each cluster's window of its trace (the jobs whose time,
// run or requested as settings.req_time_filter says, lies in its range) adjusted to its load
// (adjust_load, seeded with settings.load_seed + the cluster's index), the external trace's jobs of at least
// min_processors adjusted to the external load over all processors (seed load_seed + clusters), each a BoT of
// `procs` tasks. Local jobs wider than their cluster are left out and counted in `too_wide` (per cluster). By submit
// time; `workloads` in the scenario's order.
std::vector<Job> system_jobs(const System& system, const std::vector<workload::Workload>& workloads, double days,
                             std::vector<std::size_t>* too_wide = nullptr);
// The same jobs with deadlines T_r + T_s + k, k drawn from `schema` for each job in turn (mt19937_64 seeded with `seed`).
std::vector<Job> with_deadlines(std::vector<Job> jobs, const DeadlineSchema& schema, std::uint64_t seed);

// ---- the log of a run (what the run properties and the metrics read) ----
struct Execution {                // processors held from start to end by one job, or by tasks of one BoT part
  double start = 0, end = 0;
  int procs = 0;
  std::size_t job = 0;            // index into RunLog::jobs
  std::size_t part = 0;           // a BoT's part (index into BotLog::parts); 0 for a local job
};

struct Part {                     // what one cluster accepted of a BoT
  std::size_t cluster = 0;
  long long tasks = 0;
  // The deadline it was accepted with: the offer's completion; under FreeTimeSlots its completion in the slots, or
  // the later of that and the BoT's D (Settings::fts_part_deadline).
  double deadline = 0;
};

struct JobLog {
  double new_deadline = -1;       // D^N: the deadline the system gave (= D when met); -1 until decided
  std::vector<Part> parts;        // a BoT's parts; empty for a local job
  long long lost = 0;             // a BoT's tasks the composition gave no cluster (published DPLB's cap)
  bool balanced = false;          // a BoT composed by the load-balancing policy (else OffersNoLB or free slots)
};

struct RunLog {
  std::vector<Job> jobs;
  std::vector<JobLog> logs;                          // by job
  std::vector<std::vector<Execution>> executions;    // by cluster
  double window = 0;                                 // the simulated window (utilisation's denominator)
};

}  // namespace schedcheck::metascheduler
