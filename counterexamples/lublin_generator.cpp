// The Lublin & Feitelson model's sampler and its exact statistics (see lublin_generator.hpp). Our own code after the
// paper (JPDC 63, 2003) and lublin99.c's parameters and arrival process; gamma draws by Marsaglia & Tsang (ACM TOMS
// 26, 2000), the incomplete gamma function by its series and continued fraction (Numerical Recipes 6.2).
// Limits: the same seed gives the same bytes where the C library's exp, log and lgamma round alike.
#include "counterexamples/lublin_generator.hpp"

#include "counterexamples/rng.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace schedcheck::workload {

namespace {

constexpr double kMaxLogRun = 12;        // lublin99.c TOO_MUCH_TIME: run times up to e^12 s (about 1.9 days)
constexpr double kMaxLogArrival = 13;    // TOO_MUCH_ARRIVE_TIME: inter-arrival times up to e^13 s (about 5 days)
constexpr int kBuckets = 48;             // half hours a day
constexpr double kBucketSeconds = 1800;
constexpr int kCycleStart = 11;          // CYCLIC_DAY_START: the cycle's gamma counts half hours from bucket 10 (5:00)
constexpr double kReferenceLog2 = 7;     // lublin99.c's machine: 128 processors

constexpr std::array<std::pair<LublinType, const char*>, 4> kTypeNames{
    {{LublinType::kAll, "all"}, {LublinType::kBatch, "batch"}, {LublinType::kInteractive, "interactive"},
     {LublinType::kBoth, "both"}}};

// A standard normal deviate (Marsaglia's polar method; the second deviate of each pair is not kept).
double draw_normal(SplitMix64& rng) {
  for (;;) {
    const double u = rng.uniform(-1, 1), v = rng.uniform(-1, 1);
    const double s = u * u + v * v;
    if (s > 0 && s < 1) return u * std::sqrt(-2 * std::log(s) / s);
  }
}

// A gamma(shape, scale) deviate (Marsaglia & Tsang; shape < 1 through gamma(shape + 1) x U^(1/shape)).
double draw_gamma(SplitMix64& rng, double shape, double scale) {
  if (shape < 1) {
    const double u = 1 - rng.uniform(0, 1);  // in (0, 1]
    return draw_gamma(rng, shape + 1, scale) * std::pow(u, 1 / shape);
  }
  const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = draw_normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1 - rng.uniform(0, 1);  // in (0, 1]
    if (u < 1 - 0.0331 * x * x * x * x) return d * v * scale;
    if (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v * scale;
  }
}

// The parameter sets of lublin99.c (its MODEL PARAMETERS section), for 128 processors.
constexpr LublinClass kAllClass{0.244, 0.576, 0.8, 4.5, 7, 0.86,
                                4.2, 0.94, 312, 0.03, -0.0054, 0.78,
                                10.2303, 0.4871, 8.1737, 3.9631, 1.0225};
constexpr LublinClass kBatchClass{0.2927, 0.6686, 1.2, 5, 7, 0.875,
                                  6.57, 0.823, 639.1, 0.0156, -0.003, 0.6986,
                                  6.0415, 0.8531, 6.1271, 5.2740, 1.0519};
constexpr LublinClass kInteractiveClass{0.1541, 0.625, 1, 3, 5.5, 0.705,
                                        3.8351, 0.6605, 7.073, 0.6856, -0.0118, 0.9156,
                                        6.5510, 0.6621, 8.9186, 3.6680, 0.9797};

// The classes a type draws from, fitted to the machine: one, or batch then interactive for kBoth.
std::vector<LublinClass> classes_of(LublinType type, int processors) {
  if (type == LublinType::kBoth)
    return {fit_to_machine(kBatchClass, processors), fit_to_machine(kInteractiveClass, processors)};
  return {fit_to_machine(lublin_class(type), processors)};
}

// P(u < x) for u of the class's two-stage uniform (a stage of zero width is a point mass).
double two_stage_below(const LublinClass& c, double x) {
  auto below = [x](double lo, double hi) { return hi > lo ? std::clamp((x - lo) / (hi - lo), 0.0, 1.0) : x > lo ? 1.0 : 0.0; };
  return c.uprob * below(c.ulow, c.umed) + (1 - c.uprob) * below(c.umed, c.uhi);
}

// The share of jobs of each size 1..processors (index 0 unused) that draw_size gives.
std::vector<double> size_distribution(const LublinClass& c, int processors) {
  std::vector<double> share(static_cast<std::size_t>(processors) + 1, 0.0);
  share[1] += c.serial;
  const double other = 1 - c.serial - c.pow2;
  for (int k = 0; k <= static_cast<int>(std::ceil(c.uhi)); ++k) {  // u rounded to k: 2^k, halved when too wide
    long long size = 1LL << k;
    if (size > processors) size /= 2;
    share[static_cast<std::size_t>(size)] += c.pow2 * (two_stage_below(c, k + 0.5) - two_stage_below(c, k - 0.5));
  }
  for (int n = 1; n <= processors; ++n)  // 2^u rounded to n
    share[static_cast<std::size_t>(n)] +=
        other * (two_stage_below(c, std::log2(n + 0.5)) - two_stage_below(c, std::log2(n - 0.5)));
  return share;
}

int draw_size(const LublinClass& c, SplitMix64& rng, int processors) {
  const double u = rng.uniform(0, 1);
  if (u < c.serial) return 1;
  double x = rng.uniform(0, 1) < c.uprob ? rng.uniform(c.ulow, c.umed) : rng.uniform(c.umed, c.uhi);
  if (u < c.serial + c.pow2) {
    const long long size = 1LL << static_cast<int>(std::floor(x + 0.5));
    return static_cast<int>(size > processors ? size / 2 : size);
  }
  return std::clamp(static_cast<int>(std::floor(std::exp2(x) + 0.5)), 1, processors);
}

double hyper_gamma_p(const LublinClass& c, int size) { return std::clamp(c.pa * size + c.pb, 0.0, 1.0); }

double draw_run(const LublinClass& c, SplitMix64& rng, int size) {
  const double p = hyper_gamma_p(c, size);
  double x = 0;
  do {
    x = rng.uniform(0, 1) < p ? draw_gamma(rng, c.a1, c.b1) : draw_gamma(rng, c.a2, c.b2);
  } while (x > kMaxLogRun);
  return std::floor(std::exp(x));
}

// One class's arrivals (lublin99.c's arrive process): each gap of the busiest hours is worth e^y / 1800 points, and
// each half hour costs its weight (its share of the day's arrivals, 1 on average), so quiet hours pass quickly.
class ArrivalStream {
public:
  explicit ArrivalStream(const LublinClass& c) : shape_(c.aarr * c.arar), scale_(c.barr) {
    double total = 0;
    for (int i = kCycleStart; i < kCycleStart + kBuckets; ++i) {
      double& w = weight_[static_cast<std::size_t>((i - 1) % kBuckets)];
      w = gamma_cdf(i + 0.5, c.anum, c.bnum) - gamma_cdf(i - 0.5, c.anum, c.bnum);
      total += w;
    }
    for (double& w : weight_) w *= kBuckets / total;
  }
  double time() const { return (static_cast<double>(buckets_) + fraction_) * kBucketSeconds; }
  void advance(SplitMix64& rng) {
    double y = 0;
    do {
      y = draw_gamma(rng, shape_, scale_);
    } while (y > kMaxLogArrival);
    points_ += std::exp(y) / kBucketSeconds;
    while (points_ > weight_[bucket()]) {
      points_ -= weight_[bucket()];
      ++buckets_;
    }
    fraction_ = points_ / weight_[bucket()];
  }

private:
  std::size_t bucket() const { return static_cast<std::size_t>(buckets_ % kBuckets); }
  double shape_, scale_;
  std::array<double, kBuckets> weight_{};
  std::int64_t buckets_ = 0;   // whole half hours passed since midnight of day 0
  double points_ = 0;          // spent in the current half hour
  double fraction_ = 0;        // of the current half hour passed
};

void check(const LublinSettings& s) {
  if (s.processors < 1 || s.processors > kMaxProcessors)
    throw std::invalid_argument(fmt::format("processors: expected 1 to {}, got {}", kMaxProcessors, s.processors));
  if (s.jobs > 0 && s.days != 0) throw std::invalid_argument("expected a number of jobs or of days, not both");
  if (s.jobs == 0 && s.days == 0) throw std::invalid_argument("expected a number of jobs or of days");
  if (s.jobs > kLublinMaxJobs)
    throw std::invalid_argument(fmt::format("jobs: expected 1 to {}, got {}", kLublinMaxJobs, s.jobs));
  if (s.jobs == 0 && !(s.days > 0 && s.days <= kLublinMaxDays))
    throw std::invalid_argument(fmt::format("days: expected a number in (0, {}], got {}", kLublinMaxDays, s.days));
}

std::string describe(const char* name, const LublinClass& c) {
  return fmt::format("Model {}: serial {}, power of two {}; log2 size two-stage uniform {} / {} / {} (first stage {}); "
                     "log run time hyper-gamma ({}, {}) / ({}, {}), p = {} x size + {}; log inter-arrival gamma "
                     "({} x {}, {}), daily cycle gamma ({}, {}) over half hours",
                     name, c.serial, c.pow2, c.ulow, c.umed, c.uhi, c.uprob, c.a1, c.b1, c.a2, c.b2, c.pa, c.pb,
                     c.aarr, c.arar, c.barr, c.anum, c.bnum);
}

// E[e^y | y <= kMaxLogArrival], y gamma(aarr x arar, barr): the long-run mean gap, since a day costs as many points
// as it has half hours. Through e^y gamma(k, b)(y) = (1 - b)^-k gamma(k, b / (1 - b))(y) (needs barr < 1).
double mean_gap(const LublinClass& c) {
  const double k = c.aarr * c.arar, b = c.barr;
  return std::pow(1 - b, -k) * gamma_cdf(kMaxLogArrival, k, b / (1 - b)) / gamma_cdf(kMaxLogArrival, k, b);
}

}  // namespace

const char* to_string(LublinType type) {
  for (const auto& [t, name] : kTypeNames)
    if (t == type) return name;
  return "?";
}

std::optional<LublinType> lublin_type(std::string_view name) {
  for (const auto& [t, n] : kTypeNames)
    if (name == n) return t;
  return std::nullopt;
}

std::vector<std::string> lublin_type_names() {
  std::vector<std::string> names;
  for (const auto& entry : kTypeNames) names.emplace_back(entry.second);
  return names;
}

LublinClass lublin_class(LublinType type) {
  switch (type) {
    case LublinType::kAll: return kAllClass;
    case LublinType::kBatch: return kBatchClass;
    case LublinType::kInteractive: return kInteractiveClass;
    case LublinType::kBoth: break;
  }
  throw std::invalid_argument("the type both has no parameter set of its own (it merges batch and interactive)");
}

LublinClass fit_to_machine(LublinClass c, int processors) {
  const double top = std::log2(static_cast<double>(processors));
  const double shift = top - kReferenceLog2;
  c.uhi = std::clamp(c.uhi + shift, 0.0, top);
  c.ulow = std::min(c.ulow, c.uhi);
  c.umed = std::clamp(c.umed + shift, c.ulow, c.uhi);
  return c;
}

double gamma_cdf(double x, double shape, double scale) {
  x /= scale;
  if (!(x > 0)) return 0;
  const double log_front = -x + shape * std::log(x) - std::lgamma(shape);
  constexpr double kEps = 1e-15;
  constexpr int kIterations = 100000;
  if (x < shape + 1) {  // series: P = e^-x x^a / Gamma(a) * sum x^n / (a (a+1) ... (a+n))
    double term = 1 / shape, sum = term;
    for (int n = 1; n < kIterations && term > sum * kEps; ++n) {
      term *= x / (shape + n);
      sum += term;
    }
    return std::min(1.0, sum * std::exp(log_front));
  }
  // Q = 1 - P by its continued fraction (modified Lentz).
  constexpr double kTiny = std::numeric_limits<double>::min() / kEps;
  double b = x + 1 - shape, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < kIterations; ++i) {
    const double an = -i * (i - shape);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < kEps) break;
  }
  return std::max(0.0, 1 - std::exp(log_front) * h);
}

Workload generate_lublin(const LublinSettings& s) {
  check(s);
  const std::vector<LublinClass> classes = classes_of(s.type, s.processors);
  std::vector<ArrivalStream> streams(classes.begin(), classes.end());
  SplitMix64 rng(s.seed);
  for (auto& stream : streams) stream.advance(rng);  // each class's first arrival
  Workload w;
  w.name = fmt::format("lublin-{}-seed{}", to_string(s.type), s.seed);
  w.processors = s.processors;
  w.processors_from = "instance";
  if (s.jobs > 0) w.jobs.reserve(s.jobs);
  const double end = s.days * 86400;
  while (s.jobs == 0 || w.jobs.size() < s.jobs) {
    std::size_t k = 0;  // the class that arrives first (the last listed on a tie: interactive, as in lublin99.c)
    for (std::size_t i = 1; i < streams.size(); ++i)
      if (streams[i].time() <= streams[k].time()) k = i;
    const double at = streams[k].time();
    if (s.jobs == 0 && at >= end) break;
    streams[k].advance(rng);
    Job job;
    job.id = static_cast<std::int64_t>(w.jobs.size() + 1);
    job.submit = std::floor(at);
    job.procs = draw_size(classes[k], rng, s.processors);
    job.run = draw_run(classes[k], rng, job.procs);
    job.estimate = job.run;
    w.jobs.push_back(job);
  }
  w.records = w.jobs.size();
  return w;
}

std::string lublin_swf(const LublinSettings& s) {
  const Workload w = generate_lublin(s);
  std::vector<std::string> comments{fmt::format(
      "Note: synthetic workload, the Lublin & Feitelson (2003) model with lublin99.c's parameters: schedcheck "
      "generate-workload lublin --processors {} {} --seed {} --type {}",
      s.processors, s.jobs > 0 ? fmt::format("--jobs {}", s.jobs) : fmt::format("--days {}", s.days), s.seed,
      to_string(s.type))};
  const std::vector<LublinClass> classes = classes_of(s.type, s.processors);
  if (s.type == LublinType::kBoth) {
    comments.push_back(describe("batch", classes[0]));
    comments.push_back(describe("interactive", classes[1]));
  } else {
    comments.push_back(describe(to_string(s.type), classes[0]));
  }
  return write_swf(w, comments);
}

LublinExpected lublin_expected(LublinType type, int processors) {
  if (processors < 1 || processors > kMaxProcessors)
    throw std::invalid_argument(fmt::format("processors: expected 1 to {}, got {}", kMaxProcessors, processors));
  const std::vector<LublinClass> classes = classes_of(type, processors);
  // Each class's share of the jobs: its arrival rate's share.
  std::vector<double> gap, weight;
  double rate = 0;
  for (const auto& c : classes) {
    gap.push_back(mean_gap(c));
    rate += 1 / gap.back();
  }
  for (double g : gap) weight.push_back(1 / g / rate);
  std::vector<std::vector<double>> sizes;
  double serial = 0, parallel = 0, pow2 = 0;
  for (std::size_t k = 0; k < classes.size(); ++k) {
    sizes.push_back(size_distribution(classes[k], processors));
    serial += weight[k] * sizes[k][1];
    for (int n = 2; n <= processors; ++n) {
      const double share = weight[k] * sizes[k][static_cast<std::size_t>(n)];
      parallel += share;
      if ((n & (n - 1)) == 0) pow2 += share;
    }
  }
  // P(log run time <= x): each size's hyper-gamma, cut at kMaxLogRun.
  auto below = [&](double x) {
    double total = 0;
    for (std::size_t k = 0; k < classes.size(); ++k) {
      const LublinClass& c = classes[k];
      const double g1 = gamma_cdf(x, c.a1, c.b1), g2 = gamma_cdf(x, c.a2, c.b2);
      const double cut1 = gamma_cdf(kMaxLogRun, c.a1, c.b1), cut2 = gamma_cdf(kMaxLogRun, c.a2, c.b2);
      for (int n = 1; n <= processors; ++n) {
        const double p = hyper_gamma_p(c, n);
        total += weight[k] * sizes[k][static_cast<std::size_t>(n)] * (p * g1 + (1 - p) * g2) / (p * cut1 + (1 - p) * cut2);
      }
    }
    return total;
  };
  double lo = 0, hi = kMaxLogRun;
  for (int i = 0; i < 100; ++i) (below((lo + hi) / 2) < 0.5 ? lo : hi) = (lo + hi) / 2;
  LublinExpected e;
  e.serial_share = serial;
  e.pow2_share_of_parallel = parallel > 0 ? pow2 / parallel : 0;
  // A run time is floor(e^x): at most t exactly when x < ln(t + 1); the median is the least such t reaching 1/2.
  e.median_run = std::ceil(std::exp(hi) - 1);
  e.mean_interarrival = 1 / rate;
  return e;
}

}  // namespace schedcheck::workload
