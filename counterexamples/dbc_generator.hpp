// Seeded random DBC broker instances, the paper's Table 1 resources, the Table 2 load split, and shrinking
// candidates. Our own; Table 1 and Table 2 are paper 001's. Settings (SplitMix64 from the seed, 2-3 decimals):
//   jobs n = size, length ~ U[20, 300) MI, origin local with probability 0.5; resources m ~ U{2..4},
//   PEs ~ U{1..3}, MIPS ~ U{10..20}, cost per MI from {50, 60, 70, 150, 200, 300, 400}, or (probability 0.3) the
//   previous resource's cost, so equal-cost groups occur; Dfactor ~ U[0.02, 0.5), Bfactor ~ U[0, 1);
//   with probability 0.2, maxProc ~ U{1..2} and maxPendingRequests ~ U{1..2}; with probability 0.3, maxTr ~
//   U[0.25, 1) x Dabsolute (0.01 s grid), so that a PE runs several requests. Readings: the defaults.
#pragma once

#include "model/dbc.hpp"

#include <cstdint>
#include <vector>

namespace schedcheck::dbc {

Instance generate_instance(std::uint64_t seed, std::size_t jobs);
// Simpler instances, most aggressive first: drop a job or a resource, fewer PEs, rounder numbers, no request
// limits or maxTr, a rounder maxTr, the derived deadline/budget written as absolute numbers (so later drops keep
// them). All valid.
std::vector<Instance> shrink_candidates(const Instance& instance);

// Paper 001 Table 1: R1..R10 with PEs, MIPS per PE and cost (read as G$ per MI, as the text says).
std::vector<Resource> paper_table1_resources();
// Splits a total load into n job lengths: weights w_i ~ U[0.5, 1.5) from SplitMix64(seed), l_i = total w_i / sum w
// rounded to 0.01 MI, the last job taking the rounding remainder so the lengths add up to `total` (to 0.01).
std::vector<double> split_load(double total, std::size_t n, std::uint64_t seed);

}  // namespace schedcheck::dbc
