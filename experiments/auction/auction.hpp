// `schedcheck experiment auction`: paper 003's scenario (Tables 1-2, Fig. 2-7) on the auction system: see auction.cpp
// and docs/experiments.md.
#pragma once

#include "experiments/experiment.hpp"

namespace schedcheck::experiments {

CatalogueEntry auction_experiment();

}  // namespace schedcheck::experiments
