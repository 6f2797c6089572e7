// SLA admission model (see sla.hpp): paper 004 section 3.2, Eq. 4-5; timed variant is our own.
#include "model/sla.hpp"

#include "model/profile.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <set>

namespace schedcheck::sla {

namespace {
// Relative slack when comparing money and time computed in double (e.g. b >= B where B = c l / (mu p)).
constexpr double kRelativeSlack = 1e-9;
bool at_most(double lhs, double rhs) { return lhs <= rhs + kRelativeSlack * std::max(1.0, std::fabs(rhs)); }
// Largest accepted sizes: keep products like l * c far from overflow and processors within int.
constexpr long long kMaxProcessors = 1'000'000;
constexpr double kMaxMagnitude = 1e12;
}  // namespace

double execution_time(const Site& site, const Bid& bid) { return bid.length_mi / (site.mips * bid.procs); }
double response_time(const Site& site, const Bid& bid) { return bid.alpha + execution_time(site, bid); }
double incentive(const Site& site, const Bid& bid) {
  const double run = execution_time(site, bid);
  return site.price * (site.pricing == Pricing::kProcessorTime ? run * bid.procs : run);
}

const char* to_string(Pricing pricing) { return pricing == Pricing::kProcessorTime ? "processor-time" : "wall-clock"; }

std::string ineligibility_reason(const Site& site, const Bid& bid) {
  const double d = response_time(site, bid);
  const double b = incentive(site, bid);
  if (!at_most(d, bid.expected_response))
    return fmt::format("bid {}: expected response time de = {} < D(J,R) = {}", bid.id, bid.expected_response, d);
  if (site.budget_test && !at_most(b, bid.budget)) return fmt::format("bid {}: budget b = {} < B(J,R) = {}", bid.id, bid.budget, b);
  return "";
}
bool eligible(const Site& site, const Bid& bid) { return ineligibility_reason(site, bid).empty(); }

double total_incentive(const Instance& instance, const Admission& admission) {
  double sum = 0;
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    if (admission.accepted[i]) sum += incentive(instance.site, instance.bids[i]);
  return sum;
}

std::string shape_violation(const Instance& instance, const Admission& admission) {
  if (admission.accepted.size() == instance.bids.size() && admission.start.size() == instance.bids.size()) return "";
  return fmt::format("decision has {} accepted flags and {} start times for {} bids", admission.accepted.size(),
                     admission.start.size(), instance.bids.size());
}

std::string eligibility_violation(const Instance& instance, const Admission& admission) {
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    if (admission.accepted[i])
      if (auto why = ineligibility_reason(instance.site, instance.bids[i]); !why.empty())
        return "accepted an ineligible bid: " + why;
  return "";
}

std::string capacity_violation_instant(const Instance& instance, const Admission& admission) {
  long long used = 0;
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    if (admission.accepted[i]) used += instance.bids[i].procs;
  if (used <= instance.site.free_processors) return "";
  return fmt::format("accepted bids use {} processors, only r = {} are free", used, instance.site.free_processors);
}

std::string capacity_violation_timed(const Instance& instance, const Admission& admission) {
  AvailabilityProfile profile(instance.site.processors);
  for (const auto& job : instance.running) profile.reserve(0, job.remaining, job.procs);
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    if (admission.accepted[i])
      profile.reserve(admission.start[i], admission.start[i] + response_time(instance.site, instance.bids[i]),
                      instance.bids[i].procs);
  for (const auto& step : profile.steps())
    if (step.free < 0)
      return fmt::format("at t = {} the jobs in progress use {} processors, the site has p_m = {}", step.time,
                         instance.site.processors - step.free, instance.site.processors);
  return "";
}

std::string deadline_violation(const Instance& instance, const Admission& admission, bool timed) {
  for (std::size_t i = 0; i < instance.bids.size(); ++i) {
    if (!admission.accepted[i]) continue;
    const Bid& bid = instance.bids[i];
    const double start = timed ? admission.start[i] : 0.0;  // instant admissions start now
    if (!std::isfinite(start) || start < -kTimeTolerance)
      return fmt::format("bid {} starts at {}, before now (0)", bid.id, start);
    const double finish = start + response_time(instance.site, bid);
    if (finish > bid.deadline + kTimeTolerance)
      return fmt::format("bid {} finishes at {} after its deadline d = {}", bid.id, finish, bid.deadline);
  }
  return "";
}

namespace {
using ViolationCheck = std::string (*)(const Instance&, const Admission&);

Verdict first_violation(const Instance& instance, const Admission& admission,
                        std::initializer_list<ViolationCheck> checks) {
  Verdict v;
  v.reason = shape_violation(instance, admission);
  for (auto it = checks.begin(); v.reason.empty() && it != checks.end(); ++it) v.reason = (*it)(instance, admission);
  v.feasible = v.reason.empty();
  if (v.feasible) v.objective = total_incentive(instance, admission);
  return v;
}
std::string deadline_violation_timed(const Instance& instance, const Admission& admission) {
  return deadline_violation(instance, admission, true);
}
}  // namespace

Verdict validate_instant(const Instance& instance, const Admission& admission) {
  return first_violation(instance, admission, {eligibility_violation, capacity_violation_instant});
}

Verdict validate_timed(const Instance& instance, const Admission& admission) {
  return first_violation(instance, admission,
                         {eligibility_violation, deadline_violation_timed, capacity_violation_timed});
}

// ---------------------------------------------------------------- reader / writer

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "site", "running", "bids", "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "SLA site instances", file);

  const Field site = root.at("site");
  site.only_keys({"processors", "free", "mips", "price", "pricing", "budget_test"});
  instance.site.processors = static_cast<int>(site.at("processors").as_int(1, kMaxProcessors));
  instance.site.mips = site.at("mips").as_positive();
  instance.site.price = site.at("price").as_non_negative();
  instance.site.budget_test = site.has("budget_test") && site.at("budget_test").as_bool();
  if (site.has("pricing")) {
    const std::string p = site.at("pricing").as_string();
    if (p != "processor-time" && p != "wall-clock")
      site.at("pricing").fail("\"processor-time\" (B = c l / mu, the default) or \"wall-clock\" (B = c l / (mu p))");
    instance.site.pricing = p == "wall-clock" ? Pricing::kWallClock : Pricing::kProcessorTime;
  }
  if (instance.site.mips > kMaxMagnitude) site.at("mips").fail(fmt::format("a number <= {:g}", kMaxMagnitude));
  if (instance.site.price > kMaxMagnitude) site.at("price").fail(fmt::format("a number <= {:g}", kMaxMagnitude));

  long long running_procs = 0;
  std::set<std::string> ids;
  if (root.has("running")) {
    for (const Field& item : root.at("running").items()) {
      item.only_keys({"id", "procs", "remaining"});
      RunningJob job;
      job.id = item.at("id").as_string();
      if (!ids.insert(job.id).second) item.at("id").fail("an id not used by another job or bid");
      job.procs = static_cast<int>(item.at("procs").as_int(1, instance.site.processors));
      job.remaining = item.at("remaining").as_non_negative();  // 0: it ends at this instant
      running_procs += job.procs;
      if (running_procs > instance.site.processors)
        item.at("procs").fail(fmt::format("running jobs to use at most site.processors = {} in total",
                                          instance.site.processors));
      instance.running.push_back(job);
    }
  }
  const long long free_by_running = instance.site.processors - running_procs;
  if (site.has("free")) {
    instance.site.free_processors = static_cast<int>(site.at("free").as_int(0, instance.site.processors));
    if (root.has("running") && instance.site.free_processors != free_by_running)
      site.at("free").fail(fmt::format("{} (site.processors minus the processors of the running jobs), or leave "
                                       "it out", free_by_running));
  } else {
    instance.site.free_processors = static_cast<int>(free_by_running);
  }

  for (const Field& item : root.at("bids").items()) {
    item.only_keys({"id", "procs", "length", "alpha", "budget", "deadline", "expected_response", "comment"});
    Bid bid;
    bid.id = item.at("id").as_string();
    if (!ids.insert(bid.id).second) item.at("id").fail("an id not used by another job or bid");
    bid.procs = static_cast<int>(item.at("procs").as_int(1, instance.site.processors));
    bid.length_mi = item.at("length").as_positive();
    bid.alpha = item.has("alpha") ? item.at("alpha").as_non_negative() : 0.0;
    bid.budget = item.at("budget").as_non_negative();
    bid.deadline = item.at("deadline").as_positive();
    bid.expected_response =
        item.has("expected_response") ? item.at("expected_response").as_positive() : bid.deadline;
    for (const char* key : {"length", "alpha", "budget", "deadline", "expected_response"})
      if (item.has(key) && item.at(key).raw().get<double>() > kMaxMagnitude)
        item.at(key).fail(fmt::format("a number <= {:g}", kMaxMagnitude));
    instance.bids.push_back(bid);
  }
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  nlohmann::json doc;
  doc["kind"] = kInstanceKind;
  doc["name"] = instance.name;
  doc["site"] = {{"processors", instance.site.processors},
                 {"mips", instance.site.mips},
                 {"price", instance.site.price},
                 {"pricing", to_string(instance.site.pricing)},
                 {"budget_test", instance.site.budget_test}};
  // With running jobs, r is derived from them (and the reader insists on that); without, r is explicit.
  if (instance.running.empty()) {
    doc["site"]["free"] = instance.site.free_processors;
  } else {
    doc["running"] = nlohmann::json::array();
    for (const auto& job : instance.running)
      doc["running"].push_back({{"id", job.id}, {"procs", job.procs}, {"remaining", job.remaining}});
  }
  doc["bids"] = nlohmann::json::array();
  for (const auto& bid : instance.bids)
    doc["bids"].push_back({{"id", bid.id},
                           {"procs", bid.procs},
                           {"length", bid.length_mi},
                           {"alpha", bid.alpha},
                           {"budget", bid.budget},
                           {"deadline", bid.deadline},
                           {"expected_response", bid.expected_response}});
  return doc;
}

std::vector<std::string> accepted_ids(const Instance& instance, const Admission& admission) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < instance.bids.size() && i < admission.accepted.size(); ++i)
    if (admission.accepted[i]) ids.push_back(instance.bids[i].id);
  return ids;
}

nlohmann::json write_admission(const Instance& instance, const Admission& admission, bool timed) {
  nlohmann::json out = {{"accepted", accepted_ids(instance, admission)}};
  if (timed) {
    nlohmann::json starts = nlohmann::json::object();
    for (std::size_t i = 0; i < instance.bids.size(); ++i)
      if (admission.accepted[i]) starts[instance.bids[i].id] = admission.start[i];
    out["start"] = starts;
  }
  return out;
}

Admission read_admission(const Instance& instance, const nlohmann::json& document, const std::string& where, bool timed) {
  const Field root(document, where);
  if (timed) root.only_keys({"accepted", "start"});
  else root.only_keys({"accepted"});
  const IdIndex bids(instance.bids, [](const Bid& b) { return b.id; }, "a bid");
  Admission admission{std::vector<bool>(instance.bids.size(), false), std::vector<double>(instance.bids.size(), 0.0)};
  for (const Field& item : root.at("accepted").items()) {
    const std::size_t i = bids.of(item);
    if (admission.accepted[i]) item.fail("each bid at most once");
    admission.accepted[i] = true;
  }
  if (!timed) return admission;
  std::vector<bool> started(instance.bids.size(), false);
  for (const auto& [id, value] : root.at("start").members()) {
    const std::size_t i = bids.of_key(id, value);
    if (!admission.accepted[i]) value.fail("a start only for an accepted bid");
    admission.start[i] = value.as_number(-1e15, 1e15);
    started[i] = true;
  }
  for (std::size_t i = 0; i < instance.bids.size(); ++i)
    if (admission.accepted[i] && !started[i]) root.at("start").at(instance.bids[i].id);  // throws: missing
  return admission;
}

}  // namespace schedcheck::sla
