// The run properties of paper 003's auction system (properties/auction_properties.hpp): Eq. 1-3, sec. 3.2's rules
// recomputed from the run's events. Our own wording; tolerances are relative 1e-9 of the quantity compared.
#include "properties/auction_properties.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::auction {
namespace {

enum PropertyIndex : std::size_t {
  kSharesSum = 0,
  kBidBounds,
  kChargedForUse,
  kNoTaskLost,
  kBalance,
  kOneTask,
};

constexpr double kRelativeTolerance = 1e-9;
constexpr double kCentsTolerance = 1e-6;

bool near(double a, double b, double absolute) {
  return std::fabs(a - b) <= absolute + kRelativeTolerance * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

const std::vector<RunPropertyInfo>& run_properties() {
  static const std::vector<RunPropertyInfo> all = {
      {"shares-sum-to-capacity", "paper 003 sec. 3.2, Eq. 1",
       "at every bidding interval the shares of the users with a running task sum to the resource's capacity, or to "
       "the most one task may run at (one PE, or the whole resource when tasks run at their share) times the running "
       "users when that is less, and none exceeds that most"},
      {"bid-within-bounds", "paper 003 Eq. 2", "every bid a broker sends lies in the resource's [minB_r, maxB_r]"},
      {"charged-only-for-use", "paper 003 Eq. 3 and sec. 5.1",
       "each account's charge equals the bid in force times the time a task of the user ran there (a bid sent during "
       "an interval from the next one), plus 20% for a user of another domain, recomputed from the run's events"},
      {"no-task-lost", "paper 003 sec. 3.2",
       "every task is submitted once, starts once, completes once, and, when the run was not cut, every task completes"},
      {"balance-accounted", "paper 003 sec. 3.3",
       "each user's balance is its fund plus income minus the auctioneers' charges (a negative balance is counted as "
       "overdrawn in the metrics, never hidden)"},
      {"one-task-per-user-per-resource", "paper 003 sec. 3.2",
       "a user never has two tasks running on one resource at once, and a task ends only where it started"},
  };
  return all;
}

RunChecker::RunChecker(const Scenario& scenario, const std::vector<std::size_t>& tasks_per_user)
    : scenario_(scenario), tasks_per_user_(tasks_per_user), charged_(scenario.users.size(), 0.0) {
  for (const RunPropertyInfo& p : run_properties()) results_.push_back(RunPropertyResult{.name = p.name, .violations = 0, .first = ""});
}

void RunChecker::fail(std::size_t property, const std::string& what) {
  RunPropertyResult& r = results_[property];
  if (r.violations++ == 0) r.first = what;
}

void RunChecker::accrue(Ledger& l, double now) {
  if (l.running > 0 && now > l.since)
    l.charge += l.bid * (now - l.since) / kSecondsPerMinute * (l.foreign ? 1.0 + kSurcharge : 1.0);
  l.since = now;
}

void RunChecker::on_bid(double now, std::size_t resource, std::size_t user, double sent) {
  ++checks_;
  const Resource& r = scenario_.resources[resource];
  if (sent < r.min_bid || sent > r.max_bid)
    fail(kBidBounds, fmt::format("t={:g}: {} bid {:g} on {}, outside [{:g}, {:g}]", now, scenario_.users[user].name,
                                 sent, r.name, r.min_bid, r.max_bid));
  Ledger& l = ledger(resource, user);
  const double clamped = clamp_bid(r, sent);
  if (!l.open) {
    l.open = true;
    l.bid = clamped;  // an account's first bid holds from its opening
    l.since = now;
    l.foreign = !is_local(r, scenario_.users[user].domain);
  } else {
    l.next_bid = clamped;
  }
}

void RunChecker::on_interval(double now, std::size_t resource, const TimeShared& state) {
  ++checks_;
  const Resource& r = scenario_.resources[resource];
  for (auto& [key, l] : ledgers_)
    if (key.first == resource) {
      accrue(l, now);
      if (l.next_bid > 0) l.bid = l.next_bid;
      l.next_bid = -1;
    }
  const double capacity = total_mips(r, scenario_.capacity), cap = task_mips_cap(r, scenario_.capacity, scenario_.task_speed);
  std::size_t running = 0;
  double sum = 0;
  for (const Account& a : state.accounts()) {
    if (a.tasks.empty()) continue;
    ++running;
    sum += a.share;
    if (a.share > cap * (1 + kRelativeTolerance))
      fail(kSharesSum, fmt::format("t={:g}: {} gets {:g} MIPS on {}, above the {:g} one task may run at", now,
                                   scenario_.users[a.user].name, a.share, r.name, cap));
  }
  const double expected = std::min(capacity, static_cast<double>(running) * cap);
  if (running > 0 && !near(sum, expected, 1e-9))
    fail(kSharesSum, fmt::format("t={:g}: the {} running users' shares on {} sum to {:g} MIPS, {:g} expected", now,
                                 running, r.name, sum, expected));
}

void RunChecker::on_submit(double now, std::size_t resource, std::size_t user, std::size_t task) {
  ++checks_;
  if (!submitted_.insert({user, task}).second)
    fail(kNoTaskLost, fmt::format("t={:g}: {} task {} submitted a second time (to {})", now,
                                  scenario_.users[user].name, task, scenario_.resources[resource].name));
}

void RunChecker::on_task_start(double now, std::size_t resource, std::size_t user, std::size_t task) {
  ++checks_;
  Ledger& l = ledger(resource, user);
  accrue(l, now);
  if (!started_.insert({user, task}).second)
    fail(kNoTaskLost, fmt::format("t={:g}: {} task {} started twice", now, scenario_.users[user].name, task));
  if (++l.running > 1)
    fail(kOneTask, fmt::format("t={:g}: {} runs {} tasks at once on {} (task {} started)", now,
                               scenario_.users[user].name, l.running, scenario_.resources[resource].name, task));
}

void RunChecker::on_task_end(double now, std::size_t resource, std::size_t user, std::size_t task) {
  ++checks_;
  Ledger& l = ledger(resource, user);
  accrue(l, now);
  if (started_.count({user, task}) == 0 || l.running == 0)
    fail(kOneTask, fmt::format("t={:g}: {} task {} ended on {} where it was not running", now,
                               scenario_.users[user].name, task, scenario_.resources[resource].name));
  else
    --l.running;
  if (!ended_.insert({user, task}).second)
    fail(kNoTaskLost, fmt::format("t={:g}: {} task {} completed twice", now, scenario_.users[user].name, task));
}

void RunChecker::on_charge(double now, std::size_t resource, const Account& account) {
  ++checks_;
  Ledger& l = ledger(resource, account.user);
  accrue(l, now);
  charged_[account.user] += account.charged;
  if (!near(account.charged, l.charge, kCentsTolerance))
    fail(kChargedForUse,
         fmt::format("{} on {}: charged {:.6f} cents, the bids in force times the time it ran give {:.6f}",
                     scenario_.users[account.user].name, scenario_.resources[resource].name, account.charged, l.charge));
}

void RunChecker::on_end(const sim::auction_system::Result& result) {
  ++checks_;
  for (std::size_t u = 0; u < result.users.size(); ++u) {
    const auto& out = result.users[u];
    const UserSpec& spec = scenario_.users[u];
    const double expected = spec.fund + out.income - charged_[u] / kCentsPerDollar;
    if (!near(out.balance, expected, kCentsTolerance))
      fail(kBalance, fmt::format("{}: balance G${:.6f}, fund {:g} + income {:g} - charges {:.6f} = {:.6f}", spec.name,
                                 out.balance, spec.fund, out.income, charged_[u] / kCentsPerDollar, expected));
    if (!near(out.charged * kCentsPerDollar, charged_[u], kCentsTolerance))
      fail(kBalance, fmt::format("{}: the broker counts G${:.6f} of charges, the auctioneers charged G${:.6f}",
                                 spec.name, out.charged, charged_[u] / kCentsPerDollar));
    if (result.kernel.stopped || result.broker_failed) continue;
    for (std::size_t t = 0; t < tasks_per_user_[u]; ++t)
      if (ended_.count({u, t}) == 0) {
        fail(kNoTaskLost, fmt::format("{} task {} never completed ({})", spec.name, t,
                                      submitted_.count({u, t}) ? "submitted" : "never submitted"));
        break;
      }
  }
}

std::vector<RunPropertyResult> RunChecker::results() const { return results_; }

}  // namespace schedcheck::auction
