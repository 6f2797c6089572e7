// The Grid-Federation of paper 004: its clusters (Table 2), the job model of the Grid-Federation papers, the SLA terms
// of a job (Eq. 1 and 6-9), the settings of the federation experiment (read from a scenario file) and the log of a
// contract-net run that the run properties read. Paper 004 sec. 3.1, 3.3, 4.1; D and B as in model/sla.hpp. Limits:
// static prices; no message latency; every accepted job starts when its bid is accepted (Algorithm 2's RESERVE).
#pragma once

#include "model/scenario.hpp"
#include "model/sla.hpp"
#include "model/workload.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace schedcheck::federation {

struct Cluster {                 // a GFA and the cluster it manages (Table 2)
  std::string name;
  int processors = 0;            // p_m
  double mips = 0;               // mu_m
  double price = 0;              // c_m, the quote
  double bandwidth_gbps = 0;     // NIC to network
  std::size_t workload = 0;      // the scenario's workload its local users replay
  sla::Pricing pricing = sla::Pricing::kProcessorTime;  // how its owner charges a job (the sweep's "pricing")
  // Its users replay another trace than the paper's (parameters.substitute; the scenario says which): the claims
  // about this cluster are not judged, and the reading "substitute_load" may give it a typical load.
  bool substitute = false;
};

// How loaded a substitute cluster's window is (sweep.substitute_load).
enum class SubstituteLoad {
  kAsTraced,  // "as-traced": its trace's window as it is (HPC2N's 240-processor jobs on LANL Origin's 2,048)
  kMedian,    // "median": adjusted to the median load of the other clusters' windows (the load rule below)
};

// Which days of each trace a run replays (sec. 4.1: "workload trace data over the total period of four days").
enum class Window {
  // Each trace's start-up days skipped: the window starts at the first whole day from the trace's first job from
  // which the period carries at least the trace's median load over all such windows (load: the processors x run time
  // submitted in the window over the cluster's processors x the period). Our reading: "four days" of a trace's
  // ordinary load, not of its first, quiet days.
  kMedianLoad,
  kFirstDays,  // the first days from each trace's first job
};
const char* to_string(Window window);  // "median-load", "first-days"

// How a contractor admits the bids it gets (sec. 4.2): each on arrival by FCFS (the paper's baseline, a 0% bid
// time), or held in its bid queue for the bid's interval while STRICTGREEDY decides over the queue. A sweep names the
// first by a bid share of 0 (kOnArrivalShare).
enum class AdmissionMode { kOnArrival, kBidQueue };
inline constexpr double kOnArrivalShare = 0;
AdmissionMode admission_mode(double bid_share);  // kOnArrival at kOnArrivalShare, else kBidQueue
const char* to_string(AdmissionMode mode);       // "fcfs" (on arrival), "bid-queue"

// The experiment's settings (the scenario's "sweep" block; docs/experiments.md lists each with its default).
struct Settings {
  std::vector<double> bid_shares = {0, 0.1, 0.2, 0.3, 0.4, 0.5};  // total SLA bid time t_neg as a share of d
  std::vector<double> oft_shares = {1.0};  // share of jobs whose user seeks optimisation for time (the rest: cost)
  double period_days = 4;                  // jobs submitted within this many days of each window's start (0: all)
  Window window = Window::kMedianLoad;     // where each trace's window starts
  sla::Pricing pricing = sla::Pricing::kProcessorTime;  // B(J,R_m): price x processor time, or x wall-clock time
  SubstituteLoad substitute_load = SubstituteLoad::kAsTraced;
  std::uint64_t load_seed = 1;             // the load rule's removals (the same for every run)
  double alpha = 0.1;                      // communication overhead as a share of the execution time at home
  double budget_factor = 2;                // Eq. 8: b = 2 B(J, R_home)
  double deadline_factor = 3;              // Eq. 9: d = 3 D(J, R_home)
  double data_mb = 10;                     // data moved user -> GFA (ts) and back (tr) over the home NIC; 0: none
  bool integer_intervals = true;           // tau maps into Z+ (Eq. 3): intervals in whole seconds, rounded down
  bool one_reservation_per_call = false;   // STRICTGREEDY as written: one RESERVE per event (else every bid that fits)
  bool drop_at_zero_interval = false;      // a job whose next interval is 0 is dropped (else: decided at once, tau >= 0)
  bool home_first = false;                 // the manager bids at home first (else: home at its rank in the directory)
  bool budget_test = false;                // contractors also require b >= B(J,R_m) (model/sla.hpp site.budget_test)
  bool eq7_prices = false;                 // c_i = c mu_i / mu (Eq. 7, c and mu of the fastest) instead of the quotes
  std::string exact = "dp";                // the exact method of every admission check
  std::size_t check_every = 1;             // check every k-th admission decision
  unsigned timeout_ms = 20'000;            // each check's time limit: a safety net, ten times what the budget takes
  std::uint64_t effort = 500'000;          // each check's effort budget (SolveOptions::effort; 0: none): about 2 s
  std::size_t keep_worst = 5;              // worst decisions kept a run (corpus files)
  double quick_period_days = 1;            // --quick
  std::vector<double> quick_bid_shares = {0, 0.2, 0.5};
};

// The federation of a scenario file: its clusters (with "parameters": mips, price, bandwidth_gbps, workload) and
// its sweep. Throws InputError naming the file and field.
struct Federation {
  scenario::Scenario scenario;
  std::vector<Cluster> clusters;
  Settings settings;
};
Federation read(const scenario::Scenario& scenario);

// A cluster's window of its trace: the start (seconds from the trace's first job) and the jobs submitted in
// [start, start + period), their submit times shifted so that the window starts at 0. `period` 0: the whole trace
// from its first job. Jobs of run time 0 are kept (the federation leaves them out).
struct TraceWindow {
  double start = 0;
  std::vector<workload::Job> jobs;
  double load = 0;               // processors x run time of `jobs` over `processors` x period (0 when period is 0)
};
TraceWindow trace_window(const workload::Workload& trace, int processors, double period, Window window);
// The same window adjusted to `load` by paper 000's load rule (model/metascheduler.hpp adjust_load: the following
// windows of the trace folded back while below it, jobs removed at random, seeded, while above; that rule counts run
// times cut at the requested time).
TraceWindow loaded_window(const workload::Workload& trace, int processors, double period, const TraceWindow& window,
                          double load, std::uint64_t seed);

enum class Objective { kTime, kCost };   // OFT: fastest first; OFC: cheapest first
const char* to_string(Objective objective);

struct Job {                     // a job of the federation: a trace record of its home cluster's local users
  std::size_t home = 0;
  std::int64_t trace_id = 0;
  double submit = 0;             // on the federation's clock (every trace starts at 0)
  int procs = 1;                 // p
  double run_home = 0;           // the trace's run time: its execution time at home
  Objective objective = Objective::kTime;
};

// The SLA terms of a job (paper 004 Eq. 1, 8, 9 and the job model): fixed when it is submitted.
struct Terms {
  double length_mi = 0;          // l = run_home * mu_home * p: the execution time at home is the trace's run time
  double alpha = 0;              // alpha * run_home
  double budget = 0;             // b = budget_factor * B(J, R_home)
  double deadline = 0;           // d = deadline_factor * D(J, R_home), from the submission
  double ts = 0, tr = 0;         // submission and return delays: data_mb over the home NIC
  double t_neg = 0;              // the total SLA bid time: bid_share * d
  double de = 0;                 // Eq. 1: de = d - ts - t_neg - tr, the expected response time every bid carries
};
double transfer_seconds(const Cluster& home, double data_mb);
Terms terms(const std::vector<Cluster>& clusters, const Job& job, const Settings& settings, double bid_share);

// The job as an SLA bid at cluster m (model/sla.hpp), `now` on the federation's clock: D and B through sla::.
sla::Site site(const Cluster& cluster, int free_processors, bool budget_test = false);  // priced as cluster.pricing
sla::Bid bid(const Job& job, const Terms& terms, double now, std::string id);
double response_time(const Cluster& cluster, const Job& job, const Terms& terms);  // D(J, R_m)
double cost(const Cluster& cluster, const Job& job, const Terms& terms);           // B(J, R_m)
// The latest instant the job may finish at any cluster: submit + d - tr.
double latest_finish(const Job& job, const Terms& terms);

// ---- the log of a run (what the run properties read) ----
struct Attempt {                 // one SLA bid
  std::size_t contractor = 0;
  double sent = 0;
  double interval = 0;           // its expiry interval Delta t_neg (Eq. 2)
  double replied = -1;
  bool accepted = false;
};

enum class Outcome { kPending, kAccepted, kDropped };

struct JobLog {
  Terms terms;
  std::vector<Attempt> attempts;
  std::size_t queries = 0;       // directory queries (each answered)
  Outcome outcome = Outcome::kPending;
  std::size_t ran_on = 0;        // kAccepted: the contractor
  double start = -1, finish = -1;
  double charged = 0;            // B(J, R_ran_on)
  double dropped_at = -1;
  std::string drop_reason;
  std::size_t transfers = 0;     // the executable sent, the output returned
};

// Message kinds of a run, and how the kernel counted them.
inline constexpr const char* kQuery = "directory-query";
inline constexpr const char* kAnswer = "directory-answer";
inline constexpr const char* kBid = "sla-bid";
inline constexpr const char* kAccept = "sla-accept";
inline constexpr const char* kReject = "sla-reject";
inline constexpr const char* kJob = "job";
inline constexpr const char* kResult = "result";

struct RunLog {
  std::vector<Job> jobs;
  std::vector<JobLog> logs;      // by job
  std::vector<std::pair<std::string, std::size_t>> sent_by_kind;  // the kernel's count of messages sent, by kind
  double bid_share = 0;
  AdmissionMode admission = AdmissionMode::kOnArrival;
};

}  // namespace schedcheck::federation
