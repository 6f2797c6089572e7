// Benchmark helpers of the trace-driven simulation (docs/simulation.md). Our own. Not a test: figures go to
// docs/performance.md, timed as whole processes (with `schedcheck simulate` for the runs themselves).
//   read TRACE            reads a trace with the SWF reader only and prints lines, jobs and lines/s
//   synthetic N OUT.swf   writes a seeded synthetic trace of N jobs on 1024 processors (Lublin-like shapes: half
//                         the jobs narrow, powers of two, heavy-tailed run times, estimates over run times)
//   parallel N P LOAD OUT.swf   N parallel jobs on P processors at offered load LOAD: widths log-uniform from 1 to P/4,
//                         run times uniform in 1..1000 s, estimates 1 to 3 times the run, Poisson arrivals
#include "counterexamples/rng.hpp"
#include "model/swf.hpp"
#include "model/workload.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

using namespace schedcheck;

namespace {

int read_only(const std::string& path) {
  const auto start = std::chrono::steady_clock::now();
  swf::Reader reader(path, false);
  swf::Record record;
  std::size_t records = 0;
  double checksum = 0;
  while (reader.next(record)) {
    ++records;
    checksum += record.run;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("{}: {} lines, {} job records in {:.4f} s: {:.0f} lines/s (checksum {:g})\n", path, reader.lines(), records,
             seconds, static_cast<double>(reader.lines()) / seconds, checksum);
  return 0;
}

int synthetic(std::size_t jobs, const std::string& out_path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(out_path.c_str(), "wb"), std::fclose);
  if (!out) {
    fmt::print(stderr, "{}: cannot write\n", out_path);
    return 2;
  }
  fmt::print(out.get(), "; Version: 2.2\n; Computer: synthetic (schedcheck bench)\n; MaxJobs: {}\n; MaxProcs: 1024\n", jobs);
  SplitMix64 rng(42);
  double submit = 0;
  for (std::size_t j = 1; j <= jobs; ++j) {
    submit += std::floor(-std::log(1 - rng.uniform(0, 1)) * 90);  // ~ Poisson arrivals, 90 s apart on average
    const int procs = rng.chance(0.5) ? static_cast<int>(rng.integer(1, 4)) : 1 << rng.integer(0, 6);
    const double run = std::floor(std::exp(rng.uniform(0, std::log(86400.0))));
    const double estimate = std::ceil(run * rng.uniform(1, 5));
    fmt::print(out.get(), "{} {} -1 {} {} -1 -1 {} {} -1 1 {} 1 -1 1 -1 -1 -1\n", j, submit, run, procs, procs, estimate,
               rng.integer(1, 300));
  }
  return 0;
}

// Parallel jobs on a wide machine, submitted so that total work / (P x span) is `load`: the shape where conservative
// backfilling's compression meets many counts that fit and few common processor sets (docs/performance.md).
int parallel(std::size_t jobs, int processors, double load, const std::string& out_path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(out_path.c_str(), "wb"), std::fclose);
  if (!out) {
    fmt::print(stderr, "{}: cannot write\n", out_path);
    return 2;
  }
  struct Shape {
    int procs;
    double run, estimate;
  };
  SplitMix64 rng(7);
  std::vector<Shape> shapes(jobs);
  double work = 0;
  const int widest = std::max(1, processors / 4);
  for (Shape& s : shapes) {
    s.procs = std::clamp(static_cast<int>(std::exp(rng.uniform(0, std::log(widest + 1.0)))), 1, widest);
    s.run = static_cast<double>(rng.integer(1, 1000));
    s.estimate = std::ceil(s.run * rng.uniform(1, 3));
    work += s.run * s.procs;
  }
  const double gap = work / (processors * load) / static_cast<double>(jobs);
  fmt::print(out.get(), "; Version: 2.2\n; Computer: synthetic parallel (schedcheck bench)\n; MaxJobs: {}\n; MaxProcs: {}\n",
             jobs, processors);
  double submit = 0;
  for (std::size_t j = 0; j < jobs; ++j) {
    submit += std::floor(-std::log(1 - rng.uniform(0, 1)) * gap);
    const Shape& s = shapes[j];
    fmt::print(out.get(), "{} {} -1 {} {} -1 -1 {} {} -1 1 1 1 -1 1 -1 -1 -1\n", j + 1, submit, s.run, s.procs, s.procs,
               s.estimate);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"schedcheck_bench_simulation: helpers for the simulation benchmarks (docs/performance.md)"};
  app.require_subcommand(1);
  std::string path;
  std::size_t jobs = 1'000'000;
  auto* read = app.add_subcommand("read", "read a trace only (SWF reader speed)");
  read->add_option("trace", path, "the .swf or .swf.gz file")->required();
  auto* make = app.add_subcommand("synthetic", "write a synthetic trace");
  make->add_option("jobs", jobs, "jobs")->required();
  make->add_option("out", path, "output .swf")->required();
  int processors = 5000;
  double load = 0.9;
  auto* wide = app.add_subcommand("parallel", "write a trace of parallel jobs on a wide machine");
  wide->add_option("jobs", jobs, "jobs")->required();
  wide->add_option("processors", processors, "processors of the machine")->required()->check(CLI::Range(4, 10000000));
  wide->add_option("load", load, "offered load")->required()->check(CLI::Range(0.01, 10.0));
  wide->add_option("out", path, "output .swf")->required();
  CLI11_PARSE(app, argc, argv);
  try {
    if (*read) return read_only(path);
    if (*wide) return parallel(jobs, processors, load, path);
    return synthetic(jobs, path);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 2;
  }
}
