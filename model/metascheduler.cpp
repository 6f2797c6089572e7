// Paper 000's evaluation model (see metascheduler.hpp): sec. V-A, Eq. V.1, and the scenario reader with its readings.
#include "model/metascheduler.hpp"

#include "model/input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>
#include <stdexcept>
#include <utility>

namespace schedcheck::metascheduler {

namespace {
constexpr double kHour = 3600, kDay = 24 * kHour;
}  // namespace

DeadlineSchema schema_1() { return {"schema-1", {18 * kHour, 36 * kHour, 10 * kDay}}; }
DeadlineSchema schema_2() { return {"schema-2", {12 * kHour, 1 * kDay, 7 * kDay}}; }

double k_of(const DeadlineSchema& schema, double u) {
  return u < 1.0 / 3 ? schema.k[0] : u < 2.0 / 3 ? schema.k[1] : schema.k[2];
}

double deadline(double submit, double estimate, double k) { return submit + estimate + k; }

bool Delayed::delayed() const { return new_deadline > deadline; }

std::size_t jobs_delayed(const std::vector<Delayed>& jobs) {
  std::size_t n = 0;
  for (const auto& j : jobs) n += j.delayed();
  return n;
}

double work_delayed(const std::vector<Delayed>& jobs) {
  double w = 0;
  for (const auto& j : jobs)
    if (j.delayed()) w += j.work;
  return w;
}

double total_weighted_delay(const std::vector<Delayed>& jobs, std::size_t* undefined) {
  double sum = 0;
  std::size_t bad = 0;
  for (const auto& j : jobs) {
    if (!j.delayed()) continue;
    const double asked = j.deadline - j.submit;
    if (asked <= 0) {
      ++bad;
      continue;
    }
    sum += static_cast<double>(j.tasks) * ((j.new_deadline - j.submit) / asked - 1) * 100;
  }
  if (undefined) *undefined = bad;
  return sum;
}

double load(const std::vector<workload::Job>& jobs, int processors, double window) {
  double work = 0;
  for (const auto& j : jobs) work += j.procs * j.runtime();
  return work / (static_cast<double>(processors) * window);
}

std::vector<workload::Job> adjust_load(const std::vector<workload::Job>& trace, double start, double window,
                                       int processors, double target, std::uint64_t seed) {
  const double capacity = static_cast<double>(processors) * window;
  std::vector<workload::Job> out;
  double work = 0;
  for (const auto& j : trace)
    if (j.submit >= start && j.submit < start + window) {
      out.push_back(j);
      out.back().submit -= start;
      work += j.procs * j.runtime();
    }
  // Below the target: the following windows, folded back onto this one, in trace order.
  for (const auto& j : trace) {
    if (work >= target * capacity) break;
    if (j.submit < start + window) continue;
    workload::Job copy = j;
    copy.submit = std::fmod(j.submit - start, window);
    out.push_back(copy);
    work += j.procs * j.runtime();
  }
  // Above it: jobs removed at random, one at a time.
  std::mt19937_64 rng(seed);
  while (!out.empty() && work > target * capacity) {
    const std::size_t k = static_cast<std::size_t>(rng() % out.size());
    work -= out[k].procs * out[k].runtime();
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(k));
  }
  std::stable_sort(out.begin(), out.end(), [](const workload::Job& a, const workload::Job& b) { return a.submit < b.submit; });
  return out;
}

std::vector<Job> system_jobs(const System& system, const std::vector<workload::Workload>& workloads, double days,
                             std::vector<std::size_t>* too_wide) {
  const double window = days * kDay;
  std::vector<Job> out;
  if (too_wide) too_wide->assign(system.clusters.size(), 0);
  auto add = [&](const std::vector<workload::Job>& adjusted, std::size_t cluster) {
    for (const auto& j : adjusted) {
      if (cluster != kExternal && j.procs > system.clusters[cluster].processors) {
        if (too_wide) ++(*too_wide)[cluster];
        continue;
      }
      Job job;
      job.cluster = cluster;
      job.trace_id = j.id;
      job.submit = j.submit;
      job.procs = j.procs;
      job.estimate = std::max(j.estimate, j.runtime());
      job.run = j.runtime();
      out.push_back(job);
    }
  };
  auto first_submit = [](const workload::Workload& w) { return w.jobs.empty() ? 0.0 : w.jobs.front().submit; };
  // Table II's "Job Req Time" range, on the time the reading names.
  const bool requested = system.settings.req_time_filter == ReqTimeFilter::kRequested;
  auto in_range = [&](const workload::Job& j, double min, double max) {
    const double time = requested ? j.estimate : j.runtime();
    return time >= min && time <= max;
  };
  for (std::size_t c = 0; c < system.clusters.size(); ++c) {
    const Cluster& cl = system.clusters[c];
    const workload::Workload& w = workloads.at(cl.workload);
    std::vector<workload::Job> kept;
    for (const auto& j : w.jobs)
      if (in_range(j, cl.min_estimate, cl.max_estimate)) kept.push_back(j);
    add(adjust_load(kept, first_submit(w) + cl.start_days * kDay, window, cl.processors, cl.load,
                    system.settings.load_seed + c),
        c);
  }
  const workload::Workload& ext = workloads.at(system.external.workload);
  std::vector<workload::Job> wide;
  for (const auto& j : ext.jobs)
    if (j.procs >= system.external.min_processors && in_range(j, system.external.min_estimate, system.external.max_estimate))
      wide.push_back(j);
  add(adjust_load(wide, first_submit(ext) + system.external.start_days * kDay, window, system.processors(),
                  system.external.load, system.settings.load_seed + system.clusters.size()),
      kExternal);
  std::stable_sort(out.begin(), out.end(), [](const Job& a, const Job& b) { return a.submit < b.submit; });
  return out;
}

std::vector<Job> with_deadlines(std::vector<Job> jobs, const DeadlineSchema& schema, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (Job& j : jobs) j.deadline = deadline(j.submit, j.estimate, k_of(schema, u(rng)));
  return jobs;
}

DeadlineSchema schema_named(const std::string& name) {
  if (name == "schema-1") return schema_1();
  if (name == "schema-2") return schema_2();
  throw std::invalid_argument("unknown deadline schema '" + name + "' (known: schema-1, schema-2)");
}

int System::processors() const {
  int p = 0;
  for (const auto& c : clusters) p += c.processors;
  return p;
}

namespace {

std::size_t workload_named(const scenario::Scenario& sc, const Field& field) {
  const std::string w = field.as_string();
  const auto it = std::find_if(sc.workloads.begin(), sc.workloads.end(), [&](const auto& spec) { return spec.name == w; });
  if (it == sc.workloads.end()) field.fail("the name of one of the scenario's workloads");
  return static_cast<std::size_t>(it - sc.workloads.begin());
}

// A reading's value by its name (`readings`: name and value, the default first), or a failure listing the names.
template <class Reading>
Reading reading_named(const Field& field, std::initializer_list<std::pair<const char*, Reading>> readings) {
  const std::string n = field.as_string();
  std::string all;
  for (const auto& [name, value] : readings) {
    if (n == name) return value;
    all += fmt::format("{}\"{}\"", all.empty() ? "" : " or ", name);
  }
  field.fail(all);
}

// [min, max] in hours, min <= max.
void read_range(const Field& field, double& min, double& max) {
  const auto items = field.items();
  if (items.size() != 2) field.fail("[min, max] in hours");
  min = items[0].as_number(0, 1e6) * kHour;
  max = items[1].as_number(0, 1e6) * kHour;
  if (max < min) field.fail("[min, max] with min <= max");
}

}  // namespace

System read(const scenario::Scenario& sc, const std::vector<std::string>& policies) {
  System s;
  s.scenario = sc;
  const std::string& file = sc.file;
  if (sc.clusters.empty())
    throw InputError(fmt::format("{}: clusters: expected the providers, each with \"parameters\": {{\"workload\", "
                                 "\"load\"}}", file));
  if (sc.policy || sc.model || sc.router)
    throw InputError(fmt::format("{}: the metascheduler runs paper 000's EDF providers: no \"policy\", \"model\" or "
                                 "\"router\" (its settings go in \"sweep\")", file));
  for (std::size_t k = 0; k < sc.clusters.size(); ++k) {
    const auto& spec = sc.clusters[k];
    const Field p(spec.parameters, file, fmt::format("clusters[{}].parameters", k));
    p.only_keys({"workload", "start_days", "load", "estimate_hours"});
    Cluster c;
    c.name = spec.name;
    c.processors = spec.processors;
    c.workload = workload_named(sc, p.at("workload"));
    if (p.has("start_days")) c.start_days = p.at("start_days").as_number(0, 1e5);
    c.load = p.at("load").as_number(0, 10);
    if (p.has("estimate_hours")) read_range(p.at("estimate_hours"), c.min_estimate, c.max_estimate);
    s.clusters.push_back(std::move(c));
  }
  if (sc.sweep.is_null()) throw InputError(fmt::format("{}: sweep: expected the experiment's block with \"external\"", file));
  const Field root(sc.sweep, file, "sweep");
  root.only_keys({"external", "days", "policies", "deadline_schemas", "seeds", "load_seed", "checks", "quick",
                  "dispatch", "fts_part_deadline", "req_time_filter"});
  {
    const Field e = root.at("external");
    e.only_keys({"workload", "min_processors", "start_days", "load", "estimate_hours"});
    s.external.workload = workload_named(sc, e.at("workload"));
    if (e.has("min_processors")) s.external.min_processors = static_cast<int>(e.at("min_processors").as_int(1, 1'000'000));
    if (e.has("start_days")) s.external.start_days = e.at("start_days").as_number(0, 1e5);
    s.external.load = e.at("load").as_number(0, 10);
    if (e.has("estimate_hours")) read_range(e.at("estimate_hours"), s.external.min_estimate, s.external.max_estimate);
  }
  Settings& t = s.settings;
  if (root.has("days")) t.days = root.at("days").as_number(1.0 / 24, 1e4);
  t.policies = root.has("policies") ? read_names(root.at("policies"), policies, "composition policy") : std::vector<std::string>{
      "free-time-slots", "offers-plb", "offers-dplb", "offers-dplb-fixed", "offers-dplb-v2", "offers-dplb-v2-fixed"};
  if (root.has("deadline_schemas")) t.schemas = read_names(root.at("deadline_schemas"), {"schema-1", "schema-2"}, "deadline schema");
  if (root.has("seeds")) t.seeds = static_cast<std::size_t>(root.at("seeds").as_int(1, 100'000));
  if (root.has("load_seed")) t.load_seed = static_cast<std::uint64_t>(root.at("load_seed").as_int(0, 1LL << 62));
  if (root.has("checks")) {
    const Field c = root.at("checks");
    c.only_keys({"composition_exact", "composition_timeout_ms", "composition_effort", "offers_every", "offers_exact",
                 "offers_timeout_ms", "offers_effort", "keep_worst"});
    if (c.has("composition_exact")) t.composition_exact = c.at("composition_exact").as_string();
    if (c.has("composition_timeout_ms"))
      t.composition_timeout_ms = static_cast<unsigned>(c.at("composition_timeout_ms").as_int(1, 86'400'000));
    if (c.has("composition_effort"))
      t.composition_effort = static_cast<std::uint64_t>(c.at("composition_effort").as_int(0, 1LL << 62));
    if (c.has("offers_every")) t.offers_every = static_cast<std::size_t>(c.at("offers_every").as_int(0, 1'000'000'000));
    if (c.has("offers_exact")) t.offers_exact = c.at("offers_exact").as_string();
    if (c.has("offers_timeout_ms"))
      t.offers_timeout_ms = static_cast<unsigned>(c.at("offers_timeout_ms").as_int(1, 86'400'000));
    if (c.has("offers_effort")) t.offers_effort = static_cast<std::uint64_t>(c.at("offers_effort").as_int(0, 1LL << 62));
    if (c.has("keep_worst")) t.keep_worst = static_cast<std::size_t>(c.at("keep_worst").as_int(0, 1000));
  }
  if (root.has("quick")) {
    const Field q = root.at("quick");
    q.only_keys({"days", "seeds"});
    if (q.has("days")) t.quick_days = q.at("days").as_number(1.0 / 24, 1e4);
    if (q.has("seeds")) t.quick_seeds = static_cast<std::size_t>(q.at("seeds").as_int(1, 100'000));
  }
  if (root.has("dispatch"))
    t.dispatch = reading_named<Dispatch>(
        root.at("dispatch"), {{"work-conserving", Dispatch::kWorkConserving}, {"planned-starts", Dispatch::kPlannedStarts}});
  if (root.has("fts_part_deadline"))
    t.fts_part_deadline = reading_named<FtsPartDeadline>(
        root.at("fts_part_deadline"),
        {{"bot-deadline", FtsPartDeadline::kBotDeadline}, {"slot-end", FtsPartDeadline::kSlotEnd}});
  if (root.has("req_time_filter"))
    t.req_time_filter = reading_named<ReqTimeFilter>(
        root.at("req_time_filter"), {{"run-time", ReqTimeFilter::kRunTime}, {"requested", ReqTimeFilter::kRequested}});
  return s;
}

}  // namespace schedcheck::metascheduler
