// Paper 000's evaluation model (see metascheduler.hpp): sec. V-A, Eq. V.1.
#include "model/metascheduler.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace schedcheck::metascheduler {

namespace {
constexpr double kHour = 3600, kDay = 24 * kHour;
}  // namespace

DeadlineSchema schema_1() { return {"schema-1", {18 * kHour, 36 * kHour, 10 * kDay}}; }
DeadlineSchema schema_2() { return {"schema-2", {12 * kHour, 1 * kDay, 7 * kDay}}; }

double k_of(const DeadlineSchema& schema, double u) {
  return u < 1.0 / 3 ? schema.k[0] : u < 2.0 / 3 ? schema.k[1] : schema.k[2];
}

double deadline(double submit, double estimate, double k) { return submit + estimate + k; }

bool Delayed::delayed() const { return new_deadline > deadline; }

std::size_t jobs_delayed(const std::vector<Delayed>& jobs) {
  std::size_t n = 0;
  for (const auto& j : jobs) n += j.delayed();
  return n;
}

double work_delayed(const std::vector<Delayed>& jobs) {
  double w = 0;
  for (const auto& j : jobs)
    if (j.delayed()) w += j.work;
  return w;
}

double total_weighted_delay(const std::vector<Delayed>& jobs, std::size_t* undefined) {
  double sum = 0;
  std::size_t bad = 0;
  for (const auto& j : jobs) {
    if (!j.delayed()) continue;
    const double asked = j.deadline - j.submit;
    if (asked <= 0) {
      ++bad;
      continue;
    }
    sum += static_cast<double>(j.tasks) * ((j.new_deadline - j.submit) / asked - 1) * 100;
  }
  if (undefined) *undefined = bad;
  return sum;
}

double load(const std::vector<workload::Job>& jobs, int processors, double window) {
  double work = 0;
  for (const auto& j : jobs) work += j.procs * j.run;
  return work / (static_cast<double>(processors) * window);
}

std::vector<workload::Job> adjust_load(const std::vector<workload::Job>& trace, double start, double window,
                                       int processors, double target, std::uint64_t seed) {
  const double capacity = static_cast<double>(processors) * window;
  std::vector<workload::Job> out;
  double work = 0;
  for (const auto& j : trace)
    if (j.submit >= start && j.submit < start + window) {
      out.push_back(j);
      out.back().submit -= start;
      work += j.procs * j.run;
    }
  // Below the target: the following windows, folded back onto this one, in trace order.
  for (const auto& j : trace) {
    if (work >= target * capacity) break;
    if (j.submit < start + window) continue;
    workload::Job copy = j;
    copy.submit = std::fmod(j.submit - start, window);
    out.push_back(copy);
    work += j.procs * j.run;
  }
  // Above it: jobs removed at random, one at a time.
  std::mt19937_64 rng(seed);
  while (!out.empty() && work > target * capacity) {
    const std::size_t k = static_cast<std::size_t>(rng() % out.size());
    work -= out[k].procs * out[k].run;
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(k));
  }
  std::stable_sort(out.begin(), out.end(), [](const workload::Job& a, const workload::Job& b) { return a.submit < b.submit; });
  return out;
}

}  // namespace schedcheck::metascheduler
