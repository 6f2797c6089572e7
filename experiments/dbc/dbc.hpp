// `schedcheck experiment dbc`: paper 001's results (Tables 3-5, Fig. 2-5) on the Table 1 resources and the five
// Table 2 inputs: see dbc.cpp and docs/experiments.md.
#pragma once

#include "experiments/experiment.hpp"

namespace schedcheck::experiments {

CatalogueEntry dbc_experiment();

}  // namespace schedcheck::experiments
