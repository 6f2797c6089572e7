// The `auction-bid` problem (model/auction_bid.hpp): reading, writing, the semantics on model/auction.hpp, the closed
// form of the cheapest bid and the one validator. Paper 003 sec. 3.2 (Eq. 1-3) and sec. 4; the closed form is our
// own (docs/auction-bid.md). Loads and lengths in MI, times in seconds, bids in cents per minute, charges in cents.
#include "model/auction_bid.hpp"

#include "model/input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace schedcheck::auction_bid {

namespace {

constexpr double kAuctionBidInfinity = std::numeric_limits<double>::infinity();
// A closed-form bid above max_bid by no more than this relative rounding is max_bid itself (a load of exactly
// max_load computes B* = max_bid up to the last bit).
constexpr double kClosedFormBidRounding = 1e-12;


}  // namespace

Instance read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "capacity", "time_left", "interval", "resources", "tasks", "recorded",
                  "schedcheck"});
  Instance instance;
  instance.name = read_instance_header(root, kInstanceKind, "\"auction-bid\" files (docs/auction-bid.md)", file);
  if (root.has("comment")) instance.comment = root.at("comment").as_string();
  if (root.has("capacity")) {  // the auctioneer's reading of C, by its catalogue's names (model/auction.hpp)
    const int index = auction::rule_index("capacity", root.at("capacity").as_string());
    if (index < 0) root.at("capacity").fail(auction::rule_values("capacity"));
    instance.capacity = static_cast<auction::Capacity>(index);
  }
  instance.time_left = root.at("time_left").as_number(0, kMaxMagnitude);
  if (!(instance.time_left > 0)) root.at("time_left").fail("a time to the deadline > 0 seconds");
  if (root.has("interval")) {
    instance.interval = root.at("interval").as_number(0, kMaxMagnitude);
    if (!(instance.interval > 0)) root.at("interval").fail("a bidding interval > 0 seconds");
  }
  const auto resources = root.at("resources").items();
  if (resources.empty() || resources.size() > kMaxResources)
    root.at("resources").fail(fmt::format("1 to {} resources", kMaxResources));
  std::set<std::string> names;
  for (const Field& item : resources) {
    item.only_keys({"name", "pes", "mips", "min_bid", "max_bid", "others_bid", "foreign", "comment"});
    Resource r;
    r.spec.name = item.at("name").as_string();
    if (!names.insert(r.spec.name).second) item.at("name").fail("a name no other resource has");
    r.spec.pes = static_cast<int>(item.at("pes").as_int(1, 1'000'000));
    r.spec.mips = item.at("mips").as_number(0, kMaxMagnitude);
    if (!(r.spec.mips > 0)) item.at("mips").fail("a speed > 0 MIPS");
    r.spec.min_bid = item.at("min_bid").as_number(0, kMaxMagnitude);
    if (!(r.spec.min_bid > 0)) item.at("min_bid").fail("a least bid > 0 cents per minute");
    r.spec.max_bid = item.at("max_bid").as_number(0, kMaxMagnitude);
    if (r.spec.max_bid < r.spec.min_bid)
      item.at("max_bid").fail(fmt::format("a bid >= min_bid ({:g})", r.spec.min_bid));
    r.others_bid = item.at("others_bid").as_number(0, kMaxMagnitude);
    if (item.has("foreign")) r.foreign = item.at("foreign").as_bool();
    instance.resources.push_back(std::move(r));
  }
  const IdIndex by_name(instance.resources, [](const Resource& r) { return r.spec.name; }, "a resource");
  const auto tasks = root.at("tasks").items();
  if (tasks.empty() || tasks.size() > kMaxTasks) root.at("tasks").fail(fmt::format("1 to {} tasks", kMaxTasks));
  std::set<std::string> ids;
  std::vector<std::string> runner(instance.resources.size());
  for (const Field& item : tasks) {
    item.only_keys({"id", "length", "running_on", "comment"});
    Task t;
    t.id = item.at("id").as_string();
    if (!ids.insert(t.id).second) item.at("id").fail("an id no other task has");
    t.length = item.at("length").as_number(0, kMaxMagnitude);
    if (!(t.length > 0)) item.at("length").fail("a remaining length > 0 MI");
    if (item.has("running_on")) {
      t.running_on = by_name.of(item.at("running_on"));
      if (!runner[t.running_on].empty())
        item.at("running_on").fail(fmt::format("a resource no other task runs on (task {} runs on it)",
                                               quoted_text(runner[t.running_on])));
      runner[t.running_on] = t.id;
    }
    instance.tasks.push_back(std::move(t));
  }
  if (root.has("recorded")) {
    const Field r = root.at("recorded");
    r.only_keys({"by", "assign", "bids"});
    Recorded recorded;
    recorded.by = r.at("by").as_string();
    const nlohmann::json plan = {{"assign", r.at("assign").raw()}, {"bids", r.at("bids").raw()}};
    recorded.plan = read_plan(instance, plan, file + ": " + r.path());
    instance.recorded = std::move(recorded);
  }
  return instance;
}

nlohmann::json write_instance(const Instance& instance) {
  nlohmann::json resources = nlohmann::json::array();
  for (const Resource& r : instance.resources)
    resources.push_back({{"name", r.spec.name}, {"pes", r.spec.pes}, {"mips", r.spec.mips}, {"min_bid", r.spec.min_bid},
                         {"max_bid", r.spec.max_bid}, {"others_bid", r.others_bid}, {"foreign", r.foreign}});
  nlohmann::json tasks = nlohmann::json::array();
  for (const Task& t : instance.tasks) {
    nlohmann::json item = {{"id", t.id}, {"length", t.length}};
    if (t.running_on != kNoResource) item["running_on"] = instance.resources[t.running_on].spec.name;
    tasks.push_back(std::move(item));
  }
  nlohmann::json out = {{"kind", kInstanceKind},
                        {"name", instance.name},
                        {"capacity", auction::rule_value("capacity", static_cast<int>(instance.capacity))},
                        {"time_left", instance.time_left},
                        {"interval", instance.interval},
                        {"resources", std::move(resources)},
                        {"tasks", std::move(tasks)}};
  if (!instance.comment.empty()) out["comment"] = instance.comment;
  if (instance.recorded) {
    nlohmann::json plan = write_plan(instance, instance.recorded->plan);
    out["recorded"] = {{"by", instance.recorded->by}, {"assign", plan["assign"]}, {"bids", plan["bids"]}};
  }
  return out;
}

nlohmann::json write_plan(const Instance& instance, const Plan& plan) {
  auto resource_name = [&](std::size_t r) {
    return r < instance.resources.size() ? instance.resources[r].spec.name : "?";
  };
  nlohmann::json assign = nlohmann::json::object(), bids = nlohmann::json::object();
  for (std::size_t t = 0; t < instance.tasks.size() && t < plan.assign.size(); ++t)
    assign[instance.tasks[t].id] = resource_name(plan.assign[t]);
  const std::vector<double> load = loads(instance, plan.assign);
  std::string summary;
  double total = 0;
  for (std::size_t r = 0; r < instance.resources.size() && r < plan.bids.size(); ++r) {
    if (plan.bids[r] > 0) bids[resource_name(r)] = plan.bids[r];
    if (load[r] <= 0) continue;
    const double cost = charge(instance, r, load[r], plan.bids[r]);
    total += cost;
    summary += fmt::format("{}{}: {:g} MI at bid {:g}, done at {:.6g} s, {:.6g} cents", summary.empty() ? "" : "; ",
                           resource_name(r), load[r], plan.bids[r], finish_time(instance, r, load[r], plan.bids[r]),
                           cost);
  }
  return {{"assign", std::move(assign)},
          {"bids", std::move(bids)},
          {"summary", fmt::format("total {:.6g} cents; {}", total, summary)}};
}

Plan read_plan(const Instance& instance, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"assign", "bids", "summary"});
  const IdIndex tasks(instance.tasks, [](const Task& t) { return t.id; }, "a task");
  const IdIndex resources(instance.resources, [](const Resource& r) { return r.spec.name; }, "a resource");
  Plan plan;
  plan.assign.assign(instance.tasks.size(), kNoResource);  // a task the plan does not name: the validator says so
  plan.bids.assign(instance.resources.size(), 0.0);
  for (const auto& [key, value] : root.at("assign").members())
    plan.assign[tasks.of_key(key, value)] = resources.of(value);
  for (const auto& [key, value] : root.at("bids").members())
    plan.bids[resources.of_key(key, value)] = value.as_number(0, kMaxMagnitude);
  return plan;
}

double total_capacity(const Instance& instance, std::size_t r) {
  return auction::total_mips(instance.resources[r].spec, instance.capacity);
}

double task_cap(const Instance& instance, std::size_t r) {
  return auction::task_mips_cap(instance.resources[r].spec, instance.capacity);
}

double share(const Instance& instance, std::size_t r, double bid) {
  return auction::share_against(bid, instance.resources[r].others_bid, total_capacity(instance, r),
                                task_cap(instance, r));
}

std::vector<double> loads(const Instance& instance, const std::vector<std::size_t>& assign) {
  std::vector<double> load(instance.resources.size(), 0.0);
  for (std::size_t t = 0; t < instance.tasks.size() && t < assign.size(); ++t)
    if (assign[t] < load.size()) load[assign[t]] += instance.tasks[t].length;
  return load;
}

double finish_time(const Instance& instance, std::size_t r, double load, double bid) {
  if (load <= 0) return 0;
  const double s = share(instance, r, bid);
  return s > 0 ? load / s : kAuctionBidInfinity;
}

double surcharge_factor(const Instance& instance, std::size_t r) {
  return instance.resources[r].foreign ? 1.0 + auction::kSurcharge : 1.0;
}

double charge(const Instance& instance, std::size_t r, double load, double bid) {
  if (load <= 0 || bid <= 0) return 0;  // no work, or no bid (a plan the validator refuses): nothing charged
  return bid * (finish_time(instance, r, load, bid) / auction::kSecondsPerMinute) * surcharge_factor(instance, r);
}

// The closed form. The charge k B L / S(B) grows with B: B / S(B) is (B + O) / Ctot uncapped and B / Ccap capped,
// both increasing and equal where they meet. So the cheapest feasible bid is the least B with S(B) >= L / t: that
// needs L / t <= Ccap and, uncapped, B / (B + O) >= x = L / (Ctot t), i.e. x < 1 and B >= O x / (1 - x) (O = 0:
// every bid gets Ccap). Clamped below by min_bid; infeasible above max_bid. Proof and convexity: docs/auction-bid.md.
std::optional<double> cheapest_bid(const Instance& instance, std::size_t r, double load) {
  const Resource& res = instance.resources[r];
  if (load <= 0) return res.spec.min_bid;
  const double t = instance.time_left, ctot = total_capacity(instance, r), ccap = task_cap(instance, r);
  const double need = load / t;  // the share that finishes the load exactly at the deadline
  if (need > std::min(ctot, ccap)) return std::nullopt;
  if (res.others_bid <= 0) return res.spec.min_bid;  // alone: any bid gets min(Ctot, Ccap)
  const double x = load / (ctot * t);
  if (x >= 1) return std::nullopt;
  const double bid = std::max(res.spec.min_bid, res.others_bid * x / (1 - x));
  if (bid > res.spec.max_bid * (1 + kClosedFormBidRounding)) return std::nullopt;
  return std::min(bid, res.spec.max_bid);
}

double cheapest_cost(const Instance& instance, std::size_t r, double load) {
  if (load <= 0) return 0;
  const std::optional<double> bid = cheapest_bid(instance, r, load);
  return bid ? charge(instance, r, load, *bid) : kAuctionBidInfinity;
}

double max_load(const Instance& instance, std::size_t r) {
  return instance.time_left * share(instance, r, instance.resources[r].spec.max_bid);
}

CostCurve cost_curve(const Instance& instance, std::size_t r) {
  const Resource& res = instance.resources[r];
  CostCurve c;
  c.k = surcharge_factor(instance, r) / auction::kSecondsPerMinute;
  c.min_bid = res.spec.min_bid;
  c.min_share = share(instance, r, res.spec.min_bid);
  c.others = res.others_bid;
  c.ctot = total_capacity(instance, r);
  c.time_left = instance.time_left;
  c.end = max_load(instance, r);
  c.knee = std::min(c.end, instance.time_left * c.min_share);
  return c;
}

double CostCurve::value(double load) const {
  if (load > end) return kAuctionBidInfinity;
  if (load <= knee) return k * min_bid * load / min_share;
  const double x = load / (ctot * time_left);
  return k * time_left * others * x / (1 - x);
}

double CostCurve::slope(double load) const {
  if (load < knee) return k * min_bid / min_share;
  if (load >= end) return kAuctionBidInfinity;
  const double x = load / (ctot * time_left);
  return k * others / (ctot * (1 - x) * (1 - x));
}

double CostCurve::minimiser(double lambda) const {
  if (lambda < k * min_bid / min_share) return 0;  // every load costs more than lambda per MI
  if (others <= 0 || knee >= end) return knee;
  // On the rising piece the slope k O / (Ctot (1 - x)^2) equals lambda at x = 1 - sqrt(k O / (Ctot lambda)).
  const double x = 1 - std::sqrt(k * others / (ctot * lambda));
  return std::clamp(x * ctot * time_left, knee, end);
}

namespace {

std::vector<std::size_t> with_running_in_place(const Instance& instance, std::vector<std::size_t> assign) {
  assign.resize(instance.tasks.size(), kNoResource);
  for (std::size_t t = 0; t < instance.tasks.size(); ++t)
    if (instance.tasks[t].running_on != kNoResource) assign[t] = instance.tasks[t].running_on;
  return assign;
}

}  // namespace

Plan cheapest_bids_plan(const Instance& instance, std::vector<std::size_t> assign) {
  Plan plan;
  plan.assign = with_running_in_place(instance, std::move(assign));
  const std::vector<double> load = loads(instance, plan.assign);
  plan.bids.assign(instance.resources.size(), 0.0);
  for (std::size_t r = 0; r < instance.resources.size(); ++r)
    if (load[r] > 0) plan.bids[r] = cheapest_bid(instance, r, load[r]).value_or(instance.resources[r].spec.max_bid);
  return plan;
}

Plan plan_from(const Instance& instance, std::vector<std::size_t> assign, const std::vector<double>& bids_held) {
  Plan plan;
  plan.assign = with_running_in_place(instance, std::move(assign));
  const std::vector<double> load = loads(instance, plan.assign);
  plan.bids.assign(instance.resources.size(), 0.0);
  for (std::size_t r = 0; r < instance.resources.size() && r < bids_held.size(); ++r)
    if (load[r] > 0) plan.bids[r] = bids_held[r];
  return plan;
}

std::string assignment_violation(const Instance& instance, const Plan& plan) {
  if (plan.assign.size() != instance.tasks.size())
    return fmt::format("the plan places {} tasks, the instance has {}", plan.assign.size(), instance.tasks.size());
  for (std::size_t t = 0; t < instance.tasks.size(); ++t) {
    const Task& task = instance.tasks[t];
    if (plan.assign[t] == kNoResource) return fmt::format("task {} is not placed", quoted_text(task.id));
    if (plan.assign[t] >= instance.resources.size())
      return fmt::format("task {} is placed on no resource of the instance", quoted_text(task.id));
    if (task.running_on != kNoResource && plan.assign[t] != task.running_on)
      return fmt::format("task {} runs on {} and cannot move to {}", quoted_text(task.id),
                         instance.resources[task.running_on].spec.name, instance.resources[plan.assign[t]].spec.name);
  }
  return "";
}

std::string bid_violation(const Instance& instance, const Plan& plan) {
  if (plan.bids.size() != instance.resources.size())
    return fmt::format("the plan has {} bids for {} resources", plan.bids.size(), instance.resources.size());
  const std::vector<double> load = loads(instance, plan.assign);
  for (std::size_t r = 0; r < instance.resources.size(); ++r) {
    const auction::Resource& spec = instance.resources[r].spec;
    const double bid = plan.bids[r];
    if (!std::isfinite(bid) || bid < 0) return fmt::format("the bid on {} is not a number >= 0", spec.name);
    if (load[r] > 0 && bid <= 0) return fmt::format("{} has work ({:g} MI) but no bid", spec.name, load[r]);
    if (bid > 0 && (bid < spec.min_bid || bid > spec.max_bid))
      return fmt::format("the bid {:g} on {} is outside [{:g}, {:g}] (Eq. 2)", bid, spec.name, spec.min_bid,
                         spec.max_bid);
  }
  return "";
}

std::string deadline_violation(const Instance& instance, const Plan& plan) {
  const std::vector<double> load = loads(instance, plan.assign);
  for (std::size_t r = 0; r < instance.resources.size() && r < plan.bids.size(); ++r) {
    if (load[r] <= 0) continue;
    const double finish = finish_time(instance, r, load[r], plan.bids[r]);
    if (finish > instance.time_left * (1 + kDeadlineTolerance))
      return fmt::format("{} finishes its {:g} MI at {:.9g} s (bid {:g}, share {:.9g} MIPS), after the deadline "
                         "{:g} s",
                         instance.resources[r].spec.name, load[r], finish, plan.bids[r],
                         share(instance, r, plan.bids[r]), instance.time_left);
  }
  return "";
}

Verdict validate(const Instance& instance, const Plan& plan) {
  for (const std::string& why :
       {assignment_violation(instance, plan), bid_violation(instance, plan), deadline_violation(instance, plan)})
    if (!why.empty()) return Verdict{false, why, 0};
  const std::vector<double> load = loads(instance, plan.assign);
  double total = 0;
  for (std::size_t r = 0; r < instance.resources.size(); ++r) total += charge(instance, r, load[r], plan.bids[r]);
  return Verdict{true, "", total};
}

Verdict evaluate_plan(const Instance& instance, const Plan& plan) { return validate(instance, plan); }

}  // namespace schedcheck::auction_bid
