// Properties of a federation run (see federation_properties.hpp): paper 004 sec. 3.1-3.3, Algorithms 1-2.
#include "properties/federation_properties.hpp"

#include "reference/federation_policies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
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

// For each dropped job (in the order of `run.jobs`), the clusters that could have started it at or after its drop
// instant and finished it by its latest finish, on the profile of the jobs accepted there by that instant. One sweep
// a cluster over the drops in time order.
std::map<std::size_t, std::vector<std::size_t>> room_at_drops(const std::vector<Cluster>& clusters, const RunLog& run) {
  std::vector<std::size_t> drops;
  for (std::size_t j = 0; j < run.jobs.size(); ++j)
    if (run.logs[j].outcome == Outcome::kDropped) drops.push_back(j);
  std::stable_sort(drops.begin(), drops.end(),
                   [&](std::size_t a, std::size_t b) { return run.logs[a].dropped_at < run.logs[b].dropped_at; });
  std::map<std::size_t, std::vector<std::size_t>> room;
  for (std::size_t m = 0; m < clusters.size(); ++m) {
    std::vector<std::size_t> accepted;
    for (std::size_t j = 0; j < run.jobs.size(); ++j)
      if (run.logs[j].outcome == Outcome::kAccepted && run.logs[j].ran_on == m) accepted.push_back(j);
    std::stable_sort(accepted.begin(), accepted.end(),
                     [&](std::size_t a, std::size_t b) { return run.logs[a].start < run.logs[b].start; });
    std::multiset<std::pair<double, int>> running;  // (finish, processors)
    std::size_t next = 0;
    for (const std::size_t j : drops) {
      const double t = run.logs[j].dropped_at;
      while (next < accepted.size() && run.logs[accepted[next]].start <= t) {
        const JobLog& a = run.logs[accepted[next++]];
        running.emplace(a.finish, run.jobs[accepted[next - 1]].procs);
      }
      while (!running.empty() && running.begin()->first <= t) running.erase(running.begin());
      const Job& job = run.jobs[j];
      if (job.procs > clusters[m].processors) continue;
      int free = clusters[m].processors;
      for (const auto& r : running) free -= r.second;
      double start = t;
      for (auto it = running.begin(); free < job.procs && it != running.end(); ++it) {
        free += it->second;
        start = it->first;
      }
      if (free < job.procs) continue;
      if (at_most(start + response_time(clusters[m], job, run.logs[j].terms), latest_finish(job, run.logs[j].terms)))
        room[j].push_back(m);
    }
  }
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
      {"dropped-only-when-hopeless", "paper 004 sec. 3.1 (dropped after iterating up to the last feasible contractor)",
       "no cluster the manager had not asked could have run a dropped job by its deadline, decided exactly on that "
       "cluster's profile at the drop instant"},
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
  enum { kConserved, kDeadline, kCapacity, kBudget, kExpiry, kHopeless, kMessages };
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
    // expiry-schedule
    double given = 0;
    for (std::size_t k = 0; k < log.attempts.size(); ++k) {
      const Attempt& a = log.attempts[k];
      const double expected = run.bid_share == 0 ? 0 : bid_interval(log.terms.t_neg, given, settings.integer_intervals);
      if (!same(a.interval, expected)) {
        tally.fail(kExpiry, fmt::format("job {}: bid {} to {} carried an interval of {} s; Eq. 2 gives {} s "
                                        "(t_neg = {}, {} s given before)", name, k + 1, clusters[a.contractor].name,
                                        a.interval, expected, log.terms.t_neg, given));
        break;
      }
      given += a.interval;
      if (!at_most(given, log.terms.t_neg)) {
        tally.fail(kExpiry, fmt::format("job {}: its bid intervals sum to {} s, above t_neg = {} s", name, given,
                                        log.terms.t_neg));
        break;
      }
      if (a.replied < a.sent || !at_most(a.replied, a.sent + a.interval)) {
        tally.fail(kExpiry, fmt::format("job {}: bid {} sent to {} at t={} with an interval of {} s was answered at "
                                        "t={}", name, k + 1, clusters[a.contractor].name, a.sent, a.interval,
                                        a.replied));
        break;
      }
    }
    // messages, from the log
    counted[kQuery] += log.queries;
    counted[kAnswer] += log.queries;
    counted[kBid] += log.attempts.size();
    counted[kAccept] += accepted;
    counted[kReject] += log.attempts.size() - accepted;
    const std::size_t transfers = log.outcome == Outcome::kAccepted ? (log.finish >= 0 ? 2 : 1) : 0;
    counted[kJob] += transfers >= 1;
    counted[kResult] += transfers >= 2;
    const std::size_t queries = log.attempts.size() + (log.outcome == Outcome::kDropped ? 1 : 0);
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
  // dropped-only-when-hopeless: no cluster the manager had not asked had room
  for (const auto& [j, clusters_with_room] : room_at_drops(clusters, run)) {
    const JobLog& log = run.logs[j];
    for (const std::size_t m : clusters_with_room) {
      const bool asked = std::any_of(log.attempts.begin(), log.attempts.end(), [&](const Attempt& a) { return a.contractor == m; });
      if (asked) continue;
      tally.fail(kHopeless, fmt::format("job {}: dropped at t={} ({}), but {}, never asked, could have run it by its "
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

std::size_t drops_with_room(const std::vector<Cluster>& clusters, const RunLog& run, bool asked_only) {
  std::size_t n = 0;
  for (const auto& [j, with_room] : room_at_drops(clusters, run)) {
    const auto& attempts = run.logs[j].attempts;
    n += std::any_of(with_room.begin(), with_room.end(), [&](std::size_t m) {
      return !asked_only || std::any_of(attempts.begin(), attempts.end(), [&](const Attempt& a) { return a.contractor == m; });
    });
  }
  return n;
}

}  // namespace schedcheck::federation
