// Properties of auction-bid (properties/auction_bid_properties.hpp). Paper 003 sec. 3.2 (Eq. 2, Eq. 3); our own.
#include "properties/auction_bid_properties.hpp"

#include <fmt/format.h>

#include <cmath>

namespace schedcheck::auction_bid {

namespace {

// Relative agreement asked of the billed charge and the validator's.
constexpr double kChargeAgreement = 1e-9;

}  // namespace

double billed_charge(const Instance& instance, const Plan& plan) {
  const std::vector<double> load = loads(instance, plan.assign);
  double total = 0;
  for (std::size_t r = 0; r < instance.resources.size() && r < plan.bids.size(); ++r) {
    if (load[r] <= 0) continue;
    const Resource& res = instance.resources[r];
    const double bid = plan.bids[r];
    // The user's share from Eq. 1 against the others' bids, and the seconds its tasks run one after another.
    const double s = auction::share_against(bid, res.others_bid, auction::total_mips(res.spec, instance.capacity),
                                            auction::task_mips_cap(res.spec, instance.capacity));
    const double seconds = load[r] / s;
    const double intervals = std::ceil(seconds / instance.interval);
    const double last = seconds - (intervals - 1) * instance.interval;  // seconds used in the last interval
    total += (intervals - 1) * auction::interval_charge(bid, instance.interval, instance.interval, res.foreign) +
             auction::interval_charge(bid, last, instance.interval, res.foreign);
  }
  return total;
}

std::vector<PropertySpec<Instance, Plan>> properties() {
  PropertySpec<Instance, Plan> deadline;
  deadline.name = "deadline-met-when-affordable";
  deadline.source = "paper 003 sec. 4 (the broker's aim: every task done by the deadline D); our own";
  deadline.summary = "the plan finishes every resource's work by time_left whenever some plan within the bid bounds "
                     "does (the exact method found one)";
  deadline.needs_optimum = true;
  deadline.check = [](const CheckContext<Instance, Plan>& c) {
    const std::string missed = deadline_violation(c.instance, c.decision);
    if (missed.empty()) return PropertyResult{"", PropertyStatus::kHolds, "every resource finishes in time"};
    if (c.optimum->status == ExactStatus::kInfeasible)
      return PropertyResult{"", PropertyStatus::kHolds, "no plan meets the deadline (" + c.optimum->detail + ")"};
    if (!c.optimum->decision)
      return PropertyResult{"", PropertyStatus::kUndecided, missed + "; no exact answer: " + c.optimum->detail};
    return PropertyResult{"", PropertyStatus::kFails,
                          fmt::format("{}, yet a plan of cost {:.9g} meets it", missed, c.optimum->objective)};
  };
  PropertySpec<Instance, Plan> charged;
  charged.name = "cost-as-charged";
  charged.source = "paper 003 sec. 3.2 Eq. 3 (the charge per bidding interval) and sec. 5.1 (the 20% surcharge)";
  charged.summary = "the plan's cost is what the auctioneer bills: the sum over ceil(T_r / interval) intervals of "
                    "min(used / interval, 1) x bid x interval minutes, +20% for a foreign user";
  charged.check = [](const CheckContext<Instance, Plan>& c) {
    if (!c.feasible) return infeasible_decision();
    const double billed = billed_charge(c.instance, c.decision);
    const bool agree = std::abs(billed - c.objective) <= kChargeAgreement * std::max(1.0, std::abs(c.objective));
    return PropertyResult{"", agree ? PropertyStatus::kHolds : PropertyStatus::kFails,
                          fmt::format("billed {:.12g} cents, the validator's cost {:.12g}", billed, c.objective)};
  };
  PropertySpec<Instance, Plan> within = optimal_within_property<Instance, Plan>();
  within.name = "cost-optimal-within";
  within.summary = "the plan costs at most (1 + --tolerance) x the cheapest plan that meets the deadline";
  // The plan's own deadline, whether or not any plan meets it: what a run measures of a broker (a broker's plan at a
  // deadline no bid can meet misses it by necessity, and the run says so, not a violation).
  PropertySpec<Instance, Plan> met = violation_property<Instance, Plan>(
      "deadline-met", "paper 003 sec. 4 (the broker's aim: every task done by the deadline D)",
      "every resource finishes its work within time_left at the plan's bids", deadline_violation);
  return {
      std::move(met),
      violation_property<Instance, Plan>(
          "bid-within-bounds", "paper 003 sec. 3.2 Eq. 2 (minB_r <= B_i <= maxB_r)",
          "every resource with work has a bid, and every bid lies within the resource's bounds",
          [](const Instance& i, const Plan& p) {
            const std::string placed = assignment_violation(i, p);
            return placed.empty() ? bid_violation(i, p) : placed;
          }),
      std::move(deadline),
      std::move(charged),
      std::move(within),
      not_above_optimum_property<Instance, Plan>(),
  };
}

}  // namespace schedcheck::auction_bid
