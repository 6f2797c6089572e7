// Provider offer model (see offers.hpp): paper 000 section III-A; the validators and format are our own.
#include "model/offers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace schedcheck::offers {

namespace {
bool later_than(double a, double b) { return a > b + kTimeTolerance; }
}  // namespace

std::vector<long long> delta_counts(long long bot_tasks, DeltaRounding rounding) {
  std::vector<long long> counts;
  for (double share : kDeltaShares) {
    const double exact = share * static_cast<double>(bot_tasks);
    const long long whole = rounding == DeltaRounding::kTruncate ? floor_tasks(exact) : std::llround(exact);
    counts.push_back(std::max(1LL, whole));
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::string reading_name(const GenOfferReading& reading) {
  std::string out;
  auto add = [&](const char* what) { out += (out.empty() ? "" : ", ") + std::string(what); };
  if (reading.delta == DeltaRounding::kTruncate) add("delta truncated");
  if (reading.rigid_bot) add("rigid BoT");
  if (reading.strict_order) add("strict EDF order");
  return out;
}

std::vector<Offer> merge_offers(const std::vector<CountOffer>& per_count) {
  std::vector<Offer> offers;
  for (const auto& offer : per_count) offers.push_back(Offer{offer.tasks, offer.completion});
  return merge_into_staircase(offers);
}

AvailabilityProfile running_profile(const Instance& instance) {
  AvailabilityProfile profile(instance.processors);
  for (const auto& job : instance.running) profile.reserve(instance.now, instance.now + job.remaining, job.procs);
  return profile;
}

double new_tasks_finish(const Instance& instance, const Schedule& schedule) {
  double finish = instance.now;
  const double runtime = instance.bot ? instance.bot->task_runtime : 0.0;
  for (double start : schedule.new_tasks) finish = std::max(finish, start + runtime);
  return finish;
}

double work(const WaitingJob& job) { return static_cast<double>(job.procs) * job.runtime * static_cast<double>(job.tasks); }

std::string schedule_shape_violation(const Instance& instance, const Schedule& schedule, long long new_tasks) {
  if (schedule.starts.size() != instance.waiting.size())
    return fmt::format("schedule has start times for {} waiting jobs, the provider has {}", schedule.starts.size(),
                       instance.waiting.size());
  for (std::size_t i = 0; i < instance.waiting.size(); ++i)
    if (static_cast<long long>(schedule.starts[i].size()) != instance.waiting[i].tasks)
      return fmt::format("job {} has {} start times for {} tasks", instance.waiting[i].id, schedule.starts[i].size(),
                         instance.waiting[i].tasks);
  if (static_cast<long long>(schedule.new_tasks.size()) != new_tasks)
    return fmt::format("schedule places {} tasks of the new BoT, the offer is for {}", schedule.new_tasks.size(),
                       new_tasks);
  if (new_tasks > 0 && !instance.bot) return "schedule places tasks of a new BoT the instance does not have";
  return "";
}

std::string capacity_violation(const Instance& instance, const Schedule& schedule) {
  AvailabilityProfile profile = running_profile(instance);
  for (std::size_t i = 0; i < instance.waiting.size() && i < schedule.starts.size(); ++i)
    for (double start : schedule.starts[i])
      profile.reserve(start, start + instance.waiting[i].runtime, instance.waiting[i].procs);
  if (instance.bot)
    for (double start : schedule.new_tasks) profile.reserve(start, start + instance.bot->task_runtime, 1);
  for (const auto& step : profile.steps())
    if (step.free < 0)
      return fmt::format("at t = {} the jobs in progress use {} processors, the provider has P = {}", step.time,
                         instance.processors - step.free, instance.processors);
  return "";
}

std::string accepted_deadline_violation(const Instance& instance, const Schedule& schedule) {
  auto early = [&](double start) { return !std::isfinite(start) || start < instance.now - kTimeTolerance; };
  for (std::size_t i = 0; i < instance.waiting.size() && i < schedule.starts.size(); ++i) {
    const WaitingJob& job = instance.waiting[i];
    for (double start : schedule.starts[i]) {
      if (early(start)) return fmt::format("job {} starts at {}, before now ({})", job.id, start, instance.now);
      if (later_than(start + job.runtime, job.deadline))
        return fmt::format("job {} finishes at {} after its accepted deadline {}", job.id, start + job.runtime,
                           job.deadline);
    }
  }
  for (double start : schedule.new_tasks)
    if (early(start)) return fmt::format("a task of the new BoT starts at {}, before now ({})", start, instance.now);
  return "";
}

std::string schedule_violation(const Instance& instance, const Schedule& schedule, long long new_tasks) {
  std::string why = schedule_shape_violation(instance, schedule, new_tasks);
  if (why.empty()) why = accepted_deadline_violation(instance, schedule);
  if (why.empty()) why = capacity_violation(instance, schedule);
  return why;
}

// ---------------------------------------------------------------- offers

std::string offer_list_violation(const Instance& instance, const OfferList& offers) {
  if (!instance.bot) return "an offer list needs the new BoT (`bot`)";
  const auto counts = delta_counts(instance.bot->tasks, offers.reading.delta);
  if (offers.per_count.size() != counts.size())
    return fmt::format("{} offers for {} Delta counts", offers.per_count.size(), counts.size());
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const CountOffer& offer = offers.per_count[c];
    if (offer.tasks != counts[c])
      return fmt::format("offer {} is for {} tasks, the Delta count is {}", c, offer.tasks, counts[c]);
    if (auto why = schedule_violation(instance, offer.schedule, offer.tasks); !why.empty())
      return fmt::format("offer for {} tasks: {}", offer.tasks, why);
    const double finish = new_tasks_finish(instance, offer.schedule);
    if (later_than(finish, offer.completion))
      return fmt::format("offer for {} tasks promises t = {} but its schedule finishes them at {}", offer.tasks,
                         offer.completion, finish);
    if (later_than(instance.bot->deadline, offer.completion))
      return fmt::format("offer for {} tasks quotes t = {}, before the BoT deadline {} (offers quote the deadline "
                         "when they meet it)", offer.tasks, offer.completion, instance.bot->deadline);
  }
  const auto merged = merge_offers(offers.per_count);
  bool same = merged.size() == offers.staircase.size();
  for (std::size_t i = 0; same && i < merged.size(); ++i)
    same = merged[i].tasks == offers.staircase[i].tasks &&
           std::fabs(merged[i].completion - offers.staircase[i].completion) <= kTimeTolerance;
  if (!same) return "the staircase is not the merge (paper 000 III-A step 4) of the per-count offers";
  return staircase_violation(offers.staircase);
}

double offers_objective(const Instance& instance, const OfferList& offers) {
  double sum = 0;
  for (const auto& offer : offers.per_count) sum += offer.completion - instance.now;
  return sum;
}

Verdict validate_offers(const Instance& instance, const OfferList& offers) {
  Verdict v;
  v.reason = offer_list_violation(instance, offers);
  v.feasible = v.reason.empty();
  if (v.feasible) v.objective = offers_objective(instance, offers);
  return v;
}

// ---------------------------------------------------------------- deadline-feasibility

std::size_t waiting_index(const Instance& instance, const std::string& id) {
  for (std::size_t i = 0; i < instance.waiting.size(); ++i)
    if (instance.waiting[i].id == id) return i;
  return instance.waiting.size();
}

std::string core_shape_violation(const Instance& instance, const std::vector<std::string>& core) {
  if (core.empty()) return "an infeasibility answer with an empty core";
  std::set<std::string> seen;
  for (const auto& id : core) {
    if (waiting_index(instance, id) == instance.waiting.size())
      return fmt::format("core names '{}', which is no waiting job", id);
    if (!seen.insert(id).second) return fmt::format("core names '{}' twice", id);
  }
  return "";
}

Verdict validate_feasibility(const Instance& instance, const FeasibilityAnswer& answer) {
  Verdict v;
  switch (answer.answer) {
    case Feasibility::kSchedule:
      v.reason = schedule_violation(instance, answer.schedule, 0);
      v.objective = 1;
      break;
    case Feasibility::kNotFound: {
      v.reason = schedule_shape_violation(instance, answer.schedule, 0);
      if (v.reason.empty()) v.reason = capacity_violation(instance, answer.schedule);
      const std::size_t i = waiting_index(instance, answer.missed);
      if (v.reason.empty() && i == instance.waiting.size())
        v.reason = fmt::format("the attempt names '{}' as late, which is no waiting job", answer.missed);
      if (v.reason.empty()) {
        bool late = false;
        for (double start : answer.schedule.starts[i])
          late = late || later_than(start + instance.waiting[i].runtime, instance.waiting[i].deadline);
        if (!late) v.reason = fmt::format("the attempt says job {} is late, but it meets its deadline", answer.missed);
      }
      break;
    }
  }
  v.feasible = v.reason.empty();
  if (!v.feasible || answer.answer != Feasibility::kSchedule) v.objective = 0;
  return v;
}

// ---------------------------------------------------------------- reader / writer

namespace {

void check_magnitude(const Field& field, double value) {
  if (value > kMaxMagnitude) field.fail(fmt::format("a number <= {:g}", kMaxMagnitude));
}

// A deadline in the future of now, leaving room for one task (or the job) of `runtime`.
void check_deadline_window(const Field& item, double now, double runtime, double deadline, const char* runtime_key) {
  if (deadline < now) item.at("deadline").fail(fmt::format("a deadline >= provider.now = {}", now));
  if (runtime > deadline - now + kTimeTolerance)
    item.at(runtime_key).fail(fmt::format("a runtime <= deadline - now = {} (the deadline window)", deadline - now));
}

}  // namespace

Instance read_instance(const nlohmann::json& document, const std::string& file, bool require_bot) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "provider", "running", "waiting", "bot", "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "provider instances", file);

  const Field provider = root.at("provider");
  provider.only_keys({"processors", "now"});
  instance.processors = static_cast<int>(provider.at("processors").as_int(1, kMaxProcessors));
  if (provider.has("now")) {
    instance.now = provider.at("now").as_non_negative();
    check_magnitude(provider.at("now"), instance.now);
  }

  std::set<std::string> ids;
  auto unique_id = [&](const Field& item) {
    std::string id = item.at("id").as_string();
    if (!ids.insert(id).second) item.at("id").fail("an id not used by another job");
    return id;
  };
  long long running_procs = 0;
  if (root.has("running")) {
    for (const Field& item : root.at("running").items()) {
      item.only_keys({"id", "procs", "remaining", "comment"});
      RunningJob job;
      job.id = unique_id(item);
      job.procs = static_cast<int>(item.at("procs").as_int(1, instance.processors));
      job.remaining = item.at("remaining").as_non_negative();  // 0: it ends at this instant
      check_magnitude(item.at("remaining"), job.remaining);
      running_procs += job.procs;
      if (running_procs > instance.processors)
        item.at("procs").fail(fmt::format("running jobs to use at most provider.processors = {} in total",
                                          instance.processors));
      instance.running.push_back(job);
    }
  }

  if (root.has("waiting")) {
    for (const Field& item : root.at("waiting").items()) {
      WaitingJob job;
      const std::string type = item.at("type").as_string();
      if (type == "local") {
        item.only_keys({"id", "type", "procs", "runtime", "deadline", "comment"});
        job.type = JobType::kLocal;
        job.procs = static_cast<int>(item.at("procs").as_int(1, instance.processors));
        job.runtime = item.at("runtime").as_positive();
        check_magnitude(item.at("runtime"), job.runtime);
      } else if (type == "bot") {
        item.only_keys({"id", "type", "tasks", "task_runtime", "deadline", "comment"});
        job.type = JobType::kBotPart;
        job.tasks = item.at("tasks").as_int(1, kMaxTasks);
        job.runtime = item.at("task_runtime").as_positive();
        check_magnitude(item.at("task_runtime"), job.runtime);
      } else {
        item.at("type").fail("\"local\" (a rigid parallel job) or \"bot\" (an accepted part of a BoT)");
      }
      job.id = unique_id(item);
      job.deadline = item.at("deadline").as_non_negative();
      check_magnitude(item.at("deadline"), job.deadline);
      check_deadline_window(item, instance.now, job.runtime, job.deadline,
                            job.type == JobType::kLocal ? "runtime" : "task_runtime");
      instance.waiting.push_back(job);
    }
  }

  if (root.has("bot")) {
    const Field item = root.at("bot");
    item.only_keys({"id", "tasks", "task_runtime", "deadline", "comment"});
    NewBot bot;
    bot.id = unique_id(item);
    bot.tasks = item.at("tasks").as_int(1, kMaxTasks);
    bot.task_runtime = item.at("task_runtime").as_positive();
    check_magnitude(item.at("task_runtime"), bot.task_runtime);
    bot.deadline = item.at("deadline").as_non_negative();
    check_magnitude(item.at("deadline"), bot.deadline);
    check_deadline_window(item, instance.now, bot.task_runtime, bot.deadline, "task_runtime");
    instance.bot = bot;
  } else if (require_bot) {
    root.at("bot");  // throws: missing required field
  }
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  nlohmann::json doc;
  doc["kind"] = kInstanceKind;
  doc["name"] = instance.name;
  doc["provider"] = {{"processors", instance.processors}, {"now", instance.now}};
  doc["running"] = nlohmann::json::array();
  for (const auto& job : instance.running)
    doc["running"].push_back({{"id", job.id}, {"procs", job.procs}, {"remaining", job.remaining}});
  doc["waiting"] = nlohmann::json::array();
  for (const auto& job : instance.waiting) {
    if (job.type == JobType::kLocal)
      doc["waiting"].push_back({{"id", job.id}, {"type", "local"}, {"procs", job.procs}, {"runtime", job.runtime},
                                {"deadline", job.deadline}});
    else
      doc["waiting"].push_back({{"id", job.id}, {"type", "bot"}, {"tasks", job.tasks}, {"task_runtime", job.runtime},
                                {"deadline", job.deadline}});
  }
  if (instance.bot)
    doc["bot"] = {{"id", instance.bot->id},
                  {"tasks", instance.bot->tasks},
                  {"task_runtime", instance.bot->task_runtime},
                  {"deadline", instance.bot->deadline}};
  return doc;
}

namespace {
// Starts of identical tasks grouped: [{"start": t, "tasks": n}, ...] in increasing start.
nlohmann::json task_waves(std::vector<double> starts) {
  std::sort(starts.begin(), starts.end());
  nlohmann::json waves = nlohmann::json::array();
  for (double start : starts) {
    if (!waves.empty() && std::fabs(waves.back()["start"].get<double>() - start) <= kTimeTolerance)
      waves.back()["tasks"] = waves.back()["tasks"].get<long long>() + 1;
    else
      waves.push_back({{"start", start}, {"tasks", 1}});
  }
  return waves;
}
}  // namespace

nlohmann::json write_schedule(const Instance& instance, const Schedule& schedule) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < instance.waiting.size() && i < schedule.starts.size(); ++i) {
    if (instance.waiting[i].type == JobType::kLocal && schedule.starts[i].size() == 1)
      out[instance.waiting[i].id] = schedule.starts[i][0];
    else
      out[instance.waiting[i].id] = task_waves(schedule.starts[i]);
  }
  if (instance.bot && !schedule.new_tasks.empty()) out[instance.bot->id] = task_waves(schedule.new_tasks);
  return out;
}

nlohmann::json write_offer_list(const Instance& instance, const OfferList& offers) {
  nlohmann::json per_count = nlohmann::json::array();
  std::string summary;
  for (const auto& offer : offers.per_count) {
    nlohmann::json row = {{"tasks", offer.tasks},
                          {"completion", offer.completion},
                          {"finish", new_tasks_finish(instance, offer.schedule)},
                          {"feedback", offer.feedback},
                          {"schedule", write_schedule(instance, offer.schedule)}};
    if (offer.position >= 0) row["position"] = offer.position;
    per_count.push_back(row);
    summary += fmt::format("{}{}@{:g}", summary.empty() ? "" : " ", offer.tasks, offer.completion);
  }
  nlohmann::json staircase = nlohmann::json::array();
  for (const auto& offer : offers.staircase)
    staircase.push_back({{"tasks", offer.tasks}, {"completion", offer.completion}});
  nlohmann::json out = {{"summary", "offers " + summary}, {"offers", per_count}, {"staircase", staircase}};
  if (const auto reading = reading_name(offers.reading); !reading.empty()) out["reading"] = reading;
  if (!offers.published.empty()) {
    nlohmann::json slots = nlohmann::json::array();
    for (const auto& slot : offers.published)
      slots.push_back({{"start", slot.start},
                       {"end", std::isfinite(slot.end) ? nlohmann::json(slot.end) : nlohmann::json(nullptr)},
                       {"processors", slot.processors}});
    out["published_slots"] = slots;
  }
  return out;
}

nlohmann::json write_feasibility(const Instance& instance, const FeasibilityAnswer& answer) {
  switch (answer.answer) {
    case Feasibility::kSchedule:
      return {{"summary", "schedulable"}, {"schedulable", true}, {"schedule", write_schedule(instance, answer.schedule)}};
    case Feasibility::kNotFound:
      return {{"summary", fmt::format("no schedule found ({} is late)", answer.missed)},
              {"schedulable", nullptr},
              {"late", answer.missed},
              {"schedule", write_schedule(instance, answer.schedule)}};
  }
  return nullptr;
}

namespace {
// Starts given as a number (one start) or as waves; at most `limit` starts in all.
std::vector<double> read_starts(const Field& field, long long limit) {
  if (field.raw().is_number()) return {field.as_number(-kMaxMagnitude, kMaxMagnitude)};
  std::vector<double> starts;
  for (const Field& wave : field.items()) {
    wave.only_keys({"start", "tasks"});
    const double start = wave.at("start").as_number(-kMaxMagnitude, kMaxMagnitude);
    const long long tasks = wave.at("tasks").as_int(1, std::max(1LL, limit - static_cast<long long>(starts.size())));
    if (static_cast<long long>(starts.size()) + tasks > limit) wave.at("tasks").fail(fmt::format("at most {} tasks in all", limit));
    starts.insert(starts.end(), static_cast<std::size_t>(tasks), start);
  }
  return starts;
}

Schedule read_offer_schedule(const Instance& instance, const Field& field, bool with_bot) {
  const IdIndex jobs(instance.waiting, [](const WaitingJob& w) { return w.id; }, "a waiting job");
  Schedule schedule;
  schedule.starts.resize(instance.waiting.size());
  for (const auto& [id, value] : field.members()) {
    if (with_bot && instance.bot && id == instance.bot->id) {
      schedule.new_tasks = read_starts(value, instance.bot->tasks);
      continue;
    }
    const std::size_t i = jobs.of_key(id, value);
    schedule.starts[i] = read_starts(value, instance.waiting[i].tasks * std::max(1, instance.waiting[i].procs));
  }
  for (std::size_t i = 0; i < instance.waiting.size(); ++i)
    if (schedule.starts[i].empty()) field.at(instance.waiting[i].id);  // throws: missing
  return schedule;
}
}  // namespace

OfferList read_offer_list(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"summary", "offers", "staircase", "reading", "published_slots"});
  OfferList list;
  if (root.has("reading")) {
    const Field reading = root.at("reading");
    std::string text = reading.as_string() + ", ";
    for (std::size_t at = 0, comma; (comma = text.find(", ", at)) != std::string::npos; at = comma + 2) {
      const std::string name = text.substr(at, comma - at);
      if (name == "delta truncated") list.reading.delta = DeltaRounding::kTruncate;
      else if (name == "rigid BoT") list.reading.rigid_bot = true;
      else if (name == "strict EDF order") list.reading.strict_order = true;
      else reading.fail("\"delta truncated\", \"rigid BoT\" or \"strict EDF order\", separated by \", \"");
    }
  }
  for (const Field& item : root.at("offers").items()) {
    item.only_keys({"tasks", "completion", "finish", "feedback", "schedule", "position"});
    CountOffer offer;
    offer.tasks = item.at("tasks").as_int(0, kMaxTasks);
    offer.completion = item.at("completion").as_number(-kMaxMagnitude, kMaxMagnitude);
    if (item.has("feedback")) offer.feedback = item.at("feedback").as_bool();
    if (item.has("position")) offer.position = item.at("position").as_int(0, kMaxTasks);
    offer.schedule = read_offer_schedule(instance, item.at("schedule"), true);
    list.per_count.push_back(std::move(offer));
  }
  for (const Field& item : root.at("staircase").items()) {
    item.only_keys({"tasks", "completion"});
    list.staircase.push_back(Offer{item.at("tasks").as_int(0, kMaxTasks), item.at("completion").as_number(-kMaxMagnitude, kMaxMagnitude)});
  }
  if (root.has("published_slots"))
    for (const Field& item : root.at("published_slots").items()) {
      item.only_keys({"start", "end", "processors"});
      FreeSlot slot;
      slot.start = item.at("start").as_number(-kMaxMagnitude, kMaxMagnitude);
      slot.end = item.has("end") ? item.at("end").as_number(-kMaxMagnitude, kMaxMagnitude)
                                 : std::numeric_limits<double>::infinity();  // null: the open-ended last slot
      slot.processors = static_cast<int>(item.at("processors").as_int(1, instance.processors));
      list.published.push_back(slot);
    }
  return list;
}

FeasibilityAnswer read_feasibility(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"summary", "schedulable", "late", "schedule"});
  FeasibilityAnswer answer;
  const Field schedulable = root.at("schedulable");
  if (schedulable.raw().is_boolean() && schedulable.raw().get<bool>()) {
    answer.answer = Feasibility::kSchedule;
  } else if (schedulable.raw().is_null()) {
    answer.answer = Feasibility::kNotFound;
    const IdIndex jobs(instance.waiting, [](const WaitingJob& w) { return w.id; }, "a waiting job");
    answer.missed = instance.waiting[jobs.of(root.at("late"))].id;
  } else {
    schedulable.fail("true (a schedule meeting every deadline) or null (an attempt, with the job it finishes \"late\"); "
                     "a policy does not prove infeasibility");
  }
  answer.schedule = read_offer_schedule(instance, root.at("schedule"), false);
  return answer;
}

}  // namespace schedcheck::offers
