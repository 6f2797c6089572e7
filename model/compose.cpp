// Offer composition model (see compose.hpp): paper 000 section IV and Eq. V.1; slot filling is our reading of III-B.
#include "model/compose.hpp"

#include "model/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace schedcheck::compose {

namespace {
// Relative slack when comparing times computed in double (slot positions start + k * runtime).
constexpr double kRelativeSlack = 1e-9;
bool same_time(double a, double b) { return std::fabs(a - b) <= kTimeTolerance; }  // seconds, whatever the magnitude
constexpr long long kMaxProcessors = 1'000'000;

// Tasks one slot can complete by time t (each of its processors runs tasks back to back from max(start, not_before)).
long long slot_count_by(const FreeSlot& slot, double runtime, double not_before, double t) {
  const double begin = std::max(slot.start, not_before);
  const double stop = std::min(t, slot.end);
  if (stop <= begin) return 0;
  const double per_processor = std::floor((stop - begin) / runtime + kRelativeSlack);
  return static_cast<long long>(std::min(per_processor, static_cast<double>(kMaxTasks))) * slot.processors;
}

long long provider_count_by(const Provider& provider, double runtime, double not_before, double t) {
  long long count = 0;
  for (const auto& slot : provider.free_slots) count += slot_count_by(slot, runtime, not_before, t);
  return count;
}
}  // namespace

long long assigned_tasks(const Composition& composition) {
  long long sum = 0;
  for (const auto& part : composition.parts) sum += part.tasks;
  return sum;
}

std::size_t providers_used(const Composition& composition) {
  return static_cast<std::size_t>(
      std::count_if(composition.parts.begin(), composition.parts.end(), [](const Part& p) { return p.tasks > 0; }));
}

double bot_completion(const Instance& instance, const Composition& composition) {
  double latest = instance.bot.submit;
  for (const auto& part : composition.parts)
    if (part.tasks > 0) latest = std::max(latest, part.completion);
  return latest;
}

double twdelay_term(const Bot& bot, double completion) {
  if (completion <= bot.deadline) return 0;
  return static_cast<double>(bot.tasks) * ((completion - bot.submit) / (bot.deadline - bot.submit) - 1) * 100;
}

double parts_weighted_delay(const Instance& instance, const Composition& composition) {
  double sum = 0;
  for (const auto& part : composition.parts) {
    if (part.tasks <= 0 || part.completion <= instance.bot.deadline) continue;
    const Bot& bot = instance.bot;
    sum += static_cast<double>(part.tasks) * ((part.completion - bot.submit) / (bot.deadline - bot.submit) - 1) * 100;
  }
  return sum;
}

double largest_share(const Instance& instance, const Composition& composition) {
  double largest = 0;
  for (std::size_t p = 0; p < composition.parts.size() && p < instance.providers.size(); ++p) {
    const Part& part = composition.parts[p];
    if (part.offer < 0 || part.offer >= static_cast<int>(instance.providers[p].offers.size())) continue;
    largest = std::max(largest, static_cast<double>(part.tasks) /
                                    static_cast<double>(instance.providers[p].offers[static_cast<std::size_t>(part.offer)].tasks));
  }
  return largest;
}

std::optional<double> slot_completion(const Provider& provider, double runtime, double not_before, long long tasks) {
  if (tasks <= 0) return not_before;
  if (runtime <= 0) return std::nullopt;
  // The answer is a position completion begin + k runtime of some slot: per slot, the smallest k whose time lets all
  // slots together complete `tasks`; the earliest of those.
  std::optional<double> best;
  for (const auto& slot : provider.free_slots) {
    const double begin = std::max(slot.start, not_before);
    long long high = slot.end == kForever ? (tasks + slot.processors - 1) / slot.processors
                                          : static_cast<long long>(std::max(0.0, std::floor((slot.end - begin) / runtime + kRelativeSlack)));
    if (high <= 0 || provider_count_by(provider, runtime, not_before, begin + static_cast<double>(high) * runtime) < tasks)
      continue;
    long long low = 1;  // smallest k with enough tasks completed by begin + k runtime
    while (low < high) {
      const long long mid = low + (high - low) / 2;
      if (provider_count_by(provider, runtime, not_before, begin + static_cast<double>(mid) * runtime) >= tasks) high = mid;
      else low = mid + 1;
    }
    const double time = begin + static_cast<double>(low) * runtime;
    if (!best || time < *best) best = time;
  }
  return best;
}

int largest_offer_by(const Provider& provider, double time) {
  int best = kUnused;
  for (std::size_t j = 0; j < provider.offers.size(); ++j)
    if (provider.offers[j].completion <= time + kTimeTolerance) best = static_cast<int>(j);
  return best;  // a staircase: the last offer completing by `time` is the largest
}

nlohmann::json metrics(const Instance& instance, const Composition& composition) {
  const double completion = bot_completion(instance, composition);
  return {{"completion", completion},
          {"delay", std::max(0.0, completion - instance.bot.deadline)},
          {"twdelay_term", twdelay_term(instance.bot, completion)},
          {"clusters", providers_used(composition)}};
}

// ---------------------------------------------------------------- feasibility

std::string shape_violation(const Instance& instance, const Composition& composition) {
  if (composition.parts.size() == instance.providers.size()) return "";
  return fmt::format("decision has {} parts for {} providers", composition.parts.size(), instance.providers.size());
}

std::string conservation_violation(const Instance& instance, const Composition& composition) {
  for (std::size_t p = 0; p < composition.parts.size(); ++p)
    if (composition.parts[p].tasks < 0)
      return fmt::format("provider {} gets {} tasks", instance.providers[p].id, composition.parts[p].tasks);
  const long long assigned = assigned_tasks(composition);
  if (assigned == instance.bot.tasks) return "";
  return fmt::format("{} of the BoT's n = {} tasks assigned", assigned, instance.bot.tasks);
}

std::string offer_violation(const Instance& instance, const Composition& composition) {
  for (std::size_t p = 0; p < composition.parts.size(); ++p) {
    const Part& part = composition.parts[p];
    const Provider& provider = instance.providers[p];
    if (part.tasks <= 0) continue;
    if (part.offer == kFromFreeSlots) {
      const auto earliest = slot_completion(provider, instance.bot.task_runtime, instance.bot.submit, part.tasks);
      if (!earliest)
        return fmt::format("provider {} gets {} tasks; its free slots cannot hold them", provider.id, part.tasks);
      if (part.completion < *earliest - kTimeTolerance)
        return fmt::format("provider {} completes {} tasks at t={}, its free slots allow t={} at the earliest",
                           provider.id, part.tasks, part.completion, *earliest);
      continue;
    }
    if (part.offer < 0 || part.offer >= static_cast<int>(provider.offers.size()))
      return fmt::format("provider {} gets {} tasks without one of its {} offers", provider.id, part.tasks,
                         provider.offers.size());
    const Offer& offer = provider.offers[static_cast<std::size_t>(part.offer)];
    if (part.tasks > offer.tasks)
      return fmt::format("provider {} gets {} tasks under offers[{}] = ({} tasks, t={})", provider.id, part.tasks,
                         part.offer, offer.tasks, offer.completion);
    if (!same_time(part.completion, offer.completion))
      return fmt::format("provider {} completes at t={}, its offers[{}] says t={}", provider.id, part.completion,
                         part.offer, offer.completion);
  }
  return "";
}

std::string empty_assignment_violation(const Instance& instance, const Composition& composition) {
  for (std::size_t p = 0; p < composition.parts.size(); ++p)
    if (composition.parts[p].offer != kUnused && composition.parts[p].tasks <= 0)
      return fmt::format("provider {} is used ({}) with {} tasks", instance.providers[p].id,
                         composition.parts[p].offer == kFromFreeSlots ? "free slots"
                                                                      : fmt::format("offers[{}]", composition.parts[p].offer),
                         composition.parts[p].tasks);
  return "";
}

Verdict validate(const Instance& instance, const Composition& composition) {
  Verdict v;
  v.reason = shape_violation(instance, composition);
  for (auto check : {conservation_violation, offer_violation, empty_assignment_violation})
    if (v.reason.empty()) v.reason = check(instance, composition);
  v.feasible = v.reason.empty();
  if (v.feasible) v.objective = bot_completion(instance, composition);
  return v;
}

// ---------------------------------------------------------------- reader / writer

namespace {
double read_time(const Field& field) {
  const double value = field.as_number(0, kMaxTime);
  return value;
}
}  // namespace

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "bot", "providers", "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "BoT offer instances", file);

  const Field bot = root.at("bot");
  bot.only_keys({"tasks", "deadline", "submit", "task_runtime"});
  instance.bot.tasks = bot.at("tasks").as_int(1, kMaxTasks);
  instance.bot.submit = bot.has("submit") ? read_time(bot.at("submit")) : 0.0;
  instance.bot.deadline = read_time(bot.at("deadline"));
  if (instance.bot.deadline <= instance.bot.submit)
    bot.at("deadline").fail(fmt::format("a time after bot.submit = {}", instance.bot.submit));
  if (bot.has("task_runtime")) {
    instance.bot.task_runtime = bot.at("task_runtime").as_positive();
    if (instance.bot.task_runtime > kMaxTime) bot.at("task_runtime").fail(fmt::format("a number <= {:g}", kMaxTime));
  }

  std::set<std::string> ids;
  long long coverable = 0;
  const Field providers = root.at("providers");
  const auto items = providers.items();
  if (items.empty()) providers.fail("at least one provider");
  for (const Field& item : items) {
    item.only_keys({"id", "processors", "load", "offers", "free_slots", "comment"});
    Provider provider;
    provider.id = item.at("id").as_string();
    if (!ids.insert(provider.id).second) item.at("id").fail("an id not used by another provider");
    provider.processors = static_cast<int>(item.at("processors").as_int(1, kMaxProcessors));
    provider.load = item.has("load") ? item.at("load").as_number(0, kMaxTime) : 0.0;
    for (const Field& offer_item : item.at("offers").items()) {
      offer_item.only_keys({"tasks", "completion"});
      Offer offer;
      offer.tasks = offer_item.at("tasks").as_int(1, kMaxTasks);
      offer.completion = read_time(offer_item.at("completion"));
      if (offer.completion <= instance.bot.submit)
        offer_item.at("completion").fail(fmt::format("a time after bot.submit = {}", instance.bot.submit));
      provider.offers.push_back(offer);
    }
    if (const std::string why = staircase_violation(provider.offers); !why.empty())
      item.at("offers").fail("a staircase (" + why + ")");
    if (!provider.offers.empty()) coverable += provider.offers.back().tasks;
    if (item.has("free_slots")) {
      for (const Field& slot_item : item.at("free_slots").items()) {
        slot_item.only_keys({"start", "end", "processors"});
        FreeSlot slot;
        slot.start = read_time(slot_item.at("start"));
        if (!slot_item.raw().contains("end")) slot_item.at("end");  // missing: "expected ..." from Field::at
        slot.end = slot_item.has("end") ? read_time(slot_item.at("end")) : kForever;
        if (slot.end <= slot.start) slot_item.at("end").fail(fmt::format("a time after start = {}, or null", slot.start));
        slot.processors = static_cast<int>(slot_item.at("processors").as_int(1, provider.processors));
        provider.free_slots.push_back(slot);
      }
      if (!provider.free_slots.empty() && instance.bot.task_runtime <= 0)
        throw InputError(fmt::format("{}: bot.task_runtime: missing; expected a number > 0 (provider {} publishes "
                                     "free_slots, and filling them needs the runtime of a task)", file, quoted_text(provider.id)));
    }
    instance.providers.push_back(std::move(provider));
  }
  if (coverable < instance.bot.tasks)
    providers.fail(fmt::format("providers whose largest offers together cover bot.tasks = {} (they cover {})",
                               instance.bot.tasks, coverable));
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  nlohmann::json doc;
  doc["kind"] = kInstanceKind;
  doc["name"] = instance.name;
  doc["bot"] = {{"tasks", instance.bot.tasks}, {"deadline", instance.bot.deadline}, {"submit", instance.bot.submit}};
  if (instance.bot.task_runtime > 0) doc["bot"]["task_runtime"] = instance.bot.task_runtime;
  doc["providers"] = nlohmann::json::array();
  for (const auto& provider : instance.providers) {
    nlohmann::json p = {{"id", provider.id}, {"processors", provider.processors}, {"load", provider.load}};
    p["offers"] = nlohmann::json::array();
    for (const auto& offer : provider.offers) p["offers"].push_back({{"tasks", offer.tasks}, {"completion", offer.completion}});
    if (!provider.free_slots.empty()) {
      p["free_slots"] = nlohmann::json::array();
      for (const auto& slot : provider.free_slots)
        p["free_slots"].push_back({{"start", slot.start},
                                   {"end", slot.end == kForever ? nlohmann::json(nullptr) : nlohmann::json(slot.end)},
                                   {"processors", slot.processors}});
    }
    doc["providers"].push_back(std::move(p));
  }
  return doc;
}

nlohmann::json write_composition(const Instance& instance, const Composition& composition) {
  nlohmann::json assigned = nlohmann::json::array();
  std::string summary;
  for (std::size_t p = 0; p < composition.parts.size() && p < instance.providers.size(); ++p) {
    const Part& part = composition.parts[p];
    if (part.tasks == 0 && part.offer == kUnused) continue;
    assigned.push_back({{"provider", instance.providers[p].id},
                        {"tasks", part.tasks},
                        {"offer", part.offer >= 0 ? nlohmann::json(part.offer) : nlohmann::json(nullptr)},
                        {"from", part.offer == kFromFreeSlots ? "free-slots" : part.offer >= 0 ? "offer" : "none"},
                        {"completion", part.completion}});
    summary += fmt::format("{}({},{:g}){}", summary.empty() ? "" : " ", part.tasks, part.completion, instance.providers[p].id);
  }
  return {{"assigned", assigned}, {"summary", summary.empty() ? "(none)" : summary}};
}

Composition read_composition(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"assigned", "summary"});
  const IdIndex providers(instance.providers, [](const Provider& p) { return p.id; }, "a provider");
  Composition composition{std::vector<Part>(instance.providers.size())};
  std::vector<bool> listed(instance.providers.size(), false);
  for (const Field& item : root.at("assigned").items()) {
    item.only_keys({"provider", "tasks", "offer", "from", "completion"});
    const std::size_t p = providers.of(item.at("provider"));
    if (listed[p]) item.at("provider").fail("each provider at most once");
    listed[p] = true;
    Part& part = composition.parts[p];
    part.tasks = item.at("tasks").as_int(0, kMaxTasks);
    part.completion = item.at("completion").as_number(-kMaxTime, kMaxTime);
    const Field from = item.at("from");
    const std::string source = from.raw().is_string() ? from.raw().get<std::string>() : "";
    if (source == "offer") {
      const auto offers = static_cast<long long>(instance.providers[p].offers.size());
      if (offers == 0) from.fail("\"free-slots\" or \"none\" (the provider has no offers)");
      part.offer = static_cast<int>(item.at("offer").as_int(0, offers - 1));
    } else if (source == "free-slots" || source == "none") {
      if (item.has("offer")) item.at("offer").fail("null (the tasks do not come from an offer)");
      part.offer = source == "free-slots" ? kFromFreeSlots : kUnused;
    } else {
      from.fail("\"offer\", \"free-slots\" or \"none\"");
    }
  }
  return composition;
}

}  // namespace schedcheck::compose
