// Offer staircase shape (see offer.hpp). Paper 000 section III-A.
#include "model/offer.hpp"

#include "model/profile.hpp"

#include <fmt/format.h>

namespace schedcheck {

std::vector<Offer> merge_into_staircase(const std::vector<Offer>& by_increasing_tasks) {
  const auto later_than = [](double a, double b) { return a > b + kTimeTolerance; };
  std::vector<Offer> merged;
  for (const Offer& offer : by_increasing_tasks) {
    if (!merged.empty() && offer.tasks <= merged.back().tasks) continue;
    while (!merged.empty() && later_than(merged.back().completion, offer.completion)) merged.pop_back();
    if (!merged.empty() && !later_than(offer.completion, merged.back().completion))
      merged.back().tasks = offer.tasks;  // same completion: the previous offer takes the larger count
    else
      merged.push_back(offer);
  }
  return merged;
}

std::string staircase_violation(const std::vector<Offer>& offers) {
  for (std::size_t i = 0; i < offers.size(); ++i) {
    if (offers[i].tasks <= 0) return fmt::format("offers[{}] has {} tasks; an offer takes at least one", i, offers[i].tasks);
    if (i == 0) continue;
    const Offer& a = offers[i - 1];
    const Offer& b = offers[i];
    if (!(b.tasks > a.tasks && b.completion > a.completion))
      return fmt::format("offers[{}] ({} tasks, t={}) after offers[{}] ({} tasks, t={}): a staircase strictly increases "
                         "in tasks and completion time",
                         i, b.tasks, b.completion, i - 1, a.tasks, a.completion);
  }
  return "";
}

}  // namespace schedcheck
