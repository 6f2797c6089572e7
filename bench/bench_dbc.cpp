// Benchmark of the DBC broker slice (paper 001): the DBC heuristic at scale (10,000 jobs x 100 resources) and the
// exact minimum cost (then makespan) on the generator's instances and on Table 1's 10 resources x N jobs. Our own.
// Not a test: figures go to docs/performance.md. Instances: Table 1 x N seeded (SplitMix64), lengths U[20, 300) MI
// on a 0.01 grid, Dfactor 0.1 (exact) / 0.3 (scale), Bfactor 0.5; the generator's are `schedcheck generate
// dbc-cost-time --seed S --size N`. Exact times: wall and thread CPU, median of --repeats solves per instance.
#include "counterexamples/dbc_generator.hpp"
#include "counterexamples/rng.hpp"
#include "reference/dbc_policies.hpp"
#include "solver/dbc_auto.hpp"
#include "solver/dbc_bnb.hpp"
#include "solver/dbc_exact.hpp"
#include "solver/dbc_z3.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <numeric>

using namespace schedcheck;
using namespace schedcheck::dbc;

namespace {
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
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

struct Run {
  ExactResult<Schedule> result;
  double wall_ms = 0, cpu_ms = 0;  // medians over the repeats
};

// One exact method by name, `repeats` times; the policy's schedule as incumbent when `incumbent` and it is full.
Run solve(const Instance& in, const std::string& method, unsigned timeout_ms, std::size_t repeats, bool incumbent) {
  std::vector<Schedule> incumbents;
  if (incumbent) {
    const Schedule policy = dbc_cost_time(in);
    if (assigned_count(policy) == in.jobs.size() && validate(in, policy).feasible) incumbents.push_back(policy);
  }
  const SolveOptions options{timeout_ms};
  Run run;
  std::vector<double> wall, cpu;
  for (std::size_t k = 0; k < std::max<std::size_t>(1, repeats); ++k) {
    const auto started = std::chrono::steady_clock::now();
    const double cpu_started = thread_cpu_ms();
    run.result = method == "bnb"  ? solve_bnb(in, options, incumbents)
                 : method == "dp" ? solve_dp(in, options)
                 : method == "z3" ? solve_z3(in, options, incumbents)
                                  : solve_auto(in, options, incumbents);
    cpu.push_back(thread_cpu_ms() - cpu_started);
    wall.push_back(ms_since(started));
  }
  run.wall_ms = median(wall);
  run.cpu_ms = median(cpu);
  return run;
}

// Solves every instance, one line each, then the summary (proven, median and max wall / CPU).
void exact_runs(const std::string& label, const std::vector<Instance>& instances, const std::string& method,
                unsigned timeout_ms, std::size_t repeats, bool incumbent) {
  std::vector<double> wall, cpu;
  std::size_t proven = 0;
  for (const Instance& in : instances) {
    const Run run = solve(in, method, timeout_ms, repeats, incumbent);
    const auto& r = run.result;
    proven += r.status == ExactStatus::kOptimal || r.status == ExactStatus::kInfeasible;
    wall.push_back(run.wall_ms);
    cpu.push_back(run.cpu_ms);
    std::string phases;
    for (const auto& [name, seconds] : r.phase_seconds) phases += fmt::format(" {} {:.1f}", name, seconds * 1e3);
    const Schedule heuristic = dbc_cost_time(in);
    fmt::print("{} {}: {} {} cost {:.1f} makespan {:.3f}: wall {:.1f} ms, cpu {:.1f} ms (phases ms:{}); {}; "
               "dbc-cost-time {} assigned, cost {:.1f}\n", label, in.name, method, to_string(r.status), r.objective,
               r.decision ? makespan(in, *r.decision) : 0.0, run.wall_ms, run.cpu_ms, phases,
               r.chain.empty() ? r.detail : r.chain.front().method + ": " + r.detail, assigned_count(heuristic),
               total_cost(in, heuristic));
  }
  if (instances.empty()) return;
  fmt::print("{} summary: {} of {} proven; wall median {:.3f} ms, max {:.3f} ms; cpu median {:.3f} ms, max {:.3f} ms "
             "({} repeat(s) per instance, medians)\n", label, proven, instances.size(), median(wall),
             *std::max_element(wall.begin(), wall.end()), median(cpu), *std::max_element(cpu.begin(), cpu.end()),
             repeats);
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"schedcheck_bench_dbc: DBC heuristic at scale; exact minimum cost on the generator's instances and on "
               "Table 1 x N jobs"};
  std::size_t jobs = 10'000, resources = 100, exact_jobs = 30, seeds = 3, repeats = 5;
  std::size_t generator_size = 0, generator_seeds = 10, exact_repeats = 1;
  unsigned timeout_ms = 5000;
  std::string method = "auto";
  app.add_option("--jobs", jobs, "jobs for the heuristic run")->capture_default_str();
  app.add_option("--resources", resources, "resources for the heuristic run")->capture_default_str();
  app.add_option("--exact-jobs", exact_jobs, "jobs on Table 1's resources for the exact run (0: none)")
      ->capture_default_str();
  app.add_option("--seeds", seeds, "instances per run (Table 1 and the heuristic at scale)")->capture_default_str();
  app.add_option("--generator-size", generator_size,
                 "also the generator's instances of this size (`schedcheck generate dbc-cost-time --size N`; 0: none)")
      ->capture_default_str();
  app.add_option("--generator-seeds", generator_seeds, "generator seeds 1..S")->capture_default_str();
  app.add_option("--method", method, "exact method: auto, bnb, dp or z3")->capture_default_str();
  app.add_option("--repeats", exact_repeats, "solves per exact instance (wall and CPU: medians)")->capture_default_str();
  app.add_option("--timeout-ms", timeout_ms, "time limit of each exact solve")->capture_default_str();
  bool incumbent = false;
  app.add_flag("--incumbent", incumbent, "give the exact method the dbc-cost-time policy's schedule (as `check` does)");
  std::string write_dir;
  app.add_option("--write-instances", write_dir,
                 "write each Table 1 instance to DIR/dbc-table1-<jobs>-seed<k>.json (for `schedcheck solve`)");
  bool skip_heuristic = false;
  app.add_flag("--exact-only", skip_heuristic, "skip the heuristic-at-scale runs");
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
  std::vector<Instance> generated, table1;
  for (std::uint64_t seed = 1; seed <= generator_seeds && generator_size > 0; ++seed)
    generated.push_back(generate_instance(seed, generator_size));
  for (std::uint64_t seed = 1; seed <= seeds && exact_jobs > 0; ++seed) {
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
    table1.push_back(std::move(in));
  }
  exact_runs(fmt::format("generator x {}", generator_size), generated, method, timeout_ms, exact_repeats, incumbent);
  exact_runs(fmt::format("Table 1 x {}", exact_jobs), table1, method, timeout_ms, exact_repeats, incumbent);
}
