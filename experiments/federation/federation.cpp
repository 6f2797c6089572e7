// `schedcheck experiment federation`: paper 004's Experiment 1 (total SLA bid time from 0% to 50% of the deadline
// against the federation's earnings, response time, budget spent and jobs accepted, per federation, owner and user)
// and Experiment 2 (messages per job, local and remote), over the clusters of Table 2 each replaying its trace, every
// admission decision checked against the exact knapsack and every run against the properties of
// properties/federation_properties.hpp. Paper 004 sec. 4; figure numbers are the paper's. Limits: contract_net.hpp.
#include "experiments/federation/federation.hpp"

#include "experiments/federation/contract_net.hpp"
#include "experiments/runner.hpp"
#include "model/input.hpp"
#include "properties/corpus.hpp"
#include "properties/federation_properties.hpp"
#include "report/charts.hpp"
#include "support/files.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#ifndef SCHEDCHECK_FEDERATION_SCENARIO
#define SCHEDCHECK_FEDERATION_SCENARIO ""
#endif

namespace schedcheck::experiments {

// Its own namespace, as every experiment's: the using-directive below reaches this experiment's code only, and its
// names stay apart from the others' (unity builds join files).
namespace federation_run {
namespace {

namespace fs = std::filesystem;
using namespace federation;

std::string percent(double share) { return fmt::format("{:g}%", share * 100); }

// The per-cluster metrics of a run, from its log (not from the actors' counters).
struct ClusterMetrics {
  double earnings = 0, mi = 0;                            // as a contractor (owner's perspective, Fig. 5)
  double home_jobs = 0, accepted = 0, response = 0, budget_spent = 0;  // its local users' jobs (Fig. 6)
  double local_messages = 0, remote_messages = 0;         // Fig. 7 (b), (c)
};

class FederationExperiment final : public Experiment {
public:
  FederationExperiment(const ExperimentOptions& options, const Registry& registry, const Described& info)
      : options_(options), registry_(registry), info_(info) {
    federation_ = federation::read(system_scenario("federation", options, SCHEDCHECK_FEDERATION_SCENARIO));
    const std::string file = federation_.scenario.file;
    const Settings& s = federation_.settings;
    seeds_ = options.seeds == 0 ? 1 : options.seeds;
    shares_ = options.quick ? s.quick_bid_shares : s.bid_shares;
    for (const double oft : s.oft_shares)
      for (const double share : shares_) combos_.emplace_back(share, oft);
    const double days = options.quick ? s.quick_period_days : s.period_days;
    notes_.push_back("inputs: the scenario " + file);
    for (const auto& spec : federation_.scenario.workloads) {
      workload::ReadOptions read = spec.read;
      read.period = days * 86400;
      workloads_.push_back(workload::load(spec.trace, read));
    }
    std::vector<Job> jobs = federation_jobs(federation_.clusters, workloads_, 1.0, 1);
    std::vector<std::size_t> per(federation_.clusters.size());
    for (const auto& j : jobs) ++per[j.home];
    std::string counts;
    for (std::size_t m = 0; m < per.size(); ++m)
      counts += fmt::format("{}{} {}", m ? ", " : "", federation_.clusters[m].name, per[m]);
    notes_.push_back(fmt::format("{} jobs submitted {} ({})", jobs.size(),
                                 days > 0 ? fmt::format("in the first {:g} day{} of each trace", days, days == 1 ? "" : "s")
                                          : "over the whole traces",
                                 counts));
    if (jobs.empty()) throw InputError(fmt::format("{}: no job to simulate in the period", file));
    if (options.quick) notes_.push_back(fmt::format("--quick: {:g} day{}, bid times {}", days, days == 1 ? "" : "s", share_list()));
  }

  const Described& info() const override { return info_; }
  std::vector<std::string> notes() const override { return notes_; }

  std::vector<Point> points() const override {
    std::vector<Point> points;
    for (std::size_t c = 0; c < combos_.size(); ++c)
        for (std::uint64_t seed = 1; seed <= seeds_; ++seed) {
          Point p;
          p.parameters = {{"bid_share", csv_number(combos_[c].first)}, {"oft_share", csv_number(combos_[c].second)}};
          p.input = c;
          p.seed = seed;
          p.reproduce = fmt::format("schedcheck experiment federation --scenario {}{} --seeds {}",
                                    shell_quoted(federation_.scenario.file), options_.quick ? " --quick" : "", seeds_);
          points.push_back(std::move(p));
        }
    return points;
  }

  RunRecord run(const Point& point) const override {
    RunSpec spec;
    spec.bid_share = combos_[point.input].first;
    spec.oft_share = combos_[point.input].second;
    spec.seed = point.seed;
    const auto& clusters = federation_.clusters;
    FederationRun r = run_federation(clusters, federation_.settings, federation_jobs(clusters, workloads_, spec.oft_share, spec.seed),
                                     spec, registry_);
    RunRecord record;
    record.interrupted = r.interrupted;
    record.wall_seconds = r.stats.wall_seconds;
    const RunLog& log = r.log;
    nlohmann::json first = nlohmann::json::object();
    if (r.interrupted) return record;  // cut short by a stop request: not counted, and its log is not whole
    for (const auto& p : check_run(clusters, federation_.settings, log)) {
      record.violations[p.name] = p.violations;
      if (p.violations) first[p.name] = p.first;
    }
    record.decisions = r.decisions;

    std::vector<ClusterMetrics> per(clusters.size());
    double earnings = 0, response = 0, spent = 0, accepted = 0, dropped = 0, bid_messages = 0, directory_messages = 0;
    for (std::size_t j = 0; j < log.jobs.size(); ++j) {
      const Job& job = log.jobs[j];
      const JobLog& l = log.logs[j];
      ClusterMetrics& home = per[job.home];
      ++home.home_jobs;
      const double messages = 2.0 * static_cast<double>(l.attempts.size()) + static_cast<double>(l.transfers);
      bid_messages += messages;
      directory_messages += 2.0 * static_cast<double>(l.queries);
      home.local_messages += messages;
      for (const Attempt& a : l.attempts)
        if (a.contractor != job.home) per[a.contractor].remote_messages += 2;
      if (l.outcome == Outcome::kDropped) ++dropped;
      if (l.outcome != Outcome::kAccepted) continue;
      if (l.ran_on != job.home) per[l.ran_on].remote_messages += static_cast<double>(l.transfers);
      ++accepted;
      earnings += l.charged;
      per[l.ran_on].earnings += l.charged;
      per[l.ran_on].mi += l.terms.length_mi;
      const double rt = l.finish + l.terms.tr - job.submit;  // response time: submission to the output's return
      response += rt;
      spent += l.charged;
      ++home.accepted;
      home.response += rt;
      home.budget_spent += l.charged;
    }
    double processors = 0;
    for (const auto& c : clusters) processors += c.processors;
    const double jobs = static_cast<double>(log.jobs.size());
    const auto mean = [](double sum, double n) { return n > 0 ? sum / n : NAN; };
    const AdmissionProbe* probe = r.probe.get();
    const Stats gaps = probe ? probe->gaps() : Stats{};
    record.metrics = {{"jobs", jobs},
                      {"accepted", accepted},
                      {"dropped", dropped},
                      {"dropped_with_room", static_cast<double>(drops_with_room(clusters, log, false))},
                      {"earnings", earnings},
                      {"earnings_per_processor", earnings / processors},
                      {"mean_response", mean(response, accepted)},
                      {"mean_budget_spent", mean(spent, accepted)},
                      {"messages_per_job", mean(bid_messages, jobs)},
                      {"directory_messages_per_job", mean(directory_messages, jobs)},
                      {"decisions", static_cast<double>(r.decisions)},
                      {"accepted_at_expiry", static_cast<double>(r.accepted_at_expiry)},
                      {"decisions_checked", probe ? static_cast<double>(probe->counts().checked) : 0.0},
                      {"decisions_proven", probe ? static_cast<double>(probe->counts().proven) : 0.0},
                      {"decisions_at_optimum", probe ? static_cast<double>(probe->counts().at_optimum) : 0.0},
                      {"gap_mean", gaps.mean},
                      {"gap_p95", gaps.p95},
                      {"gap_max", gaps.max},
                      {"incentive_lost", r.incentive_lost},
                      {"incentive_lost_share", earnings > 0 ? r.incentive_lost / earnings : 0.0},
                      {"events", static_cast<double>(r.stats.events)},
                      {"violations", static_cast<double>(record.violated())}};
    if (probe) {
      record.checks = probe->to_json();
      keep_probe_data(record, *probe, "gaps", "worst", [](const sla::Instance& i) { return sla::write_instance(i); });
    }
    nlohmann::json cl = nlohmann::json::array();
    for (std::size_t m = 0; m < clusters.size(); ++m) {
      const ClusterMetrics& c = per[m];
      cl.push_back({{"earnings", c.earnings},
                    {"earnings_per_processor", c.earnings / clusters[m].processors},
                    {"mi", c.mi},
                    {"home_jobs", c.home_jobs},
                    {"accepted", c.accepted},
                    {"mean_response", c.accepted > 0 ? c.response / c.accepted : 0.0},
                    {"mean_budget_spent", c.accepted > 0 ? c.budget_spent / c.accepted : 0.0},
                    {"local_messages", c.local_messages},
                    {"remote_messages", c.remote_messages}});
    }
    record.data["clusters"] = cl;
    record.data["first_violations"] = first;
    return record;
  }

  std::vector<Figure> figures(const std::vector<Point>& points,
                              const std::vector<std::optional<RunRecord>>& records) const override {
    std::vector<Figure> out;
    const double oft = federation_.settings.oft_shares.front();
    // The mean over seeds of a value of the runs at one bid share (the plotted OFT share).
    auto value = [&](double share, const std::function<double(const RunRecord&)>& of) {
      std::vector<double> v;
      for (std::size_t i = 0; i < points.size(); ++i)
        if (records[i] && combos_[points[i].input] == std::pair(share, oft)) v.push_back(of(*records[i]));
      return v.empty() ? NAN : statistics(v).mean;
    };
    auto figure = [&](const std::string& stem, const std::string& caption, const std::string& y, bool per_cluster,
                      const std::function<double(const RunRecord&, std::size_t)>& of) {
      Figure f;
      f.stem = stem;
      f.caption = caption + (federation_.settings.oft_shares.size() > 1 ? fmt::format(" ({} of users OFT)", percent(oft)) : "");
      report::BarChart chart;
      chart.title = f.caption;
      chart.x_label = "total SLA bid time (share of the deadline)";
      chart.y_label = y;
      const std::size_t series = per_cluster ? federation_.clusters.size() : 1;
      f.header = {"bid_share"};
      for (std::size_t m = 0; m < series; ++m) {
        const std::string name = per_cluster ? federation_.clusters[m].name : "federation";
        f.header.push_back(name);
        chart.series.push_back({name, {}, {}});
      }
      for (const double share : shares_) {
        chart.categories.push_back(percent(share));
        std::vector<std::string> row = {csv_number(share)};
        for (std::size_t m = 0; m < series; ++m) {
          const double v = value(share, [&](const RunRecord& r) { return of(r, m); });
          chart.series[m].values.push_back(v);
          row.push_back(csv_number(v));
        }
        f.rows.push_back(std::move(row));
      }
      f.plot = report::bar_plot(chart);
      out.push_back(std::move(f));
    };
    auto metric = [](const char* name) { return [name](const RunRecord& r, std::size_t) { return r.metric(name); }; };
    auto cluster = [](const char* name) {
      return [name](const RunRecord& r, std::size_t m) { return r.data["clusters"][m][name].get<double>(); };
    };
    figure("fig4a-federation-earnings", "Fig. 4(a): total federation earnings (grid dollars)", "grid dollars", false,
           metric("earnings"));
    figure("fig4b-federation-response", "Fig. 4(b): average response time of accepted jobs (s)", "seconds", false,
           metric("mean_response"));
    figure("fig4c-federation-budget", "Fig. 4(c): average budget spent per accepted job (grid dollars)", "grid dollars",
           false, metric("mean_budget_spent"));
    figure("fig5a-owner-mi", "Fig. 5(a): million instructions executed per cluster", "MI", true, cluster("mi"));
    figure("fig5b-owner-earnings", "Fig. 5(b): earnings per cluster (grid dollars)", "grid dollars", true,
           cluster("earnings"));
    figure("fig5c-owner-earnings-per-processor", "Fig. 5(c): earnings per processor per cluster (grid dollars)",
           "grid dollars", true, cluster("earnings_per_processor"));
    figure("fig6a-user-response", "Fig. 6(a): average response time of each cluster's users' accepted jobs (s)",
           "seconds", true, cluster("mean_response"));
    figure("fig6b-user-budget", "Fig. 6(b): average budget spent by each cluster's users (grid dollars)", "grid dollars",
           true, cluster("mean_budget_spent"));
    figure("fig6c-user-accepted", "Fig. 6(c): jobs accepted of each cluster's users", "jobs", true, cluster("accepted"));
    figure("fig7a-messages-per-job",
           "Fig. 7(a): average messages per job (bids, replies, executable, output; directory queries apart)",
           "messages per job", false, metric("messages_per_job"));
    figure("fig7b-remote-messages", "Fig. 7(b): remote messages per cluster (for jobs of other clusters' users)",
           "messages", true, cluster("remote_messages"));
    figure("fig7c-local-messages", "Fig. 7(c): local messages per cluster (for its own users' jobs)", "messages", true,
           cluster("local_messages"));
    {
      Figure f;
      f.stem = "admission-gaps";
      f.caption = "admission decisions checked against the exact knapsack (sla-admission), per bid time: the gap of "
                  "the decision to the optimum of its snapshot";
      f.header = {"bid_share", "oft_share", "seed", "policy", "decisions", "checked", "proven", "at_optimum",
                  "gap_mean", "gap_p95", "gap_max", "incentive_lost", "earnings", "incentive_lost_share"};
      report::CdfChart chart;
      chart.title = "admission gap to the knapsack optimum, per bid time (log x: gaps of 0 are left of the axis)";
      chart.x_label = "relative gap (optimum - decision) / optimum";
      chart.log_x = true;
      chart.zoom_y = true;  // nearly every decision is at the optimum: the y axis starts where the gaps do
      for (const double share : shares_) {
        std::vector<double> all;
        std::size_t zeros = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
          if (!records[i] || combos_[points[i].input].first != share) continue;
          const RunRecord& r = *records[i];
          if (r.data.contains("gaps") && combos_[points[i].input].second == oft) {
            for (const auto& g : r.data["gaps"]) all.push_back(g.get<double>());
            zeros += r.data["gaps_at_zero"].get<std::size_t>();
          }
          std::vector<std::string> row = {points[i].parameter("bid_share"), points[i].parameter("oft_share"),
                                          std::to_string(points[i].seed), share == 0 ? "fcfs" : policy_name()};
          for (const char* m : {"decisions", "decisions_checked", "decisions_proven", "decisions_at_optimum", "gap_mean",
                                "gap_p95", "gap_max", "incentive_lost", "earnings", "incentive_lost_share"})
            row.push_back(csv_number(r.metric(m)));
          f.rows.push_back(std::move(row));
        }
        chart.series.push_back({percent(share) + (share == 0 ? " (fcfs)" : ""), std::move(all), zeros});
      }
      f.plot = report::cdf_plot(chart);
      out.push_back(std::move(f));
    }
    {
      Figure f;
      f.stem = "runs-table";
      f.caption = "every run: its parameters and main metrics, one row a run";
      f.header = {"bid_share", "oft_share", "seed"};
      const std::vector<const char*> names = {"jobs", "accepted", "dropped", "dropped_with_room", "earnings",
                                              "earnings_per_processor", "mean_response", "mean_budget_spent",
                                              "messages_per_job", "directory_messages_per_job", "decisions",
                                              "decisions_checked", "decisions_at_optimum", "gap_p95", "incentive_lost",
                                              "violations"};
      for (const char* n : names) f.header.push_back(n);
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (!records[i]) continue;
        std::vector<std::string> row = {points[i].parameter("bid_share"), points[i].parameter("oft_share"),
                                        std::to_string(points[i].seed)};
        for (const char* n : names) row.push_back(csv_number(records[i]->metric(n)));
        f.rows.push_back(std::move(row));
      }
      out.push_back(std::move(f));
    }
    return out;
  }

  // The worst admission decisions of the sweep (failing first, then the largest gaps) as `sla-admission` corpus files
  // that `schedcheck check` reproduces, into --corpus DIR (default: the output folder).
  std::vector<std::string> extras(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records,
                                  const std::string& dir) const override {
    CheckRequest request;
    request.exact = federation_.settings.exact;
    request.solve.timeout_ms = federation_.settings.timeout_ms;
    return write_worst_decisions(
        points, records, "worst", registry_.typed<sla::Instance, sla::Admission>("sla-admission"), request,
        federation_.settings.keep_worst, options_.corpus.empty() ? dir : options_.corpus, "worst-admission",
        [&](const Point& p, const nlohmann::json& w) {
          return fmt::format("{} (decision of {} at t={:g}, bid time {}, gap {:.6f})", p.reproduce,
                             w["where"].get<std::string>(), w["time"].get<double>(), percent(combos_[p.input].first),
                             w["gap"].get<double>());
        });
  }

  std::string text(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records) const override {
    std::string out = fmt::format("{:>9} {:>5} {:>7} {:>8} {:>9} {:>12} {:>11} {:>9} {:>9} {:>9} {:>8}\n", "bid time",
                                  "OFT", "jobs", "accepted", "dropped", "earnings", "response s", "msg/job",
                                  "checked", "at opt", "gap p95");
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (!records[i]) continue;
      const RunRecord& r = *records[i];
      out += fmt::format("{:>9} {:>5} {:>7} {:>8} {:>9} {:>12.5g} {:>11.5g} {:>9.3f} {:>9} {:>9} {:>8.4f}\n",
                         percent(combos_[points[i].input].first), percent(combos_[points[i].input].second),
                         r.metric("jobs"), r.metric("accepted"),
                         r.metric("dropped"), r.metric("earnings"), r.metric("mean_response"),
                         r.metric("messages_per_job"), r.metric("decisions_checked"), r.metric("decisions_at_optimum"),
                         r.metric("gap_p95"));
      for (const auto& [name, message] : r.data["first_violations"].items())
        out += fmt::format("  violated {}: {}\n", name, message.get<std::string>());
    }
    return out;
  }

private:
  // The admission policy of the runs with a bid time, as registered for `sla-admission`.
  std::string policy_name() const {
    return federation_.settings.one_reservation_per_call ? "greedy-backfilling-one" : "greedy-backfilling";
  }
  std::string share_list() const {
    std::string s;
    for (const double x : shares_) s += (s.empty() ? "" : ", ") + percent(x);
    return s;
  }

  ExperimentOptions options_;
  const Registry& registry_;
  Described info_;
  Federation federation_;
  std::vector<workload::Workload> workloads_;
  std::vector<double> shares_;
  std::vector<std::pair<double, double>> combos_;  // (bid share, OFT share) of each point's input, in report order
  std::size_t seeds_ = 1;
  std::vector<std::string> notes_;
};

}  // namespace
}  // namespace federation_run

CatalogueEntry federation_experiment() {
  return catalogue_entry<federation_run::FederationExperiment>(
      {"federation", "paper 004 sec. 4 (Experiments 1 and 2, Fig. 4-7, Table 2)",
       "the SLA contract net over a federation of clusters replaying real traces: total SLA bid time from "
       "0% to 50% of the deadline against earnings, response time, budget spent, jobs accepted and messages "
       "per job; every admission decision checked against the exact knapsack, every run against the "
       "contract net's properties"},
      "--scenario FILE (default: examples/scenarios/federation.json, Table 2 on the shared traces); --seeds "
      "N: which users seek cost when the scenario's oft_shares are below 1 (default 1); --quick: one day "
      "of traces, bid times 0%, 20%, 50%; --corpus DIR: where the worst admission decisions go as corpus "
      "files (default: the output folder)");
}

}  // namespace schedcheck::experiments
