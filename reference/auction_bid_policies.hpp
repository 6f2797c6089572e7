// Heuristic plans for an `auction-bid` snapshot (model/auction_bid.hpp), the yardsticks of the brokers of paper 003
// sec. 4: pure functions of the snapshot, no solver. Both bid the closed form's cheapest bid for each resource's load
// (model/auction_bid.hpp), so a gap to the optimum is the placement's alone. Our own.
#pragma once

#include "model/auction_bid.hpp"

namespace schedcheck::auction_bid {

// `uniform-min-bid`: the free tasks dealt round-robin over the resources in file order (task i to resource
// i mod R), running tasks where they run; each resource bids the least bid that finishes its load in time.
Plan uniform_min_bid(const Instance& instance);
// `cheapest-greedy`: the free tasks longest first (file order on a tie), each to the resource whose cheapest charge
// rises least (the first on a tie); a task no resource can take in time goes where the most room is left.
Plan cheapest_greedy(const Instance& instance);
// `recorded`: the plan the instance records (a decision taken in a run); throws InputError when it records none
// (its registration says so: `suite` runs it only on instances that record one).
Plan recorded(const Instance& instance);

}  // namespace schedcheck::auction_bid
