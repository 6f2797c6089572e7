// The `auction-bid` problem: a broker's snapshot at a bidding-interval boundary on auction-based proportional-share
// resources (paper 003 sec. 3.2 Eq. 1-3, sec. 4): place every task and choose a bid per resource so that every
// resource finishes its work by the deadline at the least total charge. Others' bids are held fixed, bids held over
// the whole run; tasks on one resource run one after another at the user's share. Our own formulation.
#pragma once

#include "model/auction.hpp"
#include "model/verdict.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::auction_bid {

inline constexpr const char* kInstanceKind = "auction-bid";
inline constexpr double kDefaultInterval = 60;          // seconds: the bidding interval of paper 003's experiments
inline constexpr double kDeadlineTolerance = 1e-9;      // relative: T_r <= time_left * (1 + this)
inline constexpr std::size_t kMaxResources = 64;
inline constexpr std::size_t kMaxTasks = 10'000;
inline constexpr double kMaxMagnitude = 1e12;           // any number an instance holds
inline constexpr std::size_t kNoResource = static_cast<std::size_t>(-1);

struct Resource {
  auction::Resource spec;   // name, pes, mips, min_bid, max_bid (no domains: `foreign` says it)
  double others_bid = 0;    // O_r: the sum of the other users' bids in force, held fixed
  bool foreign = false;     // the user is from another VO domain: charges carry auction::kSurcharge
};

struct Task {
  std::string id;
  double length = 0;                     // MI of remaining work, > 0
  std::size_t running_on = kNoResource;  // the resource it already runs on (it cannot move), else kNoResource
};

// A plan: the resource of every task (by index) and the bid held on every resource (cents per minute; 0 = no bid,
// allowed only where no task is placed).
struct Plan {
  std::vector<std::size_t> assign;
  std::vector<double> bids;
};

// A decision taken in a run and kept with the snapshot it was taken on (a broker's bids and placement in
// `experiment auction`), so that the policy `recorded` answers it again and a corpus file re-checks it.
struct Recorded {
  std::string by;   // who took it ("U3 (local-domain) at t=1800 s, seed 2")
  Plan plan;
};

struct Instance {
  std::string name;
  std::string comment;
  auction::Capacity capacity = auction::Capacity::kPerPe;
  double time_left = 0;                 // seconds to the deadline, > 0
  double interval = kDefaultInterval;   // bidding interval, seconds: the granularity of the charge (cost-as-charged)
  std::vector<Resource> resources;
  std::vector<Task> tasks;
  std::optional<Recorded> recorded = {};   // `recorded`: {"by": TEXT, "assign": {...}, "bids": {...}}
};


Instance read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Instance& instance);
// {"assign": {TASK: RESOURCE}, "bids": {RESOURCE: bid}, "summary": ...}; the bids of resources without work omitted.
nlohmann::json write_plan(const Instance& instance, const Plan& plan);
// A plan of a policy outside C++ in write_plan's format ("summary" ignored). Throws InputError (`where`, field).
Plan read_plan(const Instance& instance, const nlohmann::json& document, const std::string& where);

// ---------------------------------------------------------------- semantics (model/auction.hpp underneath)

double total_capacity(const Instance& instance, std::size_t r);  // Ctot_r under the instance's reading of C
double task_cap(const Instance& instance, std::size_t r);        // Ccap_r: the most one task gets (one PE)
// S_r(B) = min(B / (B + O_r) * Ctot_r, Ccap_r) (Eq. 1 against the others' bids, auction::share_against).
double share(const Instance& instance, std::size_t r, double bid);
// The work placed on each resource, running tasks included.
std::vector<double> loads(const Instance& instance, const std::vector<std::size_t>& assign);
// T_r = L / S_r(B): the tasks run one after another at the share (0 without work).
double finish_time(const Instance& instance, std::size_t r, double load, double bid);
// Eq. 3 summed over the intervals the user runs in: B * T_r / 60 * (1 + surcharge when foreign), cents (0 without
// work or without a bid).
double charge(const Instance& instance, std::size_t r, double load, double bid);
// The surcharge factor of resource r: 1 + auction::kSurcharge when foreign, else 1.
double surcharge_factor(const Instance& instance, std::size_t r);

// The closed form (docs/auction-bid.md): the least bid in [min_bid, max_bid] whose share finishes `load` within
// time_left, which is also the cheapest (B / S_r(B) increases with B). With x = L / (Ctot * time_left):
// infeasible when L / time_left > Ccap, or O > 0 and x >= 1; else B* = max(min_bid, O * x / (1 - x)) (O = 0:
// min_bid); infeasible when B* > max_bid. nullopt when infeasible; min_bid for a load of 0.
std::optional<double> cheapest_bid(const Instance& instance, std::size_t r, double load);
// f_r(L): the charge at the cheapest bid, +infinity when no bid finishes L in time; 0 for L = 0. Convex and
// increasing on [0, max_load] (docs/auction-bid.md).
double cheapest_cost(const Instance& instance, std::size_t r, double load);
// The most work r finishes within time_left: time_left * S_r(max_bid). Loads above it are infeasible.
double max_load(const Instance& instance, std::size_t r);
// f_r in two pieces (docs/auction-bid.md), for bounds: on [0, knee] the least bid suffices and the charge is linear,
// k * min_bid * L / min_share; on (knee, end] the bid rises with the load, the resource finishes exactly at the
// deadline and the charge is k * time_left * others * x / (1 - x), x = L / (ctot * time_left). k = surcharge / 60.
struct CostCurve {
  double k = 0;
  double min_bid = 0;
  double min_share = 0;   // S_r(min_bid)
  double knee = 0;        // time_left * min_share: the most work the least bid finishes in time
  double others = 0;      // O_r
  double ctot = 0;
  double time_left = 0;
  double end = 0;         // max_load
  double value(double load) const;   // f_r(load); +infinity above `end`
  double slope(double load) const;   // the right derivative on [0, end)
  // The load in [0, end] minimising f_r(L) - lambda * L (the least one where the slope first reaches lambda).
  double minimiser(double lambda) const;
};
CostCurve cost_curve(const Instance& instance, std::size_t r);

// The plan that places tasks by `assign` and bids the closed form's cheapest bid for each resource's load (a resource
// without work: no bid; an infeasible load: max_bid, so that the validator says which deadline is missed).
Plan cheapest_bids_plan(const Instance& instance, std::vector<std::size_t> assign);
// A broker's decision as a plan: tasks placed by `assign` (running tasks where they run) and the bids it holds per
// resource, kept only where work is placed. For scoring a broker's decision with evaluate_plan.
Plan plan_from(const Instance& instance, std::vector<std::size_t> assign, const std::vector<double>& bids_held);

// ---------------------------------------------------------------- the validator

// "" or a sentence: every task placed once on a resource of the instance, running tasks where they run.
std::string assignment_violation(const Instance& instance, const Plan& plan);
// "" or a sentence: a bid for every resource with work, every bid given within [min_bid, max_bid] (Eq. 2).
std::string bid_violation(const Instance& instance, const Plan& plan);
// "" or a sentence: every resource finishes its work within time_left (relative kDeadlineTolerance).
std::string deadline_violation(const Instance& instance, const Plan& plan);
// Feasible when none of the three checks finds a violation; objective: the total charge, cents (minimised).
Verdict validate(const Instance& instance, const Plan& plan);
// The validator under the name a broker's evaluation uses.
Verdict evaluate_plan(const Instance& instance, const Plan& plan);

}  // namespace schedcheck::auction_bid
