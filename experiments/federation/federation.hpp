// `schedcheck experiment federation`: paper 004's Experiments 1 and 2 over the contract net of contract_net.hpp: see
// federation.cpp and docs/experiments.md.
#pragma once

#include "experiments/experiment.hpp"

namespace schedcheck::experiments {

CatalogueEntry federation_experiment();

}  // namespace schedcheck::experiments
