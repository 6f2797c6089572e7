// Paper 000's system online on the simulation kernel: one actor per resource provider (an EDF cluster that admits its
// local jobs with FEEDBACK deadlines and answers the metascheduler with offers, or with its free time slots) and the
// metascheduler actor, which asks every provider about each external Bag-of-Tasks and splits it with a composition
// policy of reference/compose_policies.hpp, unchanged. Paper 000 sec. III-V; the actors are our own realisation of
// PaJFit's. The readings of system.settings (dispatch, fts_part_deadline) are named in model/metascheduler.hpp.
// Limits: no message latency; a provider plans with estimates and jobs run their (shorter) run times.
#pragma once

#include "model/compose.hpp"
#include "model/metascheduler.hpp"
#include "model/offers.hpp"
#include "properties/decision_probe.hpp"
#include "properties/registry.hpp"
#include "simulation/kernel.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace schedcheck::metascheduler {

struct RunSpec {
  std::string policy;              // an offer-composition policy; "free-time-slots": providers publish their slots
  bool check = true;               // decisions checked (compositions: every one; offer lists: every offers_every-th)
};

using CompositionProbe = DecisionProbe<compose::Instance, compose::Composition>;
using OffersProbe = DecisionProbe<offers::Instance, offers::OfferList>;

struct ProviderCounts {
  std::size_t admissions = 0;        // local jobs admitted (each with its FEEDBACK deadline when D cannot be kept)
  std::size_t offer_lists = 0;       // offer lists (or slot lists) sent
  std::size_t replans = 0;           // EDF re-plans after a job ended before its estimate
  // Times EDF, re-run from scratch on the accepted work, would miss an accepted deadline (list scheduling is not
  // monotone): the provider then keeps its committed plan and places new work at its earliest fits in it.
  std::size_t edf_fallbacks = 0;
  // Local jobs and BoT tasks the work-conserving dispatch started before their planned start (early_starts).
  std::size_t early_starts = 0;
};

struct MetaRun {
  RunLog log;
  sim::KernelStats stats;
  std::unique_ptr<CompositionProbe> compositions;  // with spec.check
  std::unique_ptr<OffersProbe> offer_lists;        // with spec.check, offers_every > 0 and an offer-based policy
  ProviderCounts providers;                        // summed over the providers
  std::size_t offer_list_violations = 0;           // offer lists the offers validator rejects (checked on every one)
  std::string first_offer_list_violation;
  bool interrupted = false;
};

// Runs the system over `jobs` (with deadlines) until every job has finished. `registry` gives the policies and the
// `offer-composition` and `offers` problems the probes check with. Stops early on a stop request (then `interrupted`).
MetaRun run_system(const System& system, std::vector<Job> jobs, const RunSpec& spec, const Registry& registry);

// The work-conserving dispatch (Dispatch::kWorkConserving): what starts now, early, on a provider whose running and
// waiting work is `state` and whose committed plan is `plan` (a schedule of `state`). The waiting jobs in EDF order
// (deadline, then arrival); a job, or each task of a BoT part from its earliest planned start on, starts now when it
// fits over [now, now + runtime) in the committed profile (running jobs to their estimated ends, every waiting task
// at its planned start) with its own planned hold given back. No other committed start moves and a job started
// earlier finishes earlier, so every accepted deadline stays kept. Starts within kTimeTolerance of now are the plan's
// own, not early. Returns, by waiting job, how many of its tasks start now early (the earliest planned after those
// the plan starts now).
std::vector<long long> early_starts(const offers::Instance& state, const offers::Schedule& plan);

// A job's name in messages and corpus files: "cluster-2:1234" for a local job, "bot:567" for an external one.
std::string job_name(const System& system, const Job& job);

}  // namespace schedcheck::metascheduler
