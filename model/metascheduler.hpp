// Paper 000's evaluation model (section V-A): the two deadline schemas, the deadlines they give (T_r + T_s + k), and
// the delay metrics of Figures 2-4 (jobs delayed, work delayed, Total Weighted Delay, Eq. V.1). Paper 000 sec. V-A;
// the readings are named where the text is ambiguous (docs/policies.md). Limits: value types and arithmetic only; the
// online metascheduler that produces the delays is not here.
#pragma once

#include "model/workload.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace schedcheck::metascheduler {

// A deadline schema: k takes one of three values, uniformly (sec. V-A, DEADLINES).
struct DeadlineSchema {
  std::string name;
  std::array<double, 3> k{};   // seconds
};
DeadlineSchema schema_1();     // 18 hours, 36 hours, 10 days
DeadlineSchema schema_2();     // 12 hours, 1 day, 1 week (more jobs with tighter deadlines)
// The schema's k for a uniform draw u in [0, 1): the first value for u < 1/3, the second below 2/3, else the third.
double k_of(const DeadlineSchema& schema, double u);
// The deadline T_r + T_s + k: submission time T_r, estimated run time T_s (the paper's names), k from the schema.
double deadline(double submit, double estimate, double k);

// A job as the delay metrics see it.
struct Delayed {
  double submit = 0;           // T^s of Eq. V.1 (see total_weighted_delay)
  double deadline = 0;         // D_j, the deadline the user asked for
  double new_deadline = 0;     // D^N_j, the deadline the system gave (= D_j when it was met)
  long long tasks = 1;         // R_j, the job's tasks (a BoT's tasks; a local job's processors)
  double work = 0;             // processors x required time
  bool delayed() const;        // D^N_j > D_j
};

// Jobs delayed (Fig. 2): how many have D^N_j > D_j.
std::size_t jobs_delayed(const std::vector<Delayed>& jobs);
// Work delayed (Fig. 3): the work of those jobs.
double work_delayed(const std::vector<Delayed>& jobs);
// Total Weighted Delay (Eq. V.1): the sum over delayed jobs of R_j ((D^N_j - T^s_j) / (D_j - T^s_j) - 1) x 100.
// Reading: T^s_j is the job's submission time, as the sentence after Eq. V.1 says ("T^s_j is the job submitted time");
// the deadline formula a page earlier calls the submission time T^r and the estimated run time T^s. A job whose
// D_j is not after its submission adds nothing (the ratio is undefined), and is counted by `undefined`.
double total_weighted_delay(const std::vector<Delayed>& jobs, std::size_t* undefined = nullptr);

// The load of `jobs` on `processors` over a window: the sum of processors x run time, over processors x window.
double load(const std::vector<workload::Job>& jobs, int processors, double window);
// Sec. V-A, LOAD: "we fixed the simulation time interval and modified the number of jobs in the traces" to reach each
// cluster's load of Table II. Our rule, seeded: take the jobs submitted in [start, start + window), shifted to start at
// 0; while the load is below `target`, append the jobs of the following windows in trace order, each shifted back by a
// whole number of windows (so they keep their time of day); while it is above, remove jobs drawn at random (seeded)
// until it is at most `target`. The result is by submit time; its load is within one job's work of the target,
// unless the trace runs out.
std::vector<workload::Job> adjust_load(const std::vector<workload::Job>& trace, double start, double window,
                                       int processors, double target, std::uint64_t seed);

}  // namespace schedcheck::metascheduler
