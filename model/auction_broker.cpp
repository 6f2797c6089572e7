// A broker's snapshot and decision in paper 003's auction system (sec. 4): JSON for outside brokers, and the check
// of a decision's form against its snapshot. Our own format.
#include "model/auction_broker.hpp"

#include "model/input.hpp"

#include <set>

namespace schedcheck::auction {

nlohmann::json write_snapshot(const BrokerSnapshot& s) {
  nlohmann::json out = {{"now", s.now},         {"start", s.start},   {"deadline", s.deadline},
                        {"period", s.period},   {"initial", s.initial}, {"balance", s.balance},
                        {"resources", nlohmann::json::array()},       {"pending", nlohmann::json::array()}};
  if (s.fixed_bid) out["fixed_bid"] = *s.fixed_bid;
  for (const ResourceView& r : s.resources) {
    nlohmann::json j = {{"name", r.name},       {"local", r.local},     {"pes", r.pes},
                        {"mips", r.mips},       {"min_bid", r.min_bid}, {"max_bid", r.max_bid},
                        {"account", r.account}};
    if (r.account) {
      j["share"] = r.share;
      j["bid"] = r.bid;
      j["remaining"] = r.remaining;
      j["tasks"] = r.tasks;
    }
    out["resources"].push_back(std::move(j));
  }
  for (const PendingTask& t : s.pending) out["pending"].push_back({{"id", t.id}, {"length", t.length}});
  return out;
}

nlohmann::json write_decision(const BrokerSnapshot& s, const BrokerDecision& d) {
  nlohmann::json out = {{"bids", nlohmann::json::array()}, {"submit", nlohmann::json::array()}};
  for (const BidOrder& b : d.bids) out["bids"].push_back({{"resource", s.resources.at(b.resource).name}, {"bid", b.bid}});
  for (const Submission& t : d.submissions)
    out["submit"].push_back({{"task", t.task}, {"resource", s.resources.at(t.resource).name}});
  return out;
}

BrokerDecision read_decision(const BrokerSnapshot& s, const nlohmann::json& document, const std::string& where) {
  const Field root(document, where);
  root.only_keys({"bids", "submit"});
  const IdIndex resources(s.resources, [](const ResourceView& r) { return r.name; }, "resource");
  BrokerDecision d;
  if (root.has("bids"))
    for (const Field& b : root.at("bids").items()) {
      b.only_keys({"resource", "bid"});
      d.bids.push_back(BidOrder{.resource = resources.of(b.at("resource")), .bid = b.at("bid").as_positive()});
    }
  std::set<std::size_t> pending;
  for (const PendingTask& t : s.pending) pending.insert(t.id);
  if (root.has("submit"))
    for (const Field& t : root.at("submit").items()) {
      t.only_keys({"task", "resource"});
      const auto id = static_cast<std::size_t>(t.at("task").as_int(0, 1LL << 40));
      if (pending.count(id) == 0) t.at("task").fail("the id of a pending task");
      d.submissions.push_back(Submission{.task = id, .resource = resources.of(t.at("resource"))});
    }
  return d;
}

std::string decision_problem(const BrokerSnapshot& s, const BrokerDecision& d) {
  std::set<std::size_t> bid_on;
  for (const BidOrder& b : d.bids) {
    if (b.resource >= s.resources.size()) return "a bid on resource index " + std::to_string(b.resource) + " of " +
                                                 std::to_string(s.resources.size());
    if (!(b.bid > 0)) return "a bid of " + std::to_string(b.bid) + " on " + s.resources[b.resource].name + " (> 0 expected)";
    bid_on.insert(b.resource);
  }
  std::set<std::size_t> pending, seen;
  for (const PendingTask& t : s.pending) pending.insert(t.id);
  for (const Submission& t : d.submissions) {
    if (t.resource >= s.resources.size()) return "task " + std::to_string(t.task) + " sent to resource index " +
                                                 std::to_string(t.resource) + " of " + std::to_string(s.resources.size());
    if (pending.count(t.task) == 0) return "task " + std::to_string(t.task) + " is not pending";
    if (!seen.insert(t.task).second) return "task " + std::to_string(t.task) + " submitted twice";
    if (!s.resources[t.resource].account && bid_on.count(t.resource) == 0)
      return "task " + std::to_string(t.task) + " sent to " + s.resources[t.resource].name +
             ", where the user has no account and the decision bids nothing";
  }
  return "";
}

}  // namespace schedcheck::auction
