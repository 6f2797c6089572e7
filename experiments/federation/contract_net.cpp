// The contract net of paper 004 on the kernel (see contract_net.hpp): Algorithm 1 (the manager), Algorithm 2 (the
// contractor's LRMS), the federation directory (sec. 2).
#include "experiments/federation/contract_net.hpp"

#include "properties/federation_properties.hpp"
#include "reference/federation_policies.hpp"
#include "reference/sla_policies.hpp"
#include "simulation/job_source.hpp"
#include "simulation/space_shared.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string_view>

namespace schedcheck::federation {

// The actors in a named namespace: a using-directive for the enclosing one (an experiment's, in a unity batch with
// this file) does not reach them.
namespace actors {
namespace {

// What a GFA's timers fall due for, with the job (an arrival: the job's place among the GFA's local jobs).
enum Due : std::uint64_t { kArrive = 0, kExpire = 1, kFinish = 2 };
using Timer = sim::TimerTag<Due>;

// The messages of the contract net, each kind named once (model/federation.hpp's names, the message metric's).
struct Query {                      // the manager's rank-th query for a job (rank: the attempts made)
  static constexpr std::string_view kind = kQuery;
  std::size_t job = 0, rank = 0;
};
struct Answer {                     // the directory's answer: the cluster to bid to, or none
  static constexpr std::string_view kind = kAnswer;
  std::size_t job = 0;
  std::optional<std::size_t> contractor;
};
template <const char* const& Kind>
struct AboutJob {                   // a message about one job, of kind Kind
  static constexpr std::string_view kind = Kind;
  std::size_t job = 0;
};
using Bid = AboutJob<kBid>;         // the SLA bid, manager to contractor
using Accept = AboutJob<kAccept>;   // the contractor's reply, either way
using Reject = AboutJob<kReject>;
using Executable = AboutJob<kJob>;  // the job's executable, manager to contractor
using Output = AboutJob<kResult>;   // its output, contractor to manager

struct Shared {
  const std::vector<Cluster>& clusters;
  const Settings& settings;
  const RunSpec& spec;
  const std::vector<Job>& jobs;
  std::vector<JobLog>& logs;
  std::vector<std::vector<std::size_t>> orders;  // by objective: OFT, OFC
  std::vector<std::vector<std::vector<std::size_t>>> home_orders;  // by objective and home cluster (home_first)
  std::vector<sim::ActorId> gfa;
  sim::ActorId directory = sim::kNoActor;
  FederationRun& out;
};

// The shared federation directory (sec. 2): answers the manager's k-th query for a job with the k-th cluster of the
// job's order that can meet its SLA.
class Directory final : public sim::Actor {
public:
  explicit Directory(Shared& shared) : s_(shared) {}
  void on_message(sim::Context& ctx, const sim::Message& m) override {
    const Query& q = m.get<Query>();
    const Job& job = s_.jobs[q.job];
    const std::size_t o = job.objective == Objective::kTime ? 0 : 1;
    const auto& order = s_.settings.home_first ? s_.home_orders[o][job.home] : s_.orders[o];
    ctx.send(m.from, Answer{q.job, directory_answer(s_.clusters, order, job, s_.logs[q.job].terms, q.rank,
                                                    s_.settings.budget_test)});
  }

private:
  Shared& s_;
};

// A Grid Federation Agent: manager of its local users' jobs, contractor for the bids it receives.
class Gfa final : public sim::Actor {
public:
  Gfa(Shared& shared, std::size_t index, std::vector<std::size_t> local)
      : s_(shared),
        m_(index),
        cluster_(shared.clusters[index]),
        local_(std::move(local)),
        arrivals_(local_.size(), [this](std::size_t k) { return s_.jobs[local_[k]].submit + s_.logs[local_[k]].terms.ts; },
                  Timer::of(kArrive, 0)),
        processors_(cluster_.processors, sim::Holding::kCount, true) {}

  void on_start(sim::Context& ctx) override { arrivals_.start(ctx); }

  void on_timer(sim::Context& ctx, std::uint64_t t) override {
    const std::size_t j = Timer::index(t);
    switch (Timer::due(t)) {
      case kArrive:  // EVENT USERJOB SUBMIT (line 0.4): the job reached its GFA after ts; SLA BID
        query(ctx, local_[arrivals_.arrived(ctx, t)]);
        break;
      case kExpire:  // EventSLA Bid Timeout (lines 1.15-1.23)
        expire(ctx, j);
        break;
      case kFinish:  // EventJobFinish (lines 1.26-1.28)
        finish(ctx, j);
        break;
    }
  }

  void on_message(sim::Context& ctx, const sim::Message& msg) override {
    if (const auto* a = msg.as<Answer>()) {
      answered(ctx, a->job, a->contractor);
    } else if (const auto* b = msg.as<Bid>()) {
      bid_arrives(ctx, b->job);
    } else if (const auto* y = msg.as<Accept>()) {  // EVENT SLA BID REPLY, accepted (lines 0.13-0.14): send the job
      JobLog& log = s_.logs[y->job];
      log.attempts.back().replied = ctx.now();
      log.attempts.back().accepted = true;
      log.outcome = Outcome::kAccepted;
      ++log.transfers;
      ctx.send(s_.gfa[log.attempts.back().contractor], Executable{y->job});
    } else if (const auto* n = msg.as<Reject>()) {  // EVENT SLA BID REPLY, rejected: SLA BID TIMEOUT (line 0.17), the next one
      s_.logs[n->job].attempts.back().replied = ctx.now();
      query(ctx, n->job);
    }
    // An Executable (it reaches the contractor, whose processors it holds since the acceptance) and an Output (it
    // reaches the manager) change nothing: they are counted, as paper 004's message metric counts them.
  }

private:
  // SLA BID (lines 0.8-0.9): ask the directory for the next contractor.
  void query(sim::Context& ctx, std::size_t j) {
    JobLog& log = s_.logs[j];
    ++log.queries;
    ctx.send(s_.directory, Query{j, log.attempts.size()});
  }

  void answered(sim::Context& ctx, std::size_t j, std::optional<std::size_t> contractor) {
    JobLog& log = s_.logs[j];
    if (!contractor) {  // no contractor left that can meet the SLA: drop the job (line 0.26)
      log.outcome = Outcome::kDropped;
      log.dropped_at = ctx.now();
      log.drop_reason = log.attempts.empty() ? "no cluster can meet its SLA" : "every cluster that could meet its SLA rejected it";
      return;
    }
    double given = 0;
    for (const Attempt& a : log.attempts) given += a.interval;
    Attempt a;
    a.contractor = *contractor;
    a.sent = ctx.now();
    const bool queued = s_.spec.admission == AdmissionMode::kBidQueue;
    a.interval = queued ? bid_interval(log.terms.t_neg, given, s_.settings.integer_intervals) : 0;  // tau
    if (a.interval == 0 && queued && s_.settings.drop_at_zero_interval) {  // the reading "tau < 1: drop"
      log.outcome = Outcome::kDropped;
      log.dropped_at = ctx.now();
      log.drop_reason = "no SLA bid time left (the next interval is 0)";
      return;
    }
    log.attempts.push_back(a);
    ctx.send(s_.gfa[a.contractor], Bid{j});
  }

  // EventSLA Bid ARRIVAL (lines 1.9-1.12); admitted on arrival, decided at once (sec. 4.2: FCFS).
  void bid_arrives(sim::Context& ctx, std::size_t j) {
    if (s_.spec.admission == AdmissionMode::kOnArrival) {
      queue_.push_back(j);
      expiry_.emplace_back();  // none
      decide(ctx, "fcfs", sla::fcfs);
      for (const std::size_t q : queue_) reply(ctx, q, false);
      queue_.clear();
      expiry_.clear();
      return;
    }
    queue_.push_back(j);
    expiry_.push_back(ctx.wake_at(ctx.now() + s_.logs[j].attempts.back().interval, Timer::of(kExpire, j)));
    strict_greedy(ctx);
  }

  void expire(sim::Context& ctx, std::size_t j) {
    const auto it = std::find(queue_.begin(), queue_.end(), j);
    if (it == queue_.end()) return;  // reserved meanwhile (its timer was withdrawn; never reached)
    expiry_.erase(expiry_.begin() + (it - queue_.begin()));
    queue_.erase(it);
    // Line 1.17: reserve if r >= p and de >= D(J,R_m), else reject: Algorithm 2's test on this bid alone.
    const sla::Instance single = snapshot(ctx.now(), {j});
    if (sla::fcfs(single).accepted[0]) {
      ++s_.out.accepted_at_expiry;
      reserve(ctx, j);
    } else {
      reply(ctx, j, false);
    }
  }

  void finish(sim::Context& ctx, std::size_t j) {
    processors_.finish(ctx.now(), static_cast<std::uint32_t>(j));  // at D(J,R_m) from its start: never early
    JobLog& log = s_.logs[j];
    log.finish = ctx.now();
    ++log.transfers;
    ctx.send(s_.gfa[s_.jobs[j].home], Output{j});
    strict_greedy(ctx);
  }

  // STRICTGREEDY (lines 1.36-1.48) over the bid queue Q_{m,t}: every bid that fits (the default reading), or one
  // RESERVE a call as the pseudo-code is written (sweep.strict_greedy).
  void strict_greedy(sim::Context& ctx) {
    if (s_.settings.one_reservation_per_call)
      decide(ctx, "greedy-backfilling-one", sla::greedy_backfilling_one);
    else
      decide(ctx, "greedy-backfilling", sla::greedy_backfilling);
  }

  // One admission decision over the queue: the policy on the snapshot, checked, applied.
  void decide(sim::Context& ctx, const std::string& name, sla::Admission (*policy)(const sla::Instance&)) {
    if (queue_.empty()) return;
    sla::Instance instance = snapshot(ctx.now(), queue_);
    const sla::Admission decision = policy(instance);
    ++s_.out.decisions;
    const bool single = instance.bids.size() == 1;
    s_.out.single_bid += single;
    if (s_.out.probe && s_.out.probe->sample()) {
      const Report& r = s_.out.probe->check(ctx.now(), cluster_.name, instance, decision, name);
      if (r.optimum.status == "optimal" && r.heuristic.status == "feasible")
        s_.out.incentive_lost += std::max(0.0, r.optimum.objective - r.heuristic.objective);
      if (!single) {
        ++s_.out.knapsack_checked;
        s_.out.knapsack_at_optimum += r.gap && *r.gap <= kObjectiveSlack;
      }
    }
    std::vector<std::size_t> left;
    std::vector<sim::TimerHandle> left_expiry;
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      if (!decision.accepted[i]) {
        left.push_back(queue_[i]);
        left_expiry.push_back(expiry_[i]);
        continue;
      }
      if (s_.spec.admission == AdmissionMode::kBidQueue) ctx.cancel(expiry_[i]);
      reserve(ctx, queue_[i]);
    }
    queue_ = std::move(left);
    expiry_ = std::move(left_expiry);
  }

  // RESERVE (lines 1.31-1.34): the job holds its processors from now for D(J,R_m); the manager is told.
  void reserve(sim::Context& ctx, std::size_t j) {
    const Job& job = s_.jobs[j];
    JobLog& log = s_.logs[j];
    log.ran_on = m_;
    log.start = ctx.now();
    log.charged = cost(cluster_, job, log.terms);
    const double end = ctx.now() + response_time(cluster_, job, log.terms);
    processors_.start(ctx, static_cast<std::uint32_t>(j), job.procs, end, end, Timer::of(kFinish, j));
    reply(ctx, j, true);
  }

  void reply(sim::Context& ctx, std::size_t j, bool accepted) {
    if (accepted) ctx.send(s_.gfa[s_.jobs[j].home], Accept{j});
    else ctx.send(s_.gfa[s_.jobs[j].home], Reject{j});
  }

  // The site's state as an `sla-admission` instance: free processors, running jobs, the given bids (queue order).
  sla::Instance snapshot(double now, const std::vector<std::size_t>& bids) const {
    sla::Instance instance;
    instance.name = fmt::format("{}-t{}", cluster_.name, now);
    instance.site = site(cluster_, processors_.free(), s_.settings.budget_test);
    for (const cluster::Running& r : processors_.running())
      instance.running.push_back({job_name(s_.clusters, s_.jobs[r.job]), r.procs, std::max(0.0, r.estimated_end - now)});
    for (const std::size_t j : bids) instance.bids.push_back(bid(s_.jobs[j], s_.logs[j].terms, now, job_name(s_.clusters, s_.jobs[j])));
    return instance;
  }

  Shared& s_;
  std::size_t m_;
  const Cluster& cluster_;
  std::vector<std::size_t> local_;   // its users' jobs, by arrival
  sim::JobSource arrivals_;          // local_ reaching the GFA, each ts after its submission
  // r (its free processors) and the accepted jobs holding processors, in acceptance order (the instances' order).
  sim::SpaceSharedResource processors_;
  std::vector<std::size_t> queue_;    // Q_{m,t}: bids not yet decided, in arrival order
  std::vector<sim::TimerHandle> expiry_;  // their expiry timers, in the same order (none when decided on arrival)
};

}  // namespace
}  // namespace actors

std::vector<Job> federation_jobs(const std::vector<Cluster>& clusters, const std::vector<TraceWindow>& windows,
                                 double oft_share, std::uint64_t seed) {
  std::vector<Job> jobs;
  std::mt19937_64 rng(seed);
  for (std::size_t m = 0; m < clusters.size(); ++m) {
    for (const auto& tj : windows.at(m).jobs) {
      if (tj.run <= 0) continue;
      Job j;
      j.home = m;
      j.trace_id = tj.id;
      j.submit = tj.submit;
      j.procs = tj.procs;
      j.run_home = tj.run;
      const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // one draw a job, whatever the share
      j.objective = u < oft_share ? Objective::kTime : Objective::kCost;
      jobs.push_back(j);
    }
  }
  return jobs;
}

FederationRun run_federation(const std::vector<Cluster>& clusters, const Settings& settings, std::vector<Job> jobs,
                             const RunSpec& spec, const Registry& registry) {
  using namespace actors;
  FederationRun out;
  out.log.jobs = std::move(jobs);
  out.log.bid_share = spec.bid_share;
  out.log.admission = spec.admission;
  out.log.logs.resize(out.log.jobs.size());
  for (std::size_t j = 0; j < out.log.jobs.size(); ++j)
    out.log.logs[j].terms = terms(clusters, out.log.jobs[j], settings, spec.bid_share);
  if (spec.check) {
    ProbeSettings probe;
    probe.exact = settings.exact;
    probe.solve.timeout_ms = settings.timeout_ms;
    probe.solve.effort = settings.effort;
    probe.every = settings.check_every;
    probe.keep_worst = settings.keep_worst;
    out.probe = std::make_unique<AdmissionProbe>(registry.typed<sla::Instance, sla::Admission>("sla-admission"), probe);
  }
  Shared shared{clusters, settings, spec, out.log.jobs, out.log.logs, {}, {}, {}, sim::kNoActor, out};
  shared.orders = {directory_order(clusters, Objective::kTime), directory_order(clusters, Objective::kCost)};
  shared.home_orders.resize(2);
  for (std::size_t m = 0; m < clusters.size() && settings.home_first; ++m) {
    shared.home_orders[0].push_back(directory_order(clusters, Objective::kTime, m));
    shared.home_orders[1].push_back(directory_order(clusters, Objective::kCost, m));
  }

  sim::Kernel kernel;
  // Every kind counted from the start, in this order (the run log lists them so, zero if never sent).
  kernel.kind<Query>();
  kernel.kind<Answer>();
  kernel.kind<Bid>();
  kernel.kind<Accept>();
  kernel.kind<Reject>();
  kernel.kind<Executable>();
  kernel.kind<Output>();
  std::vector<std::vector<std::size_t>> local(clusters.size());
  for (std::size_t j = 0; j < out.log.jobs.size(); ++j) local[out.log.jobs[j].home].push_back(j);
  for (std::size_t m = 0; m < clusters.size(); ++m) {
    std::stable_sort(local[m].begin(), local[m].end(),
                     [&](std::size_t a, std::size_t b) { return out.log.jobs[a].submit < out.log.jobs[b].submit; });
    shared.gfa.push_back(kernel.add(std::make_unique<Gfa>(shared, m, std::move(local[m])), "GFA " + clusters[m].name));
  }
  shared.directory = kernel.add(std::make_unique<Directory>(shared), "directory");
  out.stats = kernel.run();
  out.interrupted = out.stats.interrupted;
  for (std::size_t k = 0; k < kernel.kinds().size(); ++k)
    out.log.sent_by_kind.emplace_back(kernel.kinds()[k], k < out.stats.sent_by_kind.size() ? out.stats.sent_by_kind[k] : 0);
  return out;
}

}  // namespace schedcheck::federation
