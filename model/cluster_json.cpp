// Snapshot writer and decision reader of a cluster pass (see cluster_json.hpp). Our own.
#include "model/cluster_json.hpp"

#include "model/input.hpp"

#include <fmt/format.h>

#include <limits>
#include <unordered_map>

namespace schedcheck::cluster {

nlohmann::json write_snapshot(const Snapshot& snapshot, std::span<const std::int64_t> ids) {
  const bool identity = snapshot.model == ResourceModel::kProcessors;
  nlohmann::json queue = nlohmann::json::array(), running = nlohmann::json::array();
  for (const Waiting& w : snapshot.queue) {
    nlohmann::json job = {{"id", ids[w.job]}, {"procs", w.procs}, {"submit", w.submit}, {"estimate", w.estimate},
                          {"reservation", nullptr}};
    if (w.reserved) {
      job["reservation"] = {{"start", w.reserved_start}};
      if (identity) job["reservation"]["on"] = w.reserved_on.to_intervals();
      if (w.advance) job["reservation"]["advance"] = true;  // an advance reservation: fixed, starts exactly then
    }
    queue.push_back(std::move(job));
  }
  for (const Running& r : snapshot.running) {
    nlohmann::json job = {{"id", ids[r.job]}, {"procs", r.procs}, {"start", r.start}, {"estimated_end", r.estimated_end}};
    if (identity) job["on"] = r.on.to_intervals();
    running.push_back(std::move(job));
  }
  nlohmann::json out = {{"now", snapshot.now},         {"processors", snapshot.processors},
                        {"model", to_string(snapshot.model)}, {"released_early", snapshot.released_early},
                        {"queue", std::move(queue)},   {"running", std::move(running)}};
  if (!snapshot.state.empty()) out["state"] = write_state(snapshot.state);
  return out;
}

nlohmann::json write_state(std::span<const StateValue> state) {
  nlohmann::json out = nlohmann::json::object();
  for (const StateValue& v : state) out[v.name] = v.value;
  return out;
}

PolicyState read_state(const Field& field) {
  PolicyState state;
  for (const auto& [name, value] : field.members())
    state.push_back(StateValue{name, value.as_number(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max())});
  return state;
}

Decision read_decision(const Snapshot& snapshot, std::span<const std::int64_t> ids, const nlohmann::json& document,
                       const std::string& where) {
  const bool identity = snapshot.model == ResourceModel::kProcessors;
  const Field root(document, where);
  root.only_keys({"start", "reserve", "reject", "wake_at", "state"});
  std::unordered_map<std::int64_t, std::size_t> queued;
  for (std::size_t i = 0; i < snapshot.queue.size(); ++i) queued.emplace(ids[snapshot.queue[i].job], i);
  std::vector<bool> started(snapshot.queue.size(), false);
  auto placement = [&](const Field& item, bool start) {
    item.only_keys(start ? std::initializer_list<std::string_view>{"id", "on"}
                         : std::initializer_list<std::string_view>{"id", "start", "on"});
    const Field id = item.at("id");
    const auto it = queued.find(id.as_int(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()));
    if (it == queued.end()) id.fail("the id of a job waiting in the queue");
    Placement p;
    p.index = it->second;
    p.start = snapshot.now;
    if (!start) {
      p.start = item.at("start").as_number(snapshot.now, 1e15);
    } else {
      if (started[p.index]) id.fail("each job started at most once");
      started[p.index] = true;
    }
    const int procs = snapshot.queue[p.index].procs;
    if (identity) {
      const Field on = item.at("on");
      if (!on.raw().is_string()) on.fail("processors in Batsim's interval syntax (\"0-3 7\")");
      std::string error;
      const auto set = ProcessorSet::parse_intervals(on.raw().get<std::string>(), snapshot.processors, &error);
      if (!set) on.fail(fmt::format("processors 0 to {} in Batsim's interval syntax ({})", snapshot.processors - 1, error));
      if (set->count() != procs) on.fail(fmt::format("{} processors (the job's size)", procs));
      p.on = *set;
    }
    return p;
  };
  Decision decision;
  if (root.has("reserve"))
    for (const Field& item : root.at("reserve").items()) decision.reserve.push_back(placement(item, false));
  if (root.has("start"))
    for (const Field& item : root.at("start").items()) decision.start.push_back(placement(item, true));
  if (root.has("reject"))
    for (const Field& item : root.at("reject").items()) {
      const auto it = queued.find(item.as_int(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()));
      if (it == queued.end()) item.fail("the id of a job waiting in the queue");
      if (started[it->second]) item.fail("a job this decision does not also start or reject");
      started[it->second] = true;
      for (const auto& p : decision.reserve)
        if (p.index == it->second) item.fail("a job the decision does not also reserve");
      decision.reject.push_back(it->second);
    }
  if (root.has("state")) decision.state = read_state(root.at("state"));
  if (root.has("wake_at")) decision.wake_at = root.at("wake_at").as_number(snapshot.now + 2 * kTimeTolerance, 1e15);
  return decision;
}

nlohmann::json decision_schema() {
  const nlohmann::json on = {{"type", "string"},
                             {"description", "processors model only: the job's processors, Batsim's interval syntax"}};
  auto placement = [&](const char* title, nlohmann::json properties, std::vector<std::string> required) {
    properties["on"] = on;
    return object_schema(title, std::move(properties), required, true);
  };
  return object_schema(
      "cluster pass decision (simulate --policy-cmd, cluster-run)",
      {{"start", {{"type", "array"},
                  {"description", "jobs of the queue to start now"},
                  {"items", placement("a start", {{"id", {{"type", "integer"}}}}, {"id"})}}},
       {"reserve", {{"type", "array"},
                    {"description", "reservations to make or move (start >= now)"},
                    {"items", placement("a reservation", {{"id", {{"type", "integer"}}}, {"start", {{"type", "number"}}}},
                                        {"id", "start"})}}},
       {"reject", {{"type", "array"},
                   {"description", "ids of queued jobs refused: they leave the queue and never run"},
                   {"items", {{"type", "integer"}}}}},
       {"wake_at", {{"type", "number"}, {"description", "call me later: a pass at this time (> now) even if nothing changes"}}},
       {"state", {{"type", "object"},
                  {"additionalProperties", {{"type", "number"}}},
                  {"description", "the policy's memory for its next pass (the next snapshot's \"state\"); absent: kept"}}}},
      {});
}

}  // namespace schedcheck::cluster
