// Certain verdicts (see audit_certain.hpp). Our own. Each bound over-approximates what the scheduler's profile held
// when it made a reservation (every job that may still have been running, every earlier job's reservation anywhere
// it may have been); more processors busy only makes the earliest fit later, so a start later than the bound breaks
// the promise under every legal history. A job that runs past its estimate makes any reservation legal to move.
#include "properties/audit_certain.hpp"

#include "model/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

namespace schedcheck::runcheck {

namespace {

using invariant::kFcfs;
using invariant::kGuarantee;
using invariant::kMaximal;
using invariant::kPartitionPivot;
using invariant::kBorrowing;
using invariant::kPivot;
constexpr double kTol = kTimeTolerance;

std::string t(double x) { return time_text(x); }

struct Job {
  std::int64_t id = 0;
  double submit = 0, start = 0, end = 0;
  double estimate = 0;  // what the scheduler believed
  double held = 0;      // how long it held its processors from its start, as the scheduler saw it: max(estimate, ran)
  int procs = 0;
  const ProcessorSet* on = nullptr;
  bool runs() const { return end > start + kTol && procs > 0; }
};

// The jobs that wait (queue indices) and how many processors each asks, to skip an instant where none fits.
struct Waiting {
  std::set<std::size_t> jobs;
  std::multiset<int> procs;
  void add(std::size_t j, int p) {
    if (jobs.insert(j).second) procs.insert(p);
  }
  void remove(std::size_t j, int p) {
    if (jobs.erase(j)) procs.erase(procs.find(p));
  }
  int narrowest() const { return procs.empty() ? std::numeric_limits<int>::max() : *procs.begin(); }
};

class Certain {
public:
  Certain(const CertainInput& in, CertainResult& out) : in_(in), out_(out) {
    const auto& w = *in.workload;
    for (std::size_t j = 0; j < w.jobs.size(); ++j) {
      const double s = (*in.start)[j];
      if (s < 0) continue;
      const auto& job = w.jobs[j];
      Job x;
      x.id = job.id;
      x.submit = job.submit;
      x.start = s;
      x.end = std::max(s, (*in.end)[j]);
      x.estimate = job.estimate;
      x.held = std::max(job.estimate, x.end - s);
      x.procs = job.procs;
      if (in.on && j < in.on->size()) x.on = &(*in.on)[j];
      if (x.end - s > job.estimate + kTol) overruns_.emplace_back(s + job.estimate, x.end);
      // A job of estimate 0 holds its reservation for no time: schedulers read that instant differently (some keep
      // its processors, some do not), so no certain verdict rests on a time it waited.
      if (job.estimate <= kTol && job.procs > 0) overruns_.emplace_back(job.submit, std::max(s, job.submit) + kTol);
      jobs_.push_back(x);
    }
    std::stable_sort(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) { return a.submit < b.submit; });
    unseen_ = in.unseen;
    std::sort(unseen_.begin(), unseen_.end(), [](const Unseen& a, const Unseen& b) { return a.from < b.from; });
    for (std::size_t k = 0; k < unseen_.size(); ++k)  // the one reaching furthest among the first k + 1
      unseen_reach_.push_back(k > 0 && unseen_[unseen_reach_.back()].to >= unseen_[k].to ? unseen_reach_.back() : k);
    std::sort(overruns_.begin(), overruns_.end());
    for (const auto& [from, to] : overruns_) overrun_reach_.push_back(std::max(overrun_reach_.empty() ? to : overrun_reach_.back(), to));
    by_start_.resize(jobs_.size());
    std::iota(by_start_.begin(), by_start_.end(), 0);
    std::stable_sort(by_start_.begin(), by_start_.end(), [&](std::size_t a, std::size_t b) { return jobs_[a].start < jobs_[b].start; });
    by_end_ = by_start_;
    std::stable_sort(by_end_.begin(), by_end_.end(), [&](std::size_t a, std::size_t b) { return jobs_[a].end < jobs_[b].end; });
    std::vector<std::pair<double, int>> deltas;
    for (const auto& x : jobs_)
      if (x.runs()) {
        deltas.emplace_back(x.start, x.procs);
        deltas.emplace_back(x.end, -x.procs);
      }
    std::sort(deltas.begin(), deltas.end());
    int busy = 0;
    for (const auto& [time, delta] : deltas) {
      busy += delta;
      busy_.emplace_back(time, busy);
    }
  }

  void fcfs_order() {
    double latest = -kForever;
    std::size_t latest_job = 0;
    for (std::size_t k = 0; k < jobs_.size(); ++k) {
      const Job& x = jobs_[k];
      if (latest > x.start + kTol) {
        const Job& waits = jobs_[latest_job];
        report(kFcfs, x.start, x, waits,
               fmt::format("job {} (submitted {}) starts at {} while job {} (submitted {}) waits until {}: FCFS starts "
                           "jobs in submit order", x.id, t(x.submit), t(x.start), waits.id, t(waits.submit), t(waits.start)),
               std::nullopt);
      }
      if (x.start > latest) {
        latest = x.start;
        latest_job = k;
      }
    }
  }

  // A sweep over the instants of the schedule with the profile of the jobs that may be running: the head's fit at
  // the end of every instant (fcfs, easy), each pivot's bound when it becomes the head and EASY's backfilling (easy).
  void sweep(bool fcfs, bool easy) {
    estimates_view_ = easy;
    const bool identity = in_.model == cluster::ResourceModel::kProcessors;
    const int capacity = in_.workload->processors;
    AvailabilityProfile running(capacity, identity);
    std::vector<std::pair<double, std::size_t>> pivots;  // (when it becomes the head, job), for jobs that then wait
    double latest = -kForever;
    for (std::size_t j = 0; j < jobs_.size(); ++j) {
      const double head_from = std::max(jobs_[j].submit, latest);
      if (jobs_[j].start > head_from + kTol) pivots.emplace_back(head_from, j);
      latest = std::max(latest, jobs_[j].start);
    }
    Waiting waiting;
    std::vector<bool> reported(jobs_.size(), false);
    std::size_t arrived = 0, started = 0, ended = 0, pivot = 0, head = 0;
    for (const double now : instants()) {
      for (; arrived < jobs_.size() && jobs_[arrived].submit <= now + kTol; ++arrived)
        if (jobs_[arrived].start > now + kTol) waiting.add(arrived, jobs_[arrived].procs);
      // The scheduler's view: each running job held until start + estimate. With processor identity the jobs that
      // end now give their processors back before the ones that start now take them (a set is reserved only where
      // it is free); a pivot of such an instant then gets no certain verdict (it may have been reserved before).
      // A job of length 0 holds nothing, and jobs started at its instant may use its processors: with processor
      // identity it never enters the profile, and its instant, like an early end's, has no certain pivot verdict.
      bool early_end_now = identity && release_ends(running, ended, now);
      for (; started < by_start_.size() && jobs_[by_start_[started]].start <= now + kTol; ++started) {
        const Job& x = jobs_[by_start_[started]];
        waiting.remove(by_start_[started], x.procs);
        if (identity && x.end <= x.start + kTol) early_end_now = true;
        else if (until(x) > x.start + kTol && x.procs > 0) hold(running, x, x.start, true);
      }
      if (easy)  // the pivots of this instant: every job that may be running is still in the profile
        for (; pivot < pivots.size() && pivots[pivot].first <= now + kTol; ++pivot)
          if (!early_end_now) pivot_bound(running, pivots[pivot]);
      release_ends(running, ended, now);
      running.forget_before(now);
      while (head < jobs_.size() && jobs_[head].start <= now + kTol) ++head;
      if (head == jobs_.size() || jobs_[head].submit > now + kTol) continue;
      if (fcfs) head_fits(running, head, now, kFcfs, reported);
      if (easy && !overrun_between(now, now + kTol)) backfilling(running, head, now, waiting, reported);
    }
  }

  // EASY's rule at the instant of each backfill (Lifka 1995; Mu'alem & Feitelson 2001): a job started while the first
  // job in the queue waits must end, by its estimate, by that job's shadow time (its earliest fit among the running
  // jobs, each held until start + estimate), or use no more than the processors spare then. A start that breaks it
  // breaks EASY at that instant, whatever ends early later. Decided with the jobs the rows show running and the
  // estimates this audit reads, in every order of the instant's events a scheduler may have seen: each job that ends
  // then before its estimate as ended or still running, each other job started then as started before or after this
  // one, a job of length 0 also as started and ended (which also settles which job was first in the queue). No
  // verdict at an instant with a job running that runs past its estimate (then or later: its estimate was not what
  // the scheduler believed, or not a limit) or one of estimate 0 waiting, with a first job submitted at that very
  // instant, or with more than 256 orders of its events.
  void decisions() {
    estimates_view_ = true;
    std::set<std::pair<double, std::size_t>> running;  // (start + estimate, job) of the jobs running into the instant
    std::size_t started = 0, head = 0;
    for (const double now : instants()) {
      std::vector<std::size_t> ending, starting;     // E: early ends now; S: starts now
      for (auto it = running.begin(); it != running.end();) {
        const Job& x = jobs_[it->second];
        if (x.end > now + kTol) {
          ++it;
          continue;
        }
        if (until(x) > now + kTol) ending.push_back(it->second);  // ended before its estimate: seen either way
        it = running.erase(it);
      }
      for (; started < by_start_.size() && jobs_[by_start_[started]].start <= now + kTol; ++started)
        starting.push_back(by_start_[started]);
      while (head < jobs_.size() && jobs_[head].start <= now + kTol) ++head;
      if (head < jobs_.size() && jobs_[head].submit < now - kTol && !overrun_between(now, now + kTol))
        for (const std::size_t k : starting)
          if (k > head && jobs_[k].procs > 0) backfill_rule(k, now, running, ending, starting);
      for (const std::size_t k : starting)
        if (jobs_[k].end > now + kTol && jobs_[k].procs > 0) running.emplace(until(jobs_[k]), k);
    }
  }

  // Conservative backfilling on counts: at its arrival each job is reserved at the earliest fit among the running
  // jobs and the earlier jobs' reservations. Reservations only move earlier and a job starts at its reservation or
  // before, so every reservation an earlier job held lay between its start and its own bound: counting it busy over
  // all of that span, the fit found bounds every reservation a legal scheduler could give.
  void conservative(const char* name) {
    AvailabilityProfile over(in_.workload->processors);
    std::vector<double> span(jobs_.size(), 0);
    std::size_t arrived = 0, started = 0, ended = 0;
    for (const double now : instants()) {
      for (; arrived < jobs_.size() && jobs_[arrived].submit <= now + kTol; ++arrived) {
        const Job& x = jobs_[arrived];
        const double bound = over.earliest_start(x.procs, x.estimate, now).value_or(now);
        span[arrived] = std::max(bound + x.estimate, x.start + x.held);
        if (span[arrived] > x.start + kTol && x.procs > 0) over.reserve(std::max(now, x.start), span[arrived], x.procs);
        if (x.start > bound + kTol && !overrun_between(x.submit, x.start))
          blame(name, arrived, bound, x.submit, true,
                fmt::format("at its arrival ({}) a conservative scheduler reserves it at its earliest fit, which "
                            "the jobs before it push to {} at the latest", t(x.submit), t(bound)),
                x.submit);
      }
      for (; started < by_start_.size() && jobs_[by_start_[started]].start <= now + kTol; ++started) {
        const std::size_t i = by_start_[started];
        const Job& x = jobs_[i];
        if (x.procs == 0 || span[i] <= x.start + x.held + kTol) continue;  // the span shrinks to the run
        over.release(x.start + x.held, span[i], x.procs);
      }
      for (; ended < by_end_.size() && jobs_[by_end_[ended]].end <= now + kTol; ++ended) {
        const Job& x = jobs_[by_end_[ended]];
        if (x.procs > 0 && x.start + x.held > now + kTol) over.release(now, x.start + x.held, x.procs);
      }
      over.forget_before(now);
    }
  }

private:
  // Every instant something happens, ascending, instants closer than the tolerance as one.
  std::vector<double> instants() const {
    std::vector<double> times;
    times.reserve(3 * jobs_.size());
    for (const auto& x : jobs_) {
      times.push_back(x.submit);
      times.push_back(x.start);
      times.push_back(x.end);
    }
    std::sort(times.begin(), times.end());
    std::vector<double> out;  // a chain of times each within the tolerance of the one before is one instant, its last
    for (std::size_t i = 0; i < times.size(); ++i)
      if (i == 0 || times[i] > times[i - 1] + kTol) out.push_back(times[i]);
      else out.back() = times[i];
    return out;
  }

  // Gives back the holds of the jobs that end at `now` (by_end_ from `ended` on); whether one of them ended before
  // its estimate.
  bool release_ends(AvailabilityProfile& profile, std::size_t& ended, double now) {
    bool early = false;
    for (; ended < by_end_.size() && jobs_[by_end_[ended]].end <= now + kTol; ++ended) {
      const Job& x = jobs_[by_end_[ended]];
      early |= x.end < until(x) - kTol;
      if (profile.tracks_processors() && x.end <= x.start + kTol) continue;  // never held (see sweep)
      if (until(x) > now + kTol && x.procs > 0) hold(profile, x, now, false);
    }
    return early;
  }

  // Until when a running job holds its processors in the sweep: EASY's view, start + estimate (a job that runs past
  // it leaves no certain verdict while it does); FCFS, which ignores estimates, until it ends.
  double until(const Job& x) const { return estimates_view_ ? x.start + x.estimate : x.start + x.held; }

  void hold(AvailabilityProfile& profile, const Job& x, double from, bool add) const {
    const double until = this->until(x);
    if (profile.tracks_processors() && x.on && x.on->count() == x.procs) {
      add ? profile.reserve(from, until, *x.on) : profile.release(from, until, *x.on);
    } else if (!profile.tracks_processors()) {
      add ? profile.reserve(from, until, x.procs) : profile.release(from, until, x.procs);
    }
  }

  // Whether some job ran past its estimate at some instant of [from, to): the scheduler's reservations then rested
  // on an end that did not come, and moving them later is legal.
  bool overrun_between(double from, double to) const {
    const auto it = std::lower_bound(overruns_.begin(), overruns_.end(), std::make_pair(to, -kForever));
    if (it == overruns_.begin()) return false;
    return overrun_reach_[static_cast<std::size_t>(it - overruns_.begin()) - 1] > from + kTol;
  }

  int busy_at(double x) const {  // processors the schedule's jobs hold at instant x
    const auto it = std::upper_bound(busy_.begin(), busy_.end(), x + kTol,
                                     [](double v, const std::pair<double, int>& e) { return v < e.first; });
    return it == busy_.begin() ? 0 : std::prev(it)->second;
  }

  // A verdict decided at `decided` (none: it rests on the rows alone): certain, or withheld when an unseen job may
  // have waited or run then.
  void report(const char* name, double time, const Job& blamed, const Job& delayed, std::string detail,
              std::optional<double> decided) {
    out_.named.insert(blamed.id);
    out_.named.insert(delayed.id);
    if (const Unseen* u = decided ? unseen_at(*decided) : nullptr) {
      const bool first = ++out_.withheld_counts[name] == 1;
      if (first || out_.withheld.size() < in_.keep)
        out_.withheld.push_back(Violation{
            name, time, "schedule rows", blamed.id,
            fmt::format("{} (not certain: job {} {}, and may have waited or held processors at {})", detail, u->job,
                        u->why, t(*decided))});
      return;
    }
    const bool first = ++out_.counts[name] == 1;
    if (first || out_.violations.size() < in_.keep)
      out_.violations.push_back(Violation{name, time, "schedule rows", blamed.id, std::move(detail)});
  }

  // The unseen job that may have waited or run at x, or null.
  const Unseen* unseen_at(double x) const {
    const auto it = std::upper_bound(unseen_.begin(), unseen_.end(), x + kTol,
                                     [](double v, const Unseen& u) { return v < u.from; });
    if (it == unseen_.begin()) return nullptr;
    const std::size_t k = unseen_reach_[static_cast<std::size_t>(it - unseen_.begin()) - 1];
    return unseen_[k].to > x ? &unseen_[k] : nullptr;
  }

  // Job j started later than `bound`, the latest start its promise allows: blame the jobs queued after it that
  // started while it waited (after `from`, or at it when `inclusive`) and still held processors at the bound.
  void blame(const char* name, std::size_t j, double bound, double from, bool inclusive, const std::string& promise,
             double decided) {
    const Job& x = jobs_[j];
    auto first = std::lower_bound(by_start_.begin(), by_start_.end(), from, [&](std::size_t k, double v) {
      return inclusive ? jobs_[k].start < v - kTol : jobs_[k].start <= v + kTol;
    });
    std::vector<std::size_t> took;
    const int free = in_.workload->processors - busy_at(bound);
    for (auto it = first; free < x.procs && it != by_start_.end() && jobs_[*it].start <= bound + kTol; ++it) {
      const Job& k = jobs_[*it];
      if (*it > j && k.runs() && k.end > bound + kTol) took.push_back(*it);
    }
    if (took.empty()) {  // enough processors were free at the bound, or none of them went to a job queued after it
      report(name, bound, x, x,
             fmt::format("job {} waited: {}, and it started at {} ({} of {} processors were free at {})", x.id, promise,
                         t(x.start), free, in_.workload->processors, t(bound)),
             decided);
      return;
    }
    const Job& k = jobs_[took.front()];
    std::string others;
    for (std::size_t n = 1; n < took.size() && n < 3; ++n) others += fmt::format("{}job {}", n > 1 ? ", " : "", jobs_[took[n]].id);
    if (took.size() > 3) others += fmt::format(" and {} more", took.size() - 3);
    for (std::size_t n = 1; n < took.size(); ++n) out_.named.insert(jobs_[took[n]].id);
    report(name, k.start, k, x,
           fmt::format("job {} (queued after job {}) started at {} on {} processors held until {}, which job {} needed: "
                       "{}; job {} started at {}{}", k.id, x.id, t(k.start), k.procs, t(k.end), x.id, promise, x.id,
                       t(x.start), others.empty() ? "" : " (also running then: " + others + ")"),
           decided);
  }

  // Job k started at `now` while an earlier job waited: does it break EASY's rule in every view of the instant (see
  // decisions)? `running`: the jobs running into the instant and past it; `ending`, `starting`: the uncertain ones.
  void backfill_rule(std::size_t k, double now, const std::set<std::pair<double, std::size_t>>& running,
                     const std::vector<std::size_t>& ending, const std::vector<std::size_t>& starting) {
    // The jobs whose state at k's start the rows do not settle, and how many states each may have been in: an early
    // end, still running (1) or ended (0); another start, made (1) or not yet (0), and for a job of length 0 made and
    // already ended (2).
    std::vector<std::size_t> open = ending;
    std::vector<unsigned> states(ending.size(), 2);
    for (const std::size_t j : starting)
      if (j != k) {
        open.push_back(j);
        states.push_back(jobs_[j].end <= now + kTol ? 3 : 2);
      }
    std::size_t views = 1;
    for (const unsigned n : states) views *= n;
    if (views > 256) return;
    // A job running then that ran past its estimate: the scheduler's view of it is not what the rows show.
    auto overran = [](const Job& y) { return y.end > y.start + y.estimate + kTol; };
    if (std::any_of(running.begin(), running.end(), [&](const auto& r) { return overran(jobs_[r.second]); }) ||
        std::any_of(open.begin(), open.end(), [&](std::size_t j) { return overran(jobs_[j]); }))
      return;
    const Job& x = jobs_[k];
    struct View {
      std::size_t pivot;
      double shadow;
      int spare;
    };
    std::optional<View> shown;  // preferably the view in which the instant's ends came first and its starts in queue order
    std::vector<unsigned> state(open.size(), 0);
    for (std::size_t v = 0; v < views; ++v) {
      for (std::size_t b = 0, rest = v; b < open.size(); ++b) {
        state[b] = static_cast<unsigned>(rest % states[b]);
        rest /= states[b];
      }
      AvailabilityProfile holds(in_.workload->processors);  // each job running in this view, held until its estimate
      for (const auto& [end, j] : running) holds.reserve(now, end, jobs_[j].procs);
      for (std::size_t b = 0; b < open.size(); ++b)
        if (state[b] == 1 && until(jobs_[open[b]]) > now + kTol) holds.reserve(now, until(jobs_[open[b]]), jobs_[open[b]].procs);
      const int free = holds.free_at(now);
      if (x.procs > free) continue;  // k could not have started in this view: not a history
      // The first job in the queue: the first before k that waits past the instant, or starts later in it.
      std::optional<std::size_t> pivot;
      for (std::size_t j = 0; j < k && !pivot; ++j) {
        const Job& y = jobs_[j];
        if (y.submit > now + kTol || y.start < now - kTol) continue;
        const auto at = std::find(open.begin(), open.end(), j);
        if (y.start > now + kTol || (at != open.end() && state[static_cast<std::size_t>(at - open.begin())] == 0))
          pivot = j;
      }
      if (!pivot || jobs_[*pivot].submit > now - kTol) return;  // k was first, or the first had just arrived
      const Job& h = jobs_[*pivot];
      // Only releases follow `now`: the first instant with enough free is the shadow time, for any duration.
      const double shadow = holds.first_free(now, h.procs);
      if (shadow == kForever) return;  // it never fits: no reservation to delay
      const int spare = holds.free_at(shadow) - h.procs;
      if (x.procs <= spare || now + x.estimate <= shadow + kTol) return;  // allowed in this view
      bool canonical = true;
      for (std::size_t b = 0; b < ending.size(); ++b) canonical &= state[b] == 0;
      for (std::size_t b = ending.size(); b < open.size(); ++b) canonical &= (state[b] != 0) == (open[b] < k);
      if (canonical || !shown) shown = View{*pivot, shadow, spare};
    }
    if (!shown) return;
    const Job& h = jobs_[shown->pivot];
    pending_.push_back(Pending{k, shown->pivot, now,
           fmt::format("job {} ({} processors, estimate {}) started at {} while job {} waited first in the queue: with "
                       "the jobs running then held until start + estimate, job {}'s shadow time is {} with {} processors "
                       "to spare, and job {} takes more and ends by its estimate at {}; EASY backfills a job only if it "
                       "ends by the shadow time or uses no more than the spare processors (a breach at the instant of "
                       "the start, under the estimates this audit reads and in any order of the instant's events)",
                       x.id, x.procs, t(x.estimate), t(now), h.id, h.id, t(shown->shadow), shown->spare, x.id,
                       t(now + x.estimate))});
  }

public:
  // The breaches decisions() found, each reported unless the sweep's bound on the same pivot already reported the
  // delay it caused (one incident, reported once, with the start the pivot got).
  void report_decisions() {
    for (auto& p : pending_)
      if (!bounded_pivots_.count(p.pivot)) report(kPivot, p.now, jobs_[p.backfill], jobs_[p.pivot], std::move(p.detail), p.now);
    pending_.clear();
  }

private:

  // EASY: the head's reservation is its earliest fit among the jobs running when it became the head.
  void pivot_bound(const AvailabilityProfile& running, const std::pair<double, std::size_t>& p) {
    const auto [head_from, j] = p;
    const Job& x = jobs_[j];
    const auto slot = running.earliest_slot(x.procs, x.estimate, head_from);
    if (!slot || x.start <= slot->start + kTol || overrun_between(head_from, x.start)) return;
    bounded_pivots_.insert(j);
    blame(kPivot, j, slot->start, head_from, false,
          fmt::format("first in the queue from {}, it is reserved at its earliest fit among the jobs running then, "
                      "{} at the latest", t(head_from), t(slot->start)),
          head_from);
  }

  void head_fits(const AvailabilityProfile& running, std::size_t h, double now, const char* name,
                 std::vector<bool>& reported) {
    const Job& x = jobs_[h];
    if (reported[h] || !running.slot_at(x.procs, now, x.estimate)) return;
    reported[h] = true;
    report(name, now, x, x,
           fmt::format("job {}, first in the queue, fits at {} ({} processors free) but waits until {}", x.id, t(now),
                       running.free_at(now), t(x.start)),
           now);
  }

  // EASY at the end of an instant: the head starts if it fits; any other waiting job that fits now without
  // delaying the head's reservation starts. The head's earliest fit is the earliest reservation it can hold; a later
  // one leaves more room, so a job that fits around the earliest fits around any. With processor identity the
  // head's processors are the scheduler's choice: only jobs that end by its earliest fit are checked.
  void backfilling(AvailabilityProfile& running, std::size_t h, double now, Waiting& waiting,
                   std::vector<bool>& reported) {
    const Job& head = jobs_[h];
    if (running.slot_at(head.procs, now, head.estimate)) return head_fits(running, h, now, kMaximal, reported);
    const int free = running.free_at(now);
    if (free <= 0 || waiting.narrowest() > free) return;
    const auto slot = running.earliest_slot(head.procs, head.estimate, now);
    if (!slot) return;
    const double shadow = slot->start;
    const bool identity = running.tracks_processors();
    if (!identity) running.reserve(shadow, shadow + head.estimate, head.procs);
    // In queue order, as a pass would: each job found is taken as started, so a second job that fits only in the
    // processors of the first is no second violation.
    std::vector<std::pair<std::size_t, AvailabilityProfile::Slot>> found;
    for (const std::size_t k : waiting.jobs) {
      const Job& x = jobs_[k];
      if (k == h || reported[k] || x.procs > free || x.submit > now + kTol) continue;
      if (identity && now + x.estimate > shadow + kTol) continue;
      const auto fit = running.slot_at(x.procs, now, x.estimate);
      if (!fit) continue;
      if (x.estimate > kTol) identity ? running.reserve(now, now + x.estimate, fit->processors)
                                      : running.reserve(now, now + x.estimate, x.procs);
      reported[k] = true;
      found.emplace_back(k, *fit);
      report(kMaximal, now, x, x,
             fmt::format("job {} ({} processors, estimate {}) fits at {} without delaying job {}, first in the queue "
                         "(reserved at {} at the earliest), but waits until {}", x.id, x.procs, t(x.estimate), t(now),
                         head.id, t(shadow), t(x.start)),
             now);
    }
    for (const auto& [k, fit] : found) {  // reported once: never looked at again
      const Job& x = jobs_[k];
      if (x.estimate > kTol) identity ? running.release(now, now + x.estimate, fit.processors)
                                      : running.release(now, now + x.estimate, x.procs);
      waiting.remove(k, x.procs);
    }
    if (!identity) running.release(shadow, shadow + head.estimate, head.procs);
  }

  const CertainInput& in_;
  CertainResult& out_;
  std::vector<Job> jobs_;                                // the jobs with a row, in queue order
  std::vector<std::size_t> by_start_, by_end_;
  std::vector<std::pair<double, double>> overruns_;      // [estimated end, end) of each job that ran past its estimate
  std::vector<double> overrun_reach_;                    // prefix maximum of their ends
  std::vector<Unseen> unseen_;                           // by `from`
  std::vector<std::size_t> unseen_reach_;                // per prefix: the one whose `to` is the latest
  std::vector<std::pair<double, int>> busy_;             // processors held from each instant on
  bool estimates_view_ = false;                          // the sweep holds running jobs until start + estimate
  struct Pending {                                       // a breach of EASY's rule at a backfill's start
    std::size_t backfill, pivot;
    double now;
    std::string detail;
  };
  std::vector<Pending> pending_;
  std::set<std::size_t> bounded_pivots_;                 // pivots the sweep found started past their bound
};

}  // namespace

CertainResult certain_verdicts(const CertainInput& in) {
  CertainResult out;
  const auto& p = in.policy;
  const auto promised = [&](const char* name) {
    return std::find(p.promises.begin(), p.promises.end(), name) != p.promises.end();
  };
  const bool count = in.model == cluster::ResourceModel::kCount;
  Certain certain(in, out);
  if (promised(kFcfs)) {
    out.counts[kFcfs] = 0;
    certain.fcfs_order();
    certain.sweep(true, false);
  } else if (p.pivots == cluster::kEveryJob) {
    const char* name = promised(kGuarantee) ? kGuarantee : kPivot;
    if (count) {
      out.counts[name] = 0;
      certain.conservative(name);
    } else {
      out.unchecked.push_back(fmt::format("{}: with --model processors, which processors each reservation held "
                                          "is the scheduler's choice", name));
    }
    if (promised(kMaximal))
      out.unchecked.push_back(fmt::format("{}: every job holds a reservation, and where each lies is the "
                                          "scheduler's choice", kMaximal));
    if (promised(kPartitionPivot))
      out.unchecked.push_back(
          fmt::format("{}: with every job a pivot, the bound of {} stands for it", kPartitionPivot, name));
    if (promised(kBorrowing))
      out.unchecked.push_back(fmt::format("{}: which processors each reservation held is the scheduler's choice",
                                          kBorrowing));
  } else if (p.partitions) {
    for (const auto& name : p.promises)
      out.unchecked.push_back(fmt::format("{}: the certain bounds cover pivots of one queue, not {} per partition",
                                          name, cluster::value_text(p.pivots)));
  } else if (p.pivots == 1 && promised(kPivot)) {
    out.counts[kPivot] = 0;
    out.counts[kMaximal] = 0;
    certain.decisions();
    certain.sweep(false, true);
    certain.report_decisions();
  } else {
    for (const auto& name : p.promises)
      out.unchecked.push_back(fmt::format("{}: bounded for one pivot only ({} here)", name, p.pivots));
  }
  for (auto* list : {&out.violations, &out.withheld})
    std::stable_sort(list->begin(), list->end(), [](const auto& a, const auto& b) { return a.time < b.time; });
  return out;
}

}  // namespace schedcheck::runcheck
