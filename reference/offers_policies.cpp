// Provider-side offer policies (see offers_policies.hpp): paper 000 section III-A (genOffer, FEEDBACK, Phi) and
// III-B (FreeTimeSlots). The position-based FEEDBACK search and the slot publication details are our reading.
#include "reference/offers_policies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>

namespace schedcheck::offers {

std::vector<double> place_copies(AvailabilityProfile& profile, int procs, double runtime, long long tasks,
                                 double not_before) {
  std::vector<double> starts;
  place_copies(profile, procs, runtime, tasks, not_before, starts);
  return starts;
}

void place_copies(AvailabilityProfile& profile, int procs, double runtime, long long tasks, double not_before,
                  std::vector<double>& starts) {
  starts.clear();
  starts.reserve(static_cast<std::size_t>(tasks));
  double candidate = not_before;
  long long left = tasks;
  while (left > 0) {
    const auto start = profile.earliest_start(procs, runtime, candidate);
    if (!start) throw std::logic_error(fmt::format("a job of {} processors cannot fit on {}", procs, profile.capacity()));
    // How many copies fit side by side there (a single copy needs no look).
    long long batch = 1;
    if (left > 1) {
      const long long side_by_side = profile.min_free(*start, *start + runtime) / procs;
      batch = std::min(left, std::max(1LL, side_by_side));
    }
    profile.reserve(*start, *start + runtime, static_cast<int>(batch * procs));
    starts.insert(starts.end(), static_cast<std::size_t>(batch), *start);
    left -= batch;
    candidate = *start;
  }
}

// ---------------------------------------------------------------- EDF

void place_earliest(AvailabilityProfile& profile, FillCursor& fill, double floor, int procs, double runtime,
                    long long tasks, std::vector<double>& starts) {
  // Skip the front where fewer than `procs` processors are ever free (it only fills up as jobs are placed).
  place_copies(profile, procs, runtime, tasks, std::max(floor, fill.not_before(profile, procs)), starts);
}

EdfScheduler::EdfScheduler(const Instance& instance, GenOfferReading reading) : instance_(instance), reading_(reading) {
  order_.resize(instance.waiting.size());
  for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
  // Deadline order; ties by arrival (the file order), which also decides ties of ids.
  std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
    return instance.waiting[a].deadline < instance.waiting[b].deadline;
  });
}

std::size_t EdfScheduler::position_of(double deadline) const {
  const auto it = std::upper_bound(order_.begin(), order_.end(), deadline, [&](double d, std::size_t i) {
    return d < instance_.waiting[i].deadline;
  });
  return static_cast<std::size_t>(it - order_.begin());
}

std::vector<EdfScheduler::PositionInterval> EdfScheduler::positions_from(double deadline) const {
  std::vector<PositionInterval> out;
  double from = deadline;
  for (;;) {
    const std::size_t p = position_of(from);
    const double until = p < order_.size() ? instance_.waiting[order_[p]].deadline : kForever;
    out.push_back({p, from, until});
    if (p == order_.size()) return out;
    from = until;
  }
}

void EdfScheduler::place_in_order(AvailabilityProfile& profile, int procs, double runtime, long long tasks,
                                  Cursor& cursor, std::vector<double>& starts) const {
  const double floor = reading_.strict_order ? std::max(instance_.now, cursor.last_start) : instance_.now;
  place_earliest(profile, cursor.fill, floor, procs, runtime, tasks, starts);
  cursor.last_start = std::max(cursor.last_start, starts.back());
}

std::vector<double> EdfScheduler::place_new_job(AvailabilityProfile& profile, long long tasks, double runtime,
                                                Cursor& cursor) const {
  std::vector<double> starts;
  if (!reading_.rigid_bot) {
    place_in_order(profile, 1, runtime, tasks, cursor, starts);
    return starts;
  }
  // One rigid job of k processors; k > P cannot fit, so rigid waves of P processors, then the rest (ours).
  const long long width = std::min<long long>(tasks, instance_.processors);
  std::vector<double> wave_start;
  for (long long left = tasks; left > 0; left -= width) {
    const long long wave = std::min(left, width);
    place_in_order(profile, static_cast<int>(wave), runtime, 1, cursor, wave_start);
    starts.insert(starts.end(), static_cast<std::size_t>(wave), wave_start.front());
  }
  return starts;
}

void EdfScheduler::place_range(AvailabilityProfile& profile, Cursor& cursor, std::string& first_late,
                               std::vector<std::vector<double>>& starts, std::size_t from, std::size_t to,
                               bool stop_at_first_late) const {
  for (std::size_t k = from; k < to; ++k) {
    const std::size_t i = order_[k];
    const WaitingJob& job = instance_.waiting[i];
    auto& job_starts = starts[i];
    place_in_order(profile, job.procs, job.runtime, job.tasks, cursor, job_starts);
    if (first_late.empty() && job_starts.back() + job.runtime > job.deadline + kTimeTolerance) {
      first_late = job.id;
      if (stop_at_first_late) return;
    }
  }
}

EdfScheduler::Prefix EdfScheduler::root() const {
  return Prefix{running_profile(instance_), "", Cursor{instance_.now, FillCursor(instance_.now)}};
}

const EdfScheduler::Prefix& EdfScheduler::prefix(std::size_t position) {
  if (auto it = prefixes_.find(position); it != prefixes_.end()) return it->second;
  if (prefix_starts_.empty()) prefix_starts_.resize(instance_.waiting.size());
  const auto shorter = prefixes_.upper_bound(position);
  const bool extend = shorter != prefixes_.begin();  // from the longest cached prefix shorter than `position`
  Prefix next = extend ? std::prev(shorter)->second : root();
  const std::size_t from = extend ? std::prev(shorter)->first : 0;
  place_range(next.profile, next.cursor, next.first_late, prefix_starts_, from, position, false);
  return prefixes_.emplace(position, std::move(next)).first->second;
}

EdfScheduler::Tail EdfScheduler::place_tail(std::size_t position, long long tasks, double runtime,
                                            bool stop_at_first_late) {
  Tail tail;
  tail.new_finish = instance_.now;
  if (tail_starts_.empty()) tail_starts_.resize(instance_.waiting.size());
  // The current queue alone, not cached: nothing to share with other runs (every job is the tail's).
  tail_from_root_ = tasks == 0 && position == order_.size() && !prefixes_.count(position);
  if (tail_from_root_) {
    scratch_ = root();
  } else {
    const Prefix& head = prefix(position);
    tail.first_late = head.first_late;
    if (stop_at_first_late && !tail.first_late.empty()) {
      tail.complete = false;
      return tail;
    }
    scratch_.profile = head.profile;  // copied into the storage of the last run's
    scratch_.cursor = head.cursor;
  }
  if (tasks > 0) {
    tail.new_tasks = place_new_job(scratch_.profile, tasks, runtime, scratch_.cursor);
    const auto& starts = tail.new_tasks;  // rigid waves need not be in increasing start
    tail.new_finish = *std::max_element(starts.begin(), starts.end()) + runtime;
  }
  place_range(scratch_.profile, scratch_.cursor, tail.first_late, tail_starts_, tail_from_root_ ? 0 : position,
              order_.size(), stop_at_first_late);
  tail.complete = !(stop_at_first_late && !tail.first_late.empty());
  return tail;
}

Schedule EdfScheduler::schedule_of(std::size_t position, std::vector<double> new_tasks) const {
  Schedule schedule;
  schedule.starts.resize(instance_.waiting.size());
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const std::size_t i = order_[k];
    schedule.starts[i] = k < position && !tail_from_root_ ? prefix_starts_[i] : tail_starts_[i];
  }
  schedule.new_tasks = std::move(new_tasks);
  return schedule;
}

EdfRun EdfScheduler::run(std::size_t position, long long tasks, double runtime, bool stop_at_first_late) {
  Tail tail = place_tail(position, tasks, runtime, stop_at_first_late);
  EdfRun result;
  result.first_late = std::move(tail.first_late);
  result.new_finish = tail.new_finish;
  result.complete = tail.complete;
  if (result.complete) result.schedule = schedule_of(position, std::move(tail.new_tasks));
  return result;
}

// ---------------------------------------------------------------- genOffer and FEEDBACK

namespace {

// EDF with the new job at one position interval: feasible when every waiting job meets its deadline and the new
// job completes before the interval ends (then its minimal deadline there is max(interval start, completion)).
// `run` (optional) receives the EDF run when feasible.
std::optional<double> quote_at(EdfScheduler& edf, const Instance& instance, long long tasks,
                               const EdfScheduler::PositionInterval& interval, EdfRun* kept = nullptr) {
  EdfScheduler::Tail tail = edf.place_tail(interval.position, tasks, instance.bot->task_runtime, true);
  if (!tail.complete || !tail.first_late.empty() || !(tail.new_finish < interval.until)) return std::nullopt;
  const double quote = std::max(interval.from, tail.new_finish);
  if (kept) {  // the schedule only for a feasible run that is kept
    kept->first_late.clear();
    kept->new_finish = tail.new_finish;
    kept->complete = true;
    kept->schedule = edf.schedule_of(interval.position, std::move(tail.new_tasks));
  }
  return quote;
}

}  // namespace

std::optional<CountOffer> gen_offer_if_edf_feasible(EdfScheduler& edf, const Instance& instance, long long tasks) {
  const NewBot& bot = *instance.bot;
  const auto intervals = edf.positions_from(bot.deadline);
  // Binary search (Islam et al., as the paper uses it): first point the user's deadline, last point the last
  // position of the queue. `found` is the first interval known feasible, `best` its EDF run.
  std::size_t found = 0;
  EdfRun best;
  std::optional<double> quote = quote_at(edf, instance, tasks, intervals.front(), &best);
  if (!quote) {
    std::size_t lo = 0, hi = intervals.size() - 1;
    quote = quote_at(edf, instance, tasks, intervals[hi], &best);
    if (!quote && !edf.reading().strict_order) return std::nullopt;
    if (!quote) {  // strict order: the accepted work itself is late; offer the last position, the validator says so
      lo = hi;
      best = edf.run(intervals[hi].position, tasks, bot.task_runtime);
      quote = std::max(bot.deadline, best.new_finish);
    }
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      EdfRun run;
      if (auto q = quote_at(edf, instance, tasks, intervals[mid], &run)) {
        hi = mid;
        quote = q;
        best = std::move(run);
      } else {
        lo = mid;
      }
    }
    found = hi;
  }
  CountOffer offer;
  offer.tasks = tasks;
  offer.completion = *quote;
  offer.position = static_cast<long long>(intervals[found].position);
  offer.schedule = std::move(best.schedule);
  offer.feedback = new_tasks_finish(instance, offer.schedule) > bot.deadline + kTimeTolerance || found > 0;
  return offer;
}

CountOffer gen_offer(EdfScheduler& edf, const Instance& instance, long long tasks) {
  if (auto offer = gen_offer_if_edf_feasible(edf, instance, tasks)) return std::move(*offer);
  throw std::logic_error("EDF misses an accepted deadline even with the new job last: the accepted work is not "
                         "EDF-feasible");
}

std::vector<PositionFeasibility> feedback_feasibility(EdfScheduler& edf, const Instance& instance, long long tasks) {
  std::vector<PositionFeasibility> out;
  for (const auto& interval : edf.positions_from(instance.bot->deadline)) {
    PositionFeasibility row{interval, false, 0};
    if (auto q = quote_at(edf, instance, tasks, interval)) {
      row.feasible = true;
      row.quote = *q;
    }
    out.push_back(row);
  }
  return out;
}

OfferList edf_offers(const Instance& instance, GenOfferReading reading) {
  EdfScheduler edf(instance, reading);
  OfferList list;
  list.reading = reading;
  for (long long tasks : delta_counts(instance.bot->tasks, reading.delta))
    list.per_count.push_back(gen_offer(edf, instance, tasks));
  list.staircase = merge_offers(list.per_count);
  return list;
}

// ---------------------------------------------------------------- FreeTimeSlots

std::vector<FreeSlot> free_time_slots(const Instance& instance, const Schedule& current) {
  struct Busy {
    double start, end;
    int procs;
  };
  std::vector<Busy> busy;
  for (const auto& job : instance.running) busy.push_back({instance.now, instance.now + job.remaining, job.procs});
  for (std::size_t i = 0; i < instance.waiting.size(); ++i)
    for (double start : current.starts[i])
      busy.push_back({start, start + instance.waiting[i].runtime, instance.waiting[i].procs});
  std::stable_sort(busy.begin(), busy.end(), [](const Busy& a, const Busy& b) { return a.start < b.start; });
  // Assign processors (lowest-numbered free first); any capacity-feasible schedule can be assigned this way.
  const auto p = static_cast<std::size_t>(instance.processors);
  std::vector<double> free_from(p, instance.now);
  std::vector<std::vector<std::pair<double, double>>> windows(p);
  for (const Busy& b : busy) {
    int needed = b.procs;
    for (std::size_t q = 0; q < p && needed > 0; ++q) {
      if (free_from[q] > b.start + kTimeTolerance) continue;
      if (b.start > free_from[q] + kTimeTolerance) windows[q].push_back({free_from[q], b.start});
      free_from[q] = b.end;
      --needed;
    }
    if (needed > 0) throw std::logic_error("free_time_slots: the current schedule over-uses the processors");
  }
  std::map<std::pair<double, double>, int> grouped;
  for (std::size_t q = 0; q < p; ++q) {
    for (const auto& w : windows[q]) ++grouped[w];
    ++grouped[{free_from[q], kForever}];
  }
  std::vector<FreeSlot> slots;
  for (const auto& [window, count] : grouped) slots.push_back(FreeSlot{window.first, window.second, count});
  return slots;
}

OfferList free_time_slot_offers(const Instance& instance) {
  EdfScheduler edf(instance);
  const Schedule current = edf.run(instance.waiting.size(), 0, 0).schedule;
  OfferList list;
  list.published = free_time_slots(instance, current);
  const NewBot& bot = *instance.bot;
  for (long long tasks : delta_counts(bot.tasks)) {
    // Rounds of back-to-back tasks in each slot; the earliest finishes first.
    using Round = std::pair<double, std::size_t>;  // (finish, slot)
    std::priority_queue<Round, std::vector<Round>, std::greater<>> next;
    for (std::size_t s = 0; s < list.published.size(); ++s)
      if (list.published[s].start + bot.task_runtime <= list.published[s].end + kTimeTolerance)
        next.push({list.published[s].start + bot.task_runtime, s});
    CountOffer offer;
    offer.tasks = tasks;
    offer.schedule = current;
    long long left = tasks;
    double finish = instance.now;
    while (left > 0 && !next.empty()) {
      const auto [end, s] = next.top();
      next.pop();
      const long long batch = std::min<long long>(left, list.published[s].processors);
      offer.schedule.new_tasks.insert(offer.schedule.new_tasks.end(), static_cast<std::size_t>(batch),
                                      end - bot.task_runtime);
      left -= batch;
      finish = end;
      if (end + bot.task_runtime <= list.published[s].end + kTimeTolerance) next.push({end + bot.task_runtime, s});
    }
    offer.completion = std::max(bot.deadline, finish);
    offer.feedback = finish > bot.deadline + kTimeTolerance;
    list.per_count.push_back(std::move(offer));
  }
  list.staircase = merge_offers(list.per_count);
  return list;
}

// ---------------------------------------------------------------- deadline-feasibility

FeasibilityAnswer edf_feasibility(const Instance& instance) {
  EdfScheduler edf(instance);
  EdfRun run = edf.run(instance.waiting.size(), 0, 0);
  FeasibilityAnswer answer;
  answer.answer = run.first_late.empty() ? Feasibility::kSchedule : Feasibility::kNotFound;
  answer.missed = run.first_late;
  answer.schedule = std::move(run.schedule);
  return answer;
}

std::string edf_accepted_work_violation(const Instance& instance) {
  const FeasibilityAnswer answer = edf_feasibility(instance);
  if (answer.answer == Feasibility::kSchedule) return "";
  const std::size_t i = waiting_index(instance, answer.missed);
  return fmt::format("EDF cannot keep the accepted deadlines: job {} would finish at {} after its deadline {}",
                     quoted_text(answer.missed), answer.schedule.starts[i].back() + instance.waiting[i].runtime,
                     instance.waiting[i].deadline);
}

}  // namespace schedcheck::offers
