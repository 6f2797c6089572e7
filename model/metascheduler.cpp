// Paper 000's evaluation model (see metascheduler.hpp): sec. V-A, Eq. V.1.
#include "model/metascheduler.hpp"

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

}  // namespace schedcheck::metascheduler
