// The backfilling experiment (paper-independent: the first floor every paper's system stands on): see
// backfilling.cpp and docs/experiments.md.
#pragma once

#include "experiments/experiment.hpp"

namespace schedcheck::experiments {

CatalogueEntry backfilling_experiment();

}  // namespace schedcheck::experiments
