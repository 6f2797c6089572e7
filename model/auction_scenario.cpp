// Auction scenario files (paper 003 sec. 5.1-5.2): the strict reader and writer of model/auction_scenario.hpp.
// Our own format. A user's fields default to the scenario's `defaults` block, then to the paper's values.
#include "model/auction_scenario.hpp"

#include "model/input.hpp"

#include <algorithm>
#include <type_traits>

namespace schedcheck::auction {
namespace {

// The paper's user settings (sec. 5.1), the defaults of a `defaults` block.
constexpr std::size_t kPaperTasks = 50;
constexpr double kPaperMinLength = 700000, kPaperMaxLength = 800000;
constexpr double kPaperFund = 100;
constexpr double kPaperDeadline = 10 * 3600.0;
constexpr double kPaperPeriod = 10 * 60.0;
constexpr double kMaxSeconds = 1e9;
constexpr std::size_t kMaxTasks = 100000;
constexpr double kMaxNumber = 1e15;

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

UserSpec read_user_fields(const Field& f, UserSpec u) {
  if (f.has("tasks")) u.tasks = static_cast<std::size_t>(f.at("tasks").as_int(1, kMaxTasks));
  if (f.has("min_length")) u.min_length = f.at("min_length").as_positive();
  if (f.has("max_length")) u.max_length = f.at("max_length").as_positive();
  if (f.has("lengths")) {
    u.lengths.clear();
    for (const Field& l : f.at("lengths").items()) {
      const double length = l.as_number(-kMaxNumber, kMaxNumber);
      if (!(length > 0)) l.fail("a task length > 0 (MI)");
      u.lengths.push_back(length);
    }
    if (u.lengths.empty()) f.at("lengths").fail("at least one task length");
    u.tasks = u.lengths.size();
  }
  if (u.min_length > u.max_length) f.at(f.has("max_length") ? "max_length" : "min_length").fail("min_length <= max_length");
  if (f.has("fund")) u.fund = f.at("fund").as_number(0, kMaxNumber);
  if (f.has("deadline")) {
    const Field d = f.at("deadline");
    if (!d.raw().is_number() || !(d.raw().get<double>() > 0)) d.fail("a deadline after the user's start (seconds > 0)");
    u.deadline = d.as_number(0, kMaxSeconds);
  }
  if (f.has("period")) u.period = f.at("period").as_number(1, kMaxSeconds);
  if (f.has("income")) u.income = f.at("income").as_number(0, kMaxNumber);
  if (f.has("income_every")) u.income_every = f.at("income_every").as_number(0, kMaxSeconds);
  return u;
}

}  // namespace

std::vector<std::size_t> reachable(const Scenario& scenario, const std::string& domain) {
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < scenario.resources.size(); ++r)
    if (is_local(scenario.resources[r], domain)) out.push_back(r);
  for (std::size_t r = 0; r < scenario.resources.size(); ++r)
    if (!is_local(scenario.resources[r], domain)) out.push_back(r);
  return out;
}

Scenario read_scenario(const nlohmann::json& document, const std::string& file, const ScenarioNames& names) {
  const Field root(document, file);
  if (root.at("kind").as_string() != kScenarioKind) root.at("kind").fail(std::string("\"") + kScenarioKind + "\"");
  root.only_keys({"kind", "name", "comment", "capacity", "recompute", "task_speed", "interval", "horizon", "check_every", "domains", "resources",
                  "defaults", "users"});
  Scenario s;
  s.file = file;
  s.name = root.has("name") ? root.at("name").as_string() : "auction";
  if (root.has("comment")) s.comment = root.at("comment").as_string();
  // The auctioneer's readings, by the names of its catalogue (model/auction.hpp).
  const auto read_rule = [&](const char* key, auto& out) {
    if (!root.has(key)) return;
    const int index = rule_index(key, root.at(key).as_string());
    if (index < 0) root.at(key).fail(rule_values(key));
    out = static_cast<std::remove_reference_t<decltype(out)>>(index);
  };
  read_rule("capacity", s.capacity);
  read_rule("recompute", s.recompute);
  read_rule("task_speed", s.task_speed);
  if (root.has("interval")) s.interval = root.at("interval").as_number(1, kMaxSeconds);
  s.horizon = root.has("horizon") ? root.at("horizon").as_number(1, kMaxSeconds) : 7 * 24 * 3600.0;
  if (root.has("check_every")) s.check_every = static_cast<std::size_t>(root.at("check_every").as_int(0, 1000000));

  for (const Field& d : root.at("domains").items()) {
    const std::string name = d.as_string();
    if (contains(s.domains, name)) d.fail("a domain not listed before");
    s.domains.push_back(name);
  }
  if (s.domains.empty()) root.at("domains").fail("at least one VO domain");

  for (const Field& r : root.at("resources").items()) {
    r.only_keys({"name", "pes", "mips", "min_bid", "max_bid", "domains"});
    Resource res;
    res.name = r.at("name").as_string();
    for (const Resource& other : s.resources)
      if (other.name == res.name) r.at("name").fail("a resource name not used before");
    res.pes = static_cast<int>(r.at("pes").as_int(1, 1 << 20));
    const Field mips = r.at("mips");
    if (!mips.raw().is_number() || !(mips.raw().get<double>() > 0)) mips.fail("a capacity > 0 (MIPS)");
    res.mips = mips.as_number(0, kMaxNumber);
    res.min_bid = r.at("min_bid").as_positive();
    res.max_bid = r.at("max_bid").as_positive();
    if (res.min_bid > res.max_bid) r.at("max_bid").fail("max_bid >= min_bid (" + std::to_string(res.min_bid) + ")");
    for (const Field& d : r.at("domains").items()) {
      const std::string name = d.as_string();
      if (!contains(s.domains, name)) d.fail("a domain of `domains` (" + joined(s.domains) + ")");
      res.domains.push_back(name);
    }
    if (res.domains.empty()) r.at("domains").fail("at least one VO domain");
    s.resources.push_back(std::move(res));
  }
  if (s.resources.empty()) root.at("resources").fail("at least one resource");

  UserSpec defaults;
  defaults.tasks = kPaperTasks;
  defaults.min_length = kPaperMinLength;
  defaults.max_length = kPaperMaxLength;
  defaults.fund = kPaperFund;
  defaults.deadline = kPaperDeadline;
  defaults.period = kPaperPeriod;
  if (root.has("defaults")) {
    const Field d = root.at("defaults");
    d.only_keys({"tasks", "min_length", "max_length", "lengths", "fund", "deadline", "period", "income", "income_every"});
    defaults = read_user_fields(d, defaults);
  }

  for (const Field& u : root.at("users").items()) {
    u.only_keys({"name", "domain", "policy", "start", "bid", "tasks", "min_length", "max_length", "lengths", "fund",
                 "deadline", "period", "income", "income_every"});
    UserSpec user = read_user_fields(u, defaults);
    user.name = u.at("name").as_string();
    for (const UserSpec& other : s.users)
      if (other.name == user.name) u.at("name").fail("a user name not used before");
    user.domain = u.at("domain").as_string();
    if (!contains(s.domains, user.domain)) u.at("domain").fail("a domain of `domains` (" + joined(s.domains) + ")");
    user.policy = u.at("policy").as_string();
    if (!contains(names.policies, user.policy)) u.at("policy").fail("a broker (" + joined(names.policies) + ")");
    user.start = u.has("start") ? u.at("start").as_number(0, kMaxSeconds) : 0;
    if (u.has("bid")) {
      user.bid = u.at("bid").as_positive();
      for (const Resource& r : s.resources)
        if (*user.bid < r.min_bid || *user.bid > r.max_bid)
          u.at("bid").fail("a bid within every resource's bounds (" + r.name + ": [" + std::to_string(r.min_bid) +
                           ", " + std::to_string(r.max_bid) + "] cents per minute)");
    } else if (contains(names.needs_bid, user.policy)) {
      u.fail("a `bid` (the " + user.policy + " broker bids it throughout)");
    }
    s.users.push_back(std::move(user));
  }
  if (s.users.empty()) root.at("users").fail("at least one user");
  return s;
}

Scenario read_scenario_file(const std::string& file, const ScenarioNames& names) {
  return read_scenario(read_json_file(file), file, names);
}

nlohmann::json write_scenario(const Scenario& s) {
  nlohmann::json out = {{"kind", kScenarioKind},
                        {"name", s.name},
                        {"capacity", rule_value("capacity", static_cast<int>(s.capacity))},
                        {"recompute", rule_value("recompute", static_cast<int>(s.recompute))},
                        {"task_speed", rule_value("task_speed", static_cast<int>(s.task_speed))},
                        {"interval", s.interval},
                        {"horizon", s.horizon},
                        {"check_every", s.check_every},
                        {"domains", s.domains}};
  if (!s.comment.empty()) out["comment"] = s.comment;
  for (const Resource& r : s.resources)
    out["resources"].push_back({{"name", r.name}, {"pes", r.pes}, {"mips", r.mips}, {"min_bid", r.min_bid},
                                {"max_bid", r.max_bid}, {"domains", r.domains}});
  for (const UserSpec& u : s.users) {
    nlohmann::json j = {{"name", u.name},         {"domain", u.domain},     {"policy", u.policy},
                        {"start", u.start},       {"fund", u.fund},         {"deadline", u.deadline},
                        {"period", u.period},     {"income", u.income},     {"income_every", u.income_every}};
    if (u.bid) j["bid"] = *u.bid;
    if (u.lengths.empty()) {
      j["tasks"] = u.tasks;
      j["min_length"] = u.min_length;
      j["max_length"] = u.max_length;
    } else {
      j["lengths"] = u.lengths;
    }
    out["users"].push_back(std::move(j));
  }
  return out;
}

}  // namespace schedcheck::auction
