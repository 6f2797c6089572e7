// DBC broker policies (see dbc_policies.hpp): paper 001 Schedule Advisor, DBC cost-time, baseline, dispatcher.
#include "reference/dbc_policies.hpp"

#include "model/profile.hpp"

#include <algorithm>
#include <deque>
#include <queue>

namespace schedcheck::dbc {

namespace {

// Free time of every usable PE of every resource.
std::vector<std::vector<double>> free_times(const Instance& instance) {
  std::vector<std::vector<double>> free;
  for (const auto& r : instance.resources) free.emplace_back(static_cast<std::size_t>(usable_pes(instance, r)), 0.0);
  return free;
}

// The earliest free PE of a resource (lowest index on ties); -1 when it has no usable PE.
int earliest_pe(const std::vector<double>& free) {
  int best = -1;
  for (std::size_t k = 0; k < free.size(); ++k)
    if (best < 0 || free[k] < free[static_cast<std::size_t>(best)]) best = static_cast<int>(k);
  return best;
}

void place(Schedule& s, std::vector<std::vector<double>>& free, const Instance& instance, std::size_t job, int r,
           int k, double start) {
  s.resource[job] = r;
  s.pe[job] = k;
  s.start[job] = start;
  free[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)] =
      start + duration(instance.resources[static_cast<std::size_t>(r)], instance.jobs[job]);
}

}  // namespace

Schedule advise(const Instance& instance, double limit) {
  Schedule s = empty_schedule(instance);
  auto free = free_times(instance);
  // chain[r][k]: the jobs on PE k of resource r, back to back from t = 0.
  std::vector<std::vector<std::vector<std::size_t>>> chain(instance.resources.size());
  for (std::size_t r = 0; r < free.size(); ++r) chain[r].resize(free[r].size());
  std::priority_queue<std::pair<double, std::size_t>> longest;  // chosen jobs by length (stale entries skipped)
  for (std::size_t j : job_list_order(instance)) {
    int best_r = -1, best_k = -1;
    double best_finish = kForever;
    for (std::size_t r = 0; r < free.size(); ++r) {
      const int k = earliest_pe(free[r]);
      if (k < 0) continue;
      const double f = free[r][static_cast<std::size_t>(k)] + duration(instance.resources[r], instance.jobs[j]);
      if (f < best_finish) {
        best_finish = f;
        best_r = static_cast<int>(r);
        best_k = k;
      }
    }
    if (best_r >= 0 && fits(best_finish, limit)) {
      chain[static_cast<std::size_t>(best_r)][static_cast<std::size_t>(best_k)].push_back(j);
      place(s, free, instance, j, best_r, best_k, free[static_cast<std::size_t>(best_r)][static_cast<std::size_t>(best_k)]);
      longest.emplace(instance.jobs[j].length, j);
      continue;
    }
    // Throughput-improving replacement: the longest chosen job, if longer, gives its place to j.
    while (!longest.empty() && s.resource[longest.top().second] == kUnassigned) longest.pop();
    if (longest.empty() || longest.top().first <= instance.jobs[j].length) continue;
    const std::size_t q = longest.top().second;
    longest.pop();
    const auto r = static_cast<std::size_t>(s.resource[q]), k = static_cast<std::size_t>(s.pe[q]);
    auto& jobs_on_pe = chain[r][k];
    *std::find(jobs_on_pe.begin(), jobs_on_pe.end(), q) = j;
    s.resource[q] = kUnassigned;
    s.pe[q] = 0;
    s.start[q] = 0;
    double t = 0;  // re-pack the PE: every job on it finishes no later than before
    for (std::size_t x : jobs_on_pe) {
      place(s, free, instance, x, static_cast<int>(r), static_cast<int>(k), t);
      t = free[r][k];
    }
    longest.emplace(instance.jobs[j].length, j);
  }
  return s;
}

Schedule explicit_allocation(const Instance& instance) { return advise(instance, horizon(instance)); }
Schedule no_optimization(const Instance& instance) { return advise(instance, instance.broker.max_tr); }

Schedule dbc_assign(const Instance& instance, const std::vector<std::size_t>& list) {
  Schedule s = empty_schedule(instance);
  auto free = free_times(instance);
  // Resource groups of equal cost per MI, in increasing cost (file order inside a group).
  std::vector<std::size_t> by_cost(instance.resources.size());
  for (std::size_t r = 0; r < by_cost.size(); ++r) by_cost[r] = r;
  std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) {
    return instance.resources[a].cost < instance.resources[b].cost;
  });
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t r : by_cost)
    if (groups.empty() || instance.resources[groups.back().front()].cost != instance.resources[r].cost)
      groups.push_back({r});
    else
      groups.back().push_back(r);
  const double limit = horizon(instance);
  double spent = 0;
  for (std::size_t j : list) {
    for (const auto& group : groups) {
      int best_r = -1, best_k = -1;
      double best_finish = kForever, best_available = kForever;
      for (std::size_t r : group) {
        const int k = earliest_pe(free[r]);
        if (k < 0) continue;
        const double available = free[r][static_cast<std::size_t>(k)];
        const double f = available + duration(instance.resources[r], instance.jobs[j]);
        if (f < best_finish || (f == best_finish && available < best_available)) {
          best_finish = f;
          best_available = available;
          best_r = static_cast<int>(r);
          best_k = k;
        }
      }
      if (best_r < 0 || !fits(best_finish, limit)) continue;  // this group cannot meet the deadline: a costlier one may
      const double cost = job_cost(instance.resources[static_cast<std::size_t>(best_r)], instance.jobs[j]);
      if (affordable(spent + cost, instance.budget)) {
        spent += cost;
        place(s, free, instance, j, best_r, best_k, best_available);
      }
      break;  // over budget here means over budget in every costlier group too
    }
  }
  return s;
}

Schedule dbc_cost_time(const Instance& instance) {
  const Schedule chosen = explicit_allocation(instance);
  std::vector<std::size_t> list;
  for (std::size_t j : job_list_order(instance))
    if (chosen.resource[j] != kUnassigned) list.push_back(j);
  return dbc_assign(instance, list);
}

std::size_t dispatch_size(std::size_t ready, int pes, int max_jobs_per_pe, std::size_t queued) {
  const long long capacity = static_cast<long long>(pes) * max_jobs_per_pe - static_cast<long long>(queued);
  return capacity <= 0 ? 0 : std::min(ready, static_cast<std::size_t>(capacity));
}

Schedule dispatcher(const Instance& instance) {
  Schedule s = empty_schedule(instance);
  auto free = free_times(instance);
  const auto order = job_list_order(instance);
  std::deque<std::size_t> ready(order.begin(), order.end());
  std::vector<std::size_t> queued(instance.resources.size(), 0);
  using Event = std::pair<double, std::size_t>;  // (completion time, resource)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> completions;
  double now = 0;
  while (!ready.empty()) {
    for (std::size_t r = 0; r < instance.resources.size() && !ready.empty(); ++r) {
      const int pes = static_cast<int>(free[r].size());
      for (std::size_t n = dispatch_size(ready.size(), pes, instance.broker.max_jobs_per_pe, queued[r]); n > 0; --n) {
        const std::size_t j = ready.front();
        ready.pop_front();
        const int k = earliest_pe(free[r]);
        place(s, free, instance, j, static_cast<int>(r), k, std::max(now, free[r][static_cast<std::size_t>(k)]));
        ++queued[r];
        completions.emplace(free[r][static_cast<std::size_t>(k)], r);
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
