// Benchmark of provider offer generation (paper 000 section III-A): the EDF offer list (genOffer + FEEDBACK for
// every Delta count) at scale, the exact earliest completion (bnb, Z3, Gecode or sequences) near the feasibility
// edge, and `schedcheck solve` of the two provider problems on the generators' instances (the same instances as
// `schedcheck generate PROBLEM --seed S --size N`). Our own. Not a test: figures go to docs/performance.md with the
// command used.
#include "counterexamples/builtin.hpp"
#include "counterexamples/offers_generator.hpp"
#include "counterexamples/rng.hpp"
#include "reference/offers_policies.hpp"
#include "solver/offers_bnb.hpp"
#include "solver/offers_exact.hpp"
#include "solver/offers_gecode.hpp"
#include "solver/offers_z3.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>

using namespace schedcheck;
using namespace schedcheck::offers;

namespace {
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"schedcheck_bench_offers: EDF offer lists at scale and exact earliest completions"};
  std::vector<std::size_t> edf_sizes{100, 1000}, exact_sizes{5, 10, 20, 40};
  std::size_t seeds = 3;
  unsigned timeout_ms = 20'000;
  std::string method = "z3";
  std::vector<std::size_t> solve_sizes;
  std::string solve_exact;  // empty: the problem's default
  std::size_t search_trials = 0;
  std::uint64_t search_seed = 11;
  std::size_t search_size = 10;
  app.add_option("--solve-sizes", solve_sizes, "sizes for `solve offers` / `solve deadline-feasibility` (seeds 1..--seeds)")
      ->delimiter(',');
  app.add_option("--solve-exact", solve_exact, "exact method for --solve-sizes (default: the problem's default)");
  app.add_option("--edf-sizes", edf_sizes, "waiting jobs for the EDF timing")->delimiter(',')->capture_default_str();
  app.add_option("--exact-sizes", exact_sizes, "waiting jobs for the exact timing")->delimiter(',')->capture_default_str();
  app.add_option("--seeds", seeds, "instances per size")->capture_default_str();
  app.add_option("--timeout-ms", timeout_ms, "time limit per exact solve")->capture_default_str();
  app.add_option("--method", method, "exact method: bnb, z3, gecode or sequences")->capture_default_str();
  app.add_option("--search-trials", search_trials,
                 "time each of the first N instances of `search offers --policy edf --seed S` (policy and exact side) "
                 "and list the slowest");
  app.add_option("--search-seed", search_seed, "seed S of --search-trials")->capture_default_str();
  app.add_option("--search-size", search_size, "size of --search-trials")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  if (search_trials > 0) {
    const Registry registry = make_builtin_registry();
    const Problem& problem = registry.get("offers");
    std::vector<std::pair<double, std::size_t>> ms;
    double total = 0;
    std::map<std::string, int> statuses;
    for (std::size_t trial = 0; trial < search_trials; ++trial) {
      const nlohmann::json document = problem.generate(trial_seed(search_seed, trial), search_size);
      CheckRequest request;
      request.policy = "edf";
      request.solve.timeout_ms = timeout_ms;
      const auto started = std::chrono::steady_clock::now();
      const Report r = problem.check(document, "(bench)", request);
      ms.emplace_back(ms_since(started), trial);
      total += ms.back().first;
      ++statuses[r.optimum.status];
    }
    std::sort(ms.rbegin(), ms.rend());
    std::string summary;
    for (const auto& [status, count] : statuses) summary += fmt::format(" {} {}", count, status);
    fmt::print("search offers --policy edf --seed {} --size {}: {} trials, {:.0f} ms in all ({:.0f} checks/s),{}\n",
               search_seed, search_size, search_trials, total, 1000.0 * static_cast<double>(search_trials) / total,
               summary);
    double tail = 0;
    for (const auto& [t, trial] : ms) tail += t > 50 ? t : 0;
    fmt::print("over 50 ms: {:.0f} ms in all; slowest:", tail);
    for (std::size_t k = 0; k < std::min<std::size_t>(12, ms.size()); ++k)
      fmt::print(" trial {} {:.0f} ms;", ms[k].second, ms[k].first);
    fmt::print("\n");
    return 0;
  }

  if (!solve_sizes.empty()) {
    // What `schedcheck solve PROBLEM -i FILE --timeout-ms T` does on the generators' instances, through the registry
    // (validation and core re-check included). "schedulable": offers' instances (admitted, so EDF-feasible) read
    // as deadline-feasibility instances.
    const Registry registry = make_builtin_registry();
    fmt::print("solve (registry), limit {} ms, seeds 1..{}\n", timeout_ms, seeds);
    fmt::print("{:<34} {:>4} {:>8} {:>10} {:>10} {:>10}  {}\n", "problem", "n", "proven", "median ms", "max ms",
               "mean ms", "statuses");
    for (const std::string which : {"offers", "deadline-feasibility", "deadline-feasibility (schedulable)"}) {
      const bool schedulable = which == "deadline-feasibility (schedulable)";
      const Problem& problem = registry.get(schedulable ? "deadline-feasibility" : which);
      for (std::size_t n : solve_sizes) {
        std::vector<double> ms;
        std::size_t proven = 0;
        std::map<std::string, int> statuses;
        for (std::size_t seed = 1; seed <= seeds; ++seed) {
          nlohmann::json document = schedulable ? registry.get("offers").generate(seed, n) : problem.generate(seed, n);
          if (schedulable) document.erase("bot");
          CheckRequest request;
          request.exact = solve_exact;
          request.solve.timeout_ms = timeout_ms;
          const auto started = std::chrono::steady_clock::now();
          const Report r = problem.check(document, "(bench)", request);
          ms.push_back(ms_since(started));
          ++statuses[r.optimum.status];
          proven += r.optimum.status == "optimal" || r.optimum.status == "infeasible";
        }
        std::sort(ms.begin(), ms.end());
        double sum = 0;
        for (double x : ms) sum += x;
        std::string summary;
        for (const auto& [status, count] : statuses) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", count, status);
        fmt::print("{:<34} {:>4} {:>5}/{:<2} {:>10.2f} {:>10.2f} {:>10.2f}  {}\n", which, n, proven, seeds,
                   ms[(ms.size() - 1) / 2], ms.back(), sum / static_cast<double>(ms.size()), summary);
      }
    }
    return 0;
  }

  GeneratorSettings settings;  // P = 16..128, accepted work admitted one by one: at the edge of feasibility
  settings.min_processors = 16;
  settings.max_processors = 128;
  settings.max_part_tasks = 4;
  settings.max_bot_tasks = 8;

  fmt::print("EDF offer list (every Delta count, FEEDBACK included), P = 16..128, median/max of {} seeds\n", seeds);
  fmt::print("{:>6} {:>6} {:>12} {:>12} {:>10}\n", "n", "P", "median ms", "max ms", "feedback");
  for (std::size_t n : edf_sizes) {
    std::vector<double> ms;
    std::size_t feedback = 0, counts = 0;
    int p = 0;
    for (std::size_t seed = 1; seed <= seeds; ++seed) {
      const Instance instance = generate_instance(seed, n, settings);
      p = instance.processors;
      constexpr int kRepeats = 5;  // the best of a few runs: the machine is shared
      double best = 1e300;
      OfferList list;
      for (int r = 0; r < kRepeats; ++r) {
        const auto started = std::chrono::steady_clock::now();
        list = edf_offers(instance);
        best = std::min(best, ms_since(started));
      }
      ms.push_back(best);
      for (const auto& o : list.per_count) feedback += o.feedback, ++counts;
    }
    std::sort(ms.begin(), ms.end());
    fmt::print("{:>6} {:>6} {:>12.3f} {:>12.3f} {:>6}/{}\n", n, p, ms[ms.size() / 2], ms.back(), feedback, counts);
  }

  fmt::print("\nexact earliest completion ({}) for the full BoT (k = n_BoT), limit {} ms\n", method, timeout_ms);
  fmt::print("{:>4} {:>5} {:>5} {:>6} {:>10} {:>10} {:>10}  {}\n", "n", "seed", "P", "tasks", "status", "ms", "c*",
             "edf finish");
  for (std::size_t n : exact_sizes) {
    for (std::size_t seed = 1; seed <= seeds; ++seed) {
      const Instance instance = generate_instance(seed, n, settings);
      long long tasks = 0;
      for (const auto& job : instance.waiting) tasks += job.tasks;
      const long long k = instance.bot->tasks;
      SolveOptions options;
      options.timeout_ms = timeout_ms;
      const auto started = std::chrono::steady_clock::now();
      const Completion c = method == "z3"       ? earliest_completion_z3(instance, k, instance.now, options)
                           : method == "gecode" ? earliest_completion_gecode(instance, k, instance.now, options)
                           : method == "bnb"    ? earliest_completion_bnb(instance, k, instance.now, {}, options)
                                                : earliest_completion_sequences(instance, k, instance.now, options);
      const double ms = ms_since(started);
      EdfScheduler edf(instance);
      const CountOffer offer = gen_offer(edf, instance, k);
      fmt::print("{:>4} {:>5} {:>5} {:>6} {:>10} {:>10.1f} {:>10g}  {:g} (quote {:g}, D {:g})\n", n, seed,
                 instance.processors, tasks + k, to_string(c.status), ms, c.finish,
                 new_tasks_finish(instance, offer.schedule), offer.completion, instance.bot->deadline);
    }
  }
  return 0;
}
