// The InterGrid gateway of paper 002 sec. 4 as an actor: it takes the grid jobs as they are submitted and sends each
// to the provider that can start it first, by the free time slots the providers give it (reference/gateway_policies):
// asked for before each job (`earliest-ask`), or as last published every interval (`earliest-periodic`, the paper's
// "partial"). It records each job's planned start, against which a run counts violations (T = 20 s). For a
// deadline-constrained job it asks the chosen provider for an advance reservation at the planned start and confirms
// it once held; a refusal is a violation, and the provider's fresh slots that follow it make the gateway choose
// again. Limits: the jobs it routes are those of route_only (default: every job of the book).
#pragma once

#include "model/gateway_choice.hpp"
#include "model/time_slots.hpp"
#include "simulation/cluster_actor.hpp"
#include "simulation/job_source.hpp"
#include "simulation/jobs.hpp"
#include "simulation/kernel.hpp"

#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace schedcheck::availability {

enum class GatewayPolicy { kEarliestAsk, kEarliestPeriodic };
const char* to_string(GatewayPolicy policy);  // "earliest-ask", "earliest-periodic"

struct GatewaySetup {
  GatewayPolicy policy = GatewayPolicy::kEarliestAsk;
  double latency = 0;  // seconds a message takes to a provider
};

// One choice: what the gateway knew (each provider's slots), the job, and what it chose; for a probe that checks the
// choice against the providers' true profiles (the problem gateway-choice).
struct ChoiceView {
  double now;
  double from;  // the earliest start it plans for: now + the latency to the providers
  std::uint32_t job;
  const std::vector<std::vector<TimeSlot>>& known;  // per provider
  std::size_t provider;
  double planned_start;
};

class GatewayActor : public sim::Actor {
public:
  // `providers`: each provider's actor and processors; a provider must be a ClusterActor (it answers slot-ask).
  struct ProviderLink {
    sim::ActorId actor;
    int processors;
  };
  GatewayActor(sim::JobBook& book, std::vector<ProviderLink> providers, bool identity, GatewaySetup setup);

  void on_start(sim::Context& context) override;
  void on_timer(sim::Context& context, std::uint64_t tag) override;
  void on_message(sim::Context& context, const sim::Message& message) override;

  // Only these jobs of the book (indices, in submit order) arrive here, the grid jobs (the others are the providers'
  // local jobs); before the run starts.
  void route_only(std::vector<std::uint32_t> jobs);
  // Called at every choice (a DecisionProbe's hook); none by default.
  void probe(std::function<void(const ChoiceView&)> on_choice) { on_choice_ = std::move(on_choice); }
  // The jobs (per job of the book, non-zero) that need an advance reservation: deadline-constrained requests.
  void reserve_for(std::vector<char> constrained) { constrained_ = std::move(constrained); }
  // After this many refusals a job goes to its last choice as an ordinary job.
  static constexpr int kMaxAttempts = 5;
  // Per job: the reservations refused (or expired) on its way.
  const std::vector<int>& refusals() const { return refusals_; }
  // Per job of the book: the provider it was sent to and the start the gateway planned (-1 while not sent).
  const std::vector<double>& planned() const { return planned_; }
  const std::vector<long>& provider_of() const { return provider_of_; }
  // Choices made with no known slot that has room (before the first reports, or every provider's last report full):
  // the job went to the first provider it fits on.
  std::size_t fallbacks() const { return fallbacks_; }

private:
  void choose(sim::Context& context, std::uint32_t job);

  sim::JobBook& book_;
  std::vector<ProviderLink> providers_;
  bool identity_;
  GatewaySetup setup_;
  sim::JobSource arrivals_;
  std::vector<std::vector<TimeSlot>> known_;           // per provider: its last report
  std::vector<std::deque<std::vector<TimeSlot>>> answers_;  // earliest-ask: per provider, replies not yet used
  std::deque<std::uint32_t> asking_;                   // earliest-ask: jobs waiting for every provider's answer
  std::vector<double> planned_;
  std::vector<long> provider_of_;
  std::vector<char> constrained_;
  std::vector<int> refusals_;
  std::vector<std::deque<std::uint32_t>> refreshing_;  // per provider: jobs refused, waiting for its fresh slots
  std::function<void(const ChoiceView&)> on_choice_;
  std::size_t fallbacks_ = 0;
};

// The gateway-choice instance of one choice: the job, each provider's true profile now (its running jobs until their
// estimated ends, its queue's reservations and its held advance reservations) and the slots the gateway knew of it
// as published; `clusters` in the gateway's provider order. With the choice, what a probe checks.
gateway::Instance choice_instance(const ChoiceView& view, const std::vector<const sim::ClusterState*>& clusters,
                                  const sim::JobBook& book);
gateway::Choice choice_of(const ChoiceView& view);

}  // namespace schedcheck::availability
