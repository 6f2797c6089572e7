// DBC broker policies as pure decision functions: decide(instance) -> Schedule. Paper 001: the Schedule Advisor's
// explicit allocation with its throughput-improving replacement, DBC cost-time optimisation, the baseline without
// DBC, and the dispatcher. Our reading of the ambiguous pseudo-code is in docs/policies.md. No Z3.
#pragma once

#include "model/dbc.hpp"

#include <cstddef>
#include <vector>

namespace schedcheck::dbc {

// Schedule Advisor / explicit allocation (paper 001 "Schedule Advisor (SA)", after Rose et al. 2008): jobs of the
// unassigned-jobs list in order, each crafted as a request on the PE where it is expected to finish first (all
// usable PEs of all resources, resources in file order; costs ignored), if it finishes by `limit`. A job that fits
// nowhere replaces the longest chosen job when that one is longer (same count, less work: throughput can only grow);
// the discarded job stays unassigned. With limit = min(Dabsolute, maxTr): policy `explicit-allocation`.
Schedule advise(const Instance& instance, double limit);
Schedule explicit_allocation(const Instance& instance);
// `no-optimization`, the paper's baseline: explicit allocation without DBC, i.e. the same advisor with the request
// limit maxTr only: Dabsolute and Babsolute are not looked at (so it may miss the deadline or exceed the budget).
Schedule no_optimization(const Instance& instance);

// DBC cost-time on the jobs `list` (in that order): resources grouped by equal cost per MI, groups in increasing
// cost; for each job, the first group in which its predicted completion (earliest free usable PE, given earlier
// assignments) is <= min(Dabsolute, maxTr) gets it, on the resource of earliest completion inside the group (ties:
// earlier available processing time, then file order) -- if its cost fits the remaining budget; otherwise (or if
// no group meets the deadline) the job stays unassigned.
Schedule dbc_assign(const Instance& instance, const std::vector<std::size_t>& list);
// `dbc-cost-time`: explicit allocation chooses the unassigned-jobs list (the jobs `explicit_allocation` keeps),
// then DBC cost-time schedules it.
Schedule dbc_cost_time(const Instance& instance);

// Dispatcher (paper 001 "Dispatcher policy"): dispatch size = min(ready jobs, PEs x maxJobsPerPE - jobs queued).
std::size_t dispatch_size(std::size_t ready, int pes, int max_jobs_per_pe, std::size_t queued);
// `dispatcher` on its own (no advisor): ready jobs in list order; at t = 0 and at every completion, each resource
// in file order receives dispatch_size jobs, which run FCFS on its earliest free usable PE. Deadline and budget are
// not looked at.
Schedule dispatcher(const Instance& instance);

}  // namespace schedcheck::dbc
