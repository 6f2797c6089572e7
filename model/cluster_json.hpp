// The JSON of a cluster scheduling pass for policies outside C++ (docs/protocol.md, `simulate --policy-cmd` and
// cluster-run): the snapshot a policy sees and the decision it returns, jobs named by their workload ids and
// processor sets in Batsim's interval syntax ("0-3 7"). Our own. The reader checks the format only (known queued
// jobs, starts at now, reservations not in the past, set sizes); capacity is the run invariants' business.
#pragma once

#include "model/cluster.hpp"
#include "model/input.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace schedcheck::cluster {

// {"now", "processors", "model": "count" | "processors", "released_early", "queue": [{"id", "procs", "submit",
// "estimate", "reservation": null | {"start", "on"}}], "running": [{"id", "procs", "start", "estimated_end",
// "on"}], "state": {name: number}}; "on" only in the processors model, "state" only when the policy keeps one
// (Snapshot::state). `ids[j]`: the workload id of the engine's job j.
nlohmann::json write_snapshot(const Snapshot& snapshot, std::span<const std::int64_t> ids);

// {"start": [{"id", "on"}], "reserve": [{"id", "start", "on"}], "reject": [id], "wake_at": time, "state": {name:
// number}} (each optional;
// "on" required in the processors model, ignored otherwise). Throws InputError naming `where` and the field.
Decision read_decision(const Snapshot& snapshot, std::span<const std::int64_t> ids, const nlohmann::json& document,
                       const std::string& where);

// A policy's state as one flat object {name: number}, and read back from one (names kept in the object's order).
nlohmann::json write_state(std::span<const StateValue> state);
PolicyState read_state(const Field& field);

// The JSON Schema of that decision (schedcheck protocol --schema cluster-run).
nlohmann::json decision_schema();

}  // namespace schedcheck::cluster
