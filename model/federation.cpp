// The Grid-Federation model (see federation.hpp): paper 004 Table 2, Eq. 1 and 6-9; the reader of its scenario files.
#include "model/federation.hpp"

#include "model/input.hpp"
#include "model/metascheduler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::federation {

namespace {

std::vector<double> shares(const Field& list) {
  std::vector<double> out;
  for (const Field& item : list.items()) out.push_back(item.as_number(0, 1));
  if (out.empty()) list.fail("at least one share from 0 to 1");
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i] <= out[i - 1]) list.items()[i].fail("shares in increasing order, each once");
  return out;
}

Settings read_settings(const nlohmann::json& sweep, const std::string& file) {
  Settings s;
  if (sweep.is_null()) return s;
  const Field root(sweep, file, "sweep");
  root.only_keys({"bid_shares", "oft_shares", "period_days", "window", "pricing", "alpha", "budget_factor",
                  "deadline_factor", "data_mb", "integer_intervals", "strict_greedy", "drop_at_zero_interval",
                  "home_first", "budget_test", "prices", "substitute_load", "load_seed", "checks", "quick"});
  if (root.has("bid_shares")) s.bid_shares = shares(root.at("bid_shares"));
  if (root.has("oft_shares")) s.oft_shares = shares(root.at("oft_shares"));
  if (root.has("period_days")) s.period_days = root.at("period_days").as_number(0, 1e6);
  if (root.has("window")) {
    const std::string w = root.at("window").as_string();
    if (w != "median-load" && w != "first-days")
      root.at("window").fail("\"median-load\" (each trace's start-up days skipped) or \"first-days\"");
    s.window = w == "first-days" ? Window::kFirstDays : Window::kMedianLoad;
  }
  if (root.has("pricing")) {
    const std::string p = root.at("pricing").as_string();
    if (p != "processor-time" && p != "wall-clock")
      root.at("pricing").fail("\"processor-time\" (B = c l / mu) or \"wall-clock\" (B = c l / (mu p))");
    s.pricing = p == "wall-clock" ? sla::Pricing::kWallClock : sla::Pricing::kProcessorTime;
  }
  if (root.has("substitute_load")) {
    const std::string l = root.at("substitute_load").as_string();
    if (l != "as-traced" && l != "median")
      root.at("substitute_load").fail("\"as-traced\" or \"median\" (the median load of the other clusters' windows)");
    s.substitute_load = l == "median" ? SubstituteLoad::kMedian : SubstituteLoad::kAsTraced;
  }
  if (root.has("load_seed")) s.load_seed = static_cast<std::uint64_t>(root.at("load_seed").as_int(0, 1'000'000'000));
  if (root.has("alpha")) s.alpha = root.at("alpha").as_number(0, 1e3);
  if (root.has("budget_factor")) s.budget_factor = root.at("budget_factor").as_number(0, 1e6);
  if (root.has("deadline_factor")) s.deadline_factor = root.at("deadline_factor").as_number(1, 1e6);
  if (root.has("data_mb")) s.data_mb = root.at("data_mb").as_number(0, 1e9);
  if (root.has("integer_intervals")) s.integer_intervals = root.at("integer_intervals").as_bool();
  if (root.has("strict_greedy")) {
    const std::string g = root.at("strict_greedy").as_string();
    if (g != "all-that-fit" && g != "one-per-call")
      root.at("strict_greedy").fail("\"all-that-fit\" (one pass reserves every bid that fits) or \"one-per-call\"");
    s.one_reservation_per_call = g == "one-per-call";
  }
  if (root.has("drop_at_zero_interval")) s.drop_at_zero_interval = root.at("drop_at_zero_interval").as_bool();
  if (root.has("home_first")) s.home_first = root.at("home_first").as_bool();
  if (root.has("budget_test")) s.budget_test = root.at("budget_test").as_bool();
  if (root.has("prices")) {
    const std::string p = root.at("prices").as_string();
    if (p != "quotes" && p != "eq7") root.at("prices").fail("\"quotes\" (Table 2's) or \"eq7\" (c_i = c mu_i / mu)");
    s.eq7_prices = p == "eq7";
  }
  if (root.has("checks")) {
    const Field c = root.at("checks");
    c.only_keys({"exact", "every", "timeout_ms", "effort", "keep_worst"});
    if (c.has("exact")) s.exact = c.at("exact").as_string();
    if (c.has("every")) s.check_every = static_cast<std::size_t>(c.at("every").as_int(1, 1'000'000'000));
    if (c.has("timeout_ms")) s.timeout_ms = static_cast<unsigned>(c.at("timeout_ms").as_int(1, 86'400'000));
    if (c.has("effort")) s.effort = static_cast<std::uint64_t>(c.at("effort").as_int(0, 1LL << 62));
    if (c.has("keep_worst")) s.keep_worst = static_cast<std::size_t>(c.at("keep_worst").as_int(0, 1000));
  }
  if (root.has("quick")) {
    const Field q = root.at("quick");
    q.only_keys({"period_days", "bid_shares"});
    if (q.has("period_days")) s.quick_period_days = q.at("period_days").as_number(0, 1e6);
    if (q.has("bid_shares")) s.quick_bid_shares = shares(q.at("bid_shares"));
  }
  return s;
}

}  // namespace

Federation read(const scenario::Scenario& sc) {
  Federation f;
  f.scenario = sc;
  const std::string& file = sc.file;
  if (sc.clusters.empty())
    throw InputError(fmt::format("{}: clusters: expected the federation's clusters, each with \"parameters\": "
                                 "{{\"mips\", \"price\", \"bandwidth_gbps\", \"workload\"}}", file));
  if (sc.policy || sc.model || sc.router)
    throw InputError(fmt::format("{}: the federation runs paper 004's contract net: no \"policy\", \"model\" or "
                                 "\"router\" (its settings go in \"sweep\")", file));
  for (std::size_t k = 0; k < sc.clusters.size(); ++k) {
    const auto& spec = sc.clusters[k];
    const Field p(spec.parameters, file, fmt::format("clusters[{}].parameters", k));
    p.only_keys({"mips", "price", "bandwidth_gbps", "workload", "substitute"});
    Cluster c;
    c.name = spec.name;
    c.processors = spec.processors;
    c.mips = p.at("mips").as_number(1e-6, 1e12);
    c.price = p.at("price").as_number(0, 1e12);
    c.bandwidth_gbps = p.at("bandwidth_gbps").as_number(1e-9, 1e9);
    c.substitute = p.has("substitute") && p.at("substitute").as_bool();
    const std::string w = p.at("workload").as_string();
    const auto it = std::find_if(sc.workloads.begin(), sc.workloads.end(), [&](const auto& spec) { return spec.name == w; });
    if (it == sc.workloads.end()) p.at("workload").fail("the name of one of the scenario's workloads");
    c.workload = static_cast<std::size_t>(it - sc.workloads.begin());
    f.clusters.push_back(std::move(c));
  }
  f.settings = read_settings(sc.sweep, file);
  for (Cluster& c : f.clusters) c.pricing = f.settings.pricing;
  if (f.settings.eq7_prices) {  // Eq. 6-7: c_i = (c / mu) mu_i, c the access price of the fastest cluster (mu its MIPS)
    const Cluster fastest = *std::max_element(f.clusters.begin(), f.clusters.end(),
                                              [](const Cluster& a, const Cluster& b) { return a.mips < b.mips; });
    for (Cluster& c : f.clusters) c.price = fastest.price / fastest.mips * c.mips;
  }
  return f;
}

AdmissionMode admission_mode(double bid_share) {
  return bid_share == kOnArrivalShare ? AdmissionMode::kOnArrival : AdmissionMode::kBidQueue;
}

const char* to_string(AdmissionMode mode) { return mode == AdmissionMode::kOnArrival ? "fcfs" : "bid-queue"; }

const char* to_string(Window window) { return window == Window::kFirstDays ? "first-days" : "median-load"; }

TraceWindow trace_window(const workload::Workload& trace, int processors, double period, Window window) {
  TraceWindow w;
  if (trace.jobs.empty()) return w;
  const double first = trace.jobs.front().submit;
  if (window == Window::kMedianLoad && period > 0) {
    // Work submitted on each whole day from the first job, then every window of `period` seconds starting at a whole
    // day (prefix sums; the last windows run past the trace's end and are not candidates).
    const double day = 86400;
    const std::size_t days = static_cast<std::size_t>((trace.jobs.back().submit - first) / day) + 1;
    const std::size_t span = static_cast<std::size_t>(std::ceil(period / day));
    std::vector<double> work(days + 1, 0.0);
    for (const auto& j : trace.jobs) work[static_cast<std::size_t>((j.submit - first) / day) + 1] += j.procs * j.run;
    for (std::size_t d = 1; d <= days; ++d) work[d] += work[d - 1];
    std::vector<double> loads;
    for (std::size_t d = 0; d + span <= days; ++d) loads.push_back(work[d + span] - work[d]);
    if (!loads.empty()) {
      std::vector<double> sorted = loads;
      std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2), sorted.end());
      const double median = sorted[sorted.size() / 2];
      const auto at = std::find_if(loads.begin(), loads.end(), [&](double l) { return l >= median; });
      w.start = static_cast<double>(at - loads.begin()) * day;
    }
  }
  double work = 0;
  for (const auto& j : trace.jobs) {
    const double t = j.submit - first - w.start;
    if (t < 0) continue;
    if (period > 0 && t >= period) break;
    workload::Job shifted = j;
    shifted.submit = t;
    work += j.procs * j.run;
    w.jobs.push_back(shifted);
  }
  w.load = period > 0 ? work / (static_cast<double>(processors) * period) : 0.0;
  return w;
}

TraceWindow loaded_window(const workload::Workload& trace, int processors, double period, const TraceWindow& window,
                          double load, std::uint64_t seed) {
  TraceWindow w;
  w.start = window.start;
  if (trace.jobs.empty() || period <= 0) return window;
  w.jobs = metascheduler::adjust_load(trace.jobs, trace.jobs.front().submit + window.start, period, processors, load, seed);
  double work = 0;
  for (const auto& j : w.jobs) work += j.procs * j.run;
  w.load = work / (static_cast<double>(processors) * period);
  return w;
}

const char* to_string(Objective objective) { return objective == Objective::kTime ? "OFT" : "OFC"; }

double transfer_seconds(const Cluster& home, double data_mb) {
  return data_mb * 8.0 / (home.bandwidth_gbps * 1000.0);  // MB -> Mb over Gb/s
}

sla::Site site(const Cluster& cluster, int free_processors, bool budget_test) {
  sla::Site s;
  s.budget_test = budget_test;
  s.processors = cluster.processors;
  s.free_processors = free_processors;
  s.mips = cluster.mips;
  s.price = cluster.price;
  s.pricing = cluster.pricing;
  return s;
}

sla::Bid bid(const Job& job, const Terms& terms, double now, std::string id) {
  sla::Bid b;
  b.id = std::move(id);
  b.procs = job.procs;
  b.length_mi = terms.length_mi;
  b.alpha = terms.alpha;
  b.budget = terms.budget;
  b.deadline = latest_finish(job, terms) - now;
  b.expected_response = terms.de;
  return b;
}

double response_time(const Cluster& cluster, const Job& job, const Terms& terms) {
  return sla::response_time(site(cluster, cluster.processors), bid(job, terms, 0, ""));
}

double cost(const Cluster& cluster, const Job& job, const Terms& terms) {
  return sla::incentive(site(cluster, cluster.processors), bid(job, terms, 0, ""));
}

double latest_finish(const Job& job, const Terms& terms) { return job.submit + terms.deadline - terms.tr; }

Terms terms(const std::vector<Cluster>& clusters, const Job& job, const Settings& settings, double bid_share) {
  const Cluster& home = clusters[job.home];
  Terms t;
  t.length_mi = job.run_home * home.mips * job.procs;
  t.alpha = settings.alpha * job.run_home;
  const double d_home = response_time(home, job, t);        // D(J, R_home) = alpha + run_home
  t.budget = settings.budget_factor * cost(home, job, t);   // Eq. 8
  t.deadline = settings.deadline_factor * d_home;           // Eq. 9
  t.ts = t.tr = transfer_seconds(home, settings.data_mb);
  t.t_neg = bid_share * t.deadline;
  t.de = t.deadline - t.ts - t.t_neg - t.tr;                // Eq. 1
  return t;
}

}  // namespace schedcheck::federation
