// Small seeded traces and their shrinking (see workload_generator.hpp). Our own.
#include "counterexamples/workload_generator.hpp"

#include "counterexamples/job_sizes.hpp"
#include "counterexamples/rng.hpp"
#include "counterexamples/shrink.hpp"

#include <algorithm>
#include <cmath>

namespace schedcheck::workload {

Workload generate_workload(std::uint64_t seed, std::size_t jobs) {
  SplitMix64 rng(seed);
  Workload w;
  w.name = "generated-seed" + std::to_string(seed);
  w.processors = draw_machine_processors(rng);
  w.processors_from = "instance";
  double submit = 0;
  const double factors[] = {1, 1, 1.5, 2, 4};
  for (std::size_t i = 0; i < jobs; ++i) {
    if (i > 0 && !rng.chance(0.25)) submit += static_cast<double>(rng.integer(0, kMaxGap));
    Job job;
    job.id = static_cast<std::int64_t>(i + 1);
    job.submit = submit;
    const JobSize size = draw_job_size(rng, w.processors, kMaxRun);
    job.procs = size.procs;
    job.run = size.seconds;
    job.estimate = std::ceil(job.run * factors[rng.integer(0, 4)]);
    if (rng.chance(0.1)) job.estimate = std::ceil(job.run / 2);
    w.jobs.push_back(job);
  }
  w.records = w.jobs.size();
  for (const auto& j : w.jobs) w.killed += j.killed();
  return w;
}

std::vector<Workload> shrink_workload(const Workload& w) {
  ShrinkCandidates<Workload> out(w, [](Workload& c) {
    c.records = c.jobs.size();
    c.killed = 0;
    for (const auto& j : c.jobs) c.killed += j.killed();
    return !c.jobs.empty();
  });
  out.drop_each(&Workload::jobs);
  for (std::size_t i = 1; i < w.jobs.size(); ++i)
    if (w.jobs[i].submit > w.jobs[i - 1].submit)
      out.add([&](Workload& c) {  // shift this job (and the later ones) back to the previous submit
        const double shift = c.jobs[i].submit - c.jobs[i - 1].submit;
        for (std::size_t k = i; k < c.jobs.size(); ++k) c.jobs[k].submit -= shift;
      });
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    if (w.jobs[i].estimate != w.jobs[i].run) out.add([&](Workload& c) { c.jobs[i].estimate = c.jobs[i].run; });
    if (w.jobs[i].run > 1)
      out.add([&](Workload& c) {
        c.jobs[i].run = std::ceil(c.jobs[i].run / 2);
        c.jobs[i].estimate = std::max(1.0, std::ceil(c.jobs[i].estimate / 2));
      });
    if (w.jobs[i].procs > 1) out.add([&](Workload& c) { c.jobs[i].procs = (c.jobs[i].procs + 1) / 2; });
  }
  int widest = 0;
  for (const auto& j : w.jobs) widest = std::max(widest, j.procs);
  if (w.processors > widest) out.add([](Workload& c) { c.processors -= 1; });
  return out.take();
}

}  // namespace schedcheck::workload
