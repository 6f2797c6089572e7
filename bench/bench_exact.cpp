// Benchmark of every exact method of a registered problem on seeded random instances, plus the search rate.
// Our own. Prints, per size n and method: median and max solve time over the seeds (each the median of --repeat
// solves), how many were proven within the time limit, and which seeds were not. --from-policy gives each method the
// policy's decision (as `check` does). Not a test: figures go to docs/performance.md with the command used.
#include "counterexamples/builtin.hpp"
#include "counterexamples/search.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>

using namespace schedcheck;

int main(int argc, char** argv) {
  CLI::App app{"schedcheck_bench: time every exact method of a problem on random instances, and the search rate"};
  std::string problem_name = "sla-admission", policy = "greedy-backfilling";
  std::vector<std::size_t> sizes{10, 20, 50, 100, 200, 1000};
  std::vector<std::string> methods;  // empty: all
  std::size_t seeds = 3, search_size = 10, search_trials = 20000, repeat = 1;
  unsigned timeout_ms = 2000;
  bool from_policy = false;
  app.add_option("problem", problem_name, "problem")->capture_default_str();
  app.add_option("--sizes", sizes, "instance sizes n")->delimiter(',')->capture_default_str();
  app.add_option("--methods", methods, "exact methods to time (default: all)")->delimiter(',');
  app.add_option("--seeds", seeds, "instances per size (seeds 1..k)")->capture_default_str();
  app.add_option("--timeout-ms", timeout_ms, "time limit per solve")->capture_default_str();
  app.add_option("--policy", policy, "policy for the search-rate run")->capture_default_str();
  app.add_option("--search-size", search_size, "n for the search-rate run")->capture_default_str();
  app.add_option("--search-trials", search_trials, "trials for the search-rate run (0: skip)")->capture_default_str();
  app.add_option("--repeat", repeat, "solves per instance (its time: their median)")->capture_default_str();
  app.add_flag("--from-policy", from_policy, "give each exact method the policy's decision to start from");
  CLI11_PARSE(app, argc, argv);

  const Registry registry = make_builtin_registry();
  const Problem* problem = registry.find(problem_name);
  if (!problem) {
    std::cerr << "unknown problem " << problem_name << "\n";
    return 2;
  }
  if (methods.empty())
    for (const auto& m : problem->exact_methods()) methods.push_back(m.name);

  fmt::print("{} on random instances: {} seeds per size, time limit {} ms per solve, {} solve(s) per instance{}\n",
             problem_name, seeds, timeout_ms, repeat, from_policy ? ", from the " + policy + " decision" : "");
  fmt::print("{:>6}  {:<14} {:>8} {:>12} {:>12}  {}\n", "n", "method", "proven", "median ms", "max ms", "notes");
  std::map<std::string, bool> gave_up;  // a method that proved nothing at n is not run at larger n
  for (std::size_t n : sizes) {
    for (const auto& method : methods) {
      if (gave_up[method]) {
        fmt::print("{:>6}  {:<14} {:>8} {:>12} {:>12}  skipped: proved nothing at a smaller n\n", n, method, "-", "-", "-");
        continue;
      }
      std::vector<double> ms;
      std::size_t proven = 0;
      std::string notes, unproven;
      for (std::size_t seed = 1; seed <= seeds; ++seed) {
        CheckRequest request;
        request.exact = method;
        request.solve.timeout_ms = timeout_ms;
        if (from_policy) request.policy = policy;
        const nlohmann::json instance = problem->generate(seed, n);
        std::vector<double> runs;
        Report r;
        for (std::size_t k = 0; k < std::max<std::size_t>(1, repeat); ++k) {
          r = problem->check(instance, "(bench)", request);
          runs.push_back(r.optimum.seconds * 1e3);
        }
        std::sort(runs.begin(), runs.end());
        ms.push_back(runs[runs.size() / 2]);
        if (r.optimum.status == "optimal") ++proven;
        else unproven += fmt::format("{}{}", unproven.empty() ? "" : ",", seed);
        if (r.optimum.status != "optimal" && notes.empty()) notes = r.optimum.status + ": " + r.optimum.detail;
      }
      std::sort(ms.begin(), ms.end());
      if (!unproven.empty()) notes = "seeds " + unproven + " not proven; " + notes;
      fmt::print("{:>6}  {:<14} {:>5}/{:<2} {:>12.3f} {:>12.3f}  {}\n", n, method, proven, seeds, ms[ms.size() / 2],
                 ms.back(), notes);
      std::fflush(stdout);
      if (proven == 0) gave_up[method] = true;
    }
  }
  if (search_trials > 0) {
    SearchOptions options;
    options.problem = problem_name;
    options.check.policy = policy;
    options.trials = search_trials;
    options.size = search_size;
    options.seed = 1;
    options.max_counterexamples = 0;  // the rate of checking, not of shrinking
    const SearchSummary s = search(*problem, options);
    fmt::print("search {} --policy {} at n = {}: {} checks in {:.3f} s = {:.0f} checks/s ({} failing)\n", problem_name,
               policy, search_size, s.checked, s.seconds, static_cast<double>(s.checked) / s.seconds, s.failing);
  }
  return 0;
}
