// Benchmark of every exact method of a registered problem on seeded random instances, plus the search rate.
// Our own. Prints, per size n and method: median and max time to a proven optimum over the seeds, and how many
// were proven within the time limit. Not a test: figures go to docs/performance.md with the command used.
#include "counterexamples/builtin.hpp"
#include "counterexamples/search.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>

using namespace schedcheck;

int main(int argc, char** argv) {
  CLI::App app{"schedcheck_bench: time every exact method of a problem on random instances, and the search rate"};
  std::string problem_name = "sla-admission", policy = "greedy-backfilling";
  std::vector<std::size_t> sizes{10, 20, 50, 100, 200, 1000};
  std::vector<std::string> methods;  // empty: all
  std::size_t seeds = 3, search_size = 10, search_trials = 20000;
  unsigned timeout_ms = 2000;
  app.add_option("problem", problem_name, "problem")->capture_default_str();
  app.add_option("--sizes", sizes, "instance sizes n")->delimiter(',')->capture_default_str();
  app.add_option("--methods", methods, "exact methods to time (default: all)")->delimiter(',');
  app.add_option("--seeds", seeds, "instances per size (seeds 1..k)")->capture_default_str();
  app.add_option("--timeout-ms", timeout_ms, "time limit per solve")->capture_default_str();
  app.add_option("--policy", policy, "policy for the search-rate run")->capture_default_str();
  app.add_option("--search-size", search_size, "n for the search-rate run")->capture_default_str();
  app.add_option("--search-trials", search_trials, "trials for the search-rate run (0: skip)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const Registry registry = make_builtin_registry();
  const Problem* problem = registry.find(problem_name);
  if (!problem) {
    std::cerr << "unknown problem " << problem_name << "\n";
    return 2;
  }
  if (methods.empty())
    for (const auto& m : problem->exact_methods()) methods.push_back(m.name);

  fmt::print("{} on {}: {} seeds per size, time limit {} ms per solve\n", problem_name, "random instances", seeds,
             timeout_ms);
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
      std::string notes;
      for (std::size_t seed = 1; seed <= seeds; ++seed) {
        CheckRequest request;
        request.exact = method;
        request.solve.timeout_ms = timeout_ms;
        const Report r = problem->check(problem->generate(seed, n), "(bench)", request);
        ms.push_back(r.optimum.seconds * 1e3);
        if (r.optimum.status == "optimal") ++proven;
        else if (notes.empty()) notes = r.optimum.status + ": " + r.optimum.detail;
      }
      std::sort(ms.begin(), ms.end());
      fmt::print("{:>6}  {:<14} {:>5}/{:<2} {:>12.3f} {:>12.3f}  {}\n", n, method, proven, seeds, ms[ms.size() / 2],
                 ms.back(), notes);
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
