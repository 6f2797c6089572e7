// The jobs of a run and what happened to each: one record a job, shared by the actors of a simulation (a cluster
// fills in where and when its jobs ran; a router, where it sent them). Our own.
#pragma once

#include "model/workload.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace schedcheck::sim {

enum class JobState : std::uint8_t { kPending, kInTransit, kWaiting, kRunning, kFinished, kRejected };
const char* to_string(JobState state);

struct JobRecord {
  std::uint32_t cluster = 0;             // the cluster it was sent to (an index among the run's clusters)
  JobState state = JobState::kPending;
  double arrival = -1;                   // reached its cluster's queue
  double start = -1;
  double end = -1;
  double reservation = -1;               // the reservation it holds (or held last)
  std::string allocated;                 // its processors, Batsim interval syntax (when recorded)
};

// The jobs in submit order (workload::Workload::jobs), their records, and how many have settled: finished, or
// rejected by a policy (neither will ever run again). The jobs are the caller's: they outlive the book.
struct JobBook {
  explicit JobBook(const std::vector<workload::Job>& all) : jobs(all), records(all.size()) {}
  explicit JobBook(std::vector<workload::Job>&&) = delete;  // a temporary would not outlive the book
  const std::vector<workload::Job>& jobs;
  std::vector<JobRecord> records;
  std::size_t finished = 0, rejected = 0;
  std::size_t settled() const { return finished + rejected; }
  bool all_settled() const { return settled() == jobs.size(); }
};

}  // namespace schedcheck::sim
