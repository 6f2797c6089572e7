// Small builders shared by the test files: hand-written SLA instances and decisions, hand-made traces, and the instance dump
// that differential tests print on a mismatch. Our own.
#pragma once

#include "model/sla.hpp"
#include "model/workload.hpp"
#include "solver/result.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace schedcheck {
// So that Boost.Test can print statuses in failed comparisons.
inline std::ostream& operator<<(std::ostream& out, ExactStatus status) { return out << to_string(status); }
}  // namespace schedcheck

namespace schedcheck::test {

// A site with no running jobs and `free` processors free (free defaults to all of them).
// A site of hand-made cases. Their hand computations charge price x run time (B = c l / (mu p), the wall-clock
// reading), which keeps the arithmetic of the policies' cases small; tests of the default, price x processor time,
// pass sla::Pricing::kProcessorTime.
inline sla::Instance make_site(int processors, double mips, double price, int free = -1,
                               sla::Pricing pricing = sla::Pricing::kWallClock) {
  sla::Instance instance;
  instance.name = "hand-made";
  instance.site.processors = processors;
  instance.site.free_processors = free < 0 ? processors : free;
  instance.site.mips = mips;
  instance.site.price = price;
  instance.site.pricing = pricing;
  return instance;
}

// A bid; expected_response < 0 means "= deadline" (the reader's default).
inline sla::Bid make_bid(std::string id, int procs, double length, double budget, double deadline, double alpha = 0,
                         double expected_response = -1) {
  sla::Bid bid;
  bid.id = std::move(id);
  bid.procs = procs;
  bid.length_mi = length;
  bid.alpha = alpha;
  bid.budget = budget;
  bid.deadline = deadline;
  bid.expected_response = expected_response < 0 ? deadline : expected_response;
  return bid;
}

// Adds a running job and keeps free_processors = processors - running processors.
inline void add_running(sla::Instance& instance, std::string id, int procs, double remaining) {
  instance.running.push_back(sla::RunningJob{std::move(id), procs, remaining});
  instance.site.free_processors -= procs;
}

// A decision accepting exactly the named bids, with the given start times (others start at 0).
inline sla::Admission admit(const sla::Instance& instance, const std::vector<std::string>& ids,
                            const std::map<std::string, double>& starts = {}) {
  sla::Admission a{std::vector<bool>(instance.bids.size(), false), std::vector<double>(instance.bids.size(), 0.0)};
  for (const auto& id : ids) {
    bool found = false;
    for (std::size_t i = 0; i < instance.bids.size(); ++i)
      if (instance.bids[i].id == id) {
        a.accepted[i] = true;
        found = true;
      }
    if (!found) throw std::logic_error("test helper: no bid " + id);
  }
  for (const auto& [id, start] : starts)
    for (std::size_t i = 0; i < instance.bids.size(); ++i)
      if (instance.bids[i].id == id) a.start[i] = start;
  return a;
}

inline std::string dump(const sla::Instance& instance) { return sla::write_instance(instance).dump(); }

inline bool close_rel(double a, double b, double rel = 1e-6) {
  const double scale = std::max({1.0, a < 0 ? -a : a, b < 0 ? -b : b});
  return (a - b <= rel * scale) && (b - a <= rel * scale);
}

// A job of a hand-made trace: id, submit, run time, estimate, processors.
struct HandJob {
  std::int64_t id;
  double submit, run, estimate;
  int procs;
};

inline workload::Workload make_trace(int processors, const std::vector<HandJob>& jobs) {
  workload::Workload w;
  w.name = "hand-made";
  w.processors = processors;
  for (const auto& j : jobs) w.jobs.push_back(workload::Job{j.id, j.submit, j.run, j.estimate, j.procs});
  w.records = w.jobs.size();
  return w;
}

}  // namespace schedcheck::test
