// Named properties of a run of paper 003's auction system, checked on every bidding interval, bid, task start and
// end, and charge as the run goes (an Observer of simulation/auction_system.hpp), recomputed from those events and
// the scenario with the model's formulas, not read from the actors' state: Eq. 1's split fills the capacity, bids stay
// in Eq. 2's bounds, Eq. 3's charge covers only the time used (with the surcharge), no task is lost, the balance is
// accounted, one task per user per resource runs (sec. 3.2). The wording is ours.
#pragma once

#include "model/auction_scenario.hpp"
#include "properties/run_property.hpp"
#include "simulation/auction_system.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::auction {

const std::vector<RunPropertyInfo>& run_properties();   // in report order

class RunChecker final : public sim::auction_system::Observer {
public:
  RunChecker(const Scenario& scenario, const std::vector<std::size_t>& tasks_per_user);

  void on_bid(double now, std::size_t resource, std::size_t user, double sent) override;
  void on_interval(double now, std::size_t resource, const TimeShared& state) override;
  void on_task_start(double now, std::size_t resource, std::size_t user, std::size_t task) override;
  void on_task_end(double now, std::size_t resource, std::size_t user, std::size_t task) override;
  void on_submit(double now, std::size_t resource, std::size_t user, std::size_t task) override;
  void on_charge(double now, std::size_t resource, const Account& account) override;
  void on_end(const sim::auction_system::Result& result) override;

  std::vector<RunPropertyResult> results() const;   // in run_properties() order
  std::size_t checks() const { return checks_; }     // events the properties were checked on

private:
  // What this checker knows of one account (resource, user), from the events alone.
  struct Ledger {
    bool open = false;
    double bid = 0;            // in force
    double next_bid = -1;      // sent during the interval (-1: none)
    bool foreign = false;
    std::size_t running = 0;   // tasks started and not ended
    double since = 0;          // the last instant the charge was accrued to
    double charge = 0;         // cents, Eq. 3 recomputed
  };
  void fail(std::size_t property, const std::string& what);
  void accrue(Ledger& ledger, double now);
  Ledger& ledger(std::size_t resource, std::size_t user) { return ledgers_[{resource, user}]; }

  const Scenario& scenario_;
  std::vector<std::size_t> tasks_per_user_;
  std::map<std::pair<std::size_t, std::size_t>, Ledger> ledgers_;
  std::set<std::pair<std::size_t, std::size_t>> submitted_, started_, ended_;   // (user, task)
  std::vector<double> charged_;                                                 // by user, cents, from on_charge
  std::vector<RunPropertyResult> results_;
  std::size_t checks_ = 0;
};

}  // namespace schedcheck::auction
