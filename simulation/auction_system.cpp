// Paper 003's system on the kernel (sec. 3, Fig. 1): the auctioneer, GIS and broker actors of
// simulation/auction_system.hpp and their messages. Our own reading of the protocol's order: a broker bids before it
// submits (the bid opens its account), asks every resource where it has an account for its progress each period and
// decides once all have answered; a user is charged once its last task completed (sec. 3.2).
#include "simulation/auction_system.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace schedcheck::sim::auction_system {
namespace {

using auction::Account;
using auction::Completion;
using auction::TimeShared;

// Messages. Kinds name what travels (Kernel::kinds lists them in a run's message counts).
struct Register { static constexpr std::string_view kind = "gis-register"; std::size_t resource = 0; };
struct GisQuery { static constexpr std::string_view kind = "gis-query"; };
struct GlobalAsk { static constexpr std::string_view kind = "gis-global-ask"; std::size_t query = 0; };
struct GlobalAnswer {
  static constexpr std::string_view kind = "gis-global-answer";
  std::size_t query = 0;
  std::vector<std::size_t> resources;
};
struct GisList {
  static constexpr std::string_view kind = "gis-list";
  std::vector<std::size_t> local, global;
};
struct Bid { static constexpr std::string_view kind = "bid"; std::size_t user = 0; bool foreign = false; double bid = 0; };
struct Submit { static constexpr std::string_view kind = "submit"; std::size_t user = 0, task = 0; double length = 0; };
struct ProgressQuery { static constexpr std::string_view kind = "progress-query"; std::size_t user = 0; };
struct Progress {
  static constexpr std::string_view kind = "progress";
  std::size_t resource = 0;
  double share = 0, bid = 0, remaining = 0;
  std::size_t tasks = 0;
};
struct TaskDone { static constexpr std::string_view kind = "task-done"; std::size_t resource = 0, task = 0; };
struct SettleQuery { static constexpr std::string_view kind = "settle-query"; std::size_t user = 0; };
struct Charge { static constexpr std::string_view kind = "charge"; std::size_t resource = 0; double cents = 0; };

struct World {
  const auction::Scenario* scenario = nullptr;
  std::vector<Observer*> observers;
  std::vector<const TimeShared*> resources;   // by resource: the auctioneers' state, for observers only
  std::vector<ActorId> auctioneer;            // by resource
  std::vector<ActorId> gis;                   // by domain
  std::vector<Sample>* samples = nullptr;
  Result* result = nullptr;
};

class GisActor : public Actor {
public:
  GisActor(World& world, std::size_t domain) : world_(world), domain_(domain) {}

  void on_message(Context& c, const Message& m) override {
    if (const auto* r = m.as<Register>()) {
      local_.push_back(r->resource);
    } else if (m.as<GisQuery>() != nullptr) {
      const std::size_t id = next_query_++;
      Pending& p = pending_[id];
      p.broker = m.from;
      for (std::size_t d = 0; d < world_.gis.size(); ++d)
        if (d != domain_) {
          ++p.waiting;
          c.send(world_.gis[d], GlobalAsk{.query = id});
        }
      if (p.waiting == 0) answer(c, id);
    } else if (const auto* a = m.as<GlobalAsk>()) {
      c.send(m.from, GlobalAnswer{.query = a->query, .resources = local_});
    } else if (const auto* a = m.as<GlobalAnswer>()) {
      Pending& p = pending_.at(a->query);
      p.global.insert(p.global.end(), a->resources.begin(), a->resources.end());
      if (--p.waiting == 0) answer(c, a->query);
    }
  }

private:
  struct Pending {
    ActorId broker = kNoActor;
    std::size_t waiting = 0;
    std::vector<std::size_t> global;
  };
  // Sec. 3.1: resources registered in this domain too are left out of the global list.
  void answer(Context& c, std::size_t id) {
    Pending& p = pending_.at(id);
    GisList list{.local = local_, .global = {}};
    std::sort(list.local.begin(), list.local.end());
    std::set<std::size_t> seen(local_.begin(), local_.end());
    std::vector<std::size_t> global = p.global;
    std::sort(global.begin(), global.end());
    for (std::size_t r : global)
      if (seen.insert(r).second) list.global.push_back(r);
    c.send(p.broker, std::move(list));
    pending_.erase(id);
  }

  World& world_;
  std::size_t domain_;
  std::vector<std::size_t> local_;
  std::map<std::size_t, Pending> pending_;
  std::size_t next_query_ = 0;
};

enum class AuctioneerDue : std::uint8_t { kInterval = 1, kCompletion = 2 };
using AuctioneerTag = TimerTag<AuctioneerDue>;

class AuctioneerActor : public Actor {
public:
  AuctioneerActor(World& world, std::size_t r, const auction::Scenario& s)
      : world_(world), r_(r), ts_(s.resources[r], s.capacity, s.recompute, s.interval, s.task_speed) {}
  const TimeShared& state() const { return ts_; }

  void on_start(Context& c) override {
    for (const std::string& d : ts_.resource().domains) {
      const auto& domains = world_.scenario->domains;
      const auto at = static_cast<std::size_t>(std::find(domains.begin(), domains.end(), d) - domains.begin());
      c.send(world_.gis[at], Register{.resource = r_});
    }
  }

  void on_message(Context& c, const Message& m) override {
    sync(c);
    if (const auto* b = m.as<Bid>()) {
      brokers_[b->user] = m.from;
      for (Observer* o : world_.observers) o->on_bid(c.now(), r_, b->user, b->bid);
      ts_.bid(b->user, b->foreign, auction::clamp_bid(ts_.resource(), b->bid));  // Eq. 2: r imposes its bounds
    } else if (const auto* t = m.as<Submit>()) {
      for (Observer* o : world_.observers) o->on_submit(c.now(), r_, t->user, t->task);
      ts_.submit(t->user, t->task, t->length);
      report_starts(c);
      ensure_interval(c);
    } else if (const auto* q = m.as<ProgressQuery>()) {
      const Account* a = ts_.account(q->user);
      c.send(m.from, Progress{.resource = r_, .share = a ? a->share : 0, .bid = a ? a->bid : 0,
                              .remaining = ts_.remaining(q->user), .tasks = ts_.tasks_left(q->user)});
    } else if (const auto* q = m.as<SettleQuery>()) {
      const Account* a = ts_.account(q->user);
      if (a != nullptr)
        for (Observer* o : world_.observers) o->on_charge(c.now(), r_, *a);
      c.send(m.from, Charge{.resource = r_, .cents = a ? a->charged : 0});
    }
    reschedule(c);
  }

  void on_timer(Context& c, std::uint64_t tag) override {
    if (AuctioneerTag::due(tag) == AuctioneerDue::kCompletion) {
      completion_armed_ = false;
      sync(c);
    } else {
      interval_armed_ = false;
      sync(c);
      ts_.begin_interval();
      bool busy = false;
      for (const Account& a : ts_.accounts()) {
        if (a.tasks.empty()) continue;
        busy = true;
        world_.samples->push_back(Sample{.time = c.now(), .resource = r_, .user = a.user, .bid = a.bid,
                                         .share = a.share,
                                         .share_percent = 100.0 * a.share / auction::total_mips(ts_.resource(), world_.scenario->capacity),
                                         .running = true});
      }
      for (Observer* o : world_.observers) o->on_interval(c.now(), r_, ts_);
      if (busy) ensure_interval(c);
    }
    reschedule(c);
  }

private:
  // Runs the resource up to now, task completion by task completion (a step never crosses an interval's end: the
  // interval timer syncs first).
  void sync(Context& c) {
    for (;;) {
      const double next = ts_.next_completion();
      if (next > c.now()) break;
      finish(c, ts_.advance_to(std::max(next, ts_.now())));
    }
    finish(c, ts_.advance_to(c.now()));
  }

  void finish(Context& c, const std::vector<Completion>& done) {
    for (const Completion& k : done) {
      for (Observer* o : world_.observers) o->on_task_end(c.now(), r_, k.user, k.task);
      c.send(brokers_.at(k.user), TaskDone{.resource = r_, .task = k.task});
    }
    if (!done.empty()) report_starts(c);
  }

  void report_starts(Context& c) {
    for (const Account& a : ts_.accounts())
      if (!a.tasks.empty() && started_.insert({a.user, a.tasks.front().id}).second)
        for (Observer* o : world_.observers) o->on_task_start(c.now(), r_, a.user, a.tasks.front().id);
  }

  void ensure_interval(Context& c) {
    if (interval_armed_) return;
    const double i = ts_.interval();
    c.wake_at((std::floor(c.now() / i) + 1) * i, AuctioneerTag::of(AuctioneerDue::kInterval, 0));
    interval_armed_ = true;
  }

  void reschedule(Context& c) {
    if (completion_armed_) c.cancel(completion_);
    completion_armed_ = false;
    const double next = ts_.next_completion();
    if (std::isfinite(next)) {
      completion_ = c.wake_at(std::max(next, c.now()), AuctioneerTag::of(AuctioneerDue::kCompletion, 0), Lane::kEnd);
      completion_armed_ = true;
    }
  }

  World& world_;
  std::size_t r_;
  TimeShared ts_;
  std::map<std::size_t, ActorId> brokers_;
  std::set<std::pair<std::size_t, std::size_t>> started_;
  TimerHandle completion_;
  bool completion_armed_ = false;
  bool interval_armed_ = false;
};

enum class BrokerDue : std::uint8_t { kStart = 1, kPeriod = 2, kIncome = 3 };
using BrokerTag = TimerTag<BrokerDue>;

class BrokerActor : public Actor {
public:
  BrokerActor(World& world, std::size_t user, const std::vector<double>& lengths, BrokerFunction broker)
      : world_(world), user_(user), spec_(world.scenario->users[user]), broker_(std::move(broker)) {
    for (std::size_t i = 0; i < lengths.size(); ++i) pending_.push_back(auction::PendingTask{.id = i, .length = lengths[i]});
    UserOutcome& out = outcome();
    out.name = spec_.name;
    out.policy = spec_.policy;
    out.start = spec_.start;
    out.tasks = lengths.size();
    out.balance = spec_.fund;
    out.tasks_on.assign(world.scenario->resources.size(), 0);
  }

  void on_start(Context& c) override { c.wake_at(spec_.start, BrokerTag::of(BrokerDue::kStart, 0)); }

  void on_timer(Context& c, std::uint64_t tag) override {
    switch (BrokerTag::due(tag)) {
      case BrokerDue::kStart: {
        const auto& domains = world_.scenario->domains;
        const auto d = static_cast<std::size_t>(std::find(domains.begin(), domains.end(), spec_.domain) - domains.begin());
        c.send(world_.gis[d], GisQuery{});
        if (spec_.income > 0 && spec_.income_every > 0)
          c.wake_at(c.now() + spec_.income_every, BrokerTag::of(BrokerDue::kIncome, 0));
        break;
      }
      case BrokerDue::kPeriod: {
        if (done_ || failed_) return;
        waiting_ = 0;
        for (const auction::ResourceView& v : views_)
          if (v.account) {
            ++waiting_;
            c.send(world_.auctioneer[v.resource], ProgressQuery{.user = user_});
          }
        if (waiting_ == 0) decide(c, false);
        break;
      }
      case BrokerDue::kIncome: {
        if (done_) return;
        outcome().income += spec_.income;
        outcome().balance += spec_.income;
        c.wake_at(c.now() + spec_.income_every, BrokerTag::of(BrokerDue::kIncome, 0));
        break;
      }
    }
  }

  void on_message(Context& c, const Message& m) override {
    if (const auto* list = m.as<GisList>()) {
      for (std::size_t r : list->local) views_.push_back(view_of(r, true));
      for (std::size_t r : list->global) views_.push_back(view_of(r, false));
      decide(c, true);
    } else if (const auto* p = m.as<Progress>()) {
      for (auction::ResourceView& v : views_)
        if (v.resource == p->resource) {
          v.share = p->share;
          v.bid = p->bid;
          v.remaining = p->remaining;
          v.tasks = p->tasks;
        }
      if (--waiting_ == 0) decide(c, false);
    } else if (m.as<TaskDone>() != nullptr) {
      UserOutcome& out = outcome();
      if (++out.completed == out.tasks) {
        out.finish = c.now();
        done_ = true;
        for (const auction::ResourceView& v : views_)
          if (v.account) c.send(world_.auctioneer[v.resource], SettleQuery{.user = user_});
      }
    } else if (const auto* ch = m.as<Charge>()) {
      UserOutcome& out = outcome();
      out.charged += ch->cents / auction::kCentsPerDollar;
      out.balance -= ch->cents / auction::kCentsPerDollar;
    }
  }

private:
  UserOutcome& outcome() { return world_.result->users[user_]; }

  auction::ResourceView view_of(std::size_t r, bool local) const {
    const auction::Resource& res = world_.scenario->resources[r];
    return auction::ResourceView{.resource = r, .name = res.name, .local = local, .pes = res.pes, .mips = res.mips,
                                 .min_bid = res.min_bid, .max_bid = res.max_bid};
  }

  void decide(Context& c, bool initial) {
    BrokerSnapshot s{.now = c.now(), .start = spec_.start, .deadline = spec_.deadline, .period = spec_.period,
                     .initial = initial, .fixed_bid = spec_.bid, .balance = outcome().balance, .resources = views_,
                     .pending = pending_};
    BrokerDecision d;
    try {
      d = broker_(s);
    } catch (const std::invalid_argument& e) {
      fail(std::string(e.what()));
      return;
    }
    if (const std::string problem = auction::decision_problem(s, d); !problem.empty()) {
      fail(problem);
      return;
    }
    ++outcome().decisions;
    if (!world_.observers.empty()) {
      std::vector<TruthView> truth;
      for (const auction::ResourceView& v : s.resources) {
        const TimeShared& ts = *world_.resources[v.resource];
        TruthView t{.others_bid = ts.others_bid(user_), .foreign = !v.local};
        for (const Account& a : ts.accounts())
          if (a.user != user_ && !a.tasks.empty()) t.other_bids.push_back(a.bid);
        if (const Account* a = ts.account(user_))
          for (std::size_t k = 0; k < a->tasks.size(); ++k) {
            if (k == 0) t.running_remaining = a->tasks[k].remaining;
            else t.queued.emplace_back(a->tasks[k].id, a->tasks[k].remaining);
          }
        truth.push_back(std::move(t));
      }
      const DecisionView view{.now = c.now(), .user = user_, .snapshot = s, .decision = d, .truth = truth,
                              .interval = world_.scenario->interval, .capacity = world_.scenario->capacity};
      for (Observer* o : world_.observers) o->on_decision(view);
    }
    for (const auction::BidOrder& b : d.bids) {
      auction::ResourceView& v = views_[b.resource];
      c.send(world_.auctioneer[v.resource], Bid{.user = user_, .foreign = !v.local, .bid = b.bid});
      v.account = true;
      v.bid = b.bid;
    }
    for (const auction::Submission& t : d.submissions) {
      auction::ResourceView& v = views_[t.resource];
      const auto at = std::find_if(pending_.begin(), pending_.end(), [&](const auto& p) { return p.id == t.task; });
      c.send(world_.auctioneer[v.resource], Submit{.user = user_, .task = t.task, .length = at->length});
      ++v.tasks;
      v.remaining += at->length;
      ++outcome().tasks_on[v.resource];
      pending_.erase(at);
    }
    if (!done_) c.wake_at(c.now() + spec_.period, BrokerTag::of(BrokerDue::kPeriod, 0));
  }

  void fail(const std::string& why) {
    failed_ = true;
    if (!world_.result->broker_failed) {
      world_.result->broker_failed = true;
      world_.result->failure = spec_.name + " (" + spec_.policy + "): " + why;
      world_.result->failed_user = user_;
    }
  }

  World& world_;
  std::size_t user_;
  const auction::UserSpec& spec_;
  BrokerFunction broker_;
  std::vector<auction::PendingTask> pending_;
  std::vector<auction::ResourceView> views_;
  std::size_t waiting_ = 0;
  bool done_ = false;
  bool failed_ = false;
};

}  // namespace

Result run(const Setup& setup, std::vector<Observer*> observers) {
  if (setup.scenario == nullptr) throw std::invalid_argument("auction run: no scenario");
  const auction::Scenario& s = *setup.scenario;
  if (setup.lengths.size() != s.users.size() || setup.brokers.size() != s.users.size())
    throw std::invalid_argument("auction run: one task list and one broker per user expected");
  Result result;
  result.users.resize(s.users.size());
  World world{.scenario = &s, .observers = std::move(observers), .resources = {}, .auctioneer = {}, .gis = {},
              .samples = &result.samples, .result = &result};
  Kernel kernel(RunLimits{.stop_time = s.horizon});
  // Ids in the order added: GIS actors first (so that they exist when auctioneers register), then auctioneers, then
  // brokers.
  for (std::size_t d = 0; d < s.domains.size(); ++d)
    world.gis.push_back(kernel.add(std::make_unique<GisActor>(world, d), "gis-" + s.domains[d]));
  for (std::size_t r = 0; r < s.resources.size(); ++r) {
    auto actor = std::make_unique<AuctioneerActor>(world, r, s);
    world.resources.push_back(&actor->state());
    world.auctioneer.push_back(kernel.add(std::move(actor), s.resources[r].name));
  }
  for (std::size_t u = 0; u < s.users.size(); ++u)
    kernel.add(std::make_unique<BrokerActor>(world, u, setup.lengths[u], setup.brokers[u]), s.users[u].name);
  if (setup.progress && setup.progress_every > 0) kernel.on_progress(setup.progress, setup.progress_every);
  result.kernel = kernel.run();
  for (Observer* o : world.observers) o->on_end(result);
  return result;
}

}  // namespace schedcheck::sim::auction_system
