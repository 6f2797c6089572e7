// Paper 003's system on the kernel (sec. 3, Fig. 1): one auctioneer actor per resource holding a time-shared resource
// (model/auction.hpp), one GIS actor per VO domain, one broker actor per user calling its pure policy at its start
// and every period P; they talk by typed messages (registration, GIS lists, bids, submissions, progress queries,
// task completions, charges). Our own composition; observers (properties/) watch every interval, bid and decision.
#pragma once

#include "model/auction_broker.hpp"
#include "model/auction_scenario.hpp"
#include "simulation/kernel.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::sim::auction_system {

using auction::BrokerDecision;
using auction::BrokerSnapshot;

using BrokerFunction = std::function<BrokerDecision(const BrokerSnapshot&)>;

struct Setup {
  const auction::Scenario* scenario = nullptr;
  std::vector<std::vector<double>> lengths;   // per user: its tasks' lengths (MI)
  std::vector<BrokerFunction> brokers;        // per user: its broker's decision
  double progress_every = 0;                  // > 0: on_progress of the kernel every this many wall seconds
  std::function<void(double, double)> progress = {};
};

// What the auctioneer truly has of one user's work on a resource, beside the broker's snapshot (for exact checks:
// the broker does not see the other users' bids, sec. 3.2).
struct TruthView {
  double others_bid = 0;                 // bids in force of the other users with a running task
  std::vector<double> other_bids = {};   // ... one by one (the split caps each at one PE)
  bool foreign = false;
  double running_remaining = -1;         // MI left of the user's running task there (-1: none)
  std::vector<std::pair<std::size_t, double>> queued = {};  // (task, MI) of its queued tasks there
};

struct DecisionView {
  double now = 0;
  std::size_t user = 0;
  const BrokerSnapshot& snapshot;
  const BrokerDecision& decision;
  const std::vector<TruthView>& truth;   // by snapshot resource
  double interval = 60;
  auction::Capacity capacity = auction::Capacity::kPerPe;
};

struct Sample {                          // at each bidding interval a resource is busy: one row per account
  double time = 0;
  std::size_t resource = 0;
  std::size_t user = 0;
  double bid = 0;                        // cents per minute in force
  double share = 0;                      // MIPS
  double share_percent = 0;              // of the resource's total
  bool running = false;
};

struct UserOutcome {
  std::string name;
  std::string policy;
  double start = 0;
  double finish = -1;                    // last completion, -1: not all finished within the horizon
  std::size_t tasks = 0;
  std::size_t completed = 0;
  double charged = 0;                    // G$ the auctioneers charged
  double income = 0;                     // G$ received
  double balance = 0;                    // fund + income - charged
  std::size_t decisions = 0;
  std::vector<std::size_t> tasks_on;     // tasks submitted to each resource (scenario order)
  double run_time() const { return finish < 0 ? -1 : finish - start; }
};

struct Result {
  std::vector<UserOutcome> users;
  std::vector<Sample> samples;
  KernelStats kernel;
  bool broker_failed = false;            // a broker's decision was malformed (then `failure` says why)
  std::string failure;
  std::optional<std::size_t> failed_user;  // whose broker failed first
};

class Observer {
public:
  virtual ~Observer() = default;
  virtual void on_bid(double /*now*/, std::size_t /*resource*/, std::size_t /*user*/, double /*sent*/) {}
  virtual void on_interval(double /*now*/, std::size_t /*resource*/, const auction::TimeShared&) {}
  virtual void on_task_start(double /*now*/, std::size_t /*resource*/, std::size_t /*user*/, std::size_t /*task*/) {}
  virtual void on_task_end(double /*now*/, std::size_t /*resource*/, std::size_t /*user*/, std::size_t /*task*/) {}
  virtual void on_submit(double /*now*/, std::size_t /*resource*/, std::size_t /*user*/, std::size_t /*task*/) {}
  // The auctioneer's charge to a user whose tasks all completed; `account` as it stands then.
  virtual void on_charge(double /*now*/, std::size_t /*resource*/, const auction::Account& /*account*/) {}
  virtual void on_decision(const DecisionView&) {}
  virtual void on_end(const Result&) {}
};

// Runs the scenario until every user's tasks completed and were charged, or the scenario's horizon. Throws
// std::invalid_argument when the setup does not match the scenario (a user without lengths or broker).
Result run(const Setup& setup, std::vector<Observer*> observers = {});

}  // namespace schedcheck::sim::auction_system
