// The InterGrid gateway actor (experiments/availability/gateway.hpp): paper 002 sec. 4. Our own.
#include "experiments/availability/gateway.hpp"

#include "reference/gateway_policies.hpp"

#include <algorithm>
#include <stdexcept>

namespace schedcheck::availability {

const char* to_string(GatewayPolicy policy) {
  return policy == GatewayPolicy::kEarliestAsk ? "earliest-ask" : "earliest-periodic";
}

GatewayActor::GatewayActor(sim::JobBook& book, std::vector<ProviderLink> providers, bool identity, GatewaySetup setup)
    : book_(book), providers_(std::move(providers)), identity_(identity), setup_(setup) {
  if (providers_.empty()) throw std::invalid_argument("a gateway needs at least one provider");
  known_.resize(providers_.size());
  answers_.resize(providers_.size());
  planned_.assign(book_.jobs.size(), -1);
  provider_of_.assign(book_.jobs.size(), -1);
  refusals_.assign(book_.jobs.size(), 0);
  refreshing_.resize(providers_.size());
  arrivals_ = sim::JobSource(book_.jobs.size(), [this](std::size_t j) { return book_.jobs[j].submit; }, 0);
}

void GatewayActor::route_only(std::vector<std::uint32_t> jobs) {
  arrivals_ = sim::JobSource(std::move(jobs), [this](std::size_t j) { return book_.jobs[j].submit; }, 0);
}

void GatewayActor::on_start(sim::Context& context) {
  context.kind<sim::JobArrives>();
  arrivals_.start(context);
}

void GatewayActor::on_timer(sim::Context& context, std::uint64_t tag) {  // a submission (the only timer it sets)
  const auto job = static_cast<std::uint32_t>(arrivals_.arrived(context, tag));
  if (setup_.policy == GatewayPolicy::kEarliestPeriodic) return choose(context, job);
  asking_.push_back(job);
  for (const ProviderLink& p : providers_) context.send(p.actor, sim::SlotAsk{}, setup_.latency);
}

void GatewayActor::on_message(sim::Context& context, const sim::Message& message) {
  std::size_t p = 0;
  while (p < providers_.size() && providers_[p].actor != message.from) ++p;
  if (p == providers_.size()) throw std::logic_error("gateway: a message from an actor that is no provider");
  if (const auto* held = message.as<sim::ReservationHeld>())
    return context.send(message.from, sim::ReservationConfirm{held->job}, setup_.latency);
  const auto* refused = message.as<sim::ReservationRefused>();
  const auto* expired = message.as<sim::ReservationExpired>();
  if (refused || expired) {  // a violation; the provider's fresh slots follow a refusal (an expiry: ask for them)
    const std::uint32_t job = refused ? refused->job : expired->job;
    ++refusals_[job];
    refreshing_[p].push_back(job);
    if (expired) context.send(message.from, sim::SlotAsk{}, setup_.latency);
    return;
  }
  const auto& report = message.get<sim::FreeSlots>();
  if (!refreshing_[p].empty()) {  // the fresh slots after a refusal: choose again for that job
    known_[p] = report.slots;
    const std::uint32_t job = refreshing_[p].front();
    refreshing_[p].pop_front();
    return choose(context, job);
  }
  if (setup_.policy == GatewayPolicy::kEarliestPeriodic) {
    known_[p] = report.slots;
    return;
  }
  // earliest-ask: the replies of one provider come in the order it was asked (one latency for every message).
  answers_[p].push_back(report.slots);
  while (!asking_.empty() &&
         std::all_of(answers_.begin(), answers_.end(), [](const auto& a) { return !a.empty(); })) {
    for (std::size_t k = 0; k < providers_.size(); ++k) {
      known_[k] = std::move(answers_[k].front());
      answers_[k].pop_front();
    }
    const std::uint32_t job = asking_.front();
    asking_.pop_front();
    choose(context, job);
  }
}

void GatewayActor::choose(sim::Context& context, std::uint32_t job) {
  const double now = context.now();
  const workload::Job& j = book_.jobs[job];
  std::vector<AvailabilityProfile> views;
  views.reserve(providers_.size());
  for (std::size_t p = 0; p < providers_.size(); ++p)
    views.push_back(gateway::view_of_slots(providers_[p].processors, identity_, known_[p], now));
  // The job reaches a provider one latency from now: no start before.
  const double from = now + setup_.latency;
  const auto pick = gateway::earliest_start(views, j.procs, j.estimate, from);
  // Nothing known yet (before the first report) or no view with room: the first provider the job fits on.
  std::size_t p = 0;
  double planned = from;
  if (pick) {
    p = pick->provider;
    planned = pick->start;
  } else {
    ++fallbacks_;
    while (p < providers_.size() && providers_[p].processors < j.procs) ++p;
    if (p == providers_.size()) throw std::logic_error("gateway: job " + std::to_string(j.id) + " fits on no provider");
  }
  planned_[job] = planned;
  provider_of_[job] = static_cast<long>(p);
  if (on_choice_) on_choice_(ChoiceView{now, from, job, known_, p, planned});
  book_.records[job].state = sim::JobState::kInTransit;
  const bool reserve = job < constrained_.size() && constrained_[job] && pick && refusals_[job] < kMaxAttempts;
  if (reserve) context.send(providers_[p].actor, sim::ReservationRequest{job, planned}, setup_.latency);
  else context.send(providers_[p].actor, sim::JobArrives{job}, setup_.latency);
}

gateway::Instance choice_instance(const ChoiceView& v, const std::vector<const sim::ClusterState*>& clusters,
                                  const sim::JobBook& book) {
  gateway::Instance i;
  i.name = "choice-job-" + std::to_string(book.jobs[v.job].id) + "-t" + std::to_string(v.now);
  i.now = v.from;
  i.procs = book.jobs[v.job].procs;
  i.duration = book.jobs[v.job].estimate;
  for (std::size_t p = 0; p < clusters.size(); ++p) {
    const sim::ClusterState& st = *clusters[p];
    i.identity = st.setup.model == cluster::ResourceModel::kProcessors;
    i.providers.push_back(
        gateway::Provider{st.setup.name, st.setup.processors, sim::commitments(st, v.from), v.known[p]});
  }
  return i;
}

gateway::Choice choice_of(const ChoiceView& v) { return gateway::Choice{v.provider, v.planned_start}; }

}  // namespace schedcheck::availability
