// Benchmark of the DBC broker slice (paper 001): the DBC heuristic at scale (10,000 jobs x 100 resources) and the
// exact minimum cost on Table 1's 10 resources x 30 jobs. Our own. Not a test: figures go to docs/performance.md.
// Instances: seeded (SplitMix64), lengths U[20, 300) MI, Dfactor 0.1 (exact) / 0.3 (scale), Bfactor 0.5.
#include "counterexamples/dbc_generator.hpp"
#include "counterexamples/rng.hpp"
#include "reference/dbc_policies.hpp"
#include "solver/dbc_bnb.hpp"
#include "solver/dbc_exact.hpp"
#include "solver/dbc_z3.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <numeric>

using namespace schedcheck;
using namespace schedcheck::dbc;

namespace {
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
Instance make(std::uint64_t seed, std::vector<Resource> resources, std::size_t jobs, double dfactor) {
  SplitMix64 rng(seed);
  Instance in;
  in.resources = std::move(resources);
  for (std::size_t j = 0; j < jobs; ++j)
    in.jobs.push_back(Job{fmt::format("J{}", j + 1), std::round(rng.uniform(20, 300) * 100) / 100,
                          rng.chance(0.5) ? Origin::kLocal : Origin::kGrid});
  in.dfactor = dfactor;
  in.bfactor = 0.5;
  in.deadline = absolute_deadline(in, dfactor);
  in.budget = absolute_budget(in, 0.5);
  return in;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"schedcheck_bench_dbc: DBC heuristic at scale and the exact minimum cost on Table 1 x 30 jobs"};
  std::size_t jobs = 10'000, resources = 100, exact_jobs = 30, seeds = 3, repeats = 5;
  unsigned timeout_ms = 5000;
  app.add_option("--jobs", jobs, "jobs for the heuristic run")->capture_default_str();
  app.add_option("--resources", resources, "resources for the heuristic run")->capture_default_str();
  app.add_option("--exact-jobs", exact_jobs, "jobs on Table 1's resources for the exact run")->capture_default_str();
  app.add_option("--seeds", seeds, "instances per run")->capture_default_str();
  app.add_option("--timeout-ms", timeout_ms, "time limit of each Z3 / bin-completion solve")->capture_default_str();
  std::string write_dir;
  app.add_option("--write-instances", write_dir,
                 "write each exact-run instance to DIR/dbc-table1-<jobs>-seed<k>.json (for `schedcheck solve`)");
  bool skip_heuristic = false, skip_z3 = false;
  app.add_flag("--exact-only", skip_heuristic, "skip the heuristic-at-scale runs");
  app.add_flag("--no-z3", skip_z3, "skip the Z3 method in the exact runs");
  CLI11_PARSE(app, argc, argv);

  for (std::uint64_t seed = 1; seed <= seeds && !skip_heuristic; ++seed) {
    SplitMix64 rng(seed * 7919);
    std::vector<Resource> res;
    for (std::size_t r = 0; r < resources; ++r)
      res.push_back(Resource{fmt::format("R{}", r + 1), static_cast<int>(rng.integer(1, 8)),
                             static_cast<double>(rng.integer(10, 20)), static_cast<double>(rng.integer(1, 8) * 50)});
    const Instance in = make(seed, res, jobs, 0.3);
    std::vector<std::size_t> all(in.jobs.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    std::vector<double> dbc_ms, pipeline_ms;
    std::size_t assigned = 0;
    for (std::size_t k = 0; k < repeats; ++k) {
      auto t = std::chrono::steady_clock::now();
      const Schedule s = dbc_assign(in, all, LoopOrder::kGroupsOuter);
      dbc_ms.push_back(ms_since(t));
      assigned = assigned_count(s);
      t = std::chrono::steady_clock::now();
      (void)dbc_cost_time(in);
      pipeline_ms.push_back(ms_since(t));
    }
    std::sort(dbc_ms.begin(), dbc_ms.end());
    std::sort(pipeline_ms.begin(), pipeline_ms.end());
    fmt::print("heuristic seed {}: {} jobs x {} resources: DBC stage median {:.2f} ms (max {:.2f}), advisor + DBC median "
               "{:.2f} ms; {} assigned\n", seed, jobs, resources, dbc_ms[repeats / 2], dbc_ms.back(),
               pipeline_ms[repeats / 2], assigned);
  }
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    Instance in = make(seed, paper_table1_resources(), exact_jobs, 0.1);
    in.name = fmt::format("dbc-table1-{}-seed{}", exact_jobs, seed);
    if (!write_dir.empty()) {
      const std::string path = fmt::format("{}/{}.json", write_dir, in.name);
      std::ofstream out(path);
      out << write_instance(in).dump(2) << '\n';
      if (!out.flush()) {
        fmt::print(stderr, "schedcheck_bench_dbc: cannot write {} (does the directory exist?)\n", path);
        return 2;
      }
    }
    const auto heuristic = dbc_cost_time(in);
    const auto bnb = solve_bnb(in, SolveOptions{timeout_ms});
    fmt::print("exact seed {}: Table 1 x {} jobs: bnb {} cost {:.1f} makespan {:.3f} in {:.1f} ms ({}); dbc-cost-time {} "
               "assigned, cost {:.1f}\n", seed, exact_jobs, to_string(bnb.status), bnb.objective,
               bnb.decision ? makespan(in, *bnb.decision) : 0.0, bnb.seconds * 1e3, bnb.detail,
               assigned_count(heuristic), total_cost(in, heuristic));
    if (!skip_z3) {
      const auto z3 = solve_z3(in, SolveOptions{timeout_ms});
      fmt::print("  z3 {} cost {:.1f} in {:.0f} ms ({})\n", to_string(z3.status), z3.objective, z3.seconds * 1e3,
                 z3.detail);
    }
    if (exact_jobs <= kDpMaxJobs) {
      const auto dp = solve_dp(in);
      fmt::print("  dp {} cost {:.1f} makespan {:.3f} in {:.1f} ms\n", to_string(dp.status), dp.objective,
                 dp.decision ? makespan(in, *dp.decision) : 0.0, dp.seconds * 1e3);
    }
  }
}
