// Properties of gateway-choice (properties/gateway_choice_properties.hpp). Our own.
#include "properties/gateway_choice_properties.hpp"

#include <fmt/format.h>

namespace schedcheck::gateway {

std::vector<PropertySpec<Instance, Choice>> properties() {
  PropertySpec<Instance, Choice> explained;
  explained.name = "miss-explained-by-staleness";
  explained.source = "paper 002 sec. 5 (violations come from the freshness of the information); our own";
  explained.summary = "a choice that cannot start on the chosen provider's true profile, or starts later than the "
                      "earliest start, is made on published slots that differ from the providers' slots now";
  explained.check = [](const CheckContext<Instance, Choice>& c) {
    const Verdict v = validate(c.instance, c.decision);
    const bool late = v.feasible && c.optimum && c.optimum->decision &&
                      c.decision.start > c.optimum->objective + kTimeTolerance;
    if (v.feasible && !late) {
      if (v.feasible && !(c.optimum && c.optimum->decision))
        return PropertyResult{"", PropertyStatus::kUndecided, "feasible; the earliest start is not known"};
      return PropertyResult{"", PropertyStatus::kHolds, "ok: feasible and earliest"};
    }
    std::string stale;
    for (std::size_t p = 0; p < c.instance.providers.size(); ++p) {
      const auto& provider = c.instance.providers[p];
      if (provider.published && *provider.published != fresh_slots(c.instance, p)) {
        stale = provider.name;
        break;
      }
    }
    const std::string miss =
        v.feasible ? fmt::format("starts at {:g}, later than the earliest start {:g}", c.decision.start,
                                 c.optimum->objective)
                   : v.reason;
    if (!stale.empty())
      return PropertyResult{"", PropertyStatus::kHolds, fmt::format("explained: {} ({}'s slots are stale)", miss, stale)};
    return PropertyResult{"", PropertyStatus::kFails,
                          "every provider's published slots are its slots now, yet the choice " + miss};
  };
  return {
      violation_property<Instance, Choice>(
          "choice-feasible", "paper 002 sec. 5 (a violation: the job cannot start where and when the gateway planned)",
          "the chosen provider has the job's processors free (with identity: on a common set) over [start, start + "
          "duration) on its true profile, from now on",
          [](const Instance& i, const Choice& d) { return validate(i, d).reason; }),
      std::move(explained),
      not_above_optimum_property<Instance, Choice>(),
      optimal_within_property<Instance, Choice>(),
  };
}

}  // namespace schedcheck::gateway
