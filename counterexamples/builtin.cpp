// The one list of built-in problems (see builtin.hpp). Each problem's registration is a file of its own in
// counterexamples/problems/ (problems.hpp names them); adding a problem is one file there and one line here.
#include "counterexamples/builtin.hpp"

#include "counterexamples/problems/problems.hpp"

namespace schedcheck {

Registry make_builtin_registry() {
  Registry registry;
  registry.add(problems::sla_admission());
  registry.add(problems::sla_admission_timed());
  registry.add(problems::offers());
  registry.add(problems::deadline_feasibility());
  registry.add(problems::offer_composition());
  registry.add(problems::dbc_cost_time());
  registry.add(problems::queue_window());
  registry.add(problems::cluster_run());
  registry.add(problems::slot_report());
  registry.add(problems::gateway_choice());
  registry.add(problems::auction_bid());
  return registry;
}

}  // namespace schedcheck
