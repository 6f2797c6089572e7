// Paper 000's providers and metascheduler on the kernel (see providers.hpp): EDF admission with FEEDBACK (III-A),
// offer lists Phi (III-A steps 1-4) or free time slots (III-B), composition (IV, V) and the providers' plans, with
// the dispatch and FreeTimeSlots part-deadline readings of model/metascheduler.hpp.
#include "experiments/metascheduler/providers.hpp"

#include "reference/compose_policies.hpp"
#include "reference/offers_policies.hpp"
#include "simulation/job_source.hpp"
#include "simulation/space_shared.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace schedcheck::metascheduler {

// The actors in a named namespace: a using-directive for the enclosing one (an experiment's, in a unity batch with
// this file) does not reach them.
namespace actors {
namespace {

// The committed plan on the availability profile: the running jobs to their estimated ends, every waiting task at its
// planned start (`plan`, a schedule of `state`).
AvailabilityProfile plan_profile(const offers::Instance& state, const offers::Schedule& plan) {
  AvailabilityProfile profile = offers::running_profile(state);
  for (std::size_t i = 0; i < state.waiting.size(); ++i)
    for (const double start : plan.starts[i])
      profile.reserve(start, start + state.waiting[i].runtime, state.waiting[i].procs);
  return profile;
}

// What the actors' timers fall due for, with the job or execution.
enum Due : std::uint64_t { kArrive = 0, kEnd = 1, kStart = 2 };
using Timer = sim::TimerTag<Due>;

// The messages of the system, each kind named once.
struct OfferRequest {               // the metascheduler asks every provider about a BoT
  static constexpr std::string_view kind = "offer-request";
  std::size_t bot = 0;
};
struct Offers {                     // a provider's answer: its offer list Phi, or its free time slots
  static constexpr std::string_view kind = "offers";
  std::size_t bot = 0;
  std::size_t provider = 0;         // its index among the providers
  compose::Provider answer;
};
struct Award {                      // the provider's part of the BoT's composition
  static constexpr std::string_view kind = "award";
  std::size_t bot = 0;
  compose::Part part;
  std::size_t logged = 0;           // the part's index among the BoT's logged parts (JobLog::parts)
  double deadline = 0;              // when the part is due
};

struct Shared {
  const System& system;
  const RunSpec& spec;
  RunLog& log;
  MetaRun& out;
  std::function<compose::Composition(const compose::Instance&)> decide;
  bool slots = false;                       // free-time-slots: providers publish slots, not offers
  std::vector<sim::ActorId> providers;
  sim::ActorId meta = sim::kNoActor;
};

class Provider final : public sim::Actor {
public:
  Provider(Shared& shared, std::size_t index, std::vector<std::size_t> local)
      : s_(shared),
        c_(index),
        cluster_(shared.system.clusters[index]),
        local_(std::move(local)),
        arrivals_(local_.size(), [this](std::size_t k) { return s_.log.jobs[local_[k]].submit; }, Timer::of(kArrive, 0)),
        processors_(cluster_.processors, sim::Holding::kCount, true) {}

  void on_start(sim::Context& ctx) override { arrivals_.start(ctx); }

  void on_timer(sim::Context& ctx, std::uint64_t t) override {
    const std::size_t i = Timer::index(t);
    switch (Timer::due(t)) {
      case kArrive:  // admit() sets no timer: the next arrival may be armed first
        admit(ctx, local_[arrivals_.arrived(ctx, t)]);
        break;
      case kEnd:
        finish(ctx, i);
        break;
      case kStart:
        break;
    }
    ctx.end_of_instant();
  }

  void on_message(sim::Context& ctx, const sim::Message& m) override {
    if (const auto* request = m.as<OfferRequest>()) answer(ctx, request->bot);
    else accept(ctx, m.get<Award>());
    ctx.end_of_instant();
  }

  void on_instant_end(sim::Context& ctx) override {
    if (replan_) replan(ctx.now());
    replan_ = false;
    dispatch(ctx);
  }

private:
  struct Entry {                       // accepted work not yet started
    offers::WaitingJob job;            // tasks = starts.size() for a BoT part
    std::size_t owner = 0;             // the job (RunLog::jobs)
    std::size_t part = 0;              // a BoT's part
    double run = 0;                    // how long it (each task) really runs
    std::vector<double> starts;        // the committed plan: one start a task (a local job: one), ascending
  };

  // The provider's state as an offers instance (running work with its estimated remaining time, waiting work in
  // arrival order), and its committed plan as a schedule of that instance.
  offers::Instance snapshot(double now) const {
    offers::Instance inst;
    inst.name = fmt::format("{}@{}", cluster_.name, now);
    inst.processors = cluster_.processors;
    inst.now = now;
    inst.running.reserve(processors_.running().size());
    for (const cluster::Running& r : processors_.running())
      inst.running.push_back({names_[r.job], r.procs, std::max(0.0, r.estimated_end - now)});
    inst.waiting.reserve(waiting_.size());
    for (const Entry& e : waiting_) inst.waiting.push_back(e.job);
    return inst;
  }
  offers::Schedule plan() const {
    offers::Schedule p;
    p.starts.reserve(waiting_.size());
    for (const Entry& e : waiting_) p.starts.push_back(e.starts);
    return p;
  }
  AvailabilityProfile committed_profile(const offers::Instance& inst) const { return plan_profile(inst, plan()); }
  // Adopts the starts of a schedule of snapshot() (same waiting order, one list a waiting job) as the committed plan.
  void adopt(std::vector<std::vector<double>> starts) {
    for (std::size_t i = 0; i < waiting_.size(); ++i) {
      waiting_[i].starts = std::move(starts[i]);
      std::sort(waiting_[i].starts.begin(), waiting_[i].starts.end());
    }
  }
  double load(const offers::Instance& inst) const {   // processor-seconds to be processed (estimates)
    double w = 0;
    for (const auto& r : inst.running) w += r.procs * r.remaining;
    for (const auto& j : inst.waiting) w += offers::work(j);
    return w;
  }

  // Sec. III-A, applied to a local job: EDF with the job; if a deadline breaks, FEEDBACK gives the earliest deadline
  // the provider can keep, and the job is accepted with it.
  void admit(sim::Context& ctx, std::size_t j) {
    const Job& job = s_.log.jobs[j];
    const double now = ctx.now();
    offers::Instance inst = snapshot(now);
    const std::string id = job_name(s_.system, job);
    inst.bot = offers::NewBot{id, job.procs, job.estimate, job.deadline};
    offers::GenOfferReading rigid;
    rigid.rigid_bot = true;  // the new job is one rigid job of `procs` processors
    offers::EdfScheduler edf(inst, rigid);
    double start = now, deadline = job.deadline;
    if (auto offer = offers::gen_offer_if_edf_feasible(edf, inst, job.procs)) {
      adopt(std::move(offer->schedule.starts));
      start = *std::max_element(offer->schedule.new_tasks.begin(), offer->schedule.new_tasks.end());
      deadline = offer->completion;
    } else {  // the committed plan stays; the job goes to its earliest fit in it (nothing rescheduled)
      ++s_.out.providers.edf_fallbacks;
      const AvailabilityProfile profile = committed_profile(inst);
      start = *profile.earliest_start(job.procs, job.estimate, now);
      deadline = std::max(job.deadline, start + job.estimate);
    }
    ++s_.out.providers.admissions;
    s_.log.logs[j].new_deadline = deadline;
    waiting_.push_back(Entry{offers::WaitingJob{id, offers::JobType::kLocal, job.procs, job.estimate, 1, deadline}, j, 0,
                             job.run, {start}});
  }

  // The offer list Phi for the BoT (or the published free slots).
  void answer(sim::Context& ctx, std::size_t b) {
    const Job& bot = s_.log.jobs[b];
    const double now = ctx.now();
    offers::Instance inst = snapshot(now);
    inst.bot = offers::NewBot{job_name(s_.system, bot), bot.procs, bot.estimate, bot.deadline};
    Offers reply{b, c_, compose::Provider{cluster_.name, cluster_.processors, load(inst), {}, {}}};
    offered_.clear();
    per_count_.clear();
    ++s_.out.providers.offer_lists;
    if (s_.slots) {
      reply.answer.free_slots = offers::free_time_slots(inst, plan());
    } else {
      offers::EdfScheduler edf(inst);
      offers::OfferList list;
      bool edf_offers = true;
      for (const long long k : offers::delta_counts(bot.procs)) {
        auto offer = offers::gen_offer_if_edf_feasible(edf, inst, k);
        if (!offer) {
          edf_offers = false;
          break;
        }
        list.per_count.push_back(std::move(*offer));
      }
      if (!edf_offers) {
        // Offers on the committed plan: the BoT's tasks at their earliest fits in it, nothing rescheduled.
        list.per_count.clear();
        ++s_.out.providers.edf_fallbacks;
        const offers::Schedule current = plan();
        const AvailabilityProfile committed = committed_profile(inst);
        for (const long long k : offers::delta_counts(bot.procs)) {
          AvailabilityProfile profile = committed;
          offers::CountOffer offer;
          offer.tasks = k;
          offer.schedule = current;
          offer.schedule.new_tasks = offers::place_copies(profile, 1, bot.estimate, k, now);
          const double finish = offer.schedule.new_tasks.back() + bot.estimate;
          offer.completion = std::max(bot.deadline, finish);
          offer.feedback = finish > bot.deadline + kTimeTolerance;
          list.per_count.push_back(std::move(offer));
        }
      }
      list.staircase = offers::merge_offers(list.per_count);
      // Every offer list: the offers validator (schedules, accepted deadlines, quotes, the merge).
      if (const std::string v = offers::offer_list_violation(inst, list); !v.empty()) {
        if (s_.out.offer_list_violations++ == 0)
          s_.out.first_offer_list_violation = fmt::format("{} at t={}: {}", cluster_.name, now, v);
      }
      if (edf_offers && s_.out.offer_lists && s_.out.offer_lists->sample())
        s_.out.offer_lists->check(now, cluster_.name, inst, list, "edf");
      reply.answer.offers = list.staircase;
      offered_ = std::move(list.staircase);
      per_count_ = std::move(list.per_count);
    }
    offered_version_ = version_;
    ctx.send(s_.meta, std::move(reply));
  }

  // The metascheduler's award: this provider's part of the BoT, kept by the schedule behind the offer it came from
  // (the tasks beyond the part dropped from it), or placed in the free slots it was composed from.
  void accept(sim::Context& ctx, const Award& award) {
    if (offered_version_ != version_)
      throw std::logic_error(fmt::format("{}: an award for a BoT after the state changed since its offers", cluster_.name));
    const std::size_t b = award.bot;
    const Job& bot = s_.log.jobs[b];
    const compose::Part& part = award.part;
    std::vector<double> starts;
    if (part.offer >= 0) {
      const Offer& offer = offered_.at(static_cast<std::size_t>(part.offer));
      const auto it = std::find_if(per_count_.begin(), per_count_.end(),
                                   [&](const offers::CountOffer& o) { return o.tasks == offer.tasks; });
      if (it == per_count_.end()) throw std::logic_error("an offer of the staircase has no count behind it");
      adopt(it->schedule.starts);  // a copy: the provider keeps its offers
      starts = it->schedule.new_tasks;
      std::sort(starts.begin(), starts.end());
      if (part.tasks < static_cast<long long>(starts.size())) {
        starts.resize(static_cast<std::size_t>(part.tasks));
        replan_ = true;  // fewer tasks than offered: EDF re-plans the work actually accepted (kept if it stays feasible)
      }
    } else {
      const offers::Instance inst = snapshot(ctx.now());
      AvailabilityProfile profile = committed_profile(inst);
      starts = offers::place_copies(profile, 1, bot.estimate, part.tasks, ctx.now());
    }
    waiting_.push_back(Entry{offers::WaitingJob{fmt::format("{}#{}", job_name(s_.system, bot), c_),
                                                offers::JobType::kBotPart, 1, bot.estimate,
                                                static_cast<long long>(starts.size()), award.deadline},
                             b, award.logged, bot.run, std::move(starts)});
    ++version_;
  }

  void finish(sim::Context& ctx, std::size_t execution) {
    const bool early = processors_.finish(ctx.now(), static_cast<std::uint32_t>(execution)).early;
    if (early) replan_ = true;  // processors come back early
    ++version_;
  }

  // EDF re-run from scratch on the accepted work; adopted when it keeps every deadline (else the plan stays).
  void replan(double now) {
    const offers::Instance inst = snapshot(now);
    offers::EdfScheduler edf(inst);
    offers::EdfRun run = edf.run(inst.waiting.size(), 0, 0, true);
    ++s_.out.providers.replans;
    if (run.complete && run.first_late.empty()) adopt(std::move(run.schedule.starts));
    else
      ++s_.out.providers.edf_fallbacks;
  }

  // Starts the first `count` tasks of `e` (a local job: the job) now.
  void start_tasks(sim::Context& ctx, Entry& e, std::size_t count) {
    const double now = ctx.now();
    auto& executions = s_.log.executions[c_];
    const int procs = e.job.procs * static_cast<int>(count);
    const std::size_t x = executions.size();
    executions.push_back(Execution{now, now + e.run, procs, e.owner, e.part});
    names_.push_back(fmt::format("{}/{}", e.job.id, x));
    processors_.start(ctx, static_cast<std::uint32_t>(x), procs, now + e.job.runtime, now + e.run, Timer::of(kEnd, x));
    e.starts.erase(e.starts.begin(), e.starts.begin() + static_cast<std::ptrdiff_t>(count));
    e.job.tasks = e.job.type == offers::JobType::kBotPart ? static_cast<long long>(e.starts.size()) : 1;
    ++version_;
  }

  // The work-conserving dispatch: waiting work that fits now without moving a committed start (early_starts),
  // looked for only when some waiting job needs no more processors than are idle now.
  void start_early(sim::Context& ctx) {
    // Idle: what no running execution asks for, one that ends as it starts too (its end event has not come yet; the
    // plan's profile still holds it), rather than the resource's free processors.
    int idle = cluster_.processors;
    for (const cluster::Running& r : processors_.running()) idle -= r.procs;
    if (std::none_of(waiting_.begin(), waiting_.end(),
                     [&](const Entry& e) { return !e.starts.empty() && e.job.procs <= idle; }))
      return;
    const std::vector<long long> early = early_starts(snapshot(ctx.now()), plan());
    for (std::size_t i = 0; i < waiting_.size(); ++i)
      if (early[i] > 0) {
        start_tasks(ctx, waiting_[i], static_cast<std::size_t>(early[i]));
        s_.out.providers.early_starts += static_cast<std::size_t>(early[i]);
      }
  }

  // Starts what the plan starts now (and, with the work-conserving dispatch, what fits early); wakes up for the next
  // planned start.
  void dispatch(sim::Context& ctx) {
    const double now = ctx.now();
    for (Entry& e : waiting_) {
      const auto due = std::upper_bound(e.starts.begin(), e.starts.end(), now + kTimeTolerance) - e.starts.begin();
      if (due > 0) start_tasks(ctx, e, static_cast<std::size_t>(due));
    }
    if (s_.system.settings.dispatch == Dispatch::kWorkConserving) start_early(ctx);
    double next = kForever;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < waiting_.size(); ++i) {
      Entry& e = waiting_[i];
      if (e.starts.empty()) continue;
      next = std::min(next, e.starts.front());
      if (kept != i) waiting_[kept] = std::move(e);
      ++kept;
    }
    waiting_.resize(kept);
    if (next < kForever && (armed_ <= now || next < armed_ - kTimeTolerance)) {
      ctx.wake_at(next, Timer::of(kStart, 0));
      armed_ = next;
    }
  }

  Shared& s_;
  std::size_t c_;
  const Cluster& cluster_;
  std::vector<std::size_t> local_;     // its local jobs, by submit time
  sim::JobSource arrivals_;            // local_ as they are submitted
  std::vector<Entry> waiting_;
  // Its processors and running executions (by their index in the log's executions of this cluster), in start order
  // (the offers instances' order), and each execution's name in those instances.
  sim::SpaceSharedResource processors_;
  std::vector<std::string> names_;
  bool replan_ = false;
  double armed_ = -kForever;           // the time of the next start wake-up set
  std::uint64_t version_ = 0;          // changes with the accepted work (an award must follow its offers)
  std::uint64_t offered_version_ = ~std::uint64_t{0};
  std::vector<Offer> offered_;                  // its last offer list Phi (the staircase it sent) ...
  std::vector<offers::CountOffer> per_count_;   // ... and the schedule behind each count
};

// The metascheduler: BoTs in arrival order, one at a time (ask every provider, compose, award).
class Metascheduler final : public sim::Actor {
public:
  Metascheduler(Shared& shared, std::vector<std::size_t> bots)
      : s_(shared),
        bots_(std::move(bots)),
        arrivals_(bots_.size(), [this](std::size_t k) { return s_.log.jobs[bots_[k]].submit; }, Timer::of(kArrive, 0)) {}

  void on_start(sim::Context& ctx) override { arrivals_.start(ctx); }

  void on_timer(sim::Context& ctx, std::uint64_t t) override {  // a BoT's submission (the only timer it sets)
    queue_.push_back(bots_[arrivals_.arrived(ctx, t)]);
    if (!busy_) next(ctx);
  }

  void on_message(sim::Context& ctx, const sim::Message& m) override {
    const Offers& offers = m.get<Offers>();
    if (offers.bot != current_) throw std::logic_error("the metascheduler got a stray message");
    replies_[offers.provider] = offers.answer;
    if (++answered_ == s_.providers.size()) compose_current(ctx);
  }

private:
  void next(sim::Context& ctx) {
    busy_ = !queue_.empty();
    if (!busy_) return;
    current_ = queue_.front();
    queue_.erase(queue_.begin());
    answered_ = 0;
    replies_.resize(s_.providers.size());
    for (const sim::ActorId p : s_.providers) ctx.send(p, OfferRequest{current_});
  }

  void compose_current(sim::Context& ctx) {
    const Job& job = s_.log.jobs[current_];
    compose::Instance inst;
    inst.name = fmt::format("{}@{}", job_name(s_.system, job), ctx.now());
    inst.bot = compose::Bot{job.procs, job.deadline, ctx.now(), job.estimate};
    inst.providers = std::move(replies_);
    replies_.clear();
    compose::Composition c = s_.decide(inst);
    if (c.parts.size() != inst.providers.size())
      throw std::logic_error(fmt::format("{}: {} parts for {} providers", s_.spec.policy, c.parts.size(), inst.providers.size()));
    JobLog& log = s_.log.logs[current_];
    // A part is due at its completion: the offer's (D when it meets D, else FEEDBACK's quote), or in the free slots;
    // under FreeTimeSlots' bot-deadline reading at the later of D and its completion in the slots.
    const bool due_at_d = s_.slots && s_.system.settings.fts_part_deadline == FtsPartDeadline::kBotDeadline;
    const std::size_t first_part = log.parts.size();
    for (std::size_t p = 0; p < c.parts.size(); ++p)
      if (c.parts[p].tasks > 0)
        log.parts.push_back(Part{p, c.parts[p].tasks,
                                 due_at_d ? std::max(job.deadline, c.parts[p].completion) : c.parts[p].completion});
    log.lost = std::max(0LL, static_cast<long long>(job.procs) - compose::assigned_tasks(c));
    log.new_deadline = std::max(job.deadline, compose::bot_completion(inst, c));
    log.balanced = !s_.slots && compose::deadline_can_be_met(inst);
    if (s_.out.compositions && s_.out.compositions->sample())
      s_.out.compositions->check(ctx.now(), "metascheduler", inst, c, s_.spec.policy);
    for (std::size_t p = 0, logged = first_part; p < c.parts.size(); ++p)
      if (c.parts[p].tasks > 0) {
        ctx.send(s_.providers[p], Award{current_, c.parts[p], logged, log.parts[logged].deadline});
        ++logged;
      }
    next(ctx);
  }

  Shared& s_;
  std::vector<std::size_t> bots_;      // the external jobs, by submit time
  sim::JobSource arrivals_;            // bots_ as they are submitted
  std::vector<std::size_t> queue_;     // arrived, not yet composed
  std::size_t current_ = 0;
  std::vector<compose::Provider> replies_;  // by provider, for the BoT being composed
  std::size_t answered_ = 0;
  bool busy_ = false;
};

}  // namespace
}  // namespace actors

std::vector<long long> early_starts(const offers::Instance& state, const offers::Schedule& plan) {
  std::vector<long long> out(state.waiting.size(), 0);
  const double now = state.now;
  AvailabilityProfile profile = actors::plan_profile(state, plan);
  if (profile.free_at(now) <= 0) return out;
  const offers::EdfScheduler edf(state);  // its order: deadline, then arrival
  for (const std::size_t i : edf.order()) {
    const offers::WaitingJob& job = state.waiting[i];
    std::vector<double> starts = plan.starts[i];
    std::sort(starts.begin(), starts.end());
    for (const double start : starts) {
      if (start <= now + kTimeTolerance) continue;
      profile.release(start, start + job.runtime, job.procs);
      if (profile.min_free(now, now + job.runtime) < job.procs) {
        // A later task of the job gives back less of [now, now + runtime): it fits no better.
        profile.reserve(start, start + job.runtime, job.procs);
        break;
      }
      profile.reserve(now, now + job.runtime, job.procs);
      ++out[i];
    }
  }
  return out;
}

std::string job_name(const System& system, const Job& job) {
  return job.bot() ? fmt::format("bot:{}", job.trace_id) : fmt::format("{}:{}", system.clusters[job.cluster].name, job.trace_id);
}

MetaRun run_system(const System& system, std::vector<Job> jobs, const RunSpec& spec, const Registry& registry) {
  using namespace actors;
  MetaRun out;
  out.log.jobs = std::move(jobs);
  out.log.logs.resize(out.log.jobs.size());
  out.log.executions.resize(system.clusters.size());
  out.log.window = system.settings.days * 86400;
  const auto& composition = registry.typed<compose::Instance, compose::Composition>("offer-composition");
  Shared shared{system, spec, out.log, out, {}, spec.policy == "free-time-slots", {}, sim::kNoActor};
  for (const auto& p : composition.spec().policies)
    if (p.name == spec.policy) shared.decide = p.decide;
  if (!shared.decide) throw std::invalid_argument("no offer-composition policy named '" + spec.policy + "'");
  const Settings& settings = system.settings;
  if (spec.check) {
    ProbeSettings probe;
    probe.exact = settings.composition_exact;
    probe.solve.timeout_ms = settings.composition_timeout_ms;
    probe.solve.effort = settings.composition_effort;
    probe.keep_worst = settings.keep_worst;
    out.compositions = std::make_unique<CompositionProbe>(composition, probe);
    if (!shared.slots && settings.offers_every > 0) {
      ProbeSettings o;
      o.exact = settings.offers_exact;
      o.solve.timeout_ms = settings.offers_timeout_ms;
      o.solve.effort = settings.offers_effort;
      o.every = settings.offers_every;
      o.keep_worst = settings.keep_worst;
      out.offer_lists = std::make_unique<OffersProbe>(registry.typed<offers::Instance, offers::OfferList>("offers"), o);
    }
  }
  sim::Kernel kernel;
  kernel.kind<OfferRequest>();  // every kind counted from the start, in this order
  kernel.kind<Offers>();
  kernel.kind<Award>();
  std::vector<std::vector<std::size_t>> local(system.clusters.size());
  std::vector<std::size_t> bots;
  for (std::size_t j = 0; j < out.log.jobs.size(); ++j)
    (out.log.jobs[j].bot() ? bots : local[out.log.jobs[j].cluster]).push_back(j);
  for (std::size_t c = 0; c < system.clusters.size(); ++c)
    shared.providers.push_back(kernel.add(std::make_unique<Provider>(shared, c, std::move(local[c])), system.clusters[c].name));
  shared.meta = kernel.add(std::make_unique<Metascheduler>(shared, std::move(bots)), "metascheduler");
  out.stats = kernel.run();
  out.interrupted = out.stats.interrupted;
  return out;
}

}  // namespace schedcheck::metascheduler
