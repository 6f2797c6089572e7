// The `gateway-choice` problem (model/gateway_choice.hpp): reading, writing and the one validator. Our own.
#include "model/gateway_choice.hpp"

#include "model/time_slots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace schedcheck::gateway {

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "model", "now", "job", "providers", "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "\"gateway-choice\" files (docs/formats.md)", file);
  if (root.has("model")) {
    const std::string model = root.at("model").as_string();
    if (model == "processors") instance.identity = true;
    else if (model != "count") root.at("model").fail("\"count\" or \"processors\"");
  }
  instance.now = root.at("now").as_number(-slots::kMaxMagnitude, slots::kMaxMagnitude);
  const Field job = root.at("job");
  job.only_keys({"procs", "duration", "comment"});
  instance.procs = static_cast<int>(job.at("procs").as_int(1, slots::kMaxProcessors));
  instance.duration = job.at("duration").as_number(0, slots::kMaxMagnitude);
  if (!(instance.duration > kTimeTolerance)) job.at("duration").fail("a duration > 0 seconds");
  const auto items = root.at("providers").items();
  if (items.empty() || items.size() > kMaxProviders)
    root.at("providers").fail(fmt::format("1 to {} providers", kMaxProviders));
  std::set<std::string> names;
  int widest = 0;
  for (const Field& item : items) {
    item.only_keys({"name", "processors", "holds", "published", "comment"});
    Provider p;
    p.name = item.at("name").as_string();
    if (p.name.empty() || !names.insert(p.name).second) item.at("name").fail("a name no other provider has");
    p.processors = static_cast<int>(item.at("processors").as_int(1, slots::kMaxProcessors));
    widest = std::max(widest, p.processors);
    if (item.has("holds")) p.holds = slots::read_holds(item.at("holds"), p.processors, instance.identity);
    if (item.has("published") && !item.at("published").raw().is_null()) {
      p.published = slots::read_slots(item.at("published"), p.processors, instance.identity);
      // A report as a provider publishes it: no two slots share a processor-second (the slot-report validator on a
      // machine without holds, from the report's first start).
      slots::Instance alone;
      alone.processors = p.processors;
      alone.identity = instance.identity;
      alone.now = instance.now;
      for (const TimeSlot& slot : *p.published) alone.now = std::min(alone.now, slot.start);
      const Verdict sound = slots::validate(alone, slots::SlotReport{*p.published});
      if (!sound.feasible) item.at("published").fail("free time slots that share no processor-second: " + sound.reason);
    }
    instance.providers.push_back(std::move(p));
  }
  if (instance.procs > widest)
    job.at("procs").fail(fmt::format("at most the largest provider's {} processors", widest));
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  nlohmann::json providers = nlohmann::json::array();
  for (const Provider& p : instance.providers) {
    nlohmann::json item = {{"name", p.name}, {"processors", p.processors},
                           {"holds", slots::write_holds(p.holds, instance.identity)}};
    if (p.published) item["published"] = slots::write_slots(*p.published, instance.identity);
    providers.push_back(std::move(item));
  }
  return {{"kind", kInstanceKind},
          {"name", instance.name},
          {"model", instance.identity ? "processors" : "count"},
          {"now", instance.now},
          {"job", {{"procs", instance.procs}, {"duration", instance.duration}}},
          {"providers", std::move(providers)}};
}

nlohmann::json write_choice(const Instance& instance, const Choice& choice) {
  const std::string name = choice.provider < instance.providers.size() ? instance.providers[choice.provider].name : "?";
  return {{"provider", name},
          {"start", choice.start},
          {"summary", fmt::format("{} from {:g} (wait {:g} s)", name, choice.start, choice.start - instance.now)}};
}

Choice read_choice(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"provider", "start", "summary"});
  const std::string name = root.at("provider").as_string();
  Choice choice;
  const auto it = std::find_if(instance.providers.begin(), instance.providers.end(),
                               [&](const Provider& p) { return p.name == name; });
  if (it == instance.providers.end()) root.at("provider").fail("the name of one of the instance's providers");
  choice.provider = static_cast<std::size_t>(it - instance.providers.begin());
  choice.start = root.at("start").as_number(-slots::kMaxMagnitude, slots::kMaxMagnitude);
  return choice;
}

AvailabilityProfile true_profile(const Instance& instance, std::size_t p) {
  const Provider& provider = instance.providers[p];
  return slots::profile_of(provider.processors, instance.identity, provider.holds);
}

std::vector<TimeSlot> fresh_slots(const Instance& instance, std::size_t p) {
  return free_time_slots(true_profile(instance, p), instance.now);
}

std::vector<TimeSlot> known_slots(const Instance& instance, std::size_t p) {
  const Provider& provider = instance.providers[p];
  return provider.published ? *provider.published : fresh_slots(instance, p);
}

Verdict validate(const Instance& instance, const Choice& choice) {
  auto fail = [](std::string reason) { return Verdict{false, std::move(reason), 0}; };
  if (choice.provider >= instance.providers.size()) return fail("the choice names no provider of the instance");
  const Provider& provider = instance.providers[choice.provider];
  if (choice.start + kTimeTolerance < instance.now)
    return fail(fmt::format("the start {:g} is before now ({:g})", choice.start, instance.now));
  if (instance.procs > provider.processors)
    return fail(fmt::format("{} has {} processors, the job asks {}", provider.name, provider.processors, instance.procs));
  const AvailabilityProfile profile = true_profile(instance, choice.provider);
  const double end = choice.start + instance.duration;
  const int free = instance.identity ? profile.free_over(choice.start, end).count() : profile.min_free(choice.start, end);
  if (free < instance.procs)
    return fail(fmt::format("{} has {} processors free{} over [{:g}, {:g}), the job asks {}", provider.name,
                            std::max(0, free), instance.identity ? " throughout" : " at some instant", choice.start,
                            end, instance.procs));
  return Verdict{true, "", choice.start};
}

}  // namespace schedcheck::gateway
