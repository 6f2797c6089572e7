// Properties of a federation run (see federation_properties.hpp): paper 004 sec. 3.1-3.3, Algorithms 1-2.
#include "properties/federation_properties.hpp"


#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <functional>
#include <set>

namespace schedcheck::federation {

namespace {

constexpr double kSlack = 1e-9;
bool at_most(double lhs, double rhs) { return lhs <= rhs + kSlack * std::max(1.0, std::fabs(rhs)); }
bool same(double a, double b) { return at_most(a, b) && at_most(b, a); }

struct Tally {
  std::vector<RunPropertyResult> results;
  void fail(std::size_t k, const std::string& message) {
    if (results[k].violations++ == 0) results[k].first = message;
  }
};

// The processors the accepted jobs of the log hold, swept forward in time: for each query (a cluster and an instant),
// in time order per cluster, `visit` gets the (finish, processors) of the jobs accepted there at or before the instant
// that have not finished by it. One sweep a cluster.
using Running = std::multiset<std::pair<double, int>>;
struct Query {
  std::size_t cluster = 0;
  double time = 0;
  std::size_t job = 0;
};
void sweep(const std::vector<Cluster>& clusters, const RunLog& run, std::vector<Query> queries,
           const std::function<void(const Query&, const Running&)>& visit) {
  std::stable_sort(queries.begin(), queries.end(), [](const Query& a, const Query& b) { return a.time < b.time; });
  for (std::size_t m = 0; m < clusters.size(); ++m) {
    std::vector<std::size_t> accepted;
    for (std::size_t j = 0; j < run.jobs.size(); ++j)
      if (run.logs[j].outcome == Outcome::kAccepted && run.logs[j].ran_on == m) accepted.push_back(j);
    std::stable_sort(accepted.begin(), accepted.end(),
                     [&](std::size_t a, std::size_t b) { return run.logs[a].start < run.logs[b].start; });
    Running running;
    std::size_t next = 0;
    for (const Query& q : queries) {
      if (q.cluster != m) continue;
      for (; next < accepted.size() && run.logs[accepted[next]].start <= q.time; ++next)
        running.emplace(run.logs[accepted[next]].finish, run.jobs[accepted[next]].procs);
      while (!running.empty() && running.begin()->first <= q.time) running.erase(running.begin());
      visit(q, running);
    }
  }
}

// Whether the job meets its SLA's terms at the cluster, as the bid would be judged there (model/sla.hpp).
bool sla_eligible(const Cluster& cluster, const Job& job, const Terms& terms, const Settings& settings) {
  return job.procs <= cluster.processors &&
         sla::eligible(site(cluster, cluster.processors, settings.budget_test), bid(job, terms, job.submit, ""));
}

// For each dropped job, the clusters that could have started it at or after its drop instant and finished it by its
// latest finish, on the profile of the jobs accepted there by that instant (with `under_sla`, only clusters that meet
// the job's SLA terms).
std::map<std::size_t, std::vector<std::size_t>> room_at_drops(const std::vector<Cluster>& clusters, const Settings& settings,
                                                              const RunLog& run, bool under_sla) {
  std::vector<Query> queries;
  for (std::size_t j = 0; j < run.jobs.size(); ++j)
    if (run.logs[j].outcome == Outcome::kDropped)
      for (std::size_t m = 0; m < clusters.size(); ++m) queries.push_back({m, run.logs[j].dropped_at, j});
  std::map<std::size_t, std::vector<std::size_t>> room;
  sweep(clusters, run, std::move(queries), [&](const Query& q, const Running& running) {
    const Cluster& c = clusters[q.cluster];
    const Job& job = run.jobs[q.job];
    const Terms& terms = run.logs[q.job].terms;
    if (job.procs > c.processors || (under_sla && !sla_eligible(c, job, terms, settings))) return;
    int free = c.processors;
    for (const auto& r : running) free -= r.second;
    double start = q.time;  // the earliest start: running jobs end in finish order, nothing else is reserved
    for (auto it = running.begin(); free < job.procs && it != running.end(); ++it) {
      free += it->second;
      start = it->first;
    }
    if (free >= job.procs && at_most(start + response_time(c, job, terms), latest_finish(job, terms)))
      room[q.job].push_back(q.cluster);
  });
  return room;
}

}  // namespace

const std::vector<PropertyInfo>& run_properties() {
  static const std::vector<PropertyInfo> all = {
      {"jobs-conserved", "our own", "every job is accepted by exactly one contractor and finishes there, or is dropped"},
      {"no-accepted-deadline-violation", "paper 004 sec. 3.1 (an SLA guarantees the deadline)",
       "every accepted job finishes at start + D(J,R_m) and its output is back by submit + d"},
      {"capacity", "paper 004 Eq. 4, Algorithm 2 (r >= p)",
       "at every instant the accepted jobs running on a cluster hold at most its processors"},
      {"budget-respected", "paper 004 sec. 3.1, Eq. 8", "no job is charged more than its budget: B(J,R_m) <= b"},
      {"expiry-schedule", "paper 004 Eq. 1-3, Algorithm 1",
       "the bids of a job carry the intervals of Eq. 2 in turn, they sum to at most t_neg, and each is answered "
       "within its interval (at once under a 0% bid time)"},
      {"rejected-only-when-unfit", "paper 004 Alg. 2 lines 1.17-1.22 (reject when r < p or de < D)",
       "a contractor rejects a bid only when the bid is ineligible or the processors its accepted jobs leave free at "
       "that instant are fewer than the bid asks"},
      {"drop-asked-every-cluster-with-room", "paper 004 sec. 3.1 (dropped after iterating up to the last feasible contractor)",
       "a job is dropped only after the manager bid to every cluster that met its SLA terms and, on its profile at "
       "the drop instant, could still have run it by its deadline (a cluster never asked is a missed chance); it "
       "does not ask whether an asked cluster, which rejected the bid earlier, had room again by the drop: the "
       "metric dropped_with_room counts those"},
      {"messages-accounted", "paper 004 sec. 4.3 (message complexity)",
       "the messages of the jobs' logs (directory queries and answers, bids, replies, executables, outputs) are the "
       "messages the kernel counted, kind by kind"},
  };
  return all;
}

std::string job_name(const std::vector<Cluster>& clusters, const Job& job) {
  return fmt::format("{}:{}", clusters[job.home].name, job.trace_id);
}

std::vector<RunPropertyResult> check_run(const std::vector<Cluster>& clusters, const Settings& settings, const RunLog& run) {
  Tally tally;
  for (const auto& p : run_properties()) tally.results.push_back({p.name, 0, ""});
  enum { kConserved, kDeadline, kCapacity, kBudget, kExpiry, kUnfit, kHopeless, kMessages };
  std::map<std::string, std::size_t> counted;  // from the logs, by message kind
  std::vector<std::vector<std::pair<double, int>>> use(clusters.size());  // (time, +p at start / -p at finish)
  for (std::size_t j = 0; j < run.jobs.size(); ++j) {
    const Job& job = run.jobs[j];
    const JobLog& log = run.logs[j];
    const std::string name = job_name(clusters, job);
    std::size_t accepted = 0;
    for (const Attempt& a : log.attempts) accepted += a.accepted;
    // jobs-conserved
    if (log.outcome == Outcome::kPending)
      tally.fail(kConserved, fmt::format("job {}: neither accepted nor dropped at the end of the run", name));
    else if (log.outcome == Outcome::kAccepted && (accepted != 1 || !log.attempts.back().accepted))
      tally.fail(kConserved, fmt::format("job {}: accepted, but {} of its bids were accepted", name, accepted));
    else if (log.outcome == Outcome::kDropped && accepted != 0)
      tally.fail(kConserved, fmt::format("job {}: dropped at t={} after a contractor accepted it", name, log.dropped_at));
    else if (log.outcome == Outcome::kAccepted && log.ran_on != log.attempts.back().contractor)
      tally.fail(kConserved, fmt::format("job {}: accepted by {} but run on {}", name,
                                         clusters[log.attempts.back().contractor].name, clusters[log.ran_on].name));
    else if (log.outcome == Outcome::kAccepted && log.finish < 0)
      tally.fail(kConserved, fmt::format("job {}: accepted by {} but never finished", name, clusters[log.ran_on].name));
    // no-accepted-deadline-violation, budget-respected, and the run's timing on the contractor
    if (log.outcome == Outcome::kAccepted && log.finish >= 0) {
      const Cluster& m = clusters[log.ran_on];
      const double d = response_time(m, job, log.terms);
      if (!same(log.start, log.attempts.back().replied) || !same(log.finish, log.start + d))
        tally.fail(kDeadline, fmt::format("job {}: on {} it ran [{}, {}], not from its acceptance at t={} for "
                                          "D(J,R_m) = {} s", name, m.name, log.start, log.finish,
                                          log.attempts.back().replied, d));
      else if (!at_most(log.finish, latest_finish(job, log.terms)))
        tally.fail(kDeadline, fmt::format("job {}: finished on {} at t={}, after its latest finish submit + d - tr = {}",
                                          name, m.name, log.finish, latest_finish(job, log.terms)));
      const double b = cost(m, job, log.terms);
      if (!same(log.charged, b))
        tally.fail(kBudget, fmt::format("job {}: charged {} on {}, but B(J,R_m) = {}", name, log.charged, m.name, b));
      else if (!at_most(b, log.terms.budget))
        tally.fail(kBudget, fmt::format("job {}: charged B(J,R_m) = {} on {}, above its budget b = {}", name, b, m.name,
                                        log.terms.budget));
      use[log.ran_on].emplace_back(log.start, job.procs);
      use[log.ran_on].emplace_back(log.finish, -job.procs);
    }
    // expiry-schedule: Eq. 2 recomputed here, (t_neg - what the earlier bids were given) / 2, in whole seconds when
    // tau maps into Z+; 0 at a 0% bid time. Each interval being that, they never sum above t_neg.
    double given = 0;
    for (std::size_t k = 0; k < log.attempts.size(); ++k) {
      const Attempt& a = log.attempts[k];
      const double half = std::max(0.0, log.terms.t_neg - given) / 2;
      const double expected = run.admission == AdmissionMode::kOnArrival ? 0
                              : settings.integer_intervals                ? std::floor(half)
                                                                          : half;
      if (!same(a.interval, expected)) {
        tally.fail(kExpiry, fmt::format("job {}: bid {} to {} carried an interval of {} s; Eq. 2 gives {} s "
                                        "(t_neg = {}, {} s given before)", name, k + 1, clusters[a.contractor].name,
                                        a.interval, expected, log.terms.t_neg, given));
        break;
      }
      given += a.interval;
      if (a.replied < a.sent || !at_most(a.replied, a.sent + a.interval)) {
        tally.fail(kExpiry, fmt::format("job {}: bid {} sent to {} at t={} with an interval of {} s was answered at "
                                        "t={}", name, k + 1, clusters[a.contractor].name, a.sent, a.interval,
                                        a.replied));
        break;
      }
    }
    // messages, from the structure of the log: a directory query (and its answer) before each bid and before the drop,
    // a reply to each bid, the executable to the contractor and the output back for an accepted job
    const std::size_t queries = log.attempts.size() + (log.outcome == Outcome::kDropped ? 1 : 0);
    const std::size_t transfers = log.outcome == Outcome::kAccepted ? (log.finish >= 0 ? 2 : 1) : 0;
    counted[kQuery] += queries;
    counted[kAnswer] += queries;
    counted[kBid] += log.attempts.size();
    counted[kAccept] += accepted;
    counted[kReject] += log.attempts.size() - accepted;
    counted[kJob] += transfers >= 1;
    counted[kResult] += transfers >= 2;
    if (log.queries != queries || log.transfers != transfers)
      tally.fail(kMessages, fmt::format("job {}: {} directory queries and {} transfers logged for {} bids ({}); "
                                        "expected {} and {}", name, log.queries, log.transfers, log.attempts.size(),
                                        log.outcome == Outcome::kDropped ? "dropped" : "accepted", queries, transfers));
  }
  // capacity, per cluster: a finish before a start at the same instant
  for (std::size_t m = 0; m < clusters.size(); ++m) {
    auto& events = use[m];
    std::sort(events.begin(), events.end());
    long long held = 0;
    for (const auto& [time, delta] : events) {
      held += delta;
      if (held > clusters[m].processors) {
        tally.fail(kCapacity, fmt::format("cluster {}: {} processors held at t={}, of {}", clusters[m].name, held, time,
                                          clusters[m].processors));
        break;
      }
    }
  }
  // drop-asked-every-cluster-with-room: no cluster the manager had not asked had room
  // rejected-only-when-unfit: at each reject, the bid was ineligible or did not fit beside the accepted jobs
  std::vector<Query> rejects;
  for (std::size_t j = 0; j < run.jobs.size(); ++j)
    for (const Attempt& a : run.logs[j].attempts)
      if (!a.accepted && a.replied >= 0) rejects.push_back({a.contractor, a.replied, j});
  sweep(clusters, run, std::move(rejects), [&](const Query& q, const Running& running) {
    const Cluster& c = clusters[q.cluster];
    const Job& job = run.jobs[q.job];
    int free = c.processors;
    for (const auto& r : running) free -= r.second;
    if (job.procs <= free && sla_eligible(c, job, run.logs[q.job].terms, settings))
      tally.fail(kUnfit, fmt::format("job {}: {} rejected its bid at t={} with {} of {} processors free and the bid "
                                     "eligible", job_name(clusters, job), c.name, q.time, free, c.processors));
  });
  for (const auto& [j, clusters_with_room] : room_at_drops(clusters, settings, run, true)) {
    const JobLog& log = run.logs[j];
    for (const std::size_t m : clusters_with_room) {
      const bool asked = std::any_of(log.attempts.begin(), log.attempts.end(), [&](const Attempt& a) { return a.contractor == m; });
      if (asked) continue;
      tally.fail(kHopeless, fmt::format("job {}: dropped at t={} ({}), but {}, never asked, met its SLA terms and could have run it by its "
                                        "latest finish {}", job_name(clusters, run.jobs[j]), log.dropped_at,
                                        log.drop_reason, clusters[m].name, latest_finish(run.jobs[j], log.terms)));
      break;
    }
  }
  // messages-accounted: the logs' counts are the kernel's
  std::map<std::string, std::size_t> sent(run.sent_by_kind.begin(), run.sent_by_kind.end());
  for (const char* kind : {kQuery, kAnswer, kBid, kAccept, kReject, kJob, kResult})
    if (sent[kind] != counted[kind]) {
      tally.fail(kMessages, fmt::format("{} messages of kind {} sent, {} in the jobs' logs", sent[kind], kind, counted[kind]));
      break;
    }
  return tally.results;
}

std::vector<std::string> drops_with_room_explained(const std::vector<Cluster>& clusters, const RunLog& run,
                                                   bool asked_only) {
  std::vector<std::string> out;
  for (const auto& [j, with_room] : room_at_drops(clusters, Settings{}, run, false)) {
    const JobLog& log = run.logs[j];
    const auto& attempts = log.attempts;
    const auto m = std::find_if(with_room.begin(), with_room.end(), [&](std::size_t c) {
      return !asked_only || std::any_of(attempts.begin(), attempts.end(), [&](const Attempt& a) { return a.contractor == c; });
    });
    if (m == with_room.end()) continue;
    const bool asked = std::any_of(attempts.begin(), attempts.end(), [&](const Attempt& a) { return a.contractor == *m; });
    out.push_back(fmt::format("job {} dropped at t={:g} ({}, {} bid{}): {}, {}, could still have run it by its latest "
                              "finish {:g}", job_name(clusters, run.jobs[j]), log.dropped_at, log.drop_reason,
                              attempts.size(), attempts.size() == 1 ? "" : "s", clusters[*m].name,
                              asked ? "asked before, and it rejected the bid then" : "never asked",
                              latest_finish(run.jobs[j], log.terms)));
  }
  return out;
}

std::size_t drops_with_room(const std::vector<Cluster>& clusters, const RunLog& run, bool asked_only) {
  return drops_with_room_explained(clusters, run, asked_only).size();
}

}  // namespace schedcheck::federation
