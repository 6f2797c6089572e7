// The heuristic plans of auction-bid (reference/auction_bid_policies.hpp). Our own.
#include "reference/auction_bid_policies.hpp"

#include "support/errors.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedcheck::auction_bid {

Plan uniform_min_bid(const Instance& instance) {
  std::vector<std::size_t> assign(instance.tasks.size(), kNoResource);
  std::size_t dealt = 0;
  for (std::size_t t = 0; t < instance.tasks.size(); ++t)
    if (instance.tasks[t].running_on == kNoResource) assign[t] = dealt++ % instance.resources.size();
  return cheapest_bids_plan(instance, std::move(assign));
}

Plan cheapest_greedy(const Instance& instance) {
  std::vector<std::size_t> assign(instance.tasks.size(), kNoResource), order;
  for (std::size_t t = 0; t < instance.tasks.size(); ++t)
    if (instance.tasks[t].running_on == kNoResource) order.push_back(t);
    else assign[t] = instance.tasks[t].running_on;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return instance.tasks[a].length > instance.tasks[b].length; });
  std::vector<double> load = loads(instance, assign);
  for (std::size_t t : order) {
    const double length = instance.tasks[t].length;
    std::size_t pick = kNoResource, roomiest = 0;
    double least = 0, most_room = -1;
    for (std::size_t r = 0; r < instance.resources.size(); ++r) {
      const double rise = cheapest_cost(instance, r, load[r] + length) - cheapest_cost(instance, r, load[r]);
      if (std::isfinite(rise) && (pick == kNoResource || rise < least)) {
        pick = r;
        least = rise;
      }
      const double room = max_load(instance, r) - load[r];
      if (room > most_room) {
        most_room = room;
        roomiest = r;
      }
    }
    assign[t] = pick == kNoResource ? roomiest : pick;
    load[assign[t]] += length;
  }
  return cheapest_bids_plan(instance, std::move(assign));
}

Plan recorded(const Instance& instance) {
  if (!instance.recorded)
    throw InputError("policy recorded: the instance records no plan (a \"recorded\" block, as `experiment auction` "
                     "writes: docs/auction-bid.md)");
  return instance.recorded->plan;
}

}  // namespace schedcheck::auction_bid
