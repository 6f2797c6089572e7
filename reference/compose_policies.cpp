// Offer composition policies (see compose_policies.hpp): paper 000 IV-A, IV-B Algorithm 1, V, III-B; "-fixed" ours,
// "-round" and "-v2-intent" other readings of Algorithm 1 line 12 and of DPLBV2 (docs/policies.md, "Readings").
#include "reference/compose_policies.hpp"

#include "model/profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace schedcheck::compose {

namespace {

struct ListedOffer {             // an entry (s, d)_rid of the offer list
  std::size_t provider = 0;
  int index = 0;                 // in the provider's staircase
  Offer offer;
};

Composition empty_composition(const Instance& instance) {
  return Composition{std::vector<Part>(instance.providers.size())};
}

bool meets_deadline(const Instance& instance, const Offer& offer) {
  return offer.completion <= instance.bot.deadline + kTimeTolerance;
}

// A composite offer of OffersNoLB: offers (of distinct providers) in the order they were added.
struct Composite {
  std::vector<std::size_t> members;  // indices into the filtered offer list
};

// Each member takes min(its size, the tasks still remaining), in member order.
std::vector<long long> fill(const std::vector<ListedOffer>& offers, const Composite& composite, long long n) {
  std::vector<long long> takes;
  long long remaining = n;
  for (std::size_t m : composite.members) {
    const long long take = std::min(offers[m].offer.tasks, remaining);
    takes.push_back(take);
    remaining -= take;
  }
  return takes;
}

// Largest-remainder (Hamilton) rounding of n * weight_i / total: floors, then +1 to the largest remainders, ties in
// index order. Exact integer arithmetic; the results sum to n.
std::vector<long long> proportional_split(long long n, const std::vector<long long>& weights) {
  WideInt total = 0;
  for (long long w : weights) total += w;
  std::vector<long long> out(weights.size(), 0);
  if (total == 0) return out;
  std::vector<WideInt> remainder(weights.size());
  long long given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const WideInt product = static_cast<WideInt>(n) * weights[i];
    out[i] = static_cast<long long>(product / total);
    remainder[i] = product % total;
    given += out[i];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t k = 0; given < n && k < order.size(); ++k, ++given) ++out[order[k]];
  return out;
}

// IV-B, OffersWithPLB: P = offer size / totalOfferedTasks; tasks = P x n, rounded by largest remainder.
Composition plb_on(const Instance& instance, const std::vector<int>& kept) {
  Composition composition = empty_composition(instance);
  std::vector<long long> sizes;
  for (std::size_t p = 0; p < kept.size(); ++p)
    sizes.push_back(kept[p] == kUnused ? 0 : instance.providers[p].offers[static_cast<std::size_t>(kept[p])].tasks);
  const auto tasks = proportional_split(instance.bot.tasks, sizes);
  for (std::size_t p = 0; p < kept.size(); ++p) {
    if (tasks[p] <= 0) continue;
    composition.parts[p] = Part{tasks[p], kept[p], instance.providers[p].offers[static_cast<std::size_t>(kept[p])].completion};
  }
  return composition;
}

// Where Algorithm 1's DP comes from (line 5 and 11): computing power (DPLB); the load to be processed, used "in the
// same way" (DPLBV2 as written: the busier provider gets more); or the inverse of the load (DPLBV2 as the paper's
// stated intent, "balance the load and give local jobs equal opportunity": the less loaded gets more; ours).
enum class DpFrom { kComputingPower, kLoad, kInverseLoad };
enum class Cap { kAsPublished, kCarryForward };
// Line 12, nTasks <- DP x nTasks, turned into a whole number of tasks: rounded down (default) or to the nearest.
enum class Line12 { kFloor, kNearest };

struct DplbReading {
  DpFrom from = DpFrom::kComputingPower;
  Cap cap = Cap::kAsPublished;
  Line12 rounding = Line12::kFloor;
};

// The sort key and weight of DP (line 1, 11). kInverseLoad: 1 / load, +infinity for an idle provider.
double dp_key(const Provider& provider, DpFrom from) {
  switch (from) {
    case DpFrom::kComputingPower: return static_cast<double>(provider.processors);
    case DpFrom::kLoad: return provider.load;
    case DpFrom::kInverseLoad: return provider.load > 0 ? 1.0 / provider.load : std::numeric_limits<double>::infinity();
  }
  return 0;
}

// Line 12 in whole tasks (floor_tasks keeps a product that is whole in exact arithmetic whole).
long long line12_tasks(double exact, Line12 rounding) {
  return rounding == Line12::kNearest ? std::llround(exact) : floor_tasks(exact);
}

// Algorithm 1 (OffersWithDPLB), line by line, on the kept offers. Fractions: the groups' P x BoTSize are rounded by
// largest remainder (so the groups sum to n); line 12 DP x nTasks per `reading.rounding`; the last offer of a group
// takes the remainder (line 8). kCarryForward (ours) never lets lines 13-14 lose tasks: an offer takes at least what
// the later offers of its group cannot hold.
Composition dplb_on(const Instance& instance, const std::vector<int>& kept, DplbReading reading) {
  Composition composition = empty_composition(instance);
  struct Entry {
    std::size_t provider;
    long long size;
    double key;
  };
  std::vector<Entry> entries;
  for (std::size_t p = 0; p < kept.size(); ++p)
    if (kept[p] != kUnused)
      entries.push_back({p, instance.providers[p].offers[static_cast<std::size_t>(kept[p])].tasks,
                         dp_key(instance.providers[p], reading.from)});
  // Line 1: decreasing size; same size by decreasing computing power (v2: load; v2-intent: 1 / load); then provider
  // order.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.size != b.size ? a.size > b.size : a.key > b.key;
  });
  // Groups of equal size; line 3-4 for all groups at once (rounded together so that they sum to n).
  std::vector<std::pair<std::size_t, std::size_t>> groups;  // [begin, end) in entries
  std::vector<long long> group_offered;
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i;
    long long offered = 0;
    while (j < entries.size() && entries[j].size == entries[i].size) offered += entries[j++].size;
    groups.emplace_back(i, j);
    group_offered.push_back(offered);
    i = j;
  }
  const auto group_tasks = proportional_split(instance.bot.tasks, group_offered);  // P x BoTSize per group
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto [begin, end] = groups[g];
    long long remaining_same_size = group_tasks[g];                                   // line 4
    // Line 5. Weights: the keys; with an infinite key (v2-intent, an idle provider) the idle providers share alone.
    const bool any_infinite = std::any_of(entries.begin() + static_cast<std::ptrdiff_t>(begin),
                                          entries.begin() + static_cast<std::ptrdiff_t>(end),
                                          [](const Entry& e) { return std::isinf(e.key); });
    auto weight = [&](std::size_t i) { return any_infinite ? (std::isinf(entries[i].key) ? 1.0 : 0.0) : entries[i].key; };
    double total_key = 0;
    for (std::size_t i = begin; i < end; ++i) total_key += weight(i);
    for (std::size_t i = begin; i < end; ++i) {                                       // line 6
      long long n_tasks = 0;
      if (i + 1 == end) {                                                             // line 7
        n_tasks = remaining_same_size;                                                // line 8
      } else {
        const double group = static_cast<double>(group_tasks[g]);                    // line 10
        const double dp_x_tasks = total_key > 0 ? weight(i) * group / total_key       // lines 11-12
                                                : group / static_cast<double>(end - begin);  // (ours: all keys 0)
        n_tasks = line12_tasks(dp_x_tasks, reading.rounding);
        if (reading.cap == Cap::kCarryForward) {
          const long long later_capacity = entries[i].size * static_cast<long long>(end - i - 1);
          n_tasks = std::max(n_tasks, remaining_same_size - later_capacity);
        }
      }
      n_tasks = std::min(n_tasks, entries[i].size);                                   // lines 13-14
      n_tasks = std::max(n_tasks, 0LL);
      remaining_same_size -= n_tasks;                                                 // line 16
      const std::size_t p = entries[i].provider;
      if (n_tasks > 0)                                                                // line 15, 17
        composition.parts[p] = Part{n_tasks, kept[p], instance.providers[p].offers[static_cast<std::size_t>(kept[p])].completion};
    }
  }
  return composition;
}

// IV: the IV-B rule `balance` on the offers meeting D when they can hold the BoT ("when it is possible to meet the
// user's deadline"), else IV-A OffersNoLB ("when user's deadline cannot be met"; Table I).
template <class Balance>
Composition balance_when_deadline_can_be_met(const Instance& instance, Balance balance) {
  return deadline_can_be_met(instance) ? balance(offers_meeting_deadline(instance)) : offers_nolb(instance);
}

}  // namespace

// ---------------------------------------------------------------- IV-A OffersNoLB

Composition offers_nolb(const Instance& instance) {
  const long long n = instance.bot.tasks;
  // 1) a list with all the offers
  std::vector<ListedOffer> offers;
  for (std::size_t p = 0; p < instance.providers.size(); ++p)
    for (std::size_t j = 0; j < instance.providers[p].offers.size(); ++j)
      offers.push_back({p, static_cast<int>(j), instance.providers[p].offers[j]});
  // 2) offers meeting D first, by decreasing tasks; the rest by increasing completion (ties: list order)
  std::stable_sort(offers.begin(), offers.end(), [&](const ListedOffer& a, const ListedOffer& b) {
    const bool a_meets = meets_deadline(instance, a.offer), b_meets = meets_deadline(instance, b.offer);
    if (a_meets != b_meets) return a_meets;
    return a_meets ? a.offer.tasks > b.offer.tasks : a.offer.completion < b.offer.completion;
  });
  // 3) remove every offer after the first one that can execute the entire BoT
  const auto whole = std::find_if(offers.begin(), offers.end(), [&](const ListedOffer& o) { return o.offer.tasks >= n; });
  if (whole != offers.end()) offers.erase(whole + 1, offers.end());
  // 4) the list L of composite offers, built in that order: an offer joins every incomplete composite that does not
  // yet use its provider; a composite that does use it forks a copy with that provider's offer replaced by this one.
  std::vector<Composite> lists;
  auto complete = [&](const Composite& c) {
    const auto takes = fill(offers, c, n);
    return std::accumulate(takes.begin(), takes.end(), 0LL) == n;
  };
  for (std::size_t k = 0; k < offers.size(); ++k) {
    if (lists.empty()) {
      lists.push_back(Composite{{k}});
      continue;
    }
    const std::size_t existing = lists.size();
    for (std::size_t c = 0; c < existing; ++c) {
      if (complete(lists[c])) continue;
      const auto same_provider = std::find_if(lists[c].members.begin(), lists[c].members.end(),
                                              [&](std::size_t m) { return offers[m].provider == offers[k].provider; });
      if (same_provider == lists[c].members.end()) {
        lists[c].members.push_back(k);
        continue;
      }
      if (lists.size() >= kMaxCompositeLists) continue;
      Composite fork = lists[c];
      fork.members.erase(fork.members.begin() + (same_provider - lists[c].members.begin()));
      fork.members.push_back(k);
      const bool duplicate = std::any_of(lists.begin(), lists.end(), [&](const Composite& other) {
        auto a = other.members, b = fork.members;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        return a == b;
      });
      if (!duplicate) lists.push_back(std::move(fork));
    }
  }
  // 5) the first composite in L with the earliest completion (among those that take all n tasks; if none does, as
  // published nothing is returned: we return the first composite taking the most tasks, which fails tasks-conserved)
  std::size_t best = 0;
  bool best_complete = false;
  double best_completion = 0;
  long long best_tasks = -1;
  for (std::size_t c = 0; c < lists.size(); ++c) {
    const auto takes = fill(offers, lists[c], n);
    const long long tasks = std::accumulate(takes.begin(), takes.end(), 0LL);
    double completion = 0;
    for (std::size_t i = 0; i < takes.size(); ++i)
      if (takes[i] > 0) completion = std::max(completion, offers[lists[c].members[i]].offer.completion);
    const bool is_complete = tasks == n;
    const bool better = is_complete ? (!best_complete || completion < best_completion) : (!best_complete && tasks > best_tasks);
    if (better) {
      best = c;
      best_complete = is_complete;
      best_completion = completion;
      best_tasks = tasks;
    }
  }
  Composition composition = empty_composition(instance);
  if (lists.empty()) return composition;
  const auto takes = fill(offers, lists[best], n);
  for (std::size_t i = 0; i < takes.size(); ++i) {
    const ListedOffer& o = offers[lists[best].members[i]];
    if (takes[i] > 0) composition.parts[o.provider] = Part{takes[i], o.index, o.offer.completion};
  }
  return composition;
}

// ---------------------------------------------------------------- IV-B and the section V combination

std::vector<int> offers_meeting_deadline(const Instance& instance) {
  std::vector<int> kept;
  for (const auto& provider : instance.providers) {
    int index = kUnused;
    for (std::size_t j = 0; j < provider.offers.size(); ++j)
      if (meets_deadline(instance, provider.offers[j])) index = static_cast<int>(j);  // staircase: the last is largest
    kept.push_back(index);
  }
  return kept;
}

bool deadline_can_be_met(const Instance& instance) {
  const auto kept = offers_meeting_deadline(instance);
  long long covered = 0;
  for (std::size_t p = 0; p < kept.size(); ++p)
    if (kept[p] != kUnused) covered += instance.providers[p].offers[static_cast<std::size_t>(kept[p])].tasks;
  return covered >= instance.bot.tasks;
}

Composition offers_plb(const Instance& instance) {
  return balance_when_deadline_can_be_met(instance, [&](const std::vector<int>& kept) { return plb_on(instance, kept); });
}

namespace {
Composition dplb(const Instance& instance, DplbReading reading) {
  return balance_when_deadline_can_be_met(instance,
                                          [&](const std::vector<int>& kept) { return dplb_on(instance, kept, reading); });
}
}  // namespace

Composition offers_dplb(const Instance& instance) { return dplb(instance, {DpFrom::kComputingPower}); }
Composition offers_dplb_v2(const Instance& instance) { return dplb(instance, {DpFrom::kLoad}); }
Composition offers_dplb_v2_intent(const Instance& instance) { return dplb(instance, {DpFrom::kInverseLoad}); }
Composition offers_dplb_round(const Instance& instance) {
  return dplb(instance, {DpFrom::kComputingPower, Cap::kAsPublished, Line12::kNearest});
}
Composition offers_dplb_fixed(const Instance& instance) {
  return dplb(instance, {DpFrom::kComputingPower, Cap::kCarryForward});
}
Composition offers_dplb_v2_fixed(const Instance& instance) { return dplb(instance, {DpFrom::kLoad, Cap::kCarryForward}); }

// ---------------------------------------------------------------- III-B FreeTimeSlots

Composition free_time_slots(const Instance& instance) {
  Composition composition = empty_composition(instance);
  const double runtime = instance.bot.task_runtime, submit = instance.bot.submit;
  const long long n = instance.bot.tasks;
  if (runtime <= 0) return composition;
  // One provider made of every provider's slots: its earliest completion of n tasks is the time t* by which the
  // earliest-completion-first fill places the last task.
  Provider everything;
  for (const auto& provider : instance.providers)
    everything.free_slots.insert(everything.free_slots.end(), provider.free_slots.begin(), provider.free_slots.end());
  const auto last = slot_completion(everything, runtime, submit, n);
  std::vector<long long> tasks(instance.providers.size(), 0);
  auto placeable_by = [&](const Provider& provider, double t) {  // positions completing by t, on one provider
    Provider alone;
    alone.free_slots = provider.free_slots;
    long long low = 0, high = n;  // the most tasks (<= n) whose earliest completion is <= t
    while (low < high) {
      const long long mid = low + (high - low + 1) / 2;
      const auto done = slot_completion(alone, runtime, submit, mid);
      if (done && *done <= t) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  long long placed = 0;
  if (!last) {  // the slots cannot hold the BoT: place what fits (tasks-conserved then fails)
    for (std::size_t p = 0; p < instance.providers.size(); ++p) {
      tasks[p] = std::min(n - placed, placeable_by(instance.providers[p], kForever));
      placed += tasks[p];
    }
  } else {
    const double before = *last - kTimeTolerance;
    for (std::size_t p = 0; p < instance.providers.size(); ++p) {  // positions completing strictly before t*
      tasks[p] = std::min(n - placed, placeable_by(instance.providers[p], before));
      placed += tasks[p];
    }
    for (std::size_t p = 0; p < instance.providers.size() && placed < n; ++p) {  // positions at t*, provider order
      const long long extra = std::min(n - placed, placeable_by(instance.providers[p], *last) - tasks[p]);
      tasks[p] += extra;
      placed += extra;
    }
  }
  for (std::size_t p = 0; p < instance.providers.size(); ++p)
    if (tasks[p] > 0)
      composition.parts[p] = Part{tasks[p], kFromFreeSlots,
                                  slot_completion(instance.providers[p], runtime, submit, tasks[p]).value_or(kForever)};
  return composition;
}

}  // namespace schedcheck::compose
