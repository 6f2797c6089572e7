// Offer staircase shape (see offer.hpp). Paper 000 section III-A.
#include "model/offer.hpp"

#include <fmt/format.h>

namespace schedcheck {

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
