// A dedicated exact method for a provider (paper 000 III-A's questions, answered exactly): branch-and-bound over
// active schedules for the earliest completion of k new tasks keeping every accepted deadline (the exact offer
// list) and for deadline feasibility (a schedule, or `infeasible` with a core of jobs). Our own. Tasks are placed one
// at a time in the order of their starts, each at its earliest start on the availability profile: every feasible
// schedule left-shifts to one built so (active schedules, Kolisch 1996), so the search is exact on any data; it is
// offered for data on a 1 ms grid (solver/offers_exact.hpp time_grid), where "no schedule one grid step earlier"
// proves an optimum. Each probe is searched over the instance's mirror image (time reversed: deadlines become release
// times) and forward, in turns. Once every remaining task is one processor wide (at the root when all are), the
// forward search decides the rest by machine assignment in deadline order (solver/offers_machines.hpp). Limits: at
// most kBnbMaxTasks tasks; the time limit; failed states kept in at most 4 x 64 MiB (two searches, two generations).
#pragma once

#include "model/offers.hpp"
#include "solver/offers_exact.hpp"
#include "solver/result.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::offers {

inline constexpr long long kBnbMaxTasks = 1000;  // waiting tasks plus new tasks: the search's depth (memory: a row a depth)
// `auto`: a probe (one bound of the descent, or the feasibility decision) that the search leaves open after
// kBnbProbeNodes nodes goes to the time-indexed SAT solver (solver/offers_sat.hpp) when that applies, for
// kSatFirstSeconds; then they take turns, each pair kHandoverGrowth times longer than the last, the search's
// kSearchTurnShare times as long as the solver's last while that is at most kSearchShareUpTo (else as long, and on the
// probe after one the solver decided in a later turn than its first). The solve --json chain lists the turns of the
// solver ("sat").
inline constexpr std::size_t kBnbProbeNodes = 20'000;
inline constexpr std::size_t kRelaxAfterNodes = 2'000;  // a probe's machine relaxation: after this many nodes of it,
inline constexpr std::size_t kRelaxNodes = 2'000;       // with at most this many of its own
inline constexpr std::size_t kMirrorTurnNodes = 2'000;  // a probe's search over the mirror image, then forward, as many
                                                        // each, then twice as many each
inline constexpr std::size_t kMachineNodesPerNode = 4;  // in budgets and turns, this many machine-search nodes count as one
inline constexpr int kBnbStreakDoublings = 4;  // kBnbProbeNodes doubles for each contested probe bnb won in a row, up to 16x
inline constexpr double kWonGrowth = 2;  // and a method's first turn after it decided a contested probe is at least
                                        // this many times what it took there (nodes or seconds)
inline constexpr double kSatFirstSeconds = 0.1;   // the solver's first turn
inline constexpr double kHandoverGrowth = 2;      // each further pair of turns is this many times longer
inline constexpr double kSearchTurnShare = 4;     // after a turn of the solver, the search's is this many times as long
inline constexpr double kSearchShareUpTo = 0.1;   // while the solver's turns are at most this long (seconds)
inline constexpr double kSearchLateShare = 0.25;  // and this many times as long after the solver's longer turns

// "" when the branch-and-bound applies to the instance with `new_tasks` new tasks, else why not (off the grid,
// too many tasks): the reason a chooser records before it falls back to Z3.
std::string bnb_not_applicable(const Instance& instance, long long new_tasks);
// A one-line description of the instance's grid and size, for a chooser's chain ("times on a 1 s grid, 23 tasks").
std::string bnb_applicable_why(const Instance& instance, long long new_tasks);

// c*(tasks): the earliest completion of `tasks` new tasks. `lower_bound` (a proven c* of fewer tasks, or now) ends
// the search when reached; `incumbents` (valid schedules with `tasks` new tasks, e.g. the policy's) bound it from
// above. Optimal only when the search space was exhausted within options.timeout_ms.
Completion earliest_completion_bnb(const Instance& instance, long long tasks, double lower_bound,
                                   const std::vector<Schedule>& incumbents, const SolveOptions& options);

// The exact offer list (quote max(D, c*(k)) per Delta count) within one time limit for the whole list. The counts
// share bounds: c* never decreases with k, and a schedule for more tasks, less its latest new tasks, is one for
// fewer; so the largest and smallest counts are solved first and a count between two equal optima needs no search.
// `incumbents`: valid offer lists (the policy's) whose per-count schedules are first upper bounds.
ExactResult<OfferList> exact_offers_bnb(const Instance& instance, const SolveOptions& options,
                                        const std::vector<OfferList>& incumbents);

// deadline-feasibility: optimal with a schedule meeting every deadline, or infeasible with a core (waiting job ids)
// that cannot all meet their deadlines: first the shortest infeasible prefix of the deadline order, then deletion
// (a job is dropped when the rest stays infeasible) within core_budget_ms; core_minimal when deletion finished.
// phase_seconds: "decision" and "core".
ExactResult<FeasibilityAnswer> feasibility_bnb(const Instance& instance, const SolveOptions& options);

// The machine relaxation of bnb's probes alone (offers_bnb.cpp): infeasible when even with every job w processors wide
// split into w one-processor tasks (no common start), on the processors as machines free from the running jobs'
// ends, no schedule meets every deadline with `new_tasks` new tasks finished by `bound`; feasible when the split
// tasks fit; unknown off the grid, beyond the sizes or at the time limit. A relaxation: the tests check that it never
// refutes an instance that has a schedule.
ExactStatus machine_relaxation(const Instance& instance, long long new_tasks, double bound,
                               const SolveOptions& options);

// The search of bnb's probes over the mirror image of the instance alone (offers_bnb.cpp, class Search): feasible with
// a schedule (in the instance's own times) meeting every deadline with `new_tasks` new tasks finished by `bound`
// (`bound` unused without new tasks), infeasible when there is none, unknown off the grid or at the time limit. For
// the tests: bnb runs it in turns with the forward search.
Completion mirror_probe(const Instance& instance, long long new_tasks, double bound, const SolveOptions& options);

// The default exact methods (`auto`): per instance, the fastest method that applies, with the chain of what ran and
// why (ExactResult::chain). `offers`: bnb when it applies, else Z3 (earliest_completion_z3 per count).
// `deadline-feasibility`: the policy's schedule when it meets every deadline (objective 1 is the maximum: nothing is
// left to prove), else bnb when it applies, else Z3 (an unsat core).
ExactResult<OfferList> exact_offers_auto(const Instance& instance, const SolveOptions& options,
                                         const std::vector<OfferList>& incumbents);
ExactResult<FeasibilityAnswer> feasibility_auto(const Instance& instance, const SolveOptions& options,
                                                const std::vector<FeasibilityAnswer>& incumbents);

}  // namespace schedcheck::offers
