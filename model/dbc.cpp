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

// A run: jobs of one lane whose intervals overlap one after another, so that one request must hold them all.
struct Run {
  double start = 0, end = 0;
  std::vector<std::size_t> jobs;  // in start order
  std::set<int> pes;
};

// Per lane of resource r (PE k in lane k / width), its runs in start order (placement must hold).
std::vector<std::vector<Run>> lane_runs(const Instance& instance, const Schedule& s, std::size_t r, int width) {
  const int usable = usable_pes(instance, instance.resources[r]);
  std::vector<std::vector<std::size_t>> on_lane(static_cast<std::size_t>((usable + width - 1) / width));
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (s.resource[j] == static_cast<int>(r) && s.pe[j] >= 0 && s.pe[j] < usable)
      on_lane[static_cast<std::size_t>(s.pe[j] / width)].push_back(j);
  std::vector<std::vector<Run>> runs(on_lane.size());
  for (std::size_t lane = 0; lane < on_lane.size(); ++lane) {
    auto& jobs = on_lane[lane];
    std::sort(jobs.begin(), jobs.end(), [&](std::size_t a, std::size_t b) { return s.start[a] < s.start[b]; });
    for (std::size_t j : jobs) {
      const double f = finish(instance, s, j);
      if (runs[lane].empty() || s.start[j] >= runs[lane].back().end - kTimeTolerance) runs[lane].push_back(Run{s.start[j], f, {}, {}});
      Run& run = runs[lane].back();
      run.end = std::max(run.end, f);
      run.jobs.push_back(j);
      run.pes.insert(s.pe[j]);
    }
  }
  return runs;
}
}  // namespace

Schedule empty_schedule(const Instance& instance) {
  const std::size_t n = instance.jobs.size();
  return Schedule{std::vector<int>(n, kUnassigned), std::vector<int>(n, 0), std::vector<double>(n, 0.0), {}};
}

double total_length(const std::vector<Job>& jobs) {
  double sum = 0;
  for (const auto& j : jobs) sum += j.length;
  return sum;
}

// The "MIPS rating" of a resource in Tmax and in the l_max terms: one PE's MIPS, or PEs x MIPS.
double rating(const Instance& instance, const Resource& r) {
  return instance.readings.mips_rating == MipsRating::kPe ? r.mips : r.pes * r.mips;
}

double t_max(const Instance& instance) {
  if (instance.resources.empty()) return 0;
  double slowest = std::numeric_limits<double>::infinity(), fastest = 0;
  for (const auto& r : instance.resources) {
    slowest = std::min(slowest, rating(instance, r));
    fastest = std::max(fastest, rating(instance, r));
  }
  return std::max(total_length(instance.jobs) / slowest, max_length(instance.jobs) / fastest);
}

double t_min(const Instance& instance) {
  if (instance.resources.empty()) return 0;
  double power = 0, fastest = 0;
  for (const auto& r : instance.resources) {
    power += r.pes * r.mips;
    fastest = std::max(fastest, rating(instance, r));
  }
  return std::max(total_length(instance.jobs) / power, max_length(instance.jobs) / fastest);
}

double c_max(const Instance& instance) {
  double c = 0;
  for (const auto& r : instance.resources) c = std::max(c, cost_per_mi(instance, r));
  return total_length(instance.jobs) * c;
}

double c_min(const Instance& instance) {
  double c = std::numeric_limits<double>::infinity();
  for (const auto& r : instance.resources) c = std::min(c, cost_per_mi(instance, r));
  return instance.resources.empty() ? 0 : total_length(instance.jobs) * c;
}

double absolute_deadline(const Instance& instance, double dfactor) {
  const double lo = t_min(instance);
  return lo + dfactor * (t_max(instance) - lo);
}

double absolute_budget(const Instance& instance, double bfactor) {
  const double lo = c_min(instance);
  return lo + bfactor * (c_max(instance) - lo);
}

double duration(const Resource& resource, const Job& job) { return job.length / resource.mips; }
double cost_per_mi(const Instance& instance, const Resource& resource) {
  return instance.readings.cost_unit == CostUnit::kPerMi ? resource.cost : resource.cost / resource.mips;
}
double job_cost(const Instance& instance, const Resource& resource, const Job& job) {
  return cost_per_mi(instance, resource) * job.length;
}

int pending_limit(const Instance& instance) {
  return instance.readings.max_pending == MaxPendingReading::kNotStarted ? std::numeric_limits<int>::max()
                                                                          : instance.broker.max_pending_requests;
}

int usable_pes(const Instance& instance, const Resource& resource) {
  const long long by_requests =
      static_cast<long long>(instance.broker.max_proc) * static_cast<long long>(pending_limit(instance));
  return static_cast<int>(std::min<long long>(resource.pes, by_requests));
}

int lane_width(const Instance& instance, const Resource& resource) {
  const int usable = usable_pes(instance, resource);
  if (instance.readings.max_tr == MaxTrReading::kHorizon || usable <= 0) return 1;
  const int lanes = std::min(pending_limit(instance), usable);
  return (usable + lanes - 1) / lanes;
}

bool affordable(double cost, double budget) { return fits(cost, budget); }  // the same relative slack
double slack_limit(double limit) { return limit + kFitSlack * std::max(1.0, std::fabs(limit)); }
bool fits(double finish, double limit) { return finish <= slack_limit(limit); }

double horizon(const Instance& instance) {
  double deadline = instance.deadline;
  if (instance.readings.deadline_test == DeadlineTest::kStrictlyBefore)
    deadline -= 2 * kFitSlack * std::max(1.0, std::fabs(deadline));
  return std::min(deadline, request_horizon(instance));
}

double request_horizon(const Instance& instance) {
  return instance.readings.max_tr == MaxTrReading::kHorizon ? instance.broker.max_tr
                                                            : std::numeric_limits<double>::infinity();
}

double window_limit(const Instance& instance) {
  return instance.readings.max_tr == MaxTrReading::kPerRequest ? instance.broker.max_tr
                                                               : std::numeric_limits<double>::infinity();
}

bool eligible(const Instance& instance, const Resource& resource, const Job& job) {
  return fits(duration(resource, job), instance.broker.max_tr);
}

std::vector<std::size_t> job_list_order(const Instance& instance) {
  std::vector<std::size_t> order(instance.jobs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

std::vector<std::size_t> local_first_order(const Instance& instance) {
  std::vector<std::size_t> order = job_list_order(instance);
  std::stable_partition(order.begin(), order.end(),
                        [&](std::size_t j) { return instance.jobs[j].origin == Origin::kLocal; });
  return order;
}

Clock::Clock(const Instance& instance) : window_(window_limit(instance)) {
  for (const auto& r : instance.resources) {
    const auto usable = static_cast<std::size_t>(usable_pes(instance, r));
    width_.push_back(lane_width(instance, r));
    free_.emplace_back(usable, 0.0);
    const std::size_t lanes = (usable + static_cast<std::size_t>(width_.back()) - 1) / static_cast<std::size_t>(width_.back());
    open_.emplace_back(lanes, 0.0);
    end_.emplace_back(lanes, 0.0);
  }
}

Clock::Slot Clock::earliest(std::size_t r, double d) const {
  Slot best;
  for (std::size_t k = 0; k < free_[r].size(); ++k) {
    const std::size_t lane = k / static_cast<std::size_t>(width_[r]);
    double start = free_[r][k];
    if (!fits(start + d - open_[r][lane], window_)) start = std::max(start, end_[r][lane]);  // the next request
    if (start + d < best.finish) best = Slot{static_cast<int>(k), start, start + d};
  }
  return best;
}

void Clock::place(std::size_t r, int pe, double start, double finish) {
  const auto k = static_cast<std::size_t>(pe);
  const std::size_t w = static_cast<std::size_t>(width_[r]), lane = k / w;
  if (fits(finish - open_[r][lane], window_)) {
    end_[r][lane] = std::max(end_[r][lane], finish);
  } else {  // the lane's next request begins at `start`: its PEs are free from there on
    open_[r][lane] = start;
    end_[r][lane] = finish;
    for (std::size_t q = lane * w; q < std::min(free_[r].size(), (lane + 1) * w); ++q)
      free_[r][q] = std::max(free_[r][q], start);
  }
  free_[r][k] = finish;
}

void Clock::reset(std::size_t r, int pe, double free) {
  const auto k = static_cast<std::size_t>(pe);
  const std::size_t lane = k / static_cast<std::size_t>(width_[r]);
  free_[r][k] = free;
  open_[r][lane] = end_[r][lane] = free;
}

double total_cost(const Instance& instance, const Schedule& schedule) {
  double sum = 0;
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (schedule.resource[j] != kUnassigned)
      sum += job_cost(instance, instance.resources[static_cast<std::size_t>(schedule.resource[j])], instance.jobs[j]);
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
  if (instance.readings.max_tr == MaxTrReading::kHorizon) {
    for (std::size_t j = 0; j < instance.jobs.size(); ++j)
      // as lenient as fits() (relative slack) and as kTimeTolerance, so that what a policy accepts passes
      if (s.resource[j] != kUnassigned && !fits(finish(instance, s, j) - kTimeTolerance, instance.broker.max_tr))
        return fmt::format("job {} finishes at {}, after maxTr = {} (max_tr \"horizon\": every request starts at "
                           "t = 0)", instance.jobs[j].id, finish(instance, s, j), instance.broker.max_tr);
    return "";
  }
  for (std::size_t r = 0; r < instance.resources.size(); ++r) {
    const int width = lane_width(instance, instance.resources[r]);
    for (const auto& lane : lane_runs(instance, s, r, width))
      for (const Run& run : lane) {
        // as lenient as fits() (relative slack) and as kTimeTolerance, so that what a policy accepts passes
        if (fits(run.end - run.start - kTimeTolerance, instance.broker.max_tr)) continue;
        const auto& first = instance.jobs[run.jobs.front()];
        if (run.jobs.size() == 1)
          return fmt::format("job {} runs {} s on {}, longer than maxTr = {} (the most one request may ask for)",
                             first.id, run.end - run.start, instance.resources[r].id, instance.broker.max_tr);
        return fmt::format("jobs {}..{} overlap one after another on the lane of PEs {}-{} of {} from {} to {}: one "
                           "request would ask for {} s > maxTr = {}", first.id, instance.jobs[run.jobs.back()].id,
                           s.pe[run.jobs.front()] / width * width, s.pe[run.jobs.front()] / width * width + width - 1,
                           instance.resources[r].id, run.start, run.end, run.end - run.start, instance.broker.max_tr);
      }
  }
  return "";
}

std::string deadline_violation(const Instance& instance, const Schedule& s) {
  const bool strict = instance.readings.deadline_test == DeadlineTest::kStrictlyBefore;
  const double latest = strict ? instance.deadline - kFitSlack * std::max(1.0, std::fabs(instance.deadline)) / 2
                               : std::max(slack_limit(instance.deadline), instance.deadline + kTimeTolerance);
  for (std::size_t j = 0; j < instance.jobs.size(); ++j)
    if (s.resource[j] != kUnassigned && finish(instance, s, j) > latest)
      return fmt::format("job {} finishes at {} on {}, {} Dabsolute = {}", instance.jobs[j].id,
                         finish(instance, s, j), instance.resources[static_cast<std::size_t>(s.resource[j])].id,
                         strict ? "not strictly before (deadline_test \"strictly-before\")" : "after", instance.deadline);
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
  const bool at_start = instance.readings.max_tr == MaxTrReading::kHorizon;
  for (std::size_t r = 0; r < instance.resources.size(); ++r) {
    const Resource& res = instance.resources[r];
    const int width = at_start ? std::max(1, std::min(instance.broker.max_proc, usable_pes(instance, res)))
                               : lane_width(instance, res);
    for (const auto& lane : lane_runs(instance, s, r, width)) {
      std::set<int> pes;
      double start = 0, end = -1;
      auto flush = [&] {
        if (end < 0) return;
        requests[r].push_back(Request{static_cast<int>(pes.size()), at_start ? 0.0 : start, end - (at_start ? 0.0 : start)});
        pes.clear();
        end = -1;
      };
      for (const Run& run : lane) {
        if (end >= 0 && !at_start && !fits(run.end - start, instance.broker.max_tr)) flush();
        if (end < 0) start = run.start;
        end = std::max(end, run.end);
        pes.insert(run.pes.begin(), run.pes.end());
      }
      flush();
    }
  }
  return requests;
}

// ---------------------------------------------------------------- reader / writer

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "resources", "jobs", "dfactor", "deadline", "bfactor", "budget", "broker",
                  "readings", "schedcheck"});
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

  if (root.has("readings")) {  // before Dfactor / Bfactor: Tmax, Cmin and Cmax depend on them
    const Field readings = root.at("readings");
    readings.only_keys({"cost_unit", "mips_rating", "deadline_test", "max_tr", "max_pending", "advisor"});
    // One reading: the value's index among `names` (the first is the default), else one clear error.
    auto choice = [&](const char* key, std::initializer_list<const char*> names) {
      if (!readings.has(key)) return 0;
      const std::string value = readings.at(key).as_string();
      int index = 0;
      std::string expected;
      for (const char* name : names) {
        if (value == name) return index;
        expected += fmt::format("{}\"{}\"", index == 0 ? "" : index + 1 == static_cast<int>(names.size()) ? " or " : ", ", name);
        ++index;
      }
      readings.at(key).fail(expected);
    };
    instance.readings.cost_unit = static_cast<CostUnit>(choice("cost_unit", {"per-mi", "per-pe-second"}));
    instance.readings.mips_rating = static_cast<MipsRating>(choice("mips_rating", {"pe", "resource"}));
    instance.readings.deadline_test =
        static_cast<DeadlineTest>(choice("deadline_test", {"at-or-before", "strictly-before"}));
    instance.readings.max_tr = static_cast<MaxTrReading>(choice("max_tr", {"per-request", "horizon"}));
    instance.readings.max_pending =
        static_cast<MaxPendingReading>(choice("max_pending", {"not-finished", "not-started"}));
    instance.readings.advisor = static_cast<AdvisorReading>(choice("advisor", {"throughput", "less-work"}));
  }
  if (root.has("dfactor") == root.has("deadline"))
    root.fail("exactly one of \"dfactor\" (Dabsolute = Tmin + Dfactor (Tmax - Tmin)) and \"deadline\" (seconds)");
  if (root.has("dfactor")) {
    instance.dfactor = root.at("dfactor").as_number(0, kMaxFactor);
    instance.deadline = absolute_deadline(instance, *instance.dfactor);
  } else {
    instance.deadline = root.at("deadline").as_number(0, kMaxMagnitude);
  }
  if (root.has("bfactor") == root.has("budget"))
    root.fail("exactly one of \"bfactor\" (Babsolute = Cmin + Bfactor (Cmax - Cmin)) and \"budget\" (G$)");
  if (root.has("bfactor")) {
    instance.bfactor = root.at("bfactor").as_number(0, kMaxFactor);
    instance.budget = absolute_budget(instance, *instance.bfactor);
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
  nlohmann::json readings = nlohmann::json::object();
  const Readings usual;
  if (instance.readings.cost_unit != usual.cost_unit) readings["cost_unit"] = "per-pe-second";
  if (instance.readings.mips_rating != usual.mips_rating) readings["mips_rating"] = "resource";
  if (instance.readings.deadline_test != usual.deadline_test) readings["deadline_test"] = "strictly-before";
  if (instance.readings.max_tr != usual.max_tr) readings["max_tr"] = "horizon";
  if (instance.readings.max_pending != usual.max_pending) readings["max_pending"] = "not-started";
  if (instance.readings.advisor != usual.advisor) readings["advisor"] = "less-work";
  if (!readings.empty()) doc["readings"] = readings;
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
      for (const auto& q : crafted[r]) requests[instance.resources[r].id].push_back({{"p", q.procs}, {"start", q.start}, {"tr", q.tr}});
    out["requests"] = requests;
    out["cost"] = total_cost(instance, s);
    out["makespan"] = makespan(instance, s);
  }
  return out;
}

Schedule read_schedule(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"accepted", "start", "placement", "unassigned", "requests", "cost", "makespan"});
  const IdIndex jobs(instance.jobs, [](const Job& j) { return j.id; }, "a job");
  const IdIndex resources(instance.resources, [](const Resource& r) { return r.id; }, "a resource");
  Schedule s = empty_schedule(instance);
  std::vector<bool> accepted(instance.jobs.size(), false);
  for (const Field& item : root.at("accepted").items()) {
    const std::size_t j = jobs.of(item);
    if (accepted[j]) item.fail("each job at most once");
    accepted[j] = true;
  }
  if (root.has("unassigned"))
    for (const Field& item : root.at("unassigned").items())
      if (accepted[jobs.of(item)]) item.fail("a job that is not also accepted");
  const Field start = root.at("start"), placement = root.at("placement");
  for (std::size_t j = 0; j < instance.jobs.size(); ++j) {
    if (!accepted[j]) continue;
    const std::string& id = instance.jobs[j].id;
    s.start[j] = start.at(id).as_number(0, 1e15);
    const Field where_field = placement.at(id);
    const std::string text = where_field.raw().is_string() ? where_field.raw().get<std::string>() : "";
    const std::size_t cut = text.rfind("/pe");
    if (cut == std::string::npos) where_field.fail("\"RESOURCE/peK\"");
    const std::size_t r = resources.of(Field(nlohmann::json(text.substr(0, cut)), where_field.file(), where_field.path()));
    long long pe = -1;
    const std::string digits = text.substr(cut + 3);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos ||
        (pe = std::stoll(digits)) >= instance.resources[r].pes)
      where_field.fail(fmt::format("\"{}/peK\" with K from 0 to {}", instance.resources[r].id, instance.resources[r].pes - 1));
    s.resource[j] = static_cast<int>(r);
    s.pe[j] = static_cast<int>(pe);
  }
  for (const auto& [key, value] : start.members())
    if (!accepted[jobs.of_key(key, value)]) value.fail("a start only for an accepted job");
  for (const auto& [key, value] : placement.members())
    if (!accepted[jobs.of_key(key, value)]) value.fail("a placement only for an accepted job");
  return s;
}

}  // namespace schedcheck::dbc
