// DBC broker model: value types, reader/writer, semantics, validator, objective. Paper 001 (explicit allocation +
// DBC cost-time): Dabsolute / Babsolute, requests (p, tr) under maxProc, maxTr, maxPendingRequests; the paper's open
// readings are instance fields (docs/policies.md "Readings"). Limits: independent single-PE jobs ready at t = 0, no
// network delay or background load; a resource's PEs form fixed request lanes (a restriction of ours).
#pragma once

#include "model/input.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::dbc {

inline constexpr const char* kInstanceKind = "dbc-broker";
inline constexpr int kUnassigned = -1;

struct Resource {          // paper Table 1: a space-shared resource
  std::string id;
  int pes = 0;             // processing elements
  double mips = 0;         // MIPS rating of one PE
  double cost = 0;         // processing cost per million instructions (G$ / MI)
};

enum class Origin { kLocal, kGrid };

struct Job {
  std::string id;
  double length = 0;       // million instructions
  Origin origin = Origin::kGrid;
};

struct Broker {            // explicit allocation limits (paper 001 "Explicit allocation strategy") + dispatcher
  int max_pending_requests = std::numeric_limits<int>::max();  // maxPendingRequests per resource
  int max_proc = std::numeric_limits<int>::max();              // maxProc: PEs per request
  double max_tr = std::numeric_limits<double>::infinity();     // maxTr: seconds per request
  int max_jobs_per_pe = 1;                                     // dispatcher: jobs queued per PE
};

// The readings of paper 001's open sentences (instance field "readings"; defaults first, docs/policies.md):
// cost_unit: "per-mi" (the text: "processing cost per million instructions") | "per-pe-second" (a PE-second
//   costs `cost`, so a job costs cost x length / MIPS; Cmin / Cmax and the cost groups use cost / MIPS per MI).
// mips_rating: "pe" (Tmax's "minimum MIPS rating" and both l_max terms use one PE's MIPS; Tmin's sum is the total
//   power PEs x MIPS) | "resource" (every "MIPS rating of a resource" is PEs x MIPS).
// deadline_test: "at-or-before" (finish <= Dabsolute; "Dfactor >= 1 would always be completed" needs it) |
//   "strictly-before" (the test as written: "completion time is less than the deadline").
// max_tr: "per-request" (maxTr bounds each request; requests follow one another, at most maxPendingRequests
//   pending at any instant) | "horizon" (every request is issued at t = 0, so all are pending at once and every job
//   ends by maxTr).
// max_pending: "not-finished" (pending = issued and not yet finished: maxPendingRequests bounds the requests that
//   overlap in time) | "not-started" (pending = submitted and not yet started, as in a batch queue: a request is
//   issued when it starts, so none ever waits and maxPendingRequests bounds nothing).
// advisor: "throughput" (the Schedule Advisor discards a chosen job only when the swap lets more jobs be chosen: the
//   text's "could improve this number (i.e., throughput)") | "less-work" (a longer chosen job always gives its place
//   to a job that fits nowhere: the same count, less work).
enum class CostUnit { kPerMi, kPerPeSecond };
enum class MipsRating { kPe, kResource };
enum class DeadlineTest { kAtOrBefore, kStrictlyBefore };
enum class MaxTrReading { kPerRequest, kHorizon };
enum class MaxPendingReading { kNotFinished, kNotStarted };
enum class AdvisorReading { kThroughput, kLessWork };
struct Readings {
  CostUnit cost_unit = CostUnit::kPerMi;
  MipsRating mips_rating = MipsRating::kPe;
  DeadlineTest deadline_test = DeadlineTest::kAtOrBefore;
  MaxTrReading max_tr = MaxTrReading::kPerRequest;
  MaxPendingReading max_pending = MaxPendingReading::kNotFinished;
  AdvisorReading advisor = AdvisorReading::kThroughput;
};

struct Instance {
  std::string name;
  std::vector<Resource> resources;
  std::vector<Job> jobs;
  std::optional<double> dfactor, bfactor;  // as given; when absent the absolute value was given
  double deadline = 0;                     // Dabsolute, seconds from t = 0
  double budget = 0;                       // Babsolute, G$
  Broker broker;
  Readings readings;
};

// A schedule: per job the resource index (kUnassigned = left unassigned and reported), the PE of that resource
// (0-based, < usable_pes) and the start time. A PE runs one job at a time; a job runs length / mips seconds.
// `list`: the unassigned-jobs list a policy worked through, in its order (empty: file order; exact methods leave
// it empty); the cost-time tie-break property replays it. Not part of feasibility.
struct Schedule {
  std::vector<int> resource;
  std::vector<int> pe;
  std::vector<double> start;
  std::vector<std::size_t> list;
};
Schedule empty_schedule(const Instance& instance);

// ---- paper quantities (our reading of the ambiguous text: docs/policies.md; `readings` pick the variant) ----
double total_length(const std::vector<Job>& jobs);
// Tmax = max(L / min rating, l_max / max rating), rating = one PE's MIPS (mips_rating "pe": all jobs serially on
// the slowest PE) or PEs x MIPS ("resource").
double t_max(const Instance& instance);
// Tmin = max(L / sum over resources of PEs x MIPS, l_max / max rating): all jobs in parallel on everything.
double t_min(const Instance& instance);
double c_max(const Instance& instance);  // L x max cost per MI (cost_per_mi)
double c_min(const Instance& instance);  // L x min cost per MI
double absolute_deadline(const Instance& instance, double dfactor);  // Tmin + Dfactor (Tmax - Tmin)
double absolute_budget(const Instance& instance, double bfactor);    // Cmin + Bfactor (Cmax - Cmin)

// ---- semantics ----
double duration(const Resource& resource, const Job& job);                             // length / mips
double cost_per_mi(const Instance& instance, const Resource& resource);                // cost, or cost / mips
double job_cost(const Instance& instance, const Resource& resource, const Job& job);  // cost_per_mi x length
// maxPendingRequests as the model applies it: the broker's value, or no limit under max_pending "not-started".
int pending_limit(const Instance& instance);
// PEs the broker may use on a resource: min(PEs, maxProc x pending_limit) (explicit allocation requests).
int usable_pes(const Instance& instance, const Resource& resource);
// Request lanes (max_tr "per-request"): the usable PEs in consecutive groups of lane_width PEs (PE k in lane
// k / lane_width), one lane per pending request, lane_width = ceil(usable / min(pending_limit, usable)) <=
// maxProc. A lane runs one request after another; a request holds the lane's PEs it uses from its start for tr <=
// maxTr and each job runs inside one request. So at most maxPendingRequests are pending (issued, not finished) at
// any instant. With maxPendingRequests >= usable PEs every lane is one PE and a request per job always exists. 1
// under max_tr "horizon" (requests all start at t = 0: nothing is shared).
int lane_width(const Instance& instance, const Resource& resource);
// The finish limit of every PE, for fits(): Dabsolute (max_tr "per-request") or min(Dabsolute, maxTr) ("horizon");
// under deadline_test "strictly-before" Dabsolute is lowered by 2 kFitSlack x max(1, Dabsolute), so that fits()
// accepts finishes before Dabsolute by more than kFitSlack and never one equal to it.
double horizon(const Instance& instance);
// The same limit without the deadline (the `no-optimization` baseline): infinity or maxTr.
double request_horizon(const Instance& instance);
// The longest request: maxTr under "per-request" (infinity under "horizon", where horizon() bounds it).
double window_limit(const Instance& instance);
// A job may run on a resource only inside one request: duration <= maxTr (fits()).
bool eligible(const Instance& instance, const Resource& resource, const Job& job);
// The unassigned-jobs list in file order (the paper gives no other order for one user's bag).
std::vector<std::size_t> job_list_order(const Instance& instance);
// The alternative reading (policy `dbc-cost-time-local-first`): local jobs first, then grid jobs, each in file order.
std::vector<std::size_t> local_first_order(const Instance& instance);

// The state of a list policy that assigns jobs one at a time: each usable PE's free time and each lane's open
// request [open, end). earliest() is the PE of a resource on which a job of duration d completes first (ties: lower
// PE index): at the PE's free time inside the lane's open request if it ends within window_limit of the request's
// start, else at the end of the open request, where the lane's next request begins. place() records a job.
// Shared by the policies and the cost-time tie-break property. Under max_tr "horizon" or with one-PE lanes it is
// just "the earliest free PE".
class Clock {
 public:
  struct Slot {
    int pe = -1;
    double start = 0, finish = std::numeric_limits<double>::infinity();
  };
  explicit Clock(const Instance& instance);
  Slot earliest(std::size_t resource, double d) const;
  void place(std::size_t resource, int pe, double start, double finish);
  // Sets a PE's free time (a one-PE lane re-packed by the advisor; its next request starts there).
  void reset(std::size_t resource, int pe, double free);
  int width(std::size_t resource) const { return width_[resource]; }
  double free_time(std::size_t resource, int pe) const { return free_[resource][static_cast<std::size_t>(pe)]; }

 private:
  std::vector<int> width_;
  std::vector<std::vector<double>> free_, open_, end_;  // per resource: per PE; per lane
  double window_ = 0;
};

// A finish time meets a limit (deadline or maxTr): t <= limit + kFitSlack x max(1, limit). Policies and the DP use
// it, and Z3 constrains with slack_limit(); the validator allows kTimeTolerance (1e-6 s), so every answer passes.
inline constexpr double kFitSlack = 1e-9;
bool fits(double finish, double limit);
// A total cost is within a budget: cost <= budget + kFitSlack x max(1, budget) (sums of doubles differ in the last bits).
bool affordable(double cost, double budget);
// The largest value that still fits `limit` (a deadline, maxTr or budget): limit + kFitSlack x max(1, |limit|).
// Exact methods constrain with it, so that they accept exactly what fits() / affordable() and the validator accept.
double slack_limit(double limit);

// ---- objective and reported metrics ----
double total_cost(const Instance& instance, const Schedule& schedule);  // sum of cost over assigned jobs
double makespan(const Instance& instance, const Schedule& schedule);    // latest finish of an assigned job (0 if none)
std::size_t assigned_count(const Schedule& schedule);

// ---- the parts of feasibility: "" when it holds, else a sentence naming the first violation ----
std::string shape_violation(const Instance& instance, const Schedule& schedule);      // one entry per job
std::string placement_violation(const Instance& instance, const Schedule& schedule);  // usable PE, start >= 0
std::string overlap_violation(const Instance& instance, const Schedule& schedule);    // one job at a time per PE
// "per-request": in every lane, each run of jobs that overlap in time (one request at least) spans <= maxTr;
// "horizon": every finish <= maxTr.
std::string request_violation(const Instance& instance, const Schedule& schedule);
// finish <= Dabsolute ("strictly-before": finish < Dabsolute - kFitSlack x max(1, Dabsolute) / 2).
std::string deadline_violation(const Instance& instance, const Schedule& schedule);
std::string budget_violation(const Instance& instance, const Schedule& schedule);     // total cost <= Babsolute

// The one validator. Feasible = all of the above hold (jobs may be left unassigned). Unlike the SLA validator,
// the objective (cost of the assigned jobs) is filled in whenever shape and placement are sound, so that an
// over-budget baseline still shows its cost.
Verdict validate(const Instance& instance, const Schedule& schedule);

// Explicit allocation's formal requests for a schedule, per resource. "per-request": per lane, its runs of
// overlapping jobs in start order, consecutive runs merged while the request stays within maxTr; p = the lane's
// PEs the request uses, start = its first job's start, tr = its last finish - start. "horizon": the used PEs in
// groups of maxProc, each a request from t = 0 with tr = the latest finish. Empty for an unused resource.
struct Request {
  int procs = 0;
  double start = 0;
  double tr = 0;
};
std::vector<std::vector<Request>> craft_requests(const Instance& instance, const Schedule& schedule);

// ---- reader / writer (format: docs/formats.md) ----
Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
nlohmann::json write_schedule(const Instance& instance, const Schedule& schedule);
// The decision of a policy outside C++ (docs/protocol.md), in write_schedule's format: "accepted" job ids, "start"
// and "placement" ("RESOURCE/peK", K from 0) of each accepted job; "unassigned" (optional: jobs not accepted; must
// not overlap "accepted"); "requests", "cost", "makespan" ignored (recomputed). Throws InputError (`where`, field).
Schedule read_schedule(const Instance& instance, const nlohmann::json& document, const std::string& where);

}  // namespace schedcheck::dbc
