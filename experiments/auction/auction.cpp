// `schedcheck experiment auction`: paper 003 sec. 5 — Table 1's resources, the two VO domains, Table 2's ten users
// (examples/scenarios/auction.json) on auction-based proportional-share resources, each seed drawing the users' task
// lengths; Figures 2-5 (bids and shares over time on R1 and R4, from the first seed), 6-7 (run time and cost per
// user over the seeds), the paper's statements as claims, every run property on every event, every k-th broker
// decision against auction-bid. Limits: as the model's; the decision checks hold the other users' bids fixed.
#include "experiments/auction/auction.hpp"

#include "counterexamples/rng.hpp"
#include "experiments/claims.hpp"
#include "experiments/runner.hpp"
#include "model/auction_bid.hpp"
#include "model/auction_scenario.hpp"
#include "model/input.hpp"
#include "model/job_metrics.hpp"
#include "model/jobs_csv.hpp"
#include "properties/auction_properties.hpp"
#include "properties/decision_probe.hpp"
#include "reference/auction_brokers.hpp"
#include "report/charts.hpp"
#include "simulation/auction_system.hpp"
#include "support/files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#ifndef SCHEDCHECK_AUCTION_SCENARIO
#define SCHEDCHECK_AUCTION_SCENARIO ""
#endif

namespace schedcheck::experiments {
namespace auction_run {

using auction::Scenario;
namespace system = sim::auction_system;

constexpr std::size_t kDefaultSeeds = 10;
constexpr std::size_t kQuickSeeds = 2;
constexpr double kSecondsPerHour = 3600;
// Sec. 5.3's instants, in minutes of the run.
constexpr double kU3StillOnR4Minute = 400;
constexpr double kU8MaxBidFrom = 49, kU8MaxBidTo = 120;

const char* const kCapacityTotal = "capacity-total";
const char* const kRecomputeEvent = "recompute-event";
const char* const kTaskSpeedShare = "task-speed-share";
const char* const kLocalDomainHalf = "local-domain-half";

std::vector<Reading> auction_readings() {
  return {{kCapacityTotal, "\"capacity\": \"total\"",
           "Table 1's C as the resource's total MIPS (sec. 3.2's words) instead of each PE's SPEC rating"},
          {kRecomputeEvent, "\"recompute\": \"event\"",
           "the auctioneer recomputes the split whenever a user's last task ends (GridSim's time-shared resource), "
           "not only at each bidding interval"},
          {kTaskSpeedShare, "\"task_speed\": \"share\"",
           "a task runs at its whole share of the resource (Eq. 1 as printed), not at most at one PE's speed"},
          {kLocalDomainHalf, "\"policy\": \"local-domain-half\" for the Local Domain users",
           "the Local Domain broker sends List tasks to a resource only while they finish within time / 2"}};
}

auction::ScenarioNames scenario_names() {
  return {auction::broker_policy_names(), auction::brokers_needing_bid()};
}

// The scenario as a reading changes it.
Scenario with_reading(Scenario s, const std::string& reading) {
  if (reading == kCapacityTotal) s.capacity = auction::Capacity::kTotal;
  if (reading == kRecomputeEvent) s.recompute = auction::Recompute::kEvent;
  if (reading == kTaskSpeedShare) s.task_speed = auction::TaskSpeed::kShare;
  if (reading == kLocalDomainHalf)
    for (auction::UserSpec& u : s.users)
      if (u.policy == "local-domain") u.policy = "local-domain-half";
  return s;
}

// Each user's task lengths: given in the file, or drawn uniformly in [min_length, max_length] from (seed, user).
std::vector<std::vector<double>> draw_lengths(const Scenario& s, std::uint64_t seed) {
  std::vector<std::vector<double>> all;
  for (std::size_t u = 0; u < s.users.size(); ++u) {
    const auction::UserSpec& user = s.users[u];
    if (!user.lengths.empty()) {
      all.push_back(user.lengths);
      continue;
    }
    SplitMix64 rng(trial_seed(seed, u));
    std::vector<double> lengths;
    for (std::size_t t = 0; t < user.tasks; ++t)
      lengths.push_back(user.min_length == user.max_length ? user.min_length : rng.uniform(user.min_length, user.max_length));
    all.push_back(std::move(lengths));
  }
  return all;
}

std::optional<std::size_t> resource_named(const Scenario& s, const std::string& name) {
  for (std::size_t r = 0; r < s.resources.size(); ++r)
    if (s.resources[r].name == name) return r;
  return std::nullopt;
}
std::optional<std::size_t> user_named(const Scenario& s, const std::string& name) {
  for (std::size_t u = 0; u < s.users.size(); ++u)
    if (s.users[u].name == name) return u;
  return std::nullopt;
}

std::string metric_of(const std::string& user, const std::string& what) { return user + "." + what; }

// Each broker decision against the cheapest plan that meets the deadline (problem auction-bid, exact `bnb`): the
// broker's placement of the tasks it has placed (running, queued, submitted now; the Local Domain's List is left out
// of both sides) with its bids held, the other users' bids in force fixed. Whether the broker's plan meets the
// deadline and its gap are measured; a plan the validator rejects for another reason, a charge that is not what the
// auctioneer bills, or a plan cheaper than the proven optimum is a violation.
const std::vector<std::string> kMeasuredBidProperties = {"deadline-met", "deadline-met-when-affordable",
                                                          "cost-optimal-within"};
// Per checked decision: 99% are proven in about 10 ms, the rest not in 10 s. The budget (SolveOptions::effort) ends
// a check, about 250 ms of work; the time limit is a safety net ten times that.
constexpr unsigned kBidSolveMs = 2500;
constexpr std::uint64_t kBidSolveEffort = 62'500;
constexpr std::size_t kKeepWorstBids = 2;    // corpus files written per broker: its worst decisions of the sweep

ProbeSettings bid_probe_settings() {
  ProbeSettings settings;
  settings.exact = "bnb";
  settings.solve.timeout_ms = kBidSolveMs;
  settings.solve.effort = kBidSolveEffort;
  settings.keep_worst = kKeepWorstBids;
  settings.measured = kMeasuredBidProperties;
  return settings;
}

// auction-bid holds the other users as one total bid O against which a share is min(B / (B + O) x Ctot, Ccap); the
// auctioneer caps each of them at one PE too, and gives what a capped user leaves to the others (water-filling).
// The O that gives the user, at bid `at` (its bid held), exactly the share the auctioneer's split gives it: so the
// broker's plan is judged on the true shares of its own bids, and the exact side's other bids on O's curve.
double effective_others(const auction::Resource& spec, const std::vector<double>& others, double at, auction::Capacity capacity) {
  if (others.empty()) return 0;
  const double total = auction::total_mips(spec, capacity), cap = auction::task_mips_cap(spec, capacity);
  std::vector<double> bids = others;
  bids.push_back(at);
  const double share = auction::split(bids, total, cap).back();
  // At the cap any O up to at x (Ctot / Ccap - 1) gives the cap: the largest, so that no bid is shown more than it buys.
  return at * (total / std::min(share, cap) - 1);
}

class BidProbe final : public system::Observer {
public:
  BidProbe(const Scenario& s, const Registry& registry, std::uint64_t seed)
      : scenario_(s), seed_(seed), problem_(registry.typed<auction_bid::Instance, auction_bid::Plan>("auction-bid")) {}

  void on_decision(const system::DecisionView& v) override {
    const auction::BrokerSnapshot& s = v.snapshot;
    const double time_left = s.deadline + s.start - s.now;
    const std::string& policy = scenario_.users[v.user].policy;
    if (time_left <= 0) return;  // past D: no deadline left to meet (Eq. 6 bids the maximum)
    auction_bid::Instance instance;
    instance.capacity = v.capacity;
    instance.time_left = time_left;
    instance.interval = v.interval;
    auction_bid::Plan plan;
    std::vector<double> held(s.resources.size(), 0);
    for (std::size_t r = 0; r < s.resources.size(); ++r) {
      const auction::ResourceView& rv = s.resources[r];
      const auction::Resource& spec = scenario_.resources[rv.resource];
      if (rv.account) held[r] = auction::clamp_bid(spec, rv.bid);
      instance.resources.push_back(auction_bid::Resource{
          .spec = spec, .others_bid = effective_others(spec, v.truth[r].other_bids, held[r] > 0 ? held[r] : spec.min_bid, v.capacity),
          .foreign = v.truth[r].foreign});
      instance.resources.back().spec.domains.clear();
      const system::TruthView& t = v.truth[r];
      if (t.running_remaining > auction::kWorkEpsilon) {
        instance.tasks.push_back(auction_bid::Task{.id = fmt::format("r{}", r), .length = t.running_remaining,
                                                   .running_on = r});
        plan.assign.push_back(r);
      }
      for (const auto& [task, left] : t.queued) {
        instance.tasks.push_back(auction_bid::Task{.id = fmt::format("t{}", task), .length = left});
        plan.assign.push_back(r);
      }
    }
    for (const auction::BidOrder& b : v.decision.bids)
      held[b.resource] = auction::clamp_bid(scenario_.resources[s.resources[b.resource].resource], b.bid);
    for (const auction::Submission& sub : v.decision.submissions)
      for (const auction::PendingTask& t : s.pending)
        if (t.id == sub.task) {
          instance.tasks.push_back(auction_bid::Task{.id = fmt::format("t{}", t.id), .length = t.length});
          plan.assign.push_back(sub.resource);
        }
    if (instance.tasks.empty()) return;
    // Each user's decisions sampled apart (the users decide in a fixed order at the same instants: one count over
    // all of them would check the same users every time).
    if (offered_[v.user]++ % scenario_.check_every != 0) return;
    // One probe a broker: its worst decisions are kept apart from the others'.
    auto& probe = probes_.try_emplace(policy, problem_, bid_probe_settings()).first->second;
    probe.sample();
    plan = auction_bid::plan_from(instance, plan.assign, held);
    const std::string where = fmt::format("{} ({}) at t={:g} s, seed {}", scenario_.users[v.user].name, policy, s.now, seed_);
    instance.name = fmt::format("auction-{}-{}-t{:g}-seed{}", scenario_.users[v.user].name, policy, s.now, seed_);
    instance.recorded = auction_bid::Recorded{.by = where, .plan = plan};
    const Report& report = probe.check(s.now, where, instance, plan, "recorded");
    Tally& tally = by_policy_[policy];
    ++tally.checked;
    for (const auto& p : report.properties) {
      if (p.status != PropertyStatus::kFails) continue;
      if (p.name == "deadline-met") ++tally.missed;
      if (p.name == "deadline-met-when-affordable") ++tally.missed_affordable;
    }
    if (report.gap) tally.gaps.push_back(*report.gap);
  }

  // Per broker: decisions checked, plans missing the deadline, of which an exact plan meets it, the median gap.
  void add_metrics(RunRecord& record) const {
    for (const auto& [policy, t] : by_policy_) {
      std::vector<double> gaps = t.gaps;
      std::sort(gaps.begin(), gaps.end());
      record.metrics.emplace_back("bid_checked." + policy, static_cast<double>(t.checked));
      record.metrics.emplace_back("bid_missed." + policy, static_cast<double>(t.missed));
      record.metrics.emplace_back("bid_missed_affordable." + policy, static_cast<double>(t.missed_affordable));
      record.metrics.emplace_back("bid_gap_median." + policy, gaps.empty() ? NAN : gaps[gaps.size() / 2]);
    }
    record.checks = nlohmann::json::array();
    for (const auto& [policy, probe] : probes_) {
      record.checks.push_back(probe.to_json());
      record.checks.back()["data_gaps"] = "bid_gaps." + policy;
      keep_probe_data(record, probe, "bid_gaps." + policy, "worst_bids." + policy,
                      [](const auction_bid::Instance& i) { return auction_bid::write_instance(i); });
    }
  }

private:
  struct Tally {
    std::size_t checked = 0, missed = 0, missed_affordable = 0;
    std::vector<double> gaps;
  };
  const Scenario& scenario_;
  std::uint64_t seed_;
  const TypedProblem<auction_bid::Instance, auction_bid::Plan>& problem_;
  std::map<std::string, DecisionProbe<auction_bid::Instance, auction_bid::Plan>> probes_;
  std::map<std::string, Tally> by_policy_;
  std::map<std::size_t, std::size_t> offered_;   // decisions offered, per user
};

// Every task's life in a run, for tasks.csv: [user, task, resource, length, submitted, started, finished] (seconds;
// -1: not yet).
class TaskLog final : public system::Observer {
public:
  explicit TaskLog(const std::vector<std::vector<double>>& lengths) : lengths_(lengths) {}
  void on_submit(double now, std::size_t resource, std::size_t user, std::size_t task) override {
    rows_[{user, task}] = {static_cast<double>(resource), now, -1, -1};
  }
  void on_task_start(double now, std::size_t, std::size_t user, std::size_t task) override { rows_[{user, task}][2] = now; }
  void on_task_end(double now, std::size_t, std::size_t user, std::size_t task) override { rows_[{user, task}][3] = now; }
  nlohmann::json to_json() const {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [key, r] : rows_)
      out.push_back({key.first, key.second, static_cast<std::size_t>(r[0]), lengths_[key.first][key.second], r[1], r[2], r[3]});
    return out;
  }

private:
  const std::vector<std::vector<double>>& lengths_;
  std::map<std::pair<std::size_t, std::size_t>, std::array<double, 4>> rows_;
};

// Sample rows kept for the figures: [minute, resource, user, bid, share %].
nlohmann::json samples_json(const std::vector<system::Sample>& samples) {
  nlohmann::json out = nlohmann::json::array();
  for (const system::Sample& x : samples)
    out.push_back({x.time / 60.0, x.resource, x.user, x.bid, x.share_percent});
  return out;
}

class AuctionExperiment final : public Experiment {
public:
  AuctionExperiment(const ExperimentOptions& options, const Registry& registry, const Described& info)
      : options_(options), registry_(registry), info_(info) {
    if (!options.traces.empty() || !options.traces_dir.empty())
      throw InputError("experiment auction: takes no --trace or --traces: its input is an auction scenario "
                       "(--scenario FILE, default examples/scenarios/auction.json)");
    file_ = options.scenario.empty() ? std::string(SCHEDCHECK_AUCTION_SCENARIO) : options.scenario;
    scenario_ = auction::read_scenario_file(file_, scenario_names());
    seeds_ = options.seeds ? options.seeds : options.quick ? kQuickSeeds : kDefaultSeeds;
    outside_name_ = options.outside_name.empty() ? "external" : options.outside_name;
    for (const std::string& name : options.outside_for) {
      if (!user_named(scenario_, name)) {
        std::vector<std::string> known;
        for (const auction::UserSpec& u : scenario_.users) known.push_back(u.name);
        throw InputError(fmt::format("--policy-for: no user {} in {} (its users: {})", name, file_, joined(known)));
      }
      outside_.insert(name);
    }
    if (!outside_.empty())
      notes_.push_back(fmt::format("{} decides for {} (--policy-cmd), in place of the scenario's brokers", outside_name_,
                                   fmt::join(outside_, ", ")));
    notes_.push_back(fmt::format("scenario: {} ({} resources, {} users, {} domains); task lengths drawn per seed and user",
                                 file_, scenario_.resources.size(), scenario_.users.size(), scenario_.domains.size()));
    notes_.push_back(
        "Table 2's start minutes are taken as printed (sec. 5.1 also speaks of two users every two minutes by a "
        "Poisson process; the table's times are used)");
    if (options.quick) notes_.push_back(fmt::format("--quick: {} seeds", kQuickSeeds));
  }

  const Described& info() const override { return info_; }
  std::vector<std::string> notes() const override { return notes_; }
  std::vector<Reading> readings() const override { return auction_readings(); }
  std::vector<Claim> claims() const override;

  std::vector<Point> points() const override {
    std::vector<Point> points;
    std::vector<std::string> readings = {""};
    for (const Reading& r : auction_readings())
      if (options_.wants_reading(r.name)) readings.push_back(r.name);
    for (const std::string& reading : readings)
      for (std::size_t seed = 1; seed <= seeds_; ++seed) {
        Point p;
        p.parameters = {{"scenario", scenario_.name}};
        p.seed = seed;
        p.reading = reading;
        p.reproduce = fmt::format("schedcheck experiment auction --scenario {} --seeds {} (its run of seed {})",
                                  shell_quoted(file_), seed, seed);
        points.push_back(std::move(p));
      }
    return points;
  }

  RunRecord run(const Point& point) const override {
    const Scenario s = with_reading(scenario_, point.reading);
    system::Setup setup;
    setup.scenario = &s;
    setup.lengths = draw_lengths(s, point.seed);
    for (const auction::UserSpec& u : s.users)
      setup.brokers.push_back(outside_.count(u.name) ? outside_broker(u.name, point.seed) : auction::broker_policy(u.policy).decide);
    std::vector<std::size_t> tasks;
    for (const auto& l : setup.lengths) tasks.push_back(l.size());
    auction::RunChecker checker(s, tasks);
    // The exact plan models a task at most one PE fast: under task_speed "share" the broker's decisions go unchecked.
    BidProbe probe(s, registry_, point.seed);
    TaskLog log(setup.lengths);
    std::vector<system::Observer*> observers = {&checker, &log};
    const bool check_bids = s.task_speed == auction::TaskSpeed::kOnePe && s.check_every > 0;
    if (check_bids) observers.push_back(&probe);
    const system::Result result = system::run(setup, observers);
    if (result.broker_failed) {
      if (result.failed_user && outside_.count(s.users[*result.failed_user].name))
        throw PolicyFailure(fmt::format("experiment auction, seed {}: {} (--policy-cmd): {}", point.seed, outside_name_,
                                        result.failure));
      throw std::logic_error("experiment auction: a built-in broker's decision was malformed: " + result.failure);
    }

    RunRecord record;
    record.interrupted = result.kernel.interrupted;
    record.wall_seconds = result.kernel.wall_seconds;
    record.decisions = checker.checks();
    for (const RunPropertyResult& p : checker.results()) {
      record.violations[p.name] = p.violations;
      if (p.violations) record.data["first_violations"][p.name] = p.first;
    }
    std::size_t missing = 0, overdrawn = 0, unfinished = 0;
    for (std::size_t u = 0; u < s.users.size(); ++u) {
      const system::UserOutcome& out = result.users[u];
      const std::string& name = s.users[u].name;
      const double run_time = out.run_time();
      const bool met = run_time >= 0 && run_time <= s.users[u].deadline;
      missing += !met;
      overdrawn += out.balance < 0;
      unfinished += run_time < 0;
      record.metrics.emplace_back(metric_of(name, "run_time_h"), run_time < 0 ? NAN : run_time / kSecondsPerHour);
      record.metrics.emplace_back(metric_of(name, "cost"), out.charged);
      record.metrics.emplace_back(metric_of(name, "met"), met ? 1 : 0);
      record.metrics.emplace_back(metric_of(name, "balance"), out.balance);
      record.metrics.emplace_back(metric_of(name, "decisions"), static_cast<double>(out.decisions));
      for (std::size_t r = 0; r < s.resources.size(); ++r)
        record.metrics.emplace_back(metric_of(name, "tasks_" + s.resources[r].name), static_cast<double>(out.tasks_on[r]));
    }
    record.metrics.emplace_back("users_missing_deadline", static_cast<double>(missing));
    record.metrics.emplace_back("users_unfinished", static_cast<double>(unfinished));
    record.metrics.emplace_back("users_overdrawn", static_cast<double>(overdrawn));
    record.metrics.emplace_back("messages", static_cast<double>(result.kernel.messages));
    record.metrics.emplace_back("events", static_cast<double>(result.kernel.events));
    add_paper_metrics(s, result, record);
    if (check_bids) probe.add_metrics(record);
    if (point.seed == 1) record.data["samples"] = samples_json(result.samples);
    record.data["tasks"] = log.to_json();
    return record;
  }

  std::vector<Figure> figures(const std::vector<Point>& points,
                              const std::vector<std::optional<RunRecord>>& records) const override {
    std::vector<Figure> out;
    const RunRecord* first = nullptr;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (points[i].reading.empty() && points[i].seed == 1 && records[i]) first = &*records[i];
    const std::vector<std::string> resources = {"R1", "R4"};
    int number_of_figure = 2;
    for (const std::string& resource : resources) {
      const std::optional<std::size_t> r = resource_named(scenario_, resource);
      if (r && first && first->data.contains("samples")) {
        out.push_back(time_figure(*first, *r, true, number_of_figure));
        out.push_back(time_figure(*first, *r, false, number_of_figure + 1));
      }
      number_of_figure += 2;
    }
    // Every other resource's shares over time, as Fig. 3 and 5 show R1's and R4's.
    if (first && first->data.contains("samples"))
      for (std::size_t r = 0; r < scenario_.resources.size(); ++r)
        if (std::find(resources.begin(), resources.end(), scenario_.resources[r].name) == resources.end()) {
          Figure f = time_figure(*first, r, false, 0);
          f.stem = "shares-" + scenario_.resources[r].name;
          out.push_back(std::move(f));
        }
    out.push_back(tasks_table(points, records));
    out.push_back(user_figure(points, records, "run_time_h", "fig6-run-time", "Total run time for each user",
                              "total run time (hours)", {{"deadline", scenario_.users.front().deadline / kSecondsPerHour}}));
    out.push_back(user_figure(points, records, "cost", "fig7-cost", "Total cost for each user", "total cost (G$)",
                              {{"initial fund", scenario_.users.front().fund}}));
    return out;
  }

  std::string text(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records) const override {
    const Results results(points, records, "");
    std::string t = fmt::format("{:<6} {:<14} {:>14} {:>12} {:>10}\n", "user", "broker", "run time (h)", "cost (G$)",
                                "deadline");
    for (const auction::UserSpec& u : scenario_.users) {
      const Spread time = results.metric({}, metric_of(u.name, "run_time_h"));
      const Spread cost = results.metric({}, metric_of(u.name, "cost"));
      const Spread met = results.metric({}, metric_of(u.name, "met"));
      t += fmt::format("{:<6} {:<14} {:>8.2f} ±{:<5.2f} {:>7.1f} ±{:<4.1f} {:>5.0f}% met\n", u.name, policy_of(u), time.mean,
                       time.stddev, cost.mean, cost.stddev, 100 * met.mean);
    }
    // The brokers' decisions against auction-bid, summed over the runs.
    std::map<std::string, std::array<double, 3>> sums;
    for (const RunRecord* run : results.runs())
      for (const auto& [name, value] : run->metrics)
        for (const auto& [prefix, k] : {std::pair<std::string, int>{"bid_checked.", 0}, {"bid_missed.", 1},
                                        {"bid_missed_affordable.", 2}})
          if (name.rfind(prefix, 0) == 0) sums[name.substr(prefix.size())][k] += value;
    for (const auto& [policy, v] : sums)
      t += fmt::format("decisions  {}: {:g} checked against auction-bid; {:g} miss the deadline at their bids held, "
                       "{:g} of them where a plan of the same tasks meets it\n", policy, v[0], v[1], v[2]);
    return t;
  }

  // The first seed's tasks as a per-job CSV (jobs-seed1.csv, the columns `simulate --jobs-csv` writes), so that
  // `schedcheck gantt --jobs-csv FILE --clusters U,U,...` draws who ran when: a cluster a resource (the `cluster`
  // column), a lane a user (allocated_resources: the user's index; a user runs one task at a time on a resource).
  // requested_time is the task's time at one PE's speed; waiting_time is its time in the resource's queue.
  void write_jobs_csv(const RunRecord& record, const std::string& path) const {
    std::string text = jobs_csv::header(true);
    for (const nlohmann::json& t : record.data["tasks"]) {
      const std::size_t user = t[0].get<std::size_t>(), resource = t[2].get<std::size_t>();
      const double submitted = t[4].get<double>(), started = t[5].get<double>(), finished = t[6].get<double>();
      if (finished < 0) continue;  // not finished within the horizon: not a record of a finished job
      jobs_csv::Row row;
      row.job_id = fmt::format("{}.{}", scenario_.users[user].name, t[1].get<std::size_t>());
      row.workload_name = scenario_.users[user].name;
      row.submission_time = submitted;
      row.requested_number_of_resources = 1;
      row.requested_time = t[3].get<double>() / auction::task_mips_cap(scenario_.resources[resource], scenario_.capacity);
      row.starting_time = started;
      row.execution_time = finished - started;
      row.finish_time = finished;
      row.allocated_resources = std::to_string(user);
      row.bounded_slowdown = bounded_slowdown(started - submitted, finished - started);
      row.cluster = static_cast<std::uint32_t>(resource);
      row.arrival = submitted;
      text += jobs_csv::format(row);
    }
    write_file_atomically(path, text);
  }

  // Each broker's worst decisions of the sweep (failing first, then the largest gaps) as auction-bid corpus files that
  // `schedcheck check auction-bid --policy recorded` reproduces, into --corpus DIR (default: --out).
  std::vector<std::string> extras(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records,
                                  const std::string& dir, std::vector<std::string>& skipped) const override {
    const std::string folder = options_.corpus.empty() ? dir : options_.corpus;
    auto found_by = [](const Point& p, const nlohmann::json& w) {
      return fmt::format("{} (the decision of {}, gap {:.6f})", p.reproduce, w["where"].get<std::string>(),
                         w["gap"].get<double>());
    };
    CheckRequest request;
    request.exact = bid_probe_settings().exact;
    request.solve = bid_probe_settings().solve;
    std::vector<std::string> written;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (points[i].reading.empty() && points[i].seed == 1 && records[i] && records[i]->data.contains("tasks")) {
        const std::string path = (std::filesystem::path(dir) / "jobs-seed1.csv").string();
        write_jobs_csv(*records[i], path);
        written.push_back(path);
      }
    std::set<std::string> brokers;
    for (const auction::UserSpec& u : scenario_.users) brokers.insert(policy_of(u));
    for (const std::string& broker : brokers) {
      const std::vector<std::string> files = write_worst_decisions(
          points, records, "worst_bids." + broker, registry_.typed<auction_bid::Instance, auction_bid::Plan>("auction-bid"),
          request, kKeepWorstBids, folder, "worst-bid-" + broker, found_by, skipped);
      written.insert(written.end(), files.begin(), files.end());
    }
    return written;
  }

private:
  // The broker's decision asked of the --policy-cmd process: {"problem": "auction-broker", "user": NAME, "seed": S,
  // "instance": SNAPSHOT}, answered by a decision (model/auction_broker.hpp: read_decision).
  system::BrokerFunction outside_broker(const std::string& user, std::uint64_t seed) const {
    const auto ask = options_.ask_outside;
    return [ask, user, seed](const auction::BrokerSnapshot& snapshot) {
      const std::string about = fmt::format("{} at t={:g} s (seed {})", user, snapshot.now, seed);
      const nlohmann::json request = {{"problem", "auction-broker"}, {"user", user}, {"seed", seed},
                                      {"instance", auction::write_snapshot(snapshot)}};
      return auction::read_decision(snapshot, ask(request, about), "the decision for " + about);
    };
  }
  // The broker a user runs under in this sweep: the scenario's, or the --policy-cmd one.
  std::string policy_of(const auction::UserSpec& u) const { return outside_.count(u.name) ? outside_name_ : u.policy; }

  // The numbers sec. 5.3's sentences speak of, per run: whether U3 still runs on R4 at minute 400, the part of U3's
  // intervals on R4 at the maximum bid, the part of U8's intervals on R1 in minutes 49-120 at the maximum bid.
  void add_paper_metrics(const Scenario& s, const system::Result& result, RunRecord& record) const {
    const auto u3 = user_named(s, "U3"), u8 = user_named(s, "U8");
    const auto r1 = resource_named(s, "R1"), r4 = resource_named(s, "R4");
    if (u3 && r4) {
      bool at_400 = false;
      std::size_t intervals = 0, at_max = 0;
      for (const system::Sample& x : result.samples)
        if (x.user == *u3 && x.resource == *r4) {
          at_400 = at_400 || std::fabs(x.time / 60.0 - kU3StillOnR4Minute) < 0.5;
          ++intervals;
          at_max += x.bid >= s.resources[*r4].max_bid;
        }
      record.metrics.emplace_back("U3.on_R4_at_400", at_400 ? 1 : 0);
      record.metrics.emplace_back("U3.R4_max_bid_share", intervals ? static_cast<double>(at_max) / intervals : NAN);
    }
    if (u8 && r1) {
      std::size_t intervals = 0, at_max = 0;
      for (const system::Sample& x : result.samples)
        if (x.user == *u8 && x.resource == *r1 && x.time / 60.0 >= kU8MaxBidFrom && x.time / 60.0 <= kU8MaxBidTo) {
          ++intervals;
          at_max += x.bid >= s.resources[*r1].max_bid;
        }
      record.metrics.emplace_back("U8.R1_max_bid_share_49_120", intervals ? static_cast<double>(at_max) / intervals : NAN);
    }
  }

  // Fig. 2 / 4 (bids of the users whose broker varies them) or Fig. 3 / 5 (every user's share in %) on resource r.
  Figure time_figure(const RunRecord& record, std::size_t r, bool bids, int number) const {
    const std::string resource = scenario_.resources[r].name;
    std::vector<std::size_t> users;
    for (std::size_t u = 0; u < scenario_.users.size(); ++u)
      if (!bids || outside_.count(scenario_.users[u].name) || !auction::broker_policy(scenario_.users[u].policy).needs_bid)
        users.push_back(u);
    std::map<double, std::map<std::size_t, double>> by_time;
    for (const nlohmann::json& row : record.data["samples"])
      if (row[1].get<std::size_t>() == r) by_time[row[0].get<double>()][row[2].get<std::size_t>()] = row[bids ? 3 : 4].get<double>();
    Figure f;
    f.stem = fmt::format("fig{}-{}-{}", number, bids ? "bid" : "share", resource);
    f.caption = bids ? fmt::format("Bidding cost on {} (cents per minute) of the users whose broker varies its bid, first seed", resource)
                     : fmt::format("Share of {}'s capacity per user (%), first seed", resource);
    f.header = {"minute"};
    for (std::size_t u : users) f.header.push_back(scenario_.users[u].name);
    report::LineChart chart{.title = f.caption, .x_label = "time (minutes)",
                            .y_label = bids ? "bidding cost (cents / min)" : "share of the resource (%)", .series = {},
                            .steps = true};
    for (std::size_t u : users) chart.series.push_back(report::LineSeries{.name = scenario_.users[u].name, .x = {}, .y = {}});
    for (const auto& [minute, values] : by_time) {
      std::vector<std::string> row = {csv_number(minute)};
      for (std::size_t k = 0; k < users.size(); ++k) {
        const auto at = values.find(users[k]);
        const double v = at == values.end() ? NAN : at->second;
        row.push_back(std::isnan(v) ? "" : csv_number(v));
        chart.series[k].x.push_back(minute);
        chart.series[k].y.push_back(v);
      }
      f.rows.push_back(std::move(row));
    }
    f.plot = report::line_plot(chart);
    return f;
  }

  // Every task of every default run: where it ran and when (seconds), a table alone.
  Figure tasks_table(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records) const {
    Figure f;
    f.stem = "tasks";
    f.caption = "Every task of every run: user, resource, length (MI), submitted, started and finished (s; empty: not)";
    f.header = {"seed", "user", "task", "broker", "resource", "length_mi", "submitted", "started", "finished"};
    const auto time = [](const nlohmann::json& t) { return t.get<double>() < 0 ? std::string() : csv_number(t.get<double>()); };
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (!points[i].reading.empty() || !records[i] || !records[i]->data.contains("tasks")) continue;
      for (const nlohmann::json& t : records[i]->data["tasks"]) {
        const auction::UserSpec& u = scenario_.users[t[0].get<std::size_t>()];
        f.rows.push_back({std::to_string(points[i].seed), u.name, std::to_string(t[1].get<std::size_t>()), policy_of(u),
                          scenario_.resources[t[2].get<std::size_t>()].name, csv_number(t[3].get<double>()), time(t[4]),
                          time(t[5]), time(t[6])});
      }
    }
    return f;
  }

  // Fig. 6 / 7: a metric per user, mean and standard deviation over the seeds, bars coloured by broker.
  Figure user_figure(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records,
                     const std::string& metric, const std::string& stem, const std::string& caption,
                     const std::string& y_label, std::vector<std::pair<std::string, double>> lines) const {
    const Results results(points, records, "");
    Figure f;
    f.stem = stem;
    f.caption = caption + fmt::format(" (mean and standard deviation over {} seeds)", seeds_);
    f.header = {"user", "broker", "mean", "stddev", "runs"};
    std::vector<std::string> brokers;
    for (const auction::UserSpec& u : scenario_.users)
      if (std::find(brokers.begin(), brokers.end(), policy_of(u)) == brokers.end()) brokers.push_back(policy_of(u));
    report::BarChart chart{.title = f.caption, .x_label = "users", .y_label = y_label, .categories = {}, .series = {},
                           .log_y = false, .lines = std::move(lines)};
    for (const std::string& b : brokers) chart.series.push_back(report::BarSeries{.name = b, .values = {}, .errors = {}});
    for (const auction::UserSpec& u : scenario_.users) {
      const Spread v = results.metric({}, metric_of(u.name, metric));
      f.rows.push_back({u.name, policy_of(u), csv_number(v.mean), csv_number(v.stddev), std::to_string(v.count)});
      chart.categories.push_back(u.name);
      for (std::size_t b = 0; b < brokers.size(); ++b) {
        chart.series[b].values.push_back(brokers[b] == policy_of(u) ? v.mean : NAN);
        chart.series[b].errors.push_back(brokers[b] == policy_of(u) ? v.stddev : 0.0);
      }
    }
    f.plot = report::bar_plot(chart);
    return f;
  }

  ExperimentOptions options_;
  const Registry& registry_;
  Described info_;
  std::string file_;
  Scenario scenario_;
  std::size_t seeds_ = kDefaultSeeds;
  std::vector<std::string> notes_;
  std::set<std::string> outside_;
  std::string outside_name_;
};

// ---- the claims of sec. 5.3 ----

double mean_of(const Results& r, const std::string& user, const std::string& what) {
  return r.metric({}, metric_of(user, what)).mean;
}

// Each of `faster` has a lower mean of `what` than each of `slower`: all pairs -> agrees, some -> partly.
Finding pairs_below(const Results& r, const std::vector<std::string>& lower, const std::vector<std::string>& higher,
                    const std::string& what, const std::string& unit) {
  Checks checks(", ");
  for (const std::string& a : lower)
    for (const std::string& b : higher) {
      const double x = mean_of(r, a, what), y = mean_of(r, b, what);
      if (std::isnan(x) || std::isnan(y)) continue;
      checks.add(x < y, fmt::format("{} {}{} < {} {}{}", a, number(x), unit, b, number(y), unit));
    }
  return checks.finding();
}

// A per-run metric judged run by run (runs without it left out): every run holds -> agrees, some -> partly.
Finding in_every_run(const Results& r, const std::string& metric, const std::function<bool(double)>& holds,
                     const std::function<std::string(double)>& words) {
  Checks checks(", ");
  for (const RunRecord* run : r.runs()) {
    const double v = run->metric(metric);
    if (!std::isnan(v)) checks.add(holds(v), words(v));
  }
  return checks.finding();
}

// The mean over the runs of a share of intervals: >= 90% agrees, >= 50% partly, else disagrees; `none` when no run
// has it, `what` after the percentage.
Finding share_of_intervals(const Results& r, const std::string& metric, const std::string& what, const std::string& none) {
  const Spread v = r.metric({}, metric);
  if (v.count == 0 || std::isnan(v.mean)) return Finding{Agreement::kUnmeasured, none};
  return Finding{v.mean >= 0.9 ? Agreement::kAgrees : v.mean >= 0.5 ? Agreement::kPartly : Agreement::kDisagrees,
                 fmt::format("{:.1f}% of {}", 100 * v.mean, what)};
}

// The users of the scenario whose broker optimises (varies its bid) or not.
std::vector<std::string> users_with(const Scenario& s, bool optimising) {
  std::vector<std::string> out;
  for (const auction::UserSpec& u : s.users)
    if (auction::broker_policy(u.policy).needs_bid != optimising) out.push_back(u.name);
  return out;
}

std::vector<Claim> AuctionExperiment::claims() const {
  const std::vector<std::string> optimising = users_with(scenario_, true), fixed = users_with(scenario_, false);
  const std::vector<auction::UserSpec> users = scenario_.users;
  std::vector<Claim> c;
  c.push_back({"sec3-worked-example", "sec. 3.2",
               "User 0 bids G$10 for 20 minutes, whereas User 1 bids G$6 for 20 minutes as well. Hence, according to "
               "eq. (1), Resource 0 allocates approximately 62.5% resource share to User 0 and 37.5% share to User 1.",
               "the model's split of one resource between bids 10 and 6 gives 62.5% and 37.5% (within 0.1 point)",
               [](const Results&) {
                 const std::vector<double> s = auction::split({10, 6}, 100, 100);
                 const bool holds = std::fabs(s[0] - 62.5) < 0.1 && std::fabs(s[1] - 37.5) < 0.1;
                 return Finding{holds ? Agreement::kAgrees : Agreement::kDisagrees,
                                fmt::format("{:.4g}% and {:.4g}%", s[0], s[1])};
               },
               true});
  c.push_back({"sec5-workload", "sec. 5.1",
               "each user has a BoT application that consists of 50 tasks, where a task length l is uniformly "
               "distributed in [700,000 ... 800,000] Millions Instructions (MI) unit.",
               "every user of the scenario has 50 tasks drawn in [700000, 800000] MI",
               [=](const Results&) {
                 Checks checks(", ");
                 for (const auction::UserSpec& u : users)
                   checks.add(u.tasks == 50 && u.min_length == 700000 && u.max_length == 800000 && u.lengths.empty(),
                              fmt::format("{}: {} tasks in [{:g}, {:g}]", u.name, u.tasks, u.min_length, u.max_length));
                 return checks.finding();
               },
               true});
  c.push_back({"fig6-only-u3-misses", "sec. 5.3, Fig. 6",
               "As expected, users with a time optimization algorithm (local or global) manage to complete their "
               "applications faster than users with No-Opt policy. Only user U3, that uses a local policy, is unable "
               "to finish before the given deadline.",
               "per seed, the optimising users (the sentence's subject) missing their deadline are exactly {U3}: every "
               "seed -> agrees, some -> partly",
               [=](const Results& r) {
                 Checks checks(", ");
                 for (const RunRecord* run : r.runs()) {
                   std::string missing;
                   for (const std::string& u : optimising)
                     if (run->metric(metric_of(u, "met")) == 0) missing += (missing.empty() ? "" : "+") + u;
                   checks.add(missing == "U3", missing.empty() ? "none misses" : missing + " miss");
                 }
                 return checks.finding();
               }});
  c.push_back({"fig6-optimisers-faster", "sec. 5.3, Fig. 6",
               "As expected, users with a time optimization algorithm (local or global) manage to complete their "
               "applications faster than users with No-Opt policy.",
               "each optimising user (U2, U3, U7, U8) has a lower mean run time than each No-Opt user: all pairs -> "
               "agrees, some -> partly",
               [=](const Results& r) { return pairs_below(r, optimising, fixed, "run_time_h", " h"); }});
  c.push_back({"fig6-u8-faster-than-u2-u7", "sec. 5.3, Fig. 6",
               "Hence, U8 is able to complete much faster than U2 and U7.",
               "U8's mean run time below U2's and U7's: both -> agrees, one -> partly",
               [](const Results& r) { return pairs_below(r, {"U8"}, {"U2", "U7"}, "run_time_h", " h"); }});
  c.push_back({"fig6-u8-never-r4", "sec. 5.3",
               "In contrast, U8 never submits to R4 because the user is in VO domain A.",
               "U8 submits no task to R4 in any seed",
               [](const Results& r) {
                 return in_every_run(r, "U8.tasks_R4", [](double n) { return n == 0; },
                                     [](double n) { return fmt::format("{:g} tasks", n); });
               }});
  c.push_back({"fig7-no-opt-cheaper", "sec. 5.3, Fig. 7",
               "As expected, users with a No-Opt policy have cheaper total cost.",
               "each No-Opt user's mean cost below each optimising user's: all pairs -> agrees, some -> partly",
               [=](const Results& r) { return pairs_below(r, fixed, optimising, "cost", " G$"); }});
  c.push_back({"fig7-u8-cheaper-than-u2-u7", "sec. 5.3, Fig. 7",
               "Also, user U8, that uses local policy, has much lower costs than U2 and U7 costs that use global policy.",
               "U8's mean cost below U2's and U7's: both -> agrees, one -> partly",
               [](const Results& r) { return pairs_below(r, {"U8"}, {"U2", "U7"}, "cost", " G$"); }});
  c.push_back({"fig7-u8-cheaper-than-u4-u5", "sec. 5.3, Fig. 7",
               "User U8 also has a cost lower than U4 and U5 because U8 manages to finish much faster than these users.",
               "U8's mean cost below U4's and U5's: both -> agrees, one -> partly",
               [](const Results& r) { return pairs_below(r, {"U8"}, {"U4", "U5"}, "cost", " G$"); }});
  c.push_back({"fig7-u3-costlier-than-u8", "sec. 5.3, Fig. 7",
               "User U3 performs much worse than U8, although both users use the same local policy.",
               "U3's mean run time and mean cost above U8's: both -> agrees, one -> partly",
               [](const Results& r) {
                 Checks checks(", ");
                 for (const char* what : {"run_time_h", "cost"}) {
                   const double u3 = mean_of(r, "U3", what), u8 = mean_of(r, "U8", what);
                   if (!std::isnan(u3) && !std::isnan(u8))
                     checks.add(u3 > u8, fmt::format("{}: U3 {} > U8 {}", what, number(u3), number(u8)));
                 }
                 return checks.finding();
               }});
  c.push_back({"fig5-u3-on-r4-at-400", "sec. 5.3, Fig. 5",
               "In Figure 5, user U3's tasks are still executing on resource R4 at time 400.",
               "U3 has a task running on R4 at minute 400 in every seed -> agrees, some -> partly",
               [](const Results& r) {
                 return in_every_run(r, "U3.on_R4_at_400", [](double v) { return v == 1; },
                                     [](double v) { return std::string(v == 1 ? "running" : "not running"); });
               }});
  c.push_back({"fig3-u3-sends-to-r1", "sec. 5.3, Fig. 3",
               "With many remaining tasks needing to be completed, U3 of domain B schedules them to all available local "
               "and global resources. Some of these tasks are sent to R1 of domain A later at time 426, as shown in "
               "Figure 3.",
               "U3 submits at least one task to R1 (another domain's) in every seed -> agrees, some -> partly",
               [](const Results& r) {
                 return in_every_run(r, "U3.tasks_R1", [](double n) { return n > 0; },
                                     [](double n) { return fmt::format("{:g} tasks", n); });
               }});
  c.push_back({"fig4-u3-max-bid-r4", "sec. 5.3, Fig. 4",
               "This is because U3 puts the maximum bid on resource R4 throughout the whole period of time, as "
               "depicted in Figure 4.",
               "U3 bids R4's maximum in >= 90% of its intervals there: agrees; >= 50%: partly; else disagrees (mean "
               "over seeds)",
               [](const Results& r) {
                 return share_of_intervals(r, "U3.R4_max_bid_share", "U3's intervals on R4 at the maximum bid",
                                           "U3 never ran on R4");
               }});
  c.push_back({"fig2-u8-max-bid-r1", "sec. 5.3, Fig. 2",
               "In Figure 2, user U8 puts a maximum bid of 500 cents per minute from time 49 to 120 (in simulation "
               "minutes).",
               "U8 bids R1's maximum in >= 90% of its intervals there in minutes 49-120: agrees; >= 50%: partly; "
               "else disagrees (mean over seeds)",
               [](const Results& r) {
                 return share_of_intervals(r, "U8.R1_max_bid_share_49_120",
                                           "U8's intervals on R1 in minutes 49-120 at 500", "U8 not on R1 in minutes 49-120");
               }});
  return c;
}

}  // namespace auction_run

CatalogueEntry auction_experiment() {
  CatalogueEntry entry = catalogue_entry<auction_run::AuctionExperiment>(
      {"auction", "paper 003 sec. 5 (Tables 1-2, Fig. 2-7)",
       "ten users' Bags-of-Tasks on five auction-based proportional-share resources in two VO domains, with the "
       "Global Domain, Local Domain and No-Opt brokers: bids and shares over time, run time and cost per user against "
       "the deadline and the fund; every run property on every interval, bid and charge"},
      "--scenario FILE: an auction scenario (default examples/scenarios/auction.json); --seeds N: the runs, each "
      "drawing the task lengths anew (default 10; --quick 2); --policy-cmd CMD --policy-for USER: your broker for "
      "those users (docs/protocol.md)",
      auction_run::auction_readings());
  entry.takes_policy_cmd = true;  // --policy-cmd decides for the users --policy-for names
  return entry;
}

}  // namespace schedcheck::experiments
