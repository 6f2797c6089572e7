// SLA admission at a contractor site: the formal model (value types, reader/writer, semantics, objective).
// Paper 004 (Ranjan, Harwood, Buyya: SLA-based coordinated superscheduling), section 3.2, Eq. 4-5, and
// the Grid-Federation job model it cites: D(J,R_m) = alpha + l/(mu_m p); B(J,R_m) = c_m l/mu_m (price x processor
// time, the default) or c_m l/(mu_m p) (price x wall-clock time, a named reading): docs/policies.md, Readings.
// Two problems share this instance type: `sla-admission` (instant knapsack) and `sla-admission-timed` (ours).
#pragma once

#include "model/input.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace schedcheck::sla {

inline constexpr const char* kInstanceKind = "sla-site";

// How a job is charged (B(J,R_m)). Paper 004 defers to the Grid-Federation model it cites ([33]); its own magnitudes
// (4.1e9 grid dollars over four days of Table 2) fit the price per second of processor time, c_m x p x l/(mu_m p).
enum class Pricing {
  kProcessorTime,  // B = c_m l / mu_m: the price of each processor's second (default)
  kWallClock,      // B = c_m l / (mu_m p): the price of each second of the job's run, whatever its width
};
const char* to_string(Pricing pricing);               // "processor-time", "wall-clock"

struct Site {                // paper: resource R_m at GFA m
  int processors = 0;        // p_m
  int free_processors = 0;   // r: free now (= processors - running processors)
  double mips = 0;           // mu_m, MIPS per processor
  double price = 0;          // c_m, access price (per second of processor time, or of run time: `pricing`)
  Pricing pricing = Pricing::kProcessorTime;  // JSON: site.pricing, "processor-time" (default) or "wall-clock"
  // Our addition, off by default: also require b >= B(J,R_m). Algorithm 2 (line 1.40) tests only r >= p and
  // de >= D; under the paper's pricing (Eq. 7-8, b = 2B) the budget test never binds. JSON: site.budget_test.
  bool budget_test = false;
};

struct Bid {                    // an SLA bid for job J_{i,j,k}
  std::string id;
  int procs = 0;                // p_{i,j,k}
  double length_mi = 0;         // l, million instructions
  double alpha = 0;             // communication overhead, seconds
  double budget = 0;            // b_{i,j,k}
  double deadline = 0;          // d_{i,j,k}, seconds from now
  double expected_response = 0; // de_{i,j,k}, the manager's expected response time
};

// Already accepted and running: holds procs until `remaining` seconds from now. A job whose end is the decision
// instant (remaining 0) still holds its processors for the instant's decision (r counts them busy, as the site that
// took the decision did) and frees them for anything placed later.
struct RunningJob {
  std::string id;
  int procs = 0;
  double remaining = 0;
};

struct Instance {
  std::string name;
  Site site;
  std::vector<RunningJob> running;
  std::vector<Bid> bids;        // in arrival order (FCFS uses this order)
};

// A decision: which bids are accepted and, for the timed problem, when each accepted job starts.
struct Admission {
  std::vector<bool> accepted;   // one per bid
  std::vector<double> start;    // one per bid; meaningful for accepted bids of the timed problem, else 0
};

// ---- semantics (Grid-Federation job model) ----
double execution_time(const Site& site, const Bid& bid);  // l / (mu_m p)
double response_time(const Site& site, const Bid& bid);   // D(J, R_m) = alpha + l / (mu_m p)
double incentive(const Site& site, const Bid& bid);       // B(J, R_m): c_m l / mu_m, or c_m l / (mu_m p) (`pricing`)
// Eligible: de >= D(J,R_m) (Algorithm 2 line 1.40), and b >= B(J,R_m) when site.budget_test is set.
bool eligible(const Site& site, const Bid& bid);
std::string ineligibility_reason(const Site& site, const Bid& bid);  // "" when eligible

// ---- objective ----
double total_incentive(const Instance& instance, const Admission& admission);  // Eq. 5: sum of B over accepted

// ---- the parts of feasibility, each "" when it holds or a sentence naming the first violation ----
std::string shape_violation(const Instance& instance, const Admission& admission);     // one flag per bid
std::string eligibility_violation(const Instance& instance, const Admission& admission);
std::string capacity_violation_instant(const Instance& instance, const Admission& admission);  // sum p <= r
std::string capacity_violation_timed(const Instance& instance, const Admission& admission);    // profile <= p_m
// Every accepted job finishes by its deadline d (instant admissions start now; timed ones at their start).
std::string deadline_violation(const Instance& instance, const Admission& admission, bool timed);

// ---- validators: the one definition of a feasible decision per problem ----
// Instant (Eq. 4): accepted bids eligible, sum of their processors <= r.
Verdict validate_instant(const Instance& instance, const Admission& admission);
// Timed (our extension): accepted bids eligible, start >= 0, start + D <= d, and at every instant the
// running jobs plus the accepted jobs in progress use at most p_m processors (space-shared, non-preemptive).
Verdict validate_timed(const Instance& instance, const Admission& admission);

// ---- reader / writer (format: docs/formats.md) ----
Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
// The accepted bid ids, in bid order.
std::vector<std::string> accepted_ids(const Instance& instance, const Admission& admission);
nlohmann::json write_admission(const Instance& instance, const Admission& admission, bool timed);
// The decision of a policy outside C++ (docs/protocol.md), in write_admission's format: {"accepted": [bid ids]}
// (+ "start": {accepted id: seconds from now} when timed). Each id once; throws InputError naming `where` and the field.
Admission read_admission(const Instance& instance, const nlohmann::json& document, const std::string& where, bool timed);

}  // namespace schedcheck::sla
