// The catalogue of experiments: one entry a paper's system (and the backfilling floor). Our own. Adding one: a
// folder under experiments/, an entry function, one line here (docs/experiments.md).
#include "experiments/experiment.hpp"

#include "experiments/auction/auction.hpp"
#include "experiments/availability/availability.hpp"
#include "experiments/backfilling/backfilling.hpp"
#include "experiments/dbc/dbc.hpp"
#include "experiments/federation/federation.hpp"
#include "experiments/metascheduler/metascheduler.hpp"
#include "model/input.hpp"

#include <stdexcept>

namespace schedcheck::experiments {

const std::vector<CatalogueEntry>& catalogue() {
  static const std::vector<CatalogueEntry> all = {backfilling_experiment(), federation_experiment(),
                                                   metascheduler_experiment(), dbc_experiment(),
                                                   availability_experiment(), auction_experiment()};
  return all;
}

const CatalogueEntry& find(const std::string& name) {
  std::vector<std::string> known;
  for (const auto& e : catalogue()) {
    if (e.name == name) return e;
    known.push_back(e.name);
  }
  throw std::invalid_argument("unknown experiment '" + name + "' (known: " + joined(known) + "; schedcheck experiment --list)");
}

}  // namespace schedcheck::experiments
