// Registration of `queue-window`: a snapshot of one cluster's queue (docs/simulation.md), FCFS, EASY
// and conservative backfilling played forward on it, against the exact optimum of the window.
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/window_generator.hpp"
#include "model/queue_window.hpp"
#include "properties/window_properties.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/window.hpp"
#include "solver/queue_window_exact.hpp"

namespace schedcheck::problems {

std::unique_ptr<Problem> queue_window() {
  using namespace window;
  ProblemSpec<Instance, Schedule> spec;
  spec.name = "queue-window";
  spec.source = "our own (the queue of one cluster at a scheduling pass; policies of Lifka 1995, Mu'alem & Feitelson 2001)";
  spec.summary = "start the first waiting jobs of a cluster around its running jobs, minimising the objective the "
                 "instance names (bounded-slowdown sum, wait sum or makespan)";
  spec.instance_kind = kInstanceKind;
  spec.sense = Sense::kMinimise;
  spec.objective_name = "the instance's objective (bounded-slowdown sum, wait sum or makespan from now)";
  spec.read = read_instance;
  spec.write = write_instance;
  spec.validate = validate;
  spec.describe = write_schedule;
  spec.read_decision = read_schedule;
  spec.decision_schema = object_schema(
      "queue-window decision",
      {{"start", {{"type", "object"}, {"additionalProperties", {{"type", "number"}}},
                  {"description", "absolute start time of every waiting job, keyed by its id"}}},
       {"summary", {{"type", "string"}, {"description", "ignored"}}}},
      {"start"});
  spec.size = [](const Instance& i) { return i.waiting.size(); };
  spec.instance_name = [](const Instance& i) { return i.name; };
  for (const cluster::ClusterPolicy& policy : cluster::cluster_policies())
    spec.policies.push_back({{policy.name, policy.source,
                              policy.summary + "; played forward on the window (no arrivals, estimates exact)"},
                             [policy](const Instance& i) { return sim::play_forward(i, policy); }});
  spec.exact = {
      {{"bnb", "our own (Kolisch 1996: active schedules; branch and bound)",
        "from the policy's decision: depth-first search over active schedules in start order, bounded by each "
        "remaining job's cost at its earliest start, states seen before cut, same-shape jobs in submit order"},
       [](const Instance& i, const SolveOptions& o) { return solve_bnb(i, o); },
       [](const Instance& i, const SolveOptions& o, const std::vector<Schedule>& from) { return solve_bnb(i, o, from); }},
      {{"sequences", "our own (Kolisch 1996: active schedules; branch and bound)",
        "serial schedule generation over every job order, bounded by each job's cheapest start; up to 12 jobs"},
       solve_sequences},
      {{"gecode", "our own (Gecode cumulative, BAB)",
        "CP model with the running jobs as fixed tasks; whole seconds; slowdown scaled to integers when it fits"},
       solve_gecode},
  };
  spec.properties = properties();
  spec.generator.settings =
      "n waiting jobs; P in {4, 8, 16}; now 1000; 0-3 running jobs (U{1..P/2} procs, U{1..100} s left); submits "
      "now - U{0..500}; procs U{1..P/4} or U{1..P}; estimates U{1..100}; objective bounded-slowdown 60%, wait or "
      "makespan 20% each (counterexamples/window_generator.hpp)";
  spec.generator.generate = generate_instance;
  spec.generator.shrink = shrink_candidates;
  return std::make_unique<TypedProblem<Instance, Schedule>>(std::move(spec));
}

}  // namespace schedcheck::problems
