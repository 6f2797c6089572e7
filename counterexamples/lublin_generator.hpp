// The Lublin & Feitelson workload model of rigid parallel jobs as a seeded generator: job sizes, run times and
// arrivals with their daily cycle (U. Lublin, D. G. Feitelson, JPDC 63(11), 2003), with the parameter values and the
// arrival process of Lublin's reference implementation lublin99.c; our own code. Limits: no users, feedback or
// runtime estimates (the requested time is the run time); the sizes' fit to machines other than 128 is ours.
#pragma once

#include "model/workload.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedcheck::workload {

// Which of the model's parameter sets: the typeless fit of the whole sample ("all", the default: the model as
// lublin99.c runs it unless told to tell the types apart), batch jobs, interactive jobs, or both types, each its own
// arrival stream, merged ("both": lublin99.c's INCLUDE_JOBS_TYPE).
enum class LublinType { kAll, kBatch, kInteractive, kBoth };
const char* to_string(LublinType type);                     // "all", "batch", "interactive", "both"
std::optional<LublinType> lublin_type(std::string_view name);  // nullopt for another name
std::vector<std::string> lublin_type_names();

// One job class of the model, as lublin99.c gives it for a machine of 128 processors (2^uhi).
struct LublinClass {
  // Size: 1 with probability serial; else 2^u rounded, u from a two-stage uniform (on [ulow, umed] with probability
  // uprob, else on [umed, uhi]), and u itself rounded first with probability pow2 (a power of two).
  double serial, pow2, ulow, umed, uhi, uprob;
  // Run time: e^x seconds, x hyper-gamma (gamma(a1, b1) with probability p, else gamma(a2, b2); shape, scale),
  // p = pa x size + pb within [0, 1], x at most 12 (drawn again above).
  double a1, b1, a2, b2, pa, pb;
  // Inter-arrival: e^y seconds of the busiest time of day, y gamma(aarr x arar, barr) at most 13 (drawn again
  // above), stretched by the daily cycle: a half hour's share of the day's arrivals is the mass of gamma(anum, bnum)
  // over that half hour, counted in half hours from 5:00 (lublin99.c's CYCLIC_DAY_START).
  double aarr, barr, anum, bnum, arar;
};
// The class's published values; kBoth has none (it merges kBatch and kInteractive): std::invalid_argument.
LublinClass lublin_class(LublinType type);
// The class fitted to a machine of `processors`: umed and uhi moved by log2(processors) - 7 (lublin99.c: uhi is
// the log2 of the largest job, umed some 2.5 below it), uhi kept within [0, log2(processors)], ulow at most uhi and
// umed within [ulow, uhi] (so on machines under 10 processors, under 32 for interactive jobs, the first stage shrinks).
LublinClass fit_to_machine(LublinClass c, int processors);

struct LublinSettings {
  std::uint64_t seed = 1;
  int processors = 256;
  std::size_t jobs = 0;  // this many jobs, or
  double days = 0;       // every job submitted within this many days (exactly one of the two is given)
  LublinType type = LublinType::kAll;
};
inline constexpr std::size_t kLublinMaxJobs = 10'000'000;
inline constexpr double kLublinMaxDays = 3650;

// The jobs of the model: ids 1.., submit times in whole seconds from midnight of day 0 (the first job at the first
// inter-arrival time), whole-second run times of at least 1 s, estimate = run time, 1 to `processors` processors.
// A pure function of the settings (counterexamples/rng.hpp, our own gamma and normal draws): the same settings give
// the same jobs wherever the C library's exp, log and lgamma round alike. Throws std::invalid_argument on settings out of range (processors 1 to
// kMaxProcessors, jobs 1 to kLublinMaxJobs or days in (0, kLublinMaxDays], not both).
Workload generate_lublin(const LublinSettings& settings);
// The SWF text of generate_lublin(settings) (workload::write_swf), its header naming the model, the settings, the
// seed and every parameter value used.
std::string lublin_swf(const LublinSettings& settings);

// What the model itself gives, computed from its distributions (no sampling), on a machine of `processors`:
// the share of serial jobs, the share of powers of two among the parallel ones, the median run time (s, whole
// seconds as generated) and the long-run mean inter-arrival time (s). For kBoth, the two classes weighted by their
// arrival rates. Some 100 x processors steps: for tests and tables, not for every run.
struct LublinExpected {
  double serial_share = 0;
  double pow2_share_of_parallel = 0;
  double median_run = 0;
  double mean_interarrival = 0;
};
LublinExpected lublin_expected(LublinType type, int processors);

// The regularised lower incomplete gamma function P(shape, x / scale): the CDF of gamma(shape, scale) at x.
double gamma_cdf(double x, double shape, double scale);

}  // namespace schedcheck::workload
