// Queue window model, reader, validator and objectives (see queue_window.hpp). Our own.
#include "model/queue_window.hpp"

#include "model/job_metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace schedcheck::window {

const char* to_string(Objective objective) {
  switch (objective) {
    case Objective::kBoundedSlowdown: return "bounded-slowdown";
    case Objective::kWait: return "wait";
    case Objective::kMakespan: return "makespan";
  }
  return "?";
}

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "now", "processors", "running", "waiting", "objective", "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "\"queue-window\" files (docs/formats.md)", file);
  instance.now = root.at("now").as_number(0, kMaxMagnitude);
  instance.processors = static_cast<int>(root.at("processors").as_int(1, kMaxProcessors));
  if (root.has("objective")) {
    const std::string name = root.at("objective").as_string();
    if (name == "bounded-slowdown") instance.objective = Objective::kBoundedSlowdown;
    else if (name == "wait") instance.objective = Objective::kWait;
    else if (name == "makespan") instance.objective = Objective::kMakespan;
    else root.at("objective").fail("\"bounded-slowdown\", \"wait\" or \"makespan\"");
  }
  std::set<std::string> ids;
  auto unique = [&](const Field& item) {
    const std::string id = item.at("id").as_string();
    if (!ids.insert(id).second) item.at("id").fail("an id no other job has");
    return id;
  };
  int busy = 0;
  if (root.has("running"))
    for (const Field& item : root.at("running").items()) {
      item.only_keys({"id", "procs", "remaining"});
      RunningJob job;
      job.id = unique(item);
      job.procs = static_cast<int>(item.at("procs").as_int(1, instance.processors));
      job.remaining = item.at("remaining").as_positive();
      if (job.remaining > kMaxMagnitude) item.at("remaining").fail(fmt::format("at most {:g}", kMaxMagnitude));
      busy += job.procs;
      if (busy > instance.processors)
        item.at("procs").fail(fmt::format("running jobs using at most P = {} processors in all", instance.processors));
      instance.running.push_back(job);
    }
  double previous = 0;
  for (const Field& item : root.at("waiting").items()) {
    item.only_keys({"id", "submit", "procs", "estimate"});
    WaitingJob job;
    job.id = unique(item);
    job.submit = item.at("submit").as_number(0, instance.now);
    if (job.submit < previous) item.at("submit").fail("jobs in queue order: a submit time >= the previous job's");
    previous = job.submit;
    job.procs = static_cast<int>(item.at("procs").as_int(1, instance.processors));
    job.estimate = item.at("estimate").as_number(0, kMaxMagnitude);
    instance.waiting.push_back(job);
  }
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  nlohmann::json running = nlohmann::json::array(), waiting = nlohmann::json::array();
  for (const auto& r : instance.running) running.push_back({{"id", r.id}, {"procs", r.procs}, {"remaining", r.remaining}});
  for (const auto& w : instance.waiting)
    waiting.push_back({{"id", w.id}, {"submit", w.submit}, {"procs", w.procs}, {"estimate", w.estimate}});
  return {{"kind", kInstanceKind},       {"name", instance.name},   {"now", instance.now},
          {"processors", instance.processors}, {"objective", to_string(instance.objective)},
          {"running", running},          {"waiting", waiting}};
}

nlohmann::json write_schedule(const Instance& instance, const Schedule& schedule) {
  nlohmann::json start = nlohmann::json::object();
  std::string summary;
  for (std::size_t i = 0; i < instance.waiting.size() && i < schedule.start.size(); ++i) {
    start[instance.waiting[i].id] = schedule.start[i];
    summary += fmt::format("{}{}@{:g}", summary.empty() ? "" : " ", instance.waiting[i].id, schedule.start[i] - instance.now);
  }
  return {{"start", start}, {"summary", "starts (from now) " + (summary.empty() ? std::string("-") : summary)}};
}

Schedule read_schedule(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"start", "summary"});
  const IdIndex jobs(instance.waiting, [](const WaitingJob& w) { return w.id; }, "a waiting job");
  const Field start = root.at("start");
  for (const auto& [key, value] : start.members()) jobs.of_key(key, value);
  Schedule schedule{std::vector<double>(instance.waiting.size(), 0.0)};
  for (std::size_t i = 0; i < instance.waiting.size(); ++i)
    schedule.start[i] = start.at(instance.waiting[i].id).as_number(-1e15, 1e15);
  return schedule;
}

AvailabilityProfile running_profile(const Instance& instance) {
  AvailabilityProfile profile(instance.processors);
  for (const auto& r : instance.running) profile.reserve(instance.now, instance.now + r.remaining, r.procs);
  return profile;
}

double job_cost(const Instance& instance, std::size_t job, double start) {
  const WaitingJob& w = instance.waiting[job];
  switch (instance.objective) {
    case Objective::kBoundedSlowdown: return bounded_slowdown(start - w.submit, w.estimate);
    case Objective::kWait: return start - w.submit;
    case Objective::kMakespan: return start + w.estimate - instance.now;
  }
  return 0;
}

double combine_costs(const Instance& instance, double total, double cost) {
  return instance.objective == Objective::kMakespan ? std::max(total, cost) : total + cost;
}

double objective(const Instance& instance, const Schedule& schedule) {
  double total = 0;
  for (std::size_t i = 0; i < instance.waiting.size() && i < schedule.start.size(); ++i)
    total = combine_costs(instance, total, job_cost(instance, i, schedule.start[i]));
  return total;
}

Verdict validate(const Instance& instance, const Schedule& schedule) {
  Verdict v;
  auto fail = [&](std::string why) {
    v.feasible = false;
    v.reason = std::move(why);
    return v;
  };
  if (schedule.start.size() != instance.waiting.size())
    return fail(fmt::format("the schedule starts {} jobs, the window has {} waiting", schedule.start.size(),
                            instance.waiting.size()));
  AvailabilityProfile profile = running_profile(instance);
  for (std::size_t i = 0; i < instance.waiting.size(); ++i) {
    const double s = schedule.start[i];
    if (!std::isfinite(s) || s < instance.now - kTimeTolerance)
      return fail(fmt::format("job {} starts at {}, before now ({})", instance.waiting[i].id, s, instance.now));
    profile.reserve(s, s + instance.waiting[i].estimate, instance.waiting[i].procs);
  }
  for (const auto& step : profile.steps())
    if (step.free < 0)
      return fail(fmt::format("from t = {:g} the jobs use {} processors, the cluster has P = {}", step.time,
                              instance.processors - step.free, instance.processors));
  v.objective = objective(instance, schedule);
  return v;
}

}  // namespace schedcheck::window
