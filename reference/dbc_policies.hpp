// DBC broker policies as pure decision functions: decide(instance) -> Schedule. Paper 001: the Schedule Advisor's
// explicit allocation with its throughput-improving replacement, DBC cost-time optimisation (as the prose orders its
// loops, and the variants of docs/policies.md "Readings"), the baseline without DBC, and the dispatcher. Requests
// follow the model's lanes (model/dbc.hpp Clock). Our reading of the ambiguous pseudo-code is in docs/policies.md.
#pragma once

#include "model/dbc.hpp"

#include <cstddef>
#include <vector>

namespace schedcheck::dbc {

// Schedule Advisor / explicit allocation (paper 001 "Schedule Advisor (SA)", after Rose et al. 2008): jobs of the
// unassigned-jobs list `list` in order, each crafted as a request on the PE where it is expected to finish first
// (Clock::earliest over all resources; ties: earlier start, then file order; costs ignored), if it may run there (duration <= maxTr) and
// finishes by `limit`. A job j that fits nowhere may replace the longest chosen job q when q is longer: under
// readings.advisor "throughput" (default) only when, with j in q's place, some job passed over earlier then fits too
// (the number of chosen jobs grows); under "less-work" always (same count, less work). A discarded job stays
// unassigned. With limit = horizon(): policy `explicit-allocation` (file order).
Schedule advise(const Instance& instance, const std::vector<std::size_t>& list, double limit);
Schedule explicit_allocation(const Instance& instance);
// `no-optimization`, the paper's baseline: explicit allocation without DBC, i.e. the same advisor with the request
// limits only (request_horizon()): Dabsolute and Babsolute are not looked at (so it may miss both).
Schedule no_optimization(const Instance& instance);

// DBC cost-time's two loop orders (paper 001 "DBC with cost time optimization" vs its algorithm listing).
enum class LoopOrder {
  kGroupsOuter,  // the prose: "For each resource group ... each job in the unassigned jobs list is considered"
  kJobsOuter,    // the listing's "Repeat the following steps for each job": a job tries every group in turn
};
// DBC cost-time on the jobs `list` (in that order): resources grouped by equal cost per MI, groups in increasing
// cost. A job goes to a group if its predicted completion there (Clock::earliest on each resource of the group,
// given the earlier assignments; the resource of earliest completion, ties: earlier start, then file order) meets
// horizon() (Dabsolute, and maxTr under max_tr "horizon") and its cost fits what is left of Babsolute.
// kGroupsOuter: group by group, every job still unassigned in list order. kJobsOuter: job by job, the first group
// that meets the deadline decides (over budget there means over budget in every costlier group: unassigned).
Schedule dbc_assign(const Instance& instance, const std::vector<std::size_t>& list, LoopOrder order);
// Explicit allocation on `list` chooses the jobs; DBC cost-time schedules them in `list` order.
Schedule advise_then_dbc(const Instance& instance, const std::vector<std::size_t>& list, LoopOrder order);
// `dbc-cost-time`: file order, groups outer (the prose).
Schedule dbc_cost_time(const Instance& instance);
// `dbc-cost-time-jobs-outer`: file order, jobs outer (the listing's loop, a reading).
Schedule dbc_cost_time_jobs_outer(const Instance& instance);
// `dbc-cost-time-local-first`: local jobs first in the list (local_first_order), groups outer.
Schedule dbc_cost_time_local_first(const Instance& instance);

// Dispatcher (paper 001 "Dispatcher policy"): dispatch size = min(ready jobs, PEs x maxJobsPerPE - jobs queued).
std::size_t dispatch_size(std::size_t ready, int pes, int max_jobs_per_pe, std::size_t queued);
// `dispatcher` on its own (no advisor): ready jobs in list order; at t = 0 and at every completion, each resource
// in file order receives dispatch_size jobs, which run FCFS on its earliest PE (Clock). Deadline, budget and maxTr
// are not looked at.
Schedule dispatcher(const Instance& instance);

}  // namespace schedcheck::dbc
