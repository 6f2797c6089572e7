// Paper 003's brokers (sec. 4.1, 4.2, 5) beside its text, as pure functions of the broker's snapshot. Readings (docs/
// policies.md): Global Domain's "smaller quantity" for less powerful resources is a quota of m / n x C_r / C_fastest
// of the shortest tasks that meet D at one PE's speed; the Local Domain's "sufficient time" is finish_time < time;
// "progress more than half of D" is the time since the start; a resource first used late bids by Eq. 4 on the time left.
#include "reference/auction_brokers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace schedcheck::auction {
namespace {

constexpr double kInfiniteFinish = std::numeric_limits<double>::infinity();

// Sec. 4.1.4 / Eq. 5: finish_time = L / S_r (never, with no share).
double finish_time_of(double work, double share) { return share > 0 ? work / share : kInfiniteFinish; }

// Opens an account where needed (Eq. 4) and sends the periodic bid elsewhere.
void bid_on(BrokerDecision& d, std::size_t r, double bid) { d.bids.push_back(BidOrder{.resource = r, .bid = bid}); }

// Deals `tasks` one by one over `targets` in turn (sec. 4.1.3 "uniform distribution").
void deal(BrokerDecision& d, const std::vector<PendingTask>& tasks, const std::vector<std::size_t>& targets) {
  if (targets.empty()) return;
  for (std::size_t i = 0; i < tasks.size(); ++i)
    d.submissions.push_back(Submission{.task = tasks[i].id, .resource = targets[i % targets.size()]});
}

// Every resource that received a task in `d` and has no account bids Eq. 4's initial bid on `time`.
void open_accounts(BrokerDecision& d, const BrokerSnapshot& s, double time) {
  const double est = estimated_time(s);
  std::vector<char> opened(s.resources.size(), 0);
  for (const BidOrder& b : d.bids) opened[b.resource] = 1;
  for (const Submission& t : d.submissions)
    if (!s.resources[t.resource].account && !opened[t.resource]) {
      opened[t.resource] = 1;
      bid_on(d, t.resource, initial_bid(s.resources[t.resource], est, time));
    }
}

// Sec. 4.1.4 for every resource where the user has tasks: Eq. 5 on L_total (+ `extra` work sent now), Eq. 6.
void rebid_all(BrokerDecision& d, const BrokerSnapshot& s, const std::vector<double>& extra) {
  const double time = time_left(s);
  for (std::size_t r = 0; r < s.resources.size(); ++r) {
    const ResourceView& v = s.resources[r];
    if (!v.account || v.tasks == 0) continue;
    bid_on(d, r, rebid(v, finish_time_of(v.remaining + extra[r], v.share), time));
  }
}

}  // namespace

double estimated_time(const BrokerSnapshot& s) {
  if (s.resources.empty() || s.pending.empty()) return 0;
  const ResourceView* slowest = &s.resources.front();
  for (const ResourceView& r : s.resources)
    if (r.mips < slowest->mips) slowest = &r;
  double sum = 0;
  for (const PendingTask& t : s.pending) sum += t.length;
  const double avg_length = sum / static_cast<double>(s.pending.size());
  return avg_length * slowest->pes / slowest->mips;  // Eq. 4's est_time, as printed
}

double initial_bid(const ResourceView& r, double est_time, double time) {
  return est_time > time ? r.max_bid : (r.min_bid + r.max_bid) / 2;  // Eq. 4: maxBid_r, else avgBid_r
}

double time_left(const BrokerSnapshot& s) { return (s.deadline + s.start) - s.now; }

double rebid(const ResourceView& r, double finish_time, double time) {
  double next = r.bid;
  if (time <= 0) {
    next = r.max_bid;                                    // Eq. 6: D has passed
  } else if (finish_time <= time / 2 || finish_time >= time) {
    next = std::isinf(finish_time) ? r.max_bid : finish_time / time * r.bid;  // cases 2 and 3
  }                                                       // case 1: time / 2 < finish_time < time, B_r kept
  return std::clamp(next, r.min_bid, r.max_bid);
}

BrokerDecision global_domain(const BrokerSnapshot& s) {
  BrokerDecision d;
  if (!s.initial) {
    rebid_all(d, s, std::vector<double>(s.resources.size(), 0.0));
    return d;
  }
  // Sec. 4.1.3: shorter tasks to less powerful resources, a smaller quantity, as long as they meet D at one PE;
  // the rest uniformly over the most powerful ones.
  std::vector<PendingTask> tasks = s.pending;
  std::stable_sort(tasks.begin(), tasks.end(), [](const PendingTask& a, const PendingTask& b) { return a.length < b.length; });
  double fastest = 0;
  for (const ResourceView& r : s.resources) fastest = std::max(fastest, r.mips);
  std::vector<std::size_t> slower, fast;
  for (std::size_t r = 0; r < s.resources.size(); ++r) (s.resources[r].mips < fastest ? slower : fast).push_back(r);
  std::stable_sort(slower.begin(), slower.end(),
                   [&](std::size_t a, std::size_t b) { return s.resources[a].mips < s.resources[b].mips; });
  const double uniform = static_cast<double>(tasks.size()) / static_cast<double>(s.resources.size());
  std::size_t next = 0;
  for (std::size_t r : slower) {
    const auto quota = static_cast<std::size_t>(std::floor(uniform * s.resources[r].mips / fastest));
    double work = 0;
    for (std::size_t k = 0; k < quota && next < tasks.size(); ++k) {
      if ((work + tasks[next].length) / s.resources[r].mips > s.deadline) break;  // would miss D at one PE
      work += tasks[next].length;
      d.submissions.push_back(Submission{.task = tasks[next++].id, .resource = r});
    }
  }
  std::vector<PendingTask> rest(tasks.begin() + static_cast<std::ptrdiff_t>(next), tasks.end());
  std::stable_sort(rest.begin(), rest.end(), [](const PendingTask& a, const PendingTask& b) { return a.id < b.id; });
  deal(d, rest, fast);
  open_accounts(d, s, s.deadline);
  return d;
}

namespace {

// Sec. 4.2 with List tasks joining a resource while (L_total + L_task) / S_r < `room` x time.
BrokerDecision local_domain_within(const BrokerSnapshot& s, double room) {
  BrokerDecision d;
  if (s.initial) {
    // Sec. 4.2: kappa = m div n tasks to each local resource, uniformly; the rest stay in the List.
    std::vector<std::size_t> local;
    for (std::size_t r = 0; r < s.resources.size(); ++r)
      if (s.resources[r].local) local.push_back(r);
    const std::size_t kappa = s.pending.size() / s.resources.size();
    const std::size_t sent = std::min(s.pending.size(), kappa * local.size());
    deal(d, std::vector<PendingTask>(s.pending.begin(), s.pending.begin() + static_cast<std::ptrdiff_t>(sent)), local);
    open_accounts(d, s, s.deadline);
    return d;
  }
  // Every P: on each resource with the user's tasks (global ones without any are ignored), List tasks join while
  // finish_time = (L_total + L_task) / S_r stays below time; then Eq. 6 on that finish_time.
  const double time = time_left(s);
  std::vector<double> extra(s.resources.size(), 0.0);
  std::vector<char> taken(s.pending.size(), 0);
  for (std::size_t r = 0; r < s.resources.size(); ++r) {
    const ResourceView& v = s.resources[r];
    if (!v.account || v.tasks == 0 || v.share <= 0) continue;
    for (std::size_t k = 0; k < s.pending.size(); ++k) {
      if (taken[k] || (v.remaining + extra[r] + s.pending[k].length) / v.share >= room * time) continue;
      taken[k] = 1;
      extra[r] += s.pending[k].length;
      d.submissions.push_back(Submission{.task = s.pending[k].id, .resource = r});
    }
  }
  rebid_all(d, s, extra);
  // Past D / 2 with tasks still listed: all of them to the best available resources, local or global, those with
  // none or fewer of the user's tasks first, one at a time.
  if (s.now - s.start > s.deadline / 2) {
    std::vector<std::size_t> load(s.resources.size());
    for (std::size_t r = 0; r < s.resources.size(); ++r) load[r] = s.resources[r].account ? s.resources[r].tasks : 0;
    for (const Submission& t : d.submissions) ++load[t.resource];
    for (std::size_t k = 0; k < s.pending.size(); ++k) {
      if (taken[k]) continue;
      const auto best = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      ++load[best];
      d.submissions.push_back(Submission{.task = s.pending[k].id, .resource = best});
    }
    open_accounts(d, s, time);
  }
  return d;
}

}  // namespace

BrokerDecision local_domain(const BrokerSnapshot& s) { return local_domain_within(s, 1.0); }
BrokerDecision local_domain_half(const BrokerSnapshot& s) { return local_domain_within(s, 0.5); }

BrokerDecision no_opt(const BrokerSnapshot& s) {
  BrokerDecision d;
  if (!s.initial) return d;  // the same bid throughout
  if (!s.fixed_bid) throw std::invalid_argument("no-opt: the user has no fixed bid");
  std::vector<std::size_t> all(s.resources.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  deal(d, s.pending, all);
  for (std::size_t r : all) bid_on(d, r, *s.fixed_bid);
  return d;
}

std::vector<BrokerPolicy> broker_policies() {
  return {
      {"global-domain", "paper 003 sec. 4.1, Eq. 4-6",
       "every resource of every domain: Eq. 4 initial bid, shorter tasks to slower resources, re-bids every P by "
       "finish_time / time (Eq. 5-6)",
       false, global_domain},
      {"local-domain", "paper 003 sec. 4.2",
       "kappa = m div n tasks to each local resource, the rest listed and sent where they still finish in time; "
       "past D/2 the list goes to the least used resources of any domain; Eq. 6 re-bids",
       false, local_domain},
      {"local-domain-half", "paper 003 sec. 4.2, the other reading of \"sufficient time\"",
       "local-domain, with List tasks joining a resource only while its finish_time stays within time / 2",
       false, local_domain_half},
      {"no-opt", "paper 003 sec. 5",
       "uniform submission to every resource, the user's fixed bid (Table 2) throughout", true, no_opt},
  };
}

BrokerPolicy broker_policy(const std::string& name) {
  std::string known;
  for (BrokerPolicy& p : broker_policies()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw std::invalid_argument("unknown broker '" + name + "' (known: " + known + ")");
}

std::vector<std::string> broker_policy_names() {
  std::vector<std::string> names;
  for (const BrokerPolicy& p : broker_policies()) names.push_back(p.name);
  return names;
}

std::vector<std::string> brokers_needing_bid() {
  std::vector<std::string> names;
  for (const BrokerPolicy& p : broker_policies())
    if (p.needs_bid) names.push_back(p.name);
  return names;
}

}  // namespace schedcheck::auction
