// Registration of `auction-bid`: paper 003 sec. 3.2 and 4 (a broker's bids on auction-based proportional-share
// resources at a bidding-interval boundary): the cheapest placement and bids that meet the deadline, checked by a
// branch and bound on the closed form of the cheapest bid, an enumeration with bisected bids and a Z3 formulation.
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/auction_bid_generator.hpp"
#include "model/auction_bid.hpp"
#include "properties/auction_bid_properties.hpp"
#include "reference/auction_bid_policies.hpp"
#include "solver/auction_bid_bnb.hpp"
#include "solver/auction_bid_enumeration.hpp"
#include "solver/auction_bid_z3.hpp"

#include <fmt/format.h>

namespace schedcheck::problems {

std::unique_ptr<Problem> auction_bid() {
  using namespace schedcheck::auction_bid;
  ProblemSpec<Instance, Plan> spec;
  spec.name = "auction-bid";
  spec.source = "paper 003 sec. 3.2 (Eq. 1-3: proportional shares, bid bounds, charges) and sec. 4 (the broker "
                "bids so that tasks finish by the deadline D)";
  spec.summary = "place every task and bid on each resource so that all work finishes by the deadline at the least "
                 "charge, the other users' bids held fixed";
  spec.instance_kind = kInstanceKind;
  spec.sense = Sense::kMinimise;
  spec.objective_name = "the total charge (cents)";
  spec.read = read_instance;
  spec.write = write_instance;
  spec.validate = validate;
  spec.describe = write_plan;
  spec.read_decision = read_plan;
  spec.decision_schema = object_schema(
      "auction-bid decision",
      {{"assign", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}},
                   {"description", "the resource's name for every task, keyed by the task's id"}}},
       {"bids", {{"type", "object"}, {"additionalProperties", {{"type", "number"}, {"minimum", 0}}},
                 {"description", "cents per minute on every resource with work, keyed by its name"}}},
       {"summary", {{"type", "string"}, {"description", "ignored"}}}},
      {"assign", "bids"});
  spec.size = [](const Instance& i) { return i.tasks.size(); };
  spec.instance_name = [](const Instance& i) { return i.name; };
  spec.policies = {
      {{"uniform-min-bid", "our own (a yardstick for paper 003's brokers)",
        "free tasks dealt round-robin over the resources, each resource bidding the least bid that finishes its load "
        "in time (the closed form)"},
       uniform_min_bid},
      {{"cheapest-greedy", "our own (a yardstick for paper 003's brokers)",
        "free tasks longest first, each to the resource whose cheapest charge rises least; bids by the closed form"},
       cheapest_greedy},
      {{"recorded", "paper 003's brokers, as taken in `experiment auction`",
        "the plan the instance records: a broker's placement and bids at one period, held (its corpus files re-check "
        "it)"},
       recorded, "recorded"},
  };
  ExactSpec<Instance, Plan> bnb{{"bnb", "our own (the closed form of the cheapest bid; a Lagrangian bound)",
                                 fmt::format("branch and bound over the free tasks, longest first; at most {} nodes",
                                             kMaxBnbNodes)},
                                [](const Instance& i, const SolveOptions& o) { return solve_bnb(i, o); }};
  bnb.solve_from = solve_bnb;
  spec.exact = {
      std::move(bnb),
      {{"enumeration", "our own (no closed form: each cheapest bid by bisection on the bid)",
        fmt::format("every placement of at most {} free tasks and {:g} placements", kMaxEnumeratedTasks,
                    kMaxEnumeratedPlacements)},
       solve_enumeration},
      {{"z3", "our own (no closed form: Eq. 1-3 as nonlinear real constraints)",
        fmt::format("placement Booleans, real bids, shares and charges; iterative tightening; at most {} free tasks x "
                    "resources",
                    kZ3MaxPlacementVars)},
       solve_z3},
  };
  spec.properties = properties();
  spec.generator.settings =
      "1 to 5 resources of paper 003's Table 1 (4 x 1050 MIPS or 1 x 684), bids [5, 500] / [1, 100] or drawn, 0 to 3 "
      "other users bidding within the bounds, foreign 0.3, capacity total 0.2; U{1..size} tasks (size 0: 12) of "
      "U{50000..800000} MI, a running one per resource 0.3; time_left = max(work / the task caps, longest / the "
      "largest cap) x U(0.7, 3) "
      "(counterexamples/auction_bid_generator.hpp)";
  spec.generator.generate = generate_instance;
  spec.generator.shrink = shrink_candidates;
  return std::make_unique<TypedProblem<Instance, Plan>>(std::move(spec));
}

}  // namespace schedcheck::problems
