// The brokers of paper 003 as pure decisions over the broker's snapshot (model/auction_broker.hpp), called at the
// user's start and every period P: Global Domain (sec. 4.1: Eq. 4 initial bid, submission to all resources, Eq. 5-6
// re-bidding), Local Domain (sec. 4.2: kappa = m div n tasks to each local resource, the List, the D/2 switch) and
// No-Opt (sec. 5: uniform submission, one bid throughout). No clock, no state: what they need the snapshot holds.
#pragma once

#include "model/auction_broker.hpp"

#include <functional>
#include <string>
#include <vector>

namespace schedcheck::auction {

// Eq. 4: est_time = avgLength x PE_slowest / C_slowest over the snapshot's resources and pending tasks.
double estimated_time(const BrokerSnapshot& snapshot);
// Eq. 4's initial bid on a resource: maxBid_r when est_time exceeds `time` (D at the start), else avgBid_r =
// (minBid_r + maxBid_r) / 2.
double initial_bid(const ResourceView& resource, double est_time, double time);
// Sec. 4.1.4: time = (D + start_time) - now.
double time_left(const BrokerSnapshot& snapshot);
// Eq. 6 and the three cases of sec. 4.1.4: the bid to send on a resource whose tasks would finish in `finish_time`
// (Eq. 5) with `time` left: B_r kept when time / 2 < finish_time < time, finish_time / time x B_r otherwise,
// maxBid_r once D has passed (time <= 0); clamped to [minBid_r, maxBid_r].
double rebid(const ResourceView& resource, double finish_time, double time);

BrokerDecision global_domain(const BrokerSnapshot& snapshot);
BrokerDecision local_domain(const BrokerSnapshot& snapshot);
// The other reading of "sufficient time": List tasks join a resource only while its finish_time stays within time / 2
// (no bid increase needed).
BrokerDecision local_domain_half(const BrokerSnapshot& snapshot);
BrokerDecision no_opt(const BrokerSnapshot& snapshot);

struct BrokerPolicy {
  std::string name;
  std::string source;
  std::string summary;
  bool needs_bid = false;   // bids the user's fixed bid of Table 2 (a scenario user without one is refused)
  std::function<BrokerDecision(const BrokerSnapshot&)> decide;
};
std::vector<BrokerPolicy> broker_policies();
BrokerPolicy broker_policy(const std::string& name);  // throws std::invalid_argument naming the known ones
std::vector<std::string> broker_policy_names();
std::vector<std::string> brokers_needing_bid();

}  // namespace schedcheck::auction
