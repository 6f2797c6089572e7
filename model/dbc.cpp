// DBC broker model (see dbc.hpp): paper 001 "Calculation of absolute deadline / budget"; validator is our own.
#include "model/dbc.hpp"

#include "model/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace schedcheck::dbc {

namespace {
constexpr long long kMaxPes = 100'000;
constexpr double kMaxMagnitude = 1e12;
constexpr double kMaxFactor = 1000;  // Dfactor / Bfactor: >= 1 already means "always enough"

double max_length(const std::vector<Job>& jobs) {
  double m = 0;
  for (const auto& j : jobs) m = std::max(m, j.length);
  return m;
}
double finish(const Instance& instance, const Schedule& s, std::size_t j) {
  return s.start[j] + duration(instance.resources[static_cast<std::size_t>(s.resource[j])], instance.jobs[j]);
}
}  // namespace

Schedule empty_schedule(const Instance& instance) {
  const std::size_t n = instance.jobs.size();
  return Schedule{std::vector<int>(n, kUnassigned), std::vector<int>(n, 0), std::vector<double>(n, 0.0)};
}

double total_length(const std::vector<Job>& jobs) {
  double sum = 0;
  for (const auto& j : jobs) sum += j.length;
  return sum;
}

double t_max(const std::vector<Resource>& resources, const std::vector<Job>& jobs) {
  double slowest = std::numeric_limits<double>::infinity(), fastest = 0;
  for (const auto& r : resources) {
    slowest = std::min(slowest, r.mips);
    fastest = std::max(fastest, r.mips);
  }
  if (resources.empty()) return 0;
  return std::max(total_length(jobs) / slowest, max_length(jobs) / fastest);
}

double t_min(const std::vector<Resource>& resources, const std::vector<Job>& jobs) {
  double power = 0, fastest = 0;
  for (const auto& r : resources) {
    power += r.pes * r.mips;
    fastest = std::max(fastest, r.mips);
  }
  if (resources.empty()) return 0;
  return std::max(total_length(jobs) / power, max_length(jobs) / fastest);
}

double c_max(const std::vector<Resource>& resources, const std::vector<Job>& jobs) {
  double c = 0;
  for (const auto& r : resources) c = std::max(c, r.cost);
  return total_length(jobs) * c;
}

double c_min(const std::vector<Resource>& resources, const std::vector<Job>& jobs) {
  double c = std::numeric_limits<double>::infinity();
  for (const auto& r : resources) c = std::min(c, r.cost);
  return resources.empty() ? 0 : total_length(jobs) * c;
}

double absolute_deadline(const std::vector<Resource>& r, const std::vector<Job>& j, double dfactor) {
  const double lo = t_min(r, j);
  return lo + dfactor * (t_max(r, j) - lo);
}

double absolute_budget(const std::vector<Resource>& r, const std::vector<Job>& j, double bfactor) {
  const double lo = c_min(r, j);
  return lo + bfactor * (c_max(r, j) - lo);
}

double duration(const Resource& resource, const Job& job) { return job.length / resource.mips; }
double job_cost(const Resource& resource, const Job& job) { return resource.cost * job.length; }

int usable_pes(const Instance& instance, const Resource& resource) {
  const long long by_requests =
      static_cast<long long>(instance.broker.max_proc) * static_cast<long long>(instance.broker.max_pending_requests);
  return static_cast<int>(std::min<long long>(resource.pes, by_requests));
}

bool affordable(double cost, double budget) { return fits(cost, budget); }  // the same relative slack
double slack_limit(double limit) { return limit + kFitSlack * std::max(1.0, std::fabs(limit)); }
bool fits(double finish, double limit) { return finish <= slack_limit(limit); }

double horizon(const Instance& instance) { return std::min(instance.deadline, instance.broker.max_tr); }

std::vector<std::size_t> job_list_order(const Instance& instance) {
  std::vector<std::size_t> order(instance.jobs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_partition(order.begin(), order.end(),
                        [&](std::size_t j) { return instance.jobs[j].origin == Origin::kLocal; });
  return order;
}

double total_cost(const Instance& instance, const Schedule& schedule) {
  double sum = 0;
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (schedule.resource[j] != kUnassigned)
      sum += job_cost(instance.resources[static_cast<std::size_t>(schedule.resource[j])], instance.jobs[j]);
  return sum;
}

double makespan(const Instance& instance, const Schedule& schedule) {
  double m = 0;
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (schedule.resource[j] != kUnassigned) m = std::max(m, finish(instance, schedule, j));
  return m;
}

std::size_t assigned_count(const Schedule& schedule) {
  return static_cast<std::size_t>(
      std::count_if(schedule.resource.begin(), schedule.resource.end(), [](int r) { return r != kUnassigned; }));
}

std::string shape_violation(const Instance& instance, const Schedule& s) {
  const std::size_t n = instance.jobs.size();
  if (s.resource.size() == n && s.pe.size() == n && s.start.size() == n) return "";
  return fmt::format("schedule has {} resources, {} PEs and {} start times for {} jobs", s.resource.size(),
                     s.pe.size(), s.start.size(), n);
}

std::string placement_violation(const Instance& instance, const Schedule& s) {
  for (std::size_t j = 0; j < instance.jobs.size(); ++j) {
    if (s.resource[j] == kUnassigned) continue;
    if (s.resource[j] < 0 || static_cast<std::size_t>(s.resource[j]) >= instance.resources.size())
      return fmt::format("job {} is on resource index {}, which does not exist", instance.jobs[j].id, s.resource[j]);
    const Resource& r = instance.resources[static_cast<std::size_t>(s.resource[j])];
    if (s.pe[j] < 0 || s.pe[j] >= usable_pes(instance, r))
      return fmt::format("job {} is on PE {} of {}, which has {} usable PEs (min(PEs, maxProc x maxPendingRequests))",
                         instance.jobs[j].id, s.pe[j], r.id, usable_pes(instance, r));
    if (!std::isfinite(s.start[j]) || s.start[j] < -kTimeTolerance)
      return fmt::format("job {} starts at {}, before t = 0", instance.jobs[j].id, s.start[j]);
  }
  return "";
}

std::string overlap_violation(const Instance& instance, const Schedule& s) {
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (s.resource[j] != kUnassigned) order.push_back(j);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(s.resource[a], s.pe[a], s.start[a]) < std::tie(s.resource[b], s.pe[b], s.start[b]);
  });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const std::size_t a = order[k - 1], b = order[k];
    if (s.resource[a] != s.resource[b] || s.pe[a] != s.pe[b]) continue;
    if (s.start[b] < finish(instance, s, a) - kTimeTolerance)
      return fmt::format("jobs {} and {} overlap on PE {} of {}: {} starts at {} before {} ends at {}",
                         instance.jobs[a].id, instance.jobs[b].id, s.pe[a],
                         instance.resources[static_cast<std::size_t>(s.resource[a])].id, instance.jobs[b].id,
                         s.start[b], instance.jobs[a].id, finish(instance, s, a));
  }
  return "";
}

std::string request_violation(const Instance& instance, const Schedule& s) {
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (s.resource[j] != kUnassigned && finish(instance, s, j) > instance.broker.max_tr + kTimeTolerance)
      return fmt::format("job {} finishes at {}, after maxTr = {} (no request may ask for more)", instance.jobs[j].id,
                         finish(instance, s, j), instance.broker.max_tr);
  return "";
}

std::string deadline_violation(const Instance& instance, const Schedule& s) {
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (s.resource[j] != kUnassigned && finish(instance, s, j) > instance.deadline + kTimeTolerance)
      return fmt::format("job {} finishes at {} on {}, after Dabsolute = {}", instance.jobs[j].id,
                         finish(instance, s, j), instance.resources[static_cast<std::size_t>(s.resource[j])].id,
                         instance.deadline);
  return "";
}

std::string budget_violation(const Instance& instance, const Schedule& s) {
  const double cost = total_cost(instance, s);
  if (affordable(cost, instance.budget)) return "";
  return fmt::format("the assigned jobs cost {} G$, over Babsolute = {}", cost, instance.budget);
}

Verdict validate(const Instance& instance, const Schedule& schedule) {
  Verdict v;
  v.reason = shape_violation(instance, schedule);
  if (v.reason.empty()) v.reason = placement_violation(instance, schedule);
  const bool sound = v.reason.empty();
  using Check = std::string (*)(const Instance&, const Schedule&);
  for (Check check : {overlap_violation, request_violation, deadline_violation, budget_violation})
    if (v.reason.empty()) v.reason = check(instance, schedule);
  v.feasible = v.reason.empty();
  if (sound) v.objective = total_cost(instance, schedule);
  return v;
}

std::vector<std::vector<Request>> craft_requests(const Instance& instance, const Schedule& s) {
  std::vector<std::vector<Request>> requests(instance.resources.size());
  for (std::size_t r = 0; r < instance.resources.size(); ++r) {
    std::vector<double> latest(static_cast<std::size_t>(usable_pes(instance, instance.resources[r])), -1.0);
    for (std::size_t j = 0; j < instance.jobs.size(); ++j)
      if (s.resource[j] == static_cast<int>(r) && s.pe[j] >= 0 && static_cast<std::size_t>(s.pe[j]) < latest.size())
        latest[static_cast<std::size_t>(s.pe[j])] =
            std::max(latest[static_cast<std::size_t>(s.pe[j])], finish(instance, s, j));
    std::vector<double> used;
    for (double t : latest)
      if (t >= 0) used.push_back(t);
    const std::size_t per_request = static_cast<std::size_t>(instance.broker.max_proc);
    for (std::size_t first = 0; first < used.size(); first += per_request) {
      const std::size_t last = std::min(used.size(), first + per_request);
      requests[r].push_back(Request{static_cast<int>(last - first),
                                    *std::max_element(used.begin() + static_cast<std::ptrdiff_t>(first),
                                                      used.begin() + static_cast<std::ptrdiff_t>(last))});
    }
  }
  return requests;
}

// ---------------------------------------------------------------- reader / writer

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "resources", "jobs", "dfactor", "deadline", "bfactor", "budget", "broker",
                  "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "DBC broker instances", file);

  std::set<std::string> ids;
  const auto resources = root.at("resources").items();
  if (resources.empty()) root.at("resources").fail("a non-empty array of resources");
  for (const Field& item : resources) {
    item.only_keys({"id", "pes", "mips", "cost", "comment"});
    Resource r;
    r.id = item.at("id").as_string();
    if (!ids.insert(r.id).second) item.at("id").fail("a resource id not used by another resource");
    r.pes = static_cast<int>(item.at("pes").as_int(1, kMaxPes));
    r.mips = item.at("mips").as_number(1e-9, kMaxMagnitude);
    r.cost = item.at("cost").as_number(0, kMaxMagnitude);
    instance.resources.push_back(r);
  }
  ids.clear();
  for (const Field& item : root.at("jobs").items()) {
    item.only_keys({"id", "length", "origin", "comment"});
    Job job;
    job.id = item.at("id").as_string();
    if (!ids.insert(job.id).second) item.at("id").fail("a job id not used by another job");
    job.length = item.at("length").as_number(1e-9, kMaxMagnitude);
    if (item.has("origin")) {
      const std::string origin = item.at("origin").as_string();
      if (origin != "local" && origin != "grid") item.at("origin").fail("\"local\" or \"grid\"");
      job.origin = origin == "local" ? Origin::kLocal : Origin::kGrid;
    }
    instance.jobs.push_back(job);
  }

  if (root.has("dfactor") == root.has("deadline"))
    root.fail("exactly one of \"dfactor\" (Dabsolute = Tmin + Dfactor (Tmax - Tmin)) and \"deadline\" (seconds)");
  if (root.has("dfactor")) {
    instance.dfactor = root.at("dfactor").as_number(0, kMaxFactor);
    instance.deadline = absolute_deadline(instance.resources, instance.jobs, *instance.dfactor);
  } else {
    instance.deadline = root.at("deadline").as_number(0, kMaxMagnitude);
  }
  if (root.has("bfactor") == root.has("budget"))
    root.fail("exactly one of \"bfactor\" (Babsolute = Cmin + Bfactor (Cmax - Cmin)) and \"budget\" (G$)");
  if (root.has("bfactor")) {
    instance.bfactor = root.at("bfactor").as_number(0, kMaxFactor);
    instance.budget = absolute_budget(instance.resources, instance.jobs, *instance.bfactor);
  } else {
    instance.budget = root.at("budget").as_number(0, kMaxMagnitude * kMaxMagnitude);
  }

  if (root.has("broker")) {
    const Field broker = root.at("broker");
    broker.only_keys({"max_pending_requests", "max_proc", "max_tr", "max_jobs_per_pe"});
    if (broker.has("max_pending_requests"))
      instance.broker.max_pending_requests = static_cast<int>(broker.at("max_pending_requests").as_int(1, kMaxPes));
    if (broker.has("max_proc")) instance.broker.max_proc = static_cast<int>(broker.at("max_proc").as_int(1, kMaxPes));
    if (broker.has("max_tr")) instance.broker.max_tr = broker.at("max_tr").as_number(1e-9, kMaxMagnitude);
    if (broker.has("max_jobs_per_pe"))
      instance.broker.max_jobs_per_pe = static_cast<int>(broker.at("max_jobs_per_pe").as_int(1, kMaxPes));
  }
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  nlohmann::json doc;
  doc["kind"] = kInstanceKind;
  doc["name"] = instance.name;
  doc["resources"] = nlohmann::json::array();
  for (const auto& r : instance.resources)
    doc["resources"].push_back({{"id", r.id}, {"pes", r.pes}, {"mips", r.mips}, {"cost", r.cost}});
  doc["jobs"] = nlohmann::json::array();
  for (const auto& j : instance.jobs)
    doc["jobs"].push_back(
        {{"id", j.id}, {"length", j.length}, {"origin", j.origin == Origin::kLocal ? "local" : "grid"}});
  if (instance.dfactor) doc["dfactor"] = *instance.dfactor;
  else doc["deadline"] = instance.deadline;
  if (instance.bfactor) doc["bfactor"] = *instance.bfactor;
  else doc["budget"] = instance.budget;
  nlohmann::json broker = nlohmann::json::object();
  const Broker defaults;
  if (instance.broker.max_pending_requests != defaults.max_pending_requests)
    broker["max_pending_requests"] = instance.broker.max_pending_requests;
  if (instance.broker.max_proc != defaults.max_proc) broker["max_proc"] = instance.broker.max_proc;
  if (std::isfinite(instance.broker.max_tr)) broker["max_tr"] = instance.broker.max_tr;
  if (instance.broker.max_jobs_per_pe != defaults.max_jobs_per_pe) broker["max_jobs_per_pe"] = instance.broker.max_jobs_per_pe;
  if (!broker.empty()) doc["broker"] = broker;
  return doc;
}

nlohmann::json write_schedule(const Instance& instance, const Schedule& s) {
  nlohmann::json accepted = nlohmann::json::array(), unassigned = nlohmann::json::array();
  nlohmann::json start = nlohmann::json::object(), where = nlohmann::json::object();
  for (std::size_t j = 0; j < instance.jobs.size() && j < s.resource.size(); ++j) {
    const std::string& id = instance.jobs[j].id;
    if (s.resource[j] == kUnassigned) {
      unassigned.push_back(id);
      continue;
    }
    accepted.push_back(id);
    start[id] = s.start[j];
    const bool known = s.resource[j] >= 0 && static_cast<std::size_t>(s.resource[j]) < instance.resources.size();
    where[id] = fmt::format("{}/pe{}", known ? instance.resources[static_cast<std::size_t>(s.resource[j])].id : "?",
                            s.pe[j]);
  }
  nlohmann::json out = {{"accepted", accepted}, {"start", start}, {"placement", where}, {"unassigned", unassigned}};
  if (shape_violation(instance, s).empty() && placement_violation(instance, s).empty()) {
    nlohmann::json requests = nlohmann::json::object();
    const auto crafted = craft_requests(instance, s);
    for (std::size_t r = 0; r < crafted.size(); ++r)
      for (const auto& q : crafted[r]) requests[instance.resources[r].id].push_back({{"p", q.procs}, {"tr", q.tr}});
    out["requests"] = requests;
    out["cost"] = total_cost(instance, s);
    out["makespan"] = makespan(instance, s);
  }
  return out;
}

}  // namespace schedcheck::dbc
