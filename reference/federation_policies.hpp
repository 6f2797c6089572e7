// The contract net's rules as pure functions (paper 004 sec. 2 and 3.1, Algorithm 1): the federation directory's
// order of contractors (OFT: fastest first; OFC: cheapest first), its answer to the k-th query for a job, and tau,
// the next SLA bid interval (Eq. 2-3). Readings (docs/policies.md): the home cluster is in the directory at its rank;
// the directory returns only clusters that can meet the job's SLA (p <= p_m and D(J,R_m) <= de).
#pragma once

#include "model/federation.hpp"

#include <optional>
#include <vector>

namespace schedcheck::federation {

// Cluster indices fastest first (MIPS, decreasing) or cheapest first (quote, increasing); ties by index. With `home`,
// that cluster first and the others in that order (the reading "bid locally first", Settings::home_first).
std::vector<std::size_t> directory_order(const std::vector<Cluster>& clusters, Objective objective,
                                         std::optional<std::size_t> home = std::nullopt);
// Whether cluster m can meet the job's SLA at all: p <= p_m and D(J, R_m) <= de (Algorithm 2 line 1.40), and
// b >= B(J, R_m) with `budget_test`.
bool can_meet(const Cluster& cluster, const Job& job, const Terms& terms, bool budget_test = false);
// The directory's answer to the manager's `rank`-th query (from 0): the rank-th cluster of `order` that can meet the
// job's SLA; nullopt when no such cluster is left (the job is dropped).
std::optional<std::size_t> directory_answer(const std::vector<Cluster>& clusters, const std::vector<std::size_t>& order,
                                            const Job& job, const Terms& terms, std::size_t rank, bool budget_test = false);
// tau (Eq. 2): the next bid interval, half of the SLA bid time not yet given, (t_neg - given) / 2; rounded down to a
// whole second when `integer` (tau maps into Z+, Eq. 3). 0 means the contractor decides at once.
double bid_interval(double t_neg, double given, bool integer);

}  // namespace schedcheck::federation
