// Queue windows as a Gecode CP model (see queue_window_exact.hpp). Our own encoding: starts relative to now,
// cumulative over the waiting jobs and the running jobs (fixed at 0), branching on the smallest earliest start at
// its minimum (not SetTimes with postponement: docs/performance.md, offers, says why), BAB on an integer cost:
// wait sum (sum of starts + a constant), makespan (the latest end), or the bounded-slowdown sum times
// L = lcm of max(estimate, 10): sum of (L / m_j) max(m_j, start_j + now - submit_j + estimate_j).
#include "solver/queue_window_exact.hpp"
#include "solver/gecode_stop.hpp"

#include <fmt/format.h>
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>

namespace schedcheck::window {

namespace {

constexpr double kMaxUnits = 1e9;  // Gecode's integers stop near 2^31: horizons and costs stay below this

bool whole(double x) { return std::floor(x) == x && std::abs(x) < 1e15; }

struct Data {
  std::string why_unknown;
  int processors = 0, horizon = 0;
  std::vector<std::size_t> jobs;          // waiting indices with estimate > 0
  std::vector<int> duration, height, offset;  // offset: now - submit
  std::vector<long long> weight;          // bounded slowdown: L / m_j
  std::vector<int> floor;                 // bounded slowdown: m_j
  std::vector<std::pair<int, int>> running;  // (remaining, procs)
  Objective objective = Objective::kBoundedSlowdown;
};

Data build(const Instance& instance) {
  Data d;
  d.objective = instance.objective;
  d.processors = instance.processors;
  bool integral = whole(instance.now);
  double horizon = 0;
  for (const auto& r : instance.running) {
    integral = integral && whole(r.remaining);
    horizon = std::max(horizon, r.remaining);
    d.running.emplace_back(static_cast<int>(std::min(r.remaining, kMaxUnits)), r.procs);
  }
  for (std::size_t i = 0; i < instance.waiting.size(); ++i) {
    const WaitingJob& w = instance.waiting[i];
    integral = integral && whole(w.estimate) && whole(w.submit);
    if (w.estimate <= 0) continue;
    horizon += w.estimate;
    d.jobs.push_back(i);
  }
  if (!integral) {
    d.why_unknown = "gecode needs whole seconds (now, submit times, estimates, remaining times)";
    return d;
  }
  double latest_offset = 0;
  for (std::size_t i : d.jobs) latest_offset = std::max(latest_offset, instance.now - instance.waiting[i].submit);
  if (horizon + latest_offset > kMaxUnits) {
    d.why_unknown = fmt::format("gecode: a horizon of {:g} s is beyond Gecode's integers", horizon);
    return d;
  }
  d.horizon = static_cast<int>(horizon);
  long long lcm = 1;
  for (std::size_t i : d.jobs) {
    const WaitingJob& w = instance.waiting[i];
    d.duration.push_back(static_cast<int>(w.estimate));
    d.height.push_back(w.procs);
    d.offset.push_back(static_cast<int>(instance.now - w.submit));
    const long long m = static_cast<long long>(std::max(w.estimate, 10.0));
    d.floor.push_back(static_cast<int>(m));
    if (instance.objective == Objective::kBoundedSlowdown) {
      lcm = std::lcm(lcm, m);
      if (lcm > static_cast<long long>(kMaxUnits)) {
        d.why_unknown = "gecode: the bounded-slowdown sum needs a common denominator (lcm of max(estimate, 10)) beyond "
                        "Gecode's integers; use sequences";
        return d;
      }
    }
  }
  if (instance.objective == Objective::kBoundedSlowdown) {
    double largest = 0;
    for (std::size_t k = 0; k < d.jobs.size(); ++k) {
      d.weight.push_back(lcm / d.floor[k]);
      largest += static_cast<double>(d.weight.back()) * (horizon + d.offset[k] + d.duration[k]);
    }
    if (largest > kMaxUnits) {
      d.why_unknown = fmt::format("gecode: the scaled bounded-slowdown sum can reach {:g}, beyond Gecode's integers; use "
                                  "sequences", largest);
      return d;
    }
  }
  return d;
}

class Model : public Gecode::IntMinimizeSpace {
 public:
  Gecode::IntVarArray start;
  Gecode::IntVar total;

  explicit Model(const Data& d) : start(*this, static_cast<int>(d.jobs.size()), 0, d.horizon) {
    using namespace Gecode;
    IntVarArgs all;
    IntArgs duration, height;
    for (int k = 0; k < start.size(); ++k) {
      all << start[k];
      duration << d.duration[static_cast<std::size_t>(k)];
      height << d.height[static_cast<std::size_t>(k)];
    }
    for (const auto& [remaining, procs] : d.running) {
      all << IntVar(*this, 0, 0);
      duration << remaining;
      height << procs;
    }
    if (all.size() > 0) cumulative(*this, d.processors, all, duration, height, IPL_BASIC_ADVANCED);
    // Redundant, optimum-preserving: some optimal schedule is left-justified (every objective is regular), and in a
    // left-justified schedule every job starts at now or when another job (running or waiting) ends.
    for (int j = 0; j < start.size(); ++j) {
      BoolVarArgs reasons;
      reasons << expr(*this, start[j] == 0);
      for (const auto& [remaining, procs] : d.running) reasons << expr(*this, start[j] == remaining);
      for (int k = 0; k < start.size(); ++k)
        if (k != j) reasons << expr(*this, start[j] == start[k] + d.duration[static_cast<std::size_t>(k)]);
      rel(*this, BOT_OR, reasons, 1);
    }
    // Identical jobs (same width, estimate and submit time) start in queue order.
    for (int j = 0; j < start.size(); ++j)
      for (int k = j + 1; k < start.size(); ++k) {
        const auto a = static_cast<std::size_t>(j), b = static_cast<std::size_t>(k);
        if (d.duration[a] == d.duration[b] && d.height[a] == d.height[b] && d.offset[a] == d.offset[b])
          rel(*this, start[j], IRT_LQ, start[k]);
      }
    IntVarArgs terms;
    IntArgs weights;
    switch (d.objective) {
      case Objective::kWait:
        for (int k = 0; k < start.size(); ++k) {
          terms << start[k];
          weights << 1;
        }
        total = IntVar(*this, 0, Int::Limits::max);
        if (terms.size() > 0) linear(*this, weights, terms, IRT_EQ, total);
        else rel(*this, total, IRT_EQ, 0);
        break;
      case Objective::kMakespan: {
        IntVarArgs ends;
        for (int k = 0; k < start.size(); ++k) ends << expr(*this, start[k] + d.duration[static_cast<std::size_t>(k)]);
        total = IntVar(*this, 0, Int::Limits::max);
        if (ends.size() > 0) max(*this, ends, total);
        else rel(*this, total, IRT_EQ, 0);
        break;
      }
      case Objective::kBoundedSlowdown:
        for (int k = 0; k < start.size(); ++k) {
          const auto kk = static_cast<std::size_t>(k);
          // y_k = max(m_k, start_k + offset_k + duration_k): the bounded response, in seconds.
          IntVar y(*this, d.floor[kk], std::max(d.floor[kk], d.horizon + d.offset[kk] + d.duration[kk]));
          rel(*this, y == max(d.floor[kk], start[k] + (d.offset[kk] + d.duration[kk])));
          terms << y;
          weights << static_cast<int>(d.weight[kk]);
        }
        total = IntVar(*this, 0, Int::Limits::max);
        if (terms.size() > 0) linear(*this, weights, terms, IRT_EQ, total);
        else rel(*this, total, IRT_EQ, 0);
        break;
    }
    if (start.size() > 0) branch(*this, start, INT_VAR_MIN_MIN(), INT_VAL_MIN());  // not SetTimes: see the header
  }
  Model(Model& other) : Gecode::IntMinimizeSpace(other) {
    start.update(*this, other.start);
    total.update(*this, other.total);
  }
  Gecode::Space* copy() override { return new Model(*this); }
  Gecode::IntVar cost() const override { return total; }
};

}  // namespace

ExactResult<Schedule> solve_gecode(const Instance& instance, const SolveOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  ExactResult<Schedule> result;
  auto finish = [&] {
    result.seconds = seconds_since(started);
    return result;
  };
  if (instance.waiting.size() > kMaxGecodeJobs) {  // checked first: building the model would outlast any limit
    result.detail = fmt::format("gecode: {} waiting jobs, the limit is {} (its model grows with the square of the "
                                "jobs; use bnb)", instance.waiting.size(), kMaxGecodeJobs);
    return finish();
  }
  const Data d = build(instance);
  if (!d.why_unknown.empty()) {
    result.detail = d.why_unknown;
    return finish();
  }
  auto root = std::make_unique<Model>(d);
  const auto stop = gecode_support::time_or_stop_request(options.timeout_ms, options.effort, kWindowGecodeUnitsPerNode);
  Gecode::Search::Options search_options;
  search_options.stop = stop.get();
  search_options.threads = 1;
  Gecode::BAB<Model> engine(root.get(), search_options);
  std::unique_ptr<Model> best;
  while (Model* solution = engine.next()) best.reset(solution);
  const bool stopped = engine.stopped();
  if (!best) {
    result.detail = !stopped                ? "gecode: no schedule (cannot happen)"
                    : stop->effort_spent() ? "gecode: " + effort_budget_reached(options.effort, " before a first schedule")
                                           : std::string("gecode: time limit before a first schedule");
    return finish();
  }
  Schedule schedule;
  schedule.start.assign(instance.waiting.size(), instance.now);
  for (std::size_t k = 0; k < d.jobs.size(); ++k)
    schedule.start[d.jobs[k]] = instance.now + best->start[static_cast<int>(k)].val();
  result.decision = schedule;
  result.objective = objective(instance, schedule);
  result.status = stopped ? ExactStatus::kFeasible : ExactStatus::kOptimal;
  result.detail = fmt::format("{} nodes, {} failures{}", engine.statistics().node, engine.statistics().fail,
                              !stopped               ? ""
                              : stop->effort_spent() ? "; " + effort_budget_reached(options.effort, ": best found, not proven")
                                                     : std::string("; time limit: best found, not proven"));
  return finish();
}

}  // namespace schedcheck::window
