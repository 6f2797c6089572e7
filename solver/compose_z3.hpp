// Offer composition in Z3 with lexicographic optimisation: per provider at most one offer (Booleans use_p_j) and a
// task count x_p <= the chosen offer's size, sum x_p = n; minimise the BoT completion C, then a secondary objective.
// Our encoding of paper 000 section IV's composition problem; `delay` follows Eq. V.1. Fine to ~10 x 5 in < 1 s.
#pragma once

#include "model/compose.hpp"
#include "solver/result.hpp"

namespace schedcheck::compose {

enum class Secondary {
  kBalance,    // the largest share x_p / size of the offer used
  kProviders,  // the number of providers used (clusters per BoT)
  kDelay,      // sum over parts of x_p ((C_p - T_s) / (D - T_s) - 1) 100 when C_p > D (Eq. V.1 per part)
};

ExactResult<Composition> solve_z3(const Instance& instance, const SolveOptions& options, Secondary secondary);

}  // namespace schedcheck::compose
