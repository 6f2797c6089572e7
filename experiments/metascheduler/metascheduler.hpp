// `schedcheck experiment metascheduler`: paper 000 sec. V (see metascheduler.cpp).
#pragma once

#include "experiments/experiment.hpp"

namespace schedcheck::experiments {

CatalogueEntry metascheduler_experiment();

}  // namespace schedcheck::experiments
