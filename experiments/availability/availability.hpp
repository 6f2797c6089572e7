// `schedcheck experiment availability`: paper 002 sec. 5 (see availability.cpp).
#pragma once

#include "experiments/experiment.hpp"

namespace schedcheck::experiments {

CatalogueEntry availability_experiment();

}  // namespace schedcheck::experiments
