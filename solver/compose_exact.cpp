// Exact offer composition without Z3 (see compose_exact.hpp). Our own.
#include "solver/compose_exact.hpp"

#include "model/profile.hpp"

#include <algorithm>
#include <chrono>
#include <functional>

namespace schedcheck::compose {

std::optional<double> earliest_cover_time(const Instance& instance) {
  struct Step {
    double completion;
    long long gain;  // tasks this offer adds over the provider's previous (smaller) offer
  };
  std::vector<Step> steps;
  for (const auto& provider : instance.providers)
    for (std::size_t j = 0; j < provider.offers.size(); ++j)
      steps.push_back({provider.offers[j].completion, provider.offers[j].tasks - (j ? provider.offers[j - 1].tasks : 0)});
  std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.completion < b.completion; });
  long long covered = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    covered += steps[i].gain;
    const bool last_at_this_time = i + 1 == steps.size() || steps[i + 1].completion != steps[i].completion;
    if (last_at_this_time && covered >= instance.bot.tasks) return steps[i].completion;
  }
  return std::nullopt;
}

std::optional<Composition> most_balanced_by(const Instance& instance, double time) {
  const long long n = instance.bot.tasks;
  std::vector<int> offer(instance.providers.size());
  std::vector<long long> size(instance.providers.size(), 0);
  WideInt total = 0;
  for (std::size_t p = 0; p < instance.providers.size(); ++p) {
    offer[p] = largest_offer_by(instance.providers[p], time);
    if (offer[p] != kUnused) size[p] = instance.providers[p].offers[static_cast<std::size_t>(offer[p])].tasks;
    total += size[p];
  }
  if (total < n) return std::nullopt;
  // Start from floor(n c_p / sum c) (every share <= n / sum c, a lower bound of the optimum), then give each remaining
  // task to the provider whose share after it, (x_p + 1) / c_p, is smallest: the classic optimal min-max greedy.
  std::vector<long long> tasks(size.size(), 0);
  long long given = 0;
  for (std::size_t p = 0; p < size.size(); ++p) {
    tasks[p] = static_cast<long long>(static_cast<WideInt>(n) * size[p] / total);
    given += tasks[p];
  }
  for (; given < n; ++given) {
    std::size_t pick = size.size();
    for (std::size_t p = 0; p < size.size(); ++p) {
      if (size[p] == 0 || tasks[p] >= size[p]) continue;
      if (pick == size.size() ||
          static_cast<WideInt>(tasks[p] + 1) * size[pick] < static_cast<WideInt>(tasks[pick] + 1) * size[p])
        pick = p;
    }
    ++tasks[pick];
  }
  Composition composition{std::vector<Part>(instance.providers.size())};
  for (std::size_t p = 0; p < size.size(); ++p)
    if (tasks[p] > 0)
      composition.parts[p] = Part{tasks[p], offer[p], instance.providers[p].offers[static_cast<std::size_t>(offer[p])].completion};
  return composition;
}

std::size_t fewest_providers_by(const Instance& instance, double time) {
  std::vector<long long> sizes;
  for (const auto& provider : instance.providers)
    if (const int j = largest_offer_by(provider, time); j != kUnused) sizes.push_back(provider.offers[static_cast<std::size_t>(j)].tasks);
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  long long covered = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k)
    if ((covered += sizes[k]) >= instance.bot.tasks) return k + 1;
  return 0;
}

ExactResult<Composition> solve_combinatorial(const Instance& instance) {
  const auto started = std::chrono::steady_clock::now();
  ExactResult<Composition> result;
  if (const auto time = earliest_cover_time(instance)) {
    result.decision = most_balanced_by(instance, *time);
    result.status = ExactStatus::kOptimal;
    result.objective = bot_completion(instance, *result.decision);
  } else {
    result.detail = "the providers' offers do not cover the BoT";  // the reader rejects such instances
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace schedcheck::compose
