// DBC broker policies (see dbc_policies.hpp): paper 001 Schedule Advisor, DBC cost-time (both loop orders, local
// jobs first), baseline, dispatcher. Each reads beside the paper's text; the request lanes are the model's Clock.
#include "reference/dbc_policies.hpp"

#include "model/profile.hpp"

#include <algorithm>
#include <deque>
#include <queue>

namespace schedcheck::dbc {

namespace {

void place(Schedule& s, Clock& clock, std::size_t job, std::size_t r, const Clock::Slot& at) {
  s.resource[job] = static_cast<int>(r);
  s.pe[job] = at.pe;
  s.start[job] = at.start;
  clock.place(r, at.pe, at.start, at.finish);
}

// The resource of `group` (file order) where job j completes first (ties: earlier start, then file order), among
// those it may run on; r = -1 when none.
struct Choice {
  int r = -1;
  Clock::Slot slot;
};
Choice earliest_in(const Instance& instance, const Clock& clock, const std::vector<std::size_t>& group, std::size_t j) {
  Choice best;
  for (std::size_t r : group) {
    if (!eligible(instance, instance.resources[r], instance.jobs[j])) continue;
    const Clock::Slot slot = clock.earliest(r, duration(instance.resources[r], instance.jobs[j]));
    if (slot.pe < 0) continue;
    if (best.r < 0 || slot.finish < best.slot.finish ||
        (slot.finish == best.slot.finish && slot.start < best.slot.start))
      best = Choice{static_cast<int>(r), slot};
  }
  return best;
}

// "The resources with same cost are considered as groups and these groups are sorted according to increasing
// order of cost" (cost per MI; file order inside a group).
std::vector<std::vector<std::size_t>> cost_groups(const Instance& instance) {
  std::vector<std::size_t> by_cost(instance.resources.size());
  for (std::size_t r = 0; r < by_cost.size(); ++r) by_cost[r] = r;
  const auto rate = [&](std::size_t r) { return cost_per_mi(instance, instance.resources[r]); };
  std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) { return rate(a) < rate(b); });
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t r : by_cost)
    if (groups.empty() || rate(groups.back().front()) != rate(r)) groups.push_back({r});
    else groups.back().push_back(r);
  return groups;
}

}  // namespace

Schedule advise(const Instance& instance, const std::vector<std::size_t>& list, double limit) {
  // The advisor's state: the schedule, the lanes' clock, and per PE the jobs on it in placement order.
  struct State {
    Schedule s;
    Clock clock;
    std::vector<std::vector<std::vector<std::size_t>>> chain;  // [resource][PE]
  };
  State st{empty_schedule(instance), Clock(instance), {}};
  st.chain.resize(instance.resources.size());
  st.s.list = list;
  std::vector<std::size_t> all(instance.resources.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    all[r] = r;
    st.chain[r].resize(static_cast<std::size_t>(usable_pes(instance, instance.resources[r])));
  }
  // "the job completion time ... taking into account previously assigned jobs": earliest over every resource
  const auto try_place = [&](State& x, std::size_t j) {
    const Choice c = earliest_in(instance, x.clock, all, j);
    if (c.r < 0 || !fits(c.slot.finish, limit)) return false;
    x.chain[static_cast<std::size_t>(c.r)][static_cast<std::size_t>(c.slot.pe)].push_back(j);
    place(x.s, x.clock, j, static_cast<std::size_t>(c.r), c.slot);
    return true;
  };
  // j takes q's place (same PE and start); on a one-PE lane the PE is re-packed, so every job on it finishes no later
  // than before and the PE frees up earlier; a wider lane keeps j in q's place (its request windows stay as they are).
  const auto swap_in = [&](State& x, std::size_t q, std::size_t j) {
    Schedule& s = x.s;
    const auto r = static_cast<std::size_t>(s.resource[q]);
    const int k = s.pe[q];
    auto& jobs_on_pe = x.chain[r][static_cast<std::size_t>(k)];
    *std::find(jobs_on_pe.begin(), jobs_on_pe.end(), q) = j;
    s.resource[j] = static_cast<int>(r);
    s.pe[j] = k;
    s.start[j] = s.start[q];
    s.resource[q] = kUnassigned;
    s.pe[q] = 0;
    s.start[q] = 0;
    if (x.clock.width(r) == 1) {
      double t = 0;
      for (std::size_t y : jobs_on_pe) {
        s.start[y] = t;
        t += duration(instance.resources[r], instance.jobs[y]);
      }
      x.clock.reset(r, k, t);
    }
  };
  std::priority_queue<std::pair<double, std::size_t>> longest;  // chosen jobs by length (stale entries skipped)
  std::vector<std::size_t> rejected;  // jobs of the list passed over so far (never chosen), in list order
  for (std::size_t j : list) {
    if (try_place(st, j)) {
      longest.emplace(instance.jobs[j].length, j);
      continue;
    }
    // "If a new possible request could improve this number (i.e., throughput), a previous chosen job is discarded
    // and a new one is inserted": the candidate is the longest chosen job, when it is longer than j (j is shorter, so
    // it may run wherever that one ran).
    while (!longest.empty() && st.s.resource[longest.top().second] == kUnassigned) longest.pop();
    if (longest.empty() || longest.top().first <= instance.jobs[j].length) {
      rejected.push_back(j);
      continue;
    }
    const std::size_t q = longest.top().second;
    if (instance.readings.advisor == AdvisorReading::kLessWork) {
      // less-work: always swap (the same number of jobs, less work, so later jobs fit more easily)
      longest.pop();
      swap_in(st, q, j);
      longest.emplace(instance.jobs[j].length, j);
      continue;
    }
    // throughput (the default): swap only when it raises the number of chosen jobs now, i.e. when a job rejected
    // earlier (list order; q excluded: it is the one discarded) then fits too.
    State trial = st;
    swap_in(trial, q, j);
    std::vector<std::size_t> added, still;
    for (std::size_t y : rejected)
      (try_place(trial, y) ? added : still).push_back(y);
    if (added.empty()) {
      rejected.push_back(j);
      continue;
    }
    st = std::move(trial);
    longest.pop();
    longest.emplace(instance.jobs[j].length, j);
    for (std::size_t y : added) longest.emplace(instance.jobs[y].length, y);
    rejected = std::move(still);  // q is discarded for good
  }
  return st.s;
}

Schedule explicit_allocation(const Instance& instance) {
  return advise(instance, job_list_order(instance), horizon(instance));
}
Schedule no_optimization(const Instance& instance) {
  return advise(instance, job_list_order(instance), request_horizon(instance));
}

Schedule dbc_assign(const Instance& instance, const std::vector<std::size_t>& list, LoopOrder order) {
  Schedule s = empty_schedule(instance);
  s.list = list;
  Clock clock(instance);
  const auto groups = cost_groups(instance);
  const double limit = horizon(instance);
  double spent = 0;
  enum class Outcome { kPlaced, kLate, kOverBudget };
  // "the job completion time in the resource group is compared with the deadline ... If the job completion time is
  // less than the deadline [deadline_test] ... the budget to be spent ... is compared to the specified budget"
  const auto try_group = [&](const std::vector<std::size_t>& group, std::size_t j) {
    const Choice c = earliest_in(instance, clock, group, j);
    if (c.r < 0 || !fits(c.slot.finish, limit)) return Outcome::kLate;
    const double cost = job_cost(instance, instance.resources[static_cast<std::size_t>(c.r)], instance.jobs[j]);
    if (!affordable(spent + cost, instance.budget)) return Outcome::kOverBudget;
    spent += cost;
    place(s, clock, j, static_cast<std::size_t>(c.r), c.slot);
    return Outcome::kPlaced;
  };
  if (order == LoopOrder::kGroupsOuter) {
    // "For each resource group, the following procedure is carried out. Each job in the unassigned jobs list is
    // considered ..." (a job placed in a cheaper group leaves the list)
    for (const auto& group : groups)
      for (std::size_t j : list)
        if (s.resource[j] == kUnassigned) try_group(group, j);
  } else {
    // "Repeat the following steps for each job in the Unassigned-Jobs-List": the cheapest group that meets the
    // deadline decides; over budget there is over budget in every costlier group too.
    for (std::size_t j : list)
      for (const auto& group : groups)
        if (try_group(group, j) != Outcome::kLate) break;
  }
  return s;
}

Schedule advise_then_dbc(const Instance& instance, const std::vector<std::size_t>& list, LoopOrder order) {
  const Schedule chosen = advise(instance, list, horizon(instance));
  std::vector<std::size_t> kept;
  for (std::size_t j : list)
    if (chosen.resource[j] != kUnassigned) kept.push_back(j);
  return dbc_assign(instance, kept, order);
}

Schedule dbc_cost_time(const Instance& instance) {
  return advise_then_dbc(instance, job_list_order(instance), LoopOrder::kGroupsOuter);
}
Schedule dbc_cost_time_jobs_outer(const Instance& instance) {
  return advise_then_dbc(instance, job_list_order(instance), LoopOrder::kJobsOuter);
}
Schedule dbc_cost_time_local_first(const Instance& instance) {
  return advise_then_dbc(instance, local_first_order(instance), LoopOrder::kGroupsOuter);
}

std::size_t dispatch_size(std::size_t ready, int pes, int max_jobs_per_pe, std::size_t queued) {
  const long long capacity = static_cast<long long>(pes) * max_jobs_per_pe - static_cast<long long>(queued);
  return capacity <= 0 ? 0 : std::min(ready, static_cast<std::size_t>(capacity));
}

Schedule dispatcher(const Instance& instance) {
  Schedule s = empty_schedule(instance);
  const auto order = job_list_order(instance);
  s.list = order;
  Clock clock(instance);
  std::deque<std::size_t> ready(order.begin(), order.end());
  std::vector<std::size_t> queued(instance.resources.size(), 0);
  using Event = std::pair<double, std::size_t>;  // (completion time, resource)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> completions;
  double now = 0;
  while (!ready.empty()) {
    for (std::size_t r = 0; r < instance.resources.size() && !ready.empty(); ++r) {
      const int pes = usable_pes(instance, instance.resources[r]);
      for (std::size_t n = dispatch_size(ready.size(), pes, instance.broker.max_jobs_per_pe, queued[r]); n > 0; --n) {
        const std::size_t j = ready.front();
        ready.pop_front();
        const double d = duration(instance.resources[r], instance.jobs[j]);
        Clock::Slot at = clock.earliest(r, d);
        at.start = std::max(now, at.start);
        at.finish = at.start + d;
        place(s, clock, j, r, at);
        ++queued[r];
        completions.emplace(at.finish, r);
      }
    }
    if (ready.empty() || completions.empty()) break;  // empty completions: no resource has a usable PE
    now = completions.top().first;
    while (!completions.empty() && completions.top().first <= now) {
      --queued[completions.top().second];
      completions.pop();
    }
  }
  return s;
}

}  // namespace schedcheck::dbc
