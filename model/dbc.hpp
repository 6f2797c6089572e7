// DBC broker scheduling: the formal model (value types, reader/writer, semantics, validator, objective).
// Paper 001 (explicit allocation + Deadline and Budget Constrained cost-time optimisation), "Calculation of
// absolute deadline / absolute budget": Tmin, Tmax, Cmin, Cmax, Dabsolute, Babsolute (our reading: docs/policies.md).
// Limits: one bag of independent single-PE jobs, all ready at t = 0, no network delay, no background load.
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

struct Instance {
  std::string name;
  std::vector<Resource> resources;
  std::vector<Job> jobs;
  std::optional<double> dfactor, bfactor;  // as given; when absent the absolute value was given
  double deadline = 0;                     // Dabsolute, seconds from t = 0
  double budget = 0;                       // Babsolute, G$
  Broker broker;
};

// A schedule: per job the resource index (kUnassigned = left unassigned and reported), the PE of that resource
// (0-based, < usable_pes) and the start time. A PE runs one job at a time; a job runs length / mips seconds.
struct Schedule {
  std::vector<int> resource;
  std::vector<int> pe;
  std::vector<double> start;
};
Schedule empty_schedule(const Instance& instance);

// ---- paper quantities (our reading of the ambiguous text: docs/policies.md) ----
double total_length(const std::vector<Job>& jobs);
// Tmax = max(L / min PE MIPS, l_max / max PE MIPS): all jobs serially on the slowest PE.
double t_max(const std::vector<Resource>& resources, const std::vector<Job>& jobs);
// Tmin = max(L / sum over resources of PEs x MIPS, l_max / max PE MIPS): all jobs in parallel on everything.
double t_min(const std::vector<Resource>& resources, const std::vector<Job>& jobs);
double c_max(const std::vector<Resource>& resources, const std::vector<Job>& jobs);  // L x max cost per MI
double c_min(const std::vector<Resource>& resources, const std::vector<Job>& jobs);  // L x min cost per MI
double absolute_deadline(const std::vector<Resource>& r, const std::vector<Job>& j, double dfactor);
double absolute_budget(const std::vector<Resource>& r, const std::vector<Job>& j, double bfactor);

// ---- semantics ----
double duration(const Resource& resource, const Job& job);   // length / mips
double job_cost(const Resource& resource, const Job& job);   // cost per MI x length
// PEs the broker may use on a resource: min(PEs, maxProc x maxPendingRequests) (explicit allocation requests).
int usable_pes(const Instance& instance, const Resource& resource);
// The latest finish a job may have: min(Dabsolute, maxTr) (a job must fit inside one request of at most maxTr).
double horizon(const Instance& instance);
// The unassigned-jobs list: local jobs first (local-user priority), then grid jobs, each in file order.
std::vector<std::size_t> job_list_order(const Instance& instance);

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
std::string request_violation(const Instance& instance, const Schedule& schedule);    // finish <= maxTr
std::string deadline_violation(const Instance& instance, const Schedule& schedule);   // finish <= Dabsolute
std::string budget_violation(const Instance& instance, const Schedule& schedule);     // total cost <= Babsolute

// The one validator. Feasible = all of the above hold (jobs may be left unassigned). Unlike the SLA validator,
// the objective (cost of the assigned jobs) is filled in whenever shape and placement are sound, so that an
// over-budget baseline still shows its cost.
Verdict validate(const Instance& instance, const Schedule& schedule);

// Explicit allocation's formal requests for a schedule: per resource, the PEs it uses split into requests of at
// most maxProc PEs, each asking for tr = the latest finish on its PEs. Empty for an unused resource.
struct Request {
  int procs = 0;
  double tr = 0;
};
std::vector<std::vector<Request>> craft_requests(const Instance& instance, const Schedule& schedule);

// ---- reader / writer (format: docs/formats.md) ----
Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
nlohmann::json write_schedule(const Instance& instance, const Schedule& schedule);

}  // namespace schedcheck::dbc
