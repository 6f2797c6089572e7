// How to register your own policy and check it against the exact optimum with the registry API.
// Our own. Build: in the tree (target schedcheck_custom_policy), or as a project of its own against an installed
// schedcheck (CMakeLists.txt beside it: find_package(schedcheck)). Run: schedcheck_custom_policy INSTANCE.json.
// The policy here: accept bids by decreasing incentive per processor.
#include "counterexamples/builtin.hpp"
#include "model/input.hpp"
#include "model/sla.hpp"

#include <algorithm>
#include <iostream>
#include <numeric>

using namespace schedcheck;

// A decision function over the snapshot: the same shape as every built-in policy in reference/.
sla::Admission by_incentive_density(const sla::Instance& instance) {
  sla::Admission admission{std::vector<bool>(instance.bids.size(), false),
                           std::vector<double>(instance.bids.size(), 0.0)};
  std::vector<std::size_t> order(instance.bids.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto density = [&](std::size_t i) { return sla::incentive(instance.site, instance.bids[i]) / instance.bids[i].procs; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return density(a) > density(b); });
  int free = instance.site.free_processors;
  for (std::size_t i : order) {
    if (sla::eligible(instance.site, instance.bids[i]) && instance.bids[i].procs <= free) {
      admission.accepted[i] = true;
      free -= instance.bids[i].procs;
    }
  }
  return admission;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: schedcheck_custom_policy INSTANCE.json\n";
    return 2;
  }
  try {
    Registry registry = make_builtin_registry();
    auto& problem = registry.typed<sla::Instance, sla::Admission>("sla-admission");
    problem.add_policy({{"incentive-density", "our own example", "decreasing incentive per processor"},
                        by_incentive_density});
    CheckRequest request;
    request.policy = "incentive-density";
    const Report report = problem.check(read_json_file(argv[1]), argv[1], request);
    std::cout << report.to_json().dump(2) << "\n";
    return report.exit_code();
  } catch (const InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
