// A router above several clusters (see router_actor.hpp). Our own.
#include "simulation/router_actor.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace schedcheck::sim {

RouterSetup router_setup(const std::string& policy, double latency, double status_period) {
  RouterSetup setup{router::router_policy(policy), latency, status_period};
  // Messages and reports must move time forward: a period too small to advance the clock at a trace's times (about
  // 1e9 s) would report forever at one instant.
  if (!(latency >= 0 && latency <= 1e9))
    throw std::invalid_argument(fmt::format("--latency: expected 0 to 1e9 seconds, got {}", latency));  // exactly
  if (!(status_period == 0 || (status_period >= 1e-3 && status_period <= 1e12)))
    throw std::invalid_argument(
        fmt::format("--status-period: expected 0 (no reports) or 0.001 to 1e12 seconds, got {}", status_period));
  if (setup.policy.needs_status_reports && !(status_period > 0))
    throw std::invalid_argument("--broker " + policy + " needs status reports (--status-period > 0): without them every "
                                "cluster looks idle");
  return setup;
}

RouterActor::RouterActor(JobBook& book, RouterSetup setup, std::vector<std::pair<ActorId, const ClusterActor*>> clusters)
    : book_(book),
      setup_(std::move(setup)),
      clusters_(std::move(clusters)),
      arrivals_(book_.jobs.size(), [this](std::size_t j) { return book_.jobs[j].submit; }, 0) {
  if (!setup_.policy.route) throw std::invalid_argument("router " + setup_.policy.name + " has no routing function");
  for (const auto& [id, cluster] : clusters_) {
    router::ClusterStatus status;
    status.processors = cluster->state().setup.processors;
    view_.push_back(status);
  }
  unreported_.resize(clusters_.size());
}

void RouterActor::route_only(std::vector<std::uint32_t> jobs) {
  arrivals_ = JobSource(std::move(jobs), [this](std::size_t j) { return book_.jobs[j].submit; }, 0);
}

void RouterActor::on_start(Context& context) {
  context.kind<JobArrives>();  // the kinds it knows, counted from the start (zero if never sent)
  context.kind<StatusReport>();
  arrivals_.start(context);
}

void RouterActor::on_timer(Context& context, std::uint64_t tag) {  // a submission (the only timer it sets)
  route(context, static_cast<std::uint32_t>(arrivals_.arrived(context, tag)));
}

void RouterActor::route(Context& context, std::uint32_t job) {
  const workload::Job& j = book_.jobs[job];
  const std::uint32_t c = setup_.policy.route(router::Snapshot{context.now(), j, view_, last_});
  if (c >= clusters_.size() || j.procs > view_[c].processors)
    throw std::logic_error("broker " + setup_.policy.name + " routed job " + std::to_string(j.id) + " to cluster " +
                           std::to_string(c) + " where it does not fit");
  ++view_[c].sent;
  view_[c].unreported_processors += j.procs;
  unreported_[c].push_back(Sent{context.now() + setup_.latency, j.procs});
  last_ = c;
  book_.records[job].cluster = c;
  book_.records[job].state = JobState::kInTransit;
  context.send(clusters_[c].first, JobArrives{job}, setup_.latency);
}

void RouterActor::on_message(Context&, const Message& message) {
  const auto* status = message.as<StatusReport>();
  if (!status) throw std::logic_error("router " + setup_.policy.name + ": a message it does not know");
  // A status report: what the cluster said when it sent it (`sent` is the router's own count).
  for (std::size_t c = 0; c < clusters_.size(); ++c) {
    if (clusters_[c].first != message.from) continue;
    const StatusReport& report = *status;
    view_[c].as_of = report.as_of;
    view_[c].busy = report.busy;
    view_[c].waiting = report.waiting;
    view_[c].queued_processors = report.queued_processors;
    // The jobs that reached the cluster by the time it wrote the report are in it (busy or queued), no longer counted
    // apart. A job that arrives at the report's instant is in it: messages come before timers within an instant.
    auto& pending = unreported_[c];
    while (!pending.empty() && pending.front().arrives <= report.as_of) {
      view_[c].unreported_processors -= pending.front().procs;
      pending.pop_front();
    }
    return;
  }
  throw std::logic_error("router " + setup_.policy.name + ": a status report from an actor it does not route to");
}

}  // namespace schedcheck::sim
