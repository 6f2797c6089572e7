// The `slot-report` problem (model/slot_report.hpp): reading, writing and the one validator. Our own.
#include "model/slot_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::slots {

namespace {

ProcessorSet read_set(const Field& field, int processors) {
  std::string error;
  const std::string text = field.raw().is_string() ? field.raw().get<std::string>() : std::string();
  if (!field.raw().is_string()) field.fail("processors in interval syntax (\"0-3 7\")");
  auto set = ProcessorSet::parse_intervals(text, processors, &error);
  if (!set || set->empty())
    field.fail(fmt::format("a non-empty set of processors 0..{} in interval syntax (\"0-3 7\"){}", processors - 1,
                           error.empty() ? "" : ": " + error));
  return *set;
}

double read_end(const Field& item, double start) {
  const double end = item.at("end").as_number(-kMaxMagnitude, kMaxMagnitude);
  if (!(end > start + kTimeTolerance)) item.at("end").fail(fmt::format("an end after the start {:g}", start));
  return end;
}

nlohmann::json time_json(double t) { return std::isinf(t) ? nlohmann::json(nullptr) : nlohmann::json(t); }

}  // namespace

std::vector<Hold> read_holds(const Field& holds, int processors, bool identity) {
  std::vector<Hold> out;
  AvailabilityProfile profile(processors, identity);
  for (const Field& item : holds.items()) {
    item.only_keys(identity ? std::initializer_list<std::string_view>{"start", "end", "on", "comment"}
                            : std::initializer_list<std::string_view>{"start", "end", "processors", "comment"});
    Hold hold;
    hold.start = item.at("start").as_number(-kMaxMagnitude, kMaxMagnitude);
    hold.end = read_end(item, hold.start);
    if (identity) {
      hold.on = read_set(item.at("on"), processors);
      hold.processors = hold.on.count();
      if (!profile.free_over(hold.start, hold.end).contains(hold.on))
        item.at("on").fail("processors no earlier hold uses at the same time");
      profile.reserve(hold.start, hold.end, hold.on);
    } else {
      hold.processors = static_cast<int>(item.at("processors").as_int(1, processors));
      if (profile.min_free(hold.start, hold.end) < hold.processors)
        item.at("processors").fail(fmt::format("holds using at most P = {} processors at once", processors));
      profile.reserve(hold.start, hold.end, hold.processors);
    }
    out.push_back(std::move(hold));
  }
  return out;
}

nlohmann::json write_holds(const std::vector<Hold>& holds, bool identity) {
  nlohmann::json out = nlohmann::json::array();
  for (const Hold& hold : holds) {
    nlohmann::json item = {{"start", hold.start}, {"end", hold.end}};
    if (identity) item["on"] = hold.on.to_intervals();
    else item["processors"] = hold.processors;
    out.push_back(std::move(item));
  }
  return out;
}

std::vector<TimeSlot> read_slots(const Field& slots, int processors, bool identity) {
  std::vector<TimeSlot> out;
  for (const Field& item : slots.items()) {
    item.only_keys({"start", "end", "processors", "on"});
    TimeSlot slot;
    slot.start = item.at("start").as_number(-kMaxMagnitude, kMaxMagnitude);
    slot.end = item.has("end") && !item.at("end").raw().is_null() ? read_end(item, slot.start) : kForever;
    slot.processors = static_cast<int>(item.at("processors").as_int(1, processors));
    if (identity) {
      slot.on = read_set(item.at("on"), processors);
      if (slot.on.count() != slot.processors)
        item.at("on").fail(fmt::format("as many processors as \"processors\" ({})", slot.processors));
    }
    out.push_back(std::move(slot));
  }
  return out;
}

nlohmann::json write_slots(const std::vector<TimeSlot>& slots, bool identity) {
  nlohmann::json out = nlohmann::json::array();
  for (const TimeSlot& slot : slots) {
    nlohmann::json item = {{"start", slot.start}, {"end", time_json(slot.end)}, {"processors", slot.processors}};
    if (identity) item["on"] = slot.on.to_intervals();
    out.push_back(std::move(item));
  }
  return out;
}

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "processors", "model", "now", "horizon", "holds", "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "\"slot-report\" files (docs/formats.md)", file);
  instance.processors = static_cast<int>(root.at("processors").as_int(1, kMaxProcessors));
  if (root.has("model")) {
    const std::string model = root.at("model").as_string();
    if (model == "processors") instance.identity = true;
    else if (model != "count") root.at("model").fail("\"count\" or \"processors\"");
  }
  instance.now = root.at("now").as_number(-kMaxMagnitude, kMaxMagnitude);
  if (root.has("horizon")) {
    instance.horizon = root.at("horizon").as_number(-kMaxMagnitude, kMaxMagnitude);
    if (!(instance.horizon > instance.now + kTimeTolerance))
      root.at("horizon").fail(fmt::format("a horizon after now ({:g}), or null for every slot", instance.now));
  }
  if (root.has("holds")) instance.holds = read_holds(root.at("holds"), instance.processors, instance.identity);
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  return {{"kind", kInstanceKind}, {"name", instance.name}, {"processors", instance.processors},
          {"model", instance.identity ? "processors" : "count"}, {"now", instance.now},
          {"horizon", time_json(instance.horizon)}, {"holds", write_holds(instance.holds, instance.identity)}};
}

nlohmann::json write_report(const Instance& instance, const SlotReport& report) {
  return {{"slots", write_slots(report.slots, instance.identity)},
          {"summary", fmt::format("{} slots, {:g} processor-seconds before {:g}", report.slots.size(),
                                  published_area(instance, report), measure_end(instance))}};
}

SlotReport read_report(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"slots", "summary"});
  return SlotReport{read_slots(root.at("slots"), instance.processors, instance.identity)};
}

AvailabilityProfile profile_of(int processors, bool identity, const std::vector<Hold>& holds) {
  AvailabilityProfile profile(processors, identity);
  for (const Hold& hold : holds) profile.reserve(hold.start, hold.end, hold.processors, hold.on);
  return profile;
}

AvailabilityProfile profile_of(const Instance& instance) {
  return profile_of(instance.processors, instance.identity, instance.holds);
}

double measure_end(const Instance& instance) {
  if (!std::isinf(instance.horizon)) return instance.horizon;
  double end = instance.now;
  for (const Hold& hold : instance.holds) end = std::max(end, hold.end);
  return end;
}

double published_area(const Instance& instance, const SlotReport& report) {
  const double end = measure_end(instance);
  double area = 0;
  for (const TimeSlot& slot : report.slots)
    area += slot.processors * std::max(0.0, std::min(slot.end, end) - std::max(slot.start, instance.now));
  return area;
}

Verdict validate(const Instance& instance, const SlotReport& report) {
  auto fail = [](std::string reason) { return Verdict{false, std::move(reason), 0}; };
  // Slots are checked up to `cap`, past every hold and every slot's start: beyond it nothing changes.
  double cap = measure_end(instance);
  for (const TimeSlot& slot : report.slots) cap = std::max(cap, slot.start);
  cap += 1;
  AvailabilityProfile profile = profile_of(instance);
  for (std::size_t s = 0; s < report.slots.size(); ++s) {
    const TimeSlot& slot = report.slots[s];
    const std::string what = fmt::format("slots[{}] ({:g}..{:g}, {} processors)", s, slot.start, slot.end,
                                         slot.processors);
    if (slot.start + kTimeTolerance < instance.now) return fail(fmt::format("{} starts before now ({:g})", what, instance.now));
    if (!(slot.end > slot.start + kTimeTolerance)) return fail(what + " does not end after its start");
    if (slot.end > instance.horizon + kTimeTolerance)
      return fail(fmt::format("{} ends after the horizon ({:g})", what, instance.horizon));
    if (slot.processors < 1 || slot.processors > instance.processors)
      return fail(fmt::format("{} names more processors than the machine's {}, or none", what, instance.processors));
    if (instance.identity && (slot.on.size() != instance.processors || slot.on.count() != slot.processors))
      return fail(what + " does not name exactly its processors");
    const double end = std::min(slot.end, cap);
    if (instance.identity) {
      ProcessorSet busy = slot.on;
      busy.subtract(profile.free_over(slot.start, end));
      if (!busy.empty())
        return fail(fmt::format("{} publishes processors {} that are busy or in an earlier slot at some instant",
                                what, busy.to_intervals()));
      profile.reserve(slot.start, end, slot.on);
    } else {
      const int free = profile.min_free(slot.start, end);
      if (free < slot.processors)
        return fail(fmt::format("{} publishes more than the {} processors free and in no earlier slot at some instant",
                                what, std::max(0, free)));
      profile.reserve(slot.start, end, slot.processors);
    }
  }
  return Verdict{true, "", published_area(instance, report)};
}

}  // namespace schedcheck::slots
