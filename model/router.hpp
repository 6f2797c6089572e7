// What a router above several clusters (a broker, paper 002's gateway) sees when a job arrives: the job, what each
// cluster last reported of itself, and where the previous job went. Our own value types; routing policies are pure
// functions of them (reference/router_policies.hpp), and the simulation's RouterActor owns the messages.
#pragma once

#include "model/workload.hpp"

#include <cstdint>
#include <span>

namespace schedcheck::router {

// What the router last heard from a cluster (its status reports) and what it decided to send there.
struct ClusterStatus {
  double as_of = 0;           // when the cluster sent the report it last heard
  int processors = 0;
  int busy = 0;               // processors in use, as reported
  std::size_t waiting = 0;    // queued jobs, as reported
  long long queued_processors = 0;   // processors the queued jobs ask, as reported
  std::size_t sent = 0;       // jobs the router sent there so far (its own count)
  long long unreported_processors = 0;  // processors of the jobs it sent there that the last report cannot include
                                        // (still travelling, or reaching the cluster after the report): its own count
};

inline constexpr std::uint32_t kNone = 0xffffffffu;

struct Snapshot {
  double now = 0;
  const workload::Job& job;
  std::span<const ClusterStatus> clusters;
  std::uint32_t last = kNone;   // the cluster the previous job went to (kNone before the first)
};

}  // namespace schedcheck::router
