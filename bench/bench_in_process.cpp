// The baseline of bench/external_policy.sh: `search sla-admission` at n = 10 with a trivial policy registered in
// process through the C++ API (TypedProblem::add_policy: accept nothing), the same decisions the trivial external
// policies return, so that the difference per check is what the external path itself costs. Our own.
// Usage: schedcheck_bench_in_process TRIALS  (prints the search summary as JSON)
#include "counterexamples/builtin.hpp"
#include "counterexamples/search.hpp"
#include "model/sla.hpp"

#include <cstdlib>
#include <iostream>

using namespace schedcheck;

int main(int argc, char** argv) {
  Registry registry = make_builtin_registry();
  auto& problem = registry.typed<sla::Instance, sla::Admission>("sla-admission");
  problem.add_policy({{"accept-nothing", "our own (benchmark)", "an empty acceptance"}, [](const sla::Instance& i) {
                        return sla::Admission{std::vector<bool>(i.bids.size(), false), std::vector<double>(i.bids.size(), 0.0)};
                      }});
  SearchOptions options;
  options.problem = "sla-admission";
  options.check.policy = "accept-nothing";
  options.trials = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20000;
  options.size = 10;
  options.seed = 1;
  options.max_counterexamples = 0;
  std::cout << summary_json(search(problem, options), options).dump() << "\n";
}
