// Auction-based proportional-share resources (paper 003 sec. 3.2, Eq. 1-3): the implementation of model/auction.hpp.
// Our own reading of the split under a one-PE cap (water-filling); the charge accrues per second used, which is
// Eq. 3 summed over intervals.
#include "model/auction.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace schedcheck::auction {

const std::vector<AuctioneerRule>& auctioneer_rules() {
  static const std::vector<AuctioneerRule> all = {
      {"capacity", "per-pe", "paper 003 Table 1 and sec. 5.1 (SPEC CINT2000 ratings)",
       "a resource's C is one PE's rating: PE x C MIPS in all, a task at most C"},
      {"capacity", "total", "paper 003 sec. 3.2 (\"the total processing capability of r\")",
       "a resource's C is the whole resource: a task at most C / PE"},
      {"recompute", "interval", "paper 003 sec. 3.2 (\"at every period P, the Auctioneer re-calculates each user share\")",
       "the split is recomputed at each bidding interval and when a user starts; a finished user's share idles until then"},
      {"recompute", "event", "GridSim's time-shared resources",
       "the split is also recomputed when a user's last task ends"},
      {"task_speed", "one-pe", "paper 003 sec. 3.2 (one task at a time per user) and a task runs on one PE",
       "Eq. 1 under a one-PE cap: a share above one PE goes to the others by their bids (water-filling)"},
      {"task_speed", "share", "paper 003 Eq. 1 as printed",
       "a task runs at its whole proportional share of the resource"},
  };
  return all;
}

int rule_index(const std::string& key, const std::string& value) {
  int index = 0;
  for (const AuctioneerRule& r : auctioneer_rules()) {
    if (r.key != key) continue;
    if (r.value == value) return index;
    ++index;
  }
  return -1;
}

const std::string& rule_value(const std::string& key, int index) {
  for (const AuctioneerRule& r : auctioneer_rules())
    if (r.key == key && index-- == 0) return r.value;
  throw std::logic_error("rule_value: no value " + std::to_string(index) + " of " + key);
}

std::string rule_values(const std::string& key) {
  std::vector<std::string> values;
  for (const AuctioneerRule& r : auctioneer_rules())
    if (r.key == key) values.push_back("\"" + r.value + "\"");
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + values[i];
  return out;
}

double total_mips(const Resource& resource, Capacity capacity) {
  return capacity == Capacity::kPerPe ? resource.mips * resource.pes : resource.mips;
}

double task_mips_cap(const Resource& resource, Capacity capacity) {
  return capacity == Capacity::kPerPe ? resource.mips : resource.mips / resource.pes;
}

double task_mips_cap(const Resource& resource, Capacity capacity, TaskSpeed speed) {
  return speed == TaskSpeed::kOnePe ? task_mips_cap(resource, capacity) : total_mips(resource, capacity);
}

bool is_local(const Resource& resource, const std::string& domain) {
  return std::find(resource.domains.begin(), resource.domains.end(), domain) != resource.domains.end();
}

double clamp_bid(const Resource& resource, double bid) { return std::clamp(bid, resource.min_bid, resource.max_bid); }

std::vector<double> split(const std::vector<double>& bids, double capacity, double cap) {
  std::vector<double> shares(bids.size(), 0.0);
  std::vector<char> capped(bids.size(), 0);
  double left = capacity;
  // Each round caps at least one claim or ends: at most bids.size() + 1 rounds.
  for (;;) {
    double total = 0;
    for (std::size_t i = 0; i < bids.size(); ++i)
      if (!capped[i]) total += bids[i];
    if (total <= 0) break;
    bool any = false;
    for (std::size_t i = 0; i < bids.size(); ++i)
      if (!capped[i] && bids[i] / total * left > cap) {
        capped[i] = 1;
        shares[i] = cap;
        any = true;
      }
    if (!any) {
      for (std::size_t i = 0; i < bids.size(); ++i)
        if (!capped[i]) shares[i] = bids[i] / total * left;
      break;
    }
    left = capacity;
    for (std::size_t i = 0; i < bids.size(); ++i)
      if (capped[i]) left -= cap;
    if (left <= 0) break;
  }
  return shares;
}

double share_against(double bid, double others, double capacity, double cap) {
  if (bid <= 0) return 0;
  return std::min(bid / (bid + others) * capacity, cap);
}

double interval_charge(double bid, double used_seconds, double interval_seconds, bool foreign) {
  const double used = std::min(used_seconds / interval_seconds, 1.0);  // min(q_i / S_i, 1)
  return used * bid * (interval_seconds / kSecondsPerMinute) * (foreign ? 1.0 + kSurcharge : 1.0);
}

TimeShared::TimeShared(Resource resource, Capacity capacity, Recompute recompute, double interval_seconds,
                       TaskSpeed speed)
    : resource_(std::move(resource)), capacity_(capacity), recompute_(recompute), speed_(speed), interval_(interval_seconds) {
  if (!(interval_ > 0)) throw std::logic_error("TimeShared: the bidding interval must be > 0");
}

Account* TimeShared::find(std::size_t user) {
  for (Account& a : accounts_)
    if (a.user == user) return &a;
  return nullptr;
}

const Account* TimeShared::account(std::size_t user) const {
  for (const Account& a : accounts_)
    if (a.user == user) return &a;
  return nullptr;
}

void TimeShared::bid(std::size_t user, bool foreign, double bid) {
  if (!(bid > 0)) throw std::logic_error("TimeShared::bid: a bid must be > 0");
  Account* a = find(user);
  if (a == nullptr) {
    accounts_.push_back(Account{.user = user, .foreign = foreign});
    a = &accounts_.back();
    a->bid = bid;  // a new account bids from its opening: the interval's split is recomputed below when it runs
    return;
  }
  a->next_bid = bid;
}

void TimeShared::submit(std::size_t user, std::size_t task, double length) {
  Account* a = find(user);
  if (a == nullptr) throw std::logic_error("TimeShared::submit: a task before the user's account was opened");
  const bool was_idle = a->tasks.empty();
  a->tasks.push_back(Task{.id = task, .length = length, .remaining = length});
  if (was_idle) {
    a->tasks.front().started = now_;
    resplit();  // a new running user: it gets its share at once, the others' shrink (every reading)
  }
}

void TimeShared::begin_interval() {
  for (Account& a : accounts_) {
    if (a.next_bid > 0) a.bid = a.next_bid;
    a.next_bid = -1;
    a.used_this_interval = 0;
  }
  resplit();
}

void TimeShared::resplit() {
  std::vector<double> bids;
  std::vector<std::size_t> who;
  for (std::size_t i = 0; i < accounts_.size(); ++i) {
    accounts_[i].share = 0;
    if (!accounts_[i].tasks.empty()) {
      bids.push_back(accounts_[i].bid);
      who.push_back(i);
    }
  }
  const std::vector<double> shares = split(bids, total_mips(resource_, capacity_), task_mips_cap(resource_, capacity_, speed_));
  for (std::size_t k = 0; k < who.size(); ++k) accounts_[who[k]].share = shares[k];
}

double TimeShared::next_completion() const {
  double next = kNever;
  for (const Account& a : accounts_)
    if (!a.tasks.empty() && a.share > 0) next = std::min(next, now_ + a.tasks.front().remaining / a.share);
  return next;
}

std::vector<Completion> TimeShared::advance_to(double time) {
  if (time < now_) throw std::logic_error("TimeShared::advance_to: time runs backwards");
  const double dt = time - now_;
  std::vector<Completion> done;
  bool users_changed = false;
  for (Account& a : accounts_) {
    if (a.tasks.empty()) continue;
    a.used_this_interval += dt;
    a.charged += interval_charge(a.bid, dt, interval_, a.foreign);  // a step never crosses an interval's end
    Task& t = a.tasks.front();
    t.remaining -= a.share * dt;
    if (t.remaining <= kWorkEpsilon * std::max(1.0, t.length * 1e-9)) {
      done.push_back(Completion{.user = a.user, .task = t.id, .time = time});
      a.tasks.pop_front();
      if (a.tasks.empty()) {
        users_changed = true;
      } else {
        a.tasks.front().started = time;
      }
    }
  }
  now_ = time;
  // A user whose next task starts keeps its share; a user who has none left frees its share.
  if (users_changed && recompute_ == Recompute::kEvent) resplit();
  if (users_changed && recompute_ == Recompute::kInterval)
    for (Account& a : accounts_)
      if (a.tasks.empty()) a.share = 0;
  return done;
}

double TimeShared::remaining(std::size_t user) const {
  const Account* a = account(user);
  if (a == nullptr) return 0;
  double sum = 0;
  for (const Task& t : a->tasks) sum += t.remaining;
  return sum;
}

std::size_t TimeShared::tasks_left(std::size_t user) const {
  const Account* a = account(user);
  return a == nullptr ? 0 : a->tasks.size();
}

double TimeShared::others_bid(std::size_t user) const {
  double sum = 0;
  for (const Account& a : accounts_)
    if (a.user != user && !a.tasks.empty()) sum += a.bid;
  return sum;
}

double TimeShared::shares_sum() const {
  double sum = 0;
  for (const Account& a : accounts_) sum += a.share;
  return sum;
}

}  // namespace schedcheck::auction
