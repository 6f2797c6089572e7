// Properties over whole runs (see run_properties.hpp). Our own.
#include "properties/run_properties.hpp"

#include "model/cluster_json.hpp"
#include "model/input.hpp"

#include "simulation/simulation.hpp"

#include <fmt/format.h>

namespace schedcheck::runcheck {

RunDecision simulate_checked(const workload::Workload& w, const cluster::ClusterPolicy& policy) {
  RunDecision d;
  d.policy = policy.name;
  d.checked = applicable(policy.name);
  InvariantChecker checker(w, d.checked);
  sim::Simulation simulation(w.jobs, sim::single_cluster(w, policy));
  simulation.add_observer(checker);
  const sim::RunResult result = simulation.run();
  for (const auto& r : result.records) {
    d.schedule.start.push_back(r.state == sim::JobState::kRunning || r.state == sim::JobState::kFinished ? r.start : -1);
    d.schedule.end.push_back(r.state == sim::JobState::kFinished ? r.end : -1);
    d.schedule.allocated.emplace_back(r.allocated);
  }
  d.counts = checker.counts();
  d.violations = checker.violations();
  return d;
}

cluster::ClusterPolicy external_cluster_policy(const workload::Workload& w, JsonPolicy policy, std::string name) {
  std::vector<std::int64_t> ids;
  ids.reserve(w.jobs.size());
  for (const auto& job : w.jobs) ids.push_back(job.id);
  cluster::ClusterPolicy external{std::move(name), "a policy outside C++ (docs/protocol.md)", "asked at every pass", 0, {}, {}, {}, {}, false, nullptr, std::nullopt};
  external.decide = [ids = std::move(ids), policy = std::move(policy), trace = w.name](const cluster::Snapshot& snapshot) {
    const nlohmann::json request = {{"problem", "cluster-run"}, {"snapshot", cluster::write_snapshot(snapshot, ids)}};
    return cluster::read_decision(snapshot, ids, policy(request),
                                  fmt::format("the decision at t={:g} on {}", snapshot.now, quoted_text(trace)));
  };
  return external;
}

nlohmann::json describe(const workload::Workload& w, const RunDecision& d) {
  nlohmann::json start = nlohmann::json::object(), end = nlohmann::json::object(), on = nlohmann::json::object();
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    const std::string id = std::to_string(w.jobs[j].id);
    start[id] = d.schedule.start[j];
    end[id] = d.schedule.end[j];
    if (d.schedule.allocated.size() > j && d.schedule.allocated[j]) on[id] = *d.schedule.allocated[j];
  }
  nlohmann::json violations = nlohmann::json::array();
  std::size_t total = 0;
  for (const auto& [name, count] : d.counts) total += count;
  for (const auto& v : d.violations)
    violations.push_back({{"invariant", v.invariant}, {"time", v.time}, {"job", v.job}, {"detail", v.detail}});
  const RunMetrics m = run_metrics(w, d.schedule);
  return {{"start", start},
          {"end", end},
          {"allocated", on},
          {"violations", violations},
          {"summary", fmt::format("{} jobs, mean bounded slowdown {:.4g}, max wait {:g}, {} invariant violations",
                                  m.finished, m.mean_slowdown, m.max_wait, total)}};
}

namespace {

using Spec = PropertySpec<workload::Workload, RunDecision>;

Spec invariant_property(const InvariantInfo& info) {
  Spec p;
  p.name = info.name;
  p.source = info.source;
  p.summary = info.summary + " (checked on every decision of the run)";
  p.check = [name = info.name](const CheckContext<workload::Workload, RunDecision>& c) {
    PropertyResult r;
    const auto count = c.decision.counts.find(name);
    if (count == c.decision.counts.end()) {
      r.status = PropertyStatus::kNotApplicable;
      r.detail = "not promised by " + c.decision.policy + " (not checked)";
      return r;
    }
    if (count->second == 0) {
      r.detail = "ok";
      return r;
    }
    r.status = PropertyStatus::kFails;
    for (const auto& v : c.decision.violations)
      if (v.invariant == name) {
        r.detail = fmt::format("{} violation{}; first at t={:g}: {}", count->second, count->second == 1 ? "" : "s", v.time, v.detail);
        break;
      }
    return r;
  };
  return p;
}

// The run of `policy` compared with FCFS on the same trace by `measure` (smaller is better).
Spec comparison(std::string name, std::string policy, std::string measure_name,
                double (*measure)(const RunMetrics&), std::string summary) {
  Spec p;
  p.name = std::move(name);
  p.source = "folklore, known to fail (Mu'alem & Feitelson 2001); our own property";
  p.summary = std::move(summary);
  p.check = [policy, measure_name, measure](const CheckContext<workload::Workload, RunDecision>& c) {
    PropertyResult r;
    if (c.decision.policy != policy) {
      r.status = PropertyStatus::kNotApplicable;
      r.detail = "compares " + policy + " only, not " + c.decision.policy;
      return r;
    }
    const RunMetrics mine = run_metrics(c.instance, c.decision.schedule);
    const RunDecision fcfs = simulate_checked(c.instance, cluster::cluster_policy("fcfs"));
    const RunMetrics base = run_metrics(c.instance, fcfs.schedule);
    const double a = measure(mine), b = measure(base);
    const bool worse = a > b + kObjectiveSlack * std::max(1.0, std::abs(b));
    r.status = worse ? PropertyStatus::kFails : PropertyStatus::kHolds;
    r.detail = fmt::format("{} {} {:.6g} {} fcfs {:.6g}", policy, measure_name, a, worse ? ">" : "<=", b);
    return r;
  };
  return p;
}

}  // namespace

std::vector<Spec> run_properties() {
  std::vector<Spec> out;
  // A cluster-run is one cluster replaying a trace, with no gateway: no advance reservation, no slot report.
  for (const auto& info : invariants())
    if (info.name != invariant::kReservation && info.name != invariant::kSlots) out.push_back(invariant_property(info));
  out.push_back(comparison("easy-no-worse-than-fcfs", "easy", "mean bounded slowdown",
                           [](const RunMetrics& m) { return m.mean_slowdown; },
                           "easy's mean bounded slowdown is at most fcfs's on the same trace"));
  out.push_back(comparison("conservative-no-worse-than-fcfs", "conservative", "maximum wait",
                           [](const RunMetrics& m) { return m.max_wait; },
                           "conservative's maximum wait is at most fcfs's on the same trace"));
  return out;
}

}  // namespace schedcheck::runcheck
