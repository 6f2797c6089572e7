// Properties of an auction-bid plan (model/auction_bid.hpp): bids within Eq. 2's bounds, the deadline met whenever
// some plan meets it, the charge as Eq. 3 bills it interval by interval (paper 003 sec. 3.2), and the cost against
// the exact optimum (cost-optimal-within, not-above-optimum). Our own wording.
#pragma once

#include "model/auction_bid.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::auction_bid {

// The charge of a plan as the auctioneer bills it: on each resource with work, ceil(T_r / interval) intervals, each
// billed by auction::interval_charge (Eq. 3 with the surcharge) for the seconds the user ran in it.
double billed_charge(const Instance& instance, const Plan& plan);

std::vector<PropertySpec<Instance, Plan>> properties();

}  // namespace schedcheck::auction_bid
