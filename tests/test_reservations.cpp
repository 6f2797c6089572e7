// Suite `reservations`: paper 002's advance reservations at a cluster, a two-phase commit with a scripted gateway
// (request, hold, confirm / release / expiry, refusal), on a hand-computed trace (arithmetic in comments): the
// reserved job starts exactly at its time, backfilling never delays it, every message counted, and the invariant
// reservation-honoured against a policy that starts reserved jobs early. Our own cases.
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/cluster_actor.hpp"
#include "model/time_slots.hpp"
#include "simulation/simulation.hpp"
#include "tests/helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <memory>

namespace test_reservations {

using namespace schedcheck;
using cluster::ResourceModel;

namespace {

enum class Then { kConfirm, kRelease, kIgnore };
struct Ask {
  std::int64_t id;  // the job (trace id)
  double at;        // when the gateway asks
  double start;     // the start it asks for
  Then then;        // what it does once the cluster holds the slot
};

// A gateway with one cluster: jobs without an Ask go to the cluster at their submit time; for the others it asks for
// an advance reservation and, held, confirms, releases or ignores it. A job whose reservation is refused, released
// or expired goes to the cluster as an ordinary job at once (so every job runs).
class ScriptedGateway : public sim::Actor {
public:
  ScriptedGateway(const std::vector<workload::Job>& jobs, sim::ActorId cluster, std::vector<Ask> asks)
      : jobs_(jobs), cluster_(cluster), asks_(std::move(asks)) {}
  void on_start(sim::Context& c) override {
    for (std::uint32_t j = 0; j < jobs_.size(); ++j) {
      const Ask* ask = find(j);
      c.wake_at(ask ? ask->at : jobs_[j].submit, j);
    }
  }
  void on_timer(sim::Context& c, std::uint64_t j) override {
    const auto job = static_cast<std::uint32_t>(j);
    if (const Ask* ask = find(job)) c.send(cluster_, sim::ReservationRequest{job, ask->start});
    else c.send(cluster_, sim::JobArrives{job});
  }
  void on_message(sim::Context& c, const sim::Message& m) override {
    if (const auto* held = m.as<sim::ReservationHeld>()) {
      held_on[jobs_[held->job].id] = held->on.to_intervals();
      switch (find(held->job)->then) {
        case Then::kConfirm: c.send(cluster_, sim::ReservationConfirm{held->job}); break;
        case Then::kRelease:
          c.send(cluster_, sim::ReservationRelease{held->job});
          c.send(cluster_, sim::JobArrives{held->job});
          break;
        case Then::kIgnore: break;
      }
    } else if (const auto* refused = m.as<sim::ReservationRefused>()) {
      c.send(cluster_, sim::JobArrives{refused->job});
    } else if (const auto* report = m.as<sim::FreeSlots>()) {
      reports.push_back(*report);
    } else {
      c.send(cluster_, sim::JobArrives{m.get<sim::ReservationExpired>().job});
    }
  }
  std::map<std::int64_t, std::string> held_on;
  std::vector<sim::FreeSlots> reports;  // free time slots the cluster published, in arrival order

private:
  const Ask* find(std::uint32_t job) const {
    for (const Ask& a : asks_)
      if (a.id == jobs_[job].id) return &a;
    return nullptr;
  }
  const std::vector<workload::Job>& jobs_;
  sim::ActorId cluster_;
  std::vector<Ask> asks_;
};

struct Outcome {
  std::map<std::int64_t, double> start;
  std::map<std::string, std::size_t> sent;  // messages by kind
  sim::ClusterCounters counters;
  std::map<std::string, std::size_t> violations;
  std::vector<std::string> checked;
  std::string all;
};

// A cluster that publishes its slots as if no advance reservation were held or confirmed (a provider that forgets
// them when it publishes).
class ForgetfulCluster : public sim::ClusterActor {
public:
  using ClusterActor::ClusterActor;
  std::vector<TimeSlot> free_slots(double now) const override {
    AvailabilityProfile without = state().profile;
    for (const auto& w : state().queue)
      if (w.advance) without.release(w.reserved_start, w.reserved_start + w.estimate, w.procs, w.reserved_on);
    return free_time_slots(without, now);
  }
};

template <class Cluster = sim::ClusterActor>
Outcome run(const workload::Workload& w, cluster::ClusterPolicy policy, ResourceModel model, std::vector<Ask> asks,
            double hold_seconds = 60, double slots_period = 0, std::vector<sim::FreeSlots>* reports = nullptr) {
  runcheck::InvariantChecker checker(w, runcheck::applicable(policy.name));
  sim::Simulation s(w.jobs);
  s.add_observer(checker);
  sim::ClusterSetup setup;
  setup.processors = w.processors;
  setup.model = model;
  setup.policy = std::move(policy);
  setup.hold_seconds = hold_seconds;
  auto& cluster = s.add_cluster<Cluster>(setup);  // actor 0
  cluster.link(sim::ClusterActor::Links{1, 0, 0, 0, slots_period, 0});
  auto& gateway = s.add_actor(std::make_unique<ScriptedGateway>(w.jobs, 0, std::move(asks)), "gateway");
  const sim::RunResult r = s.run();
  if (reports) *reports = gateway.reports;
  Outcome out;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) out.start[w.jobs[j].id] = r.records[j].start;
  out.sent = r.messages_sent;
  out.counters = r.clusters.at(0);
  out.violations = checker.counts();
  out.checked = checker.checked();
  for (const auto& v : checker.violations()) out.all += v.invariant + ": " + v.detail + "\n";
  return out;
}

// P = 4. Job 1 (4 processors) runs [0, 100). At 10 the gateway asks for job 2 (2 processors, 100 s) from 200: free,
// held, confirmed. Job 3 (4, 50 s) is EASY's pivot at 100 (the reservation is no pivot); job 4 (3, 150 s) then the
// pivot at 300 (over [200, 300) only 2 are free beside the reservation). At 150 job 5 (1, 500 s) backfills (1 free
// over job 4's window); job 6 (3, 100 s) may not (over [200, 250) only 1 is free): it is the pivot at 450 after job 4
// starts. Job 7 (3, 50 s): asked at 60 from 220, where 2 are free: refused; as an ordinary job it backfills at 150
// and ends at 200, as the reservation starts. Job 8 (4, 100 s): held from 700 at 70, released, ordinary: pivot at
// 650 when job 5 ends. Job 9 (1, 10 s): held from 900 at 80, never confirmed: expires at 140, ordinary, and starts at
// 200 on the processor left beside the reservation and job 5.
const workload::Workload kTrace = test::make_trace(
    4, {{1, 0, 100, 100, 4}, {2, 10, 100, 100, 2}, {3, 20, 50, 50, 4}, {4, 30, 150, 150, 3}, {5, 40, 500, 500, 1},
        {6, 50, 100, 100, 3}, {7, 60, 50, 50, 3}, {8, 70, 100, 100, 4}, {9, 80, 10, 10, 1}});
const std::vector<Ask> kAsks = {{2, 10, 200, Then::kConfirm}, {7, 60, 220, Then::kConfirm},
                                {8, 70, 700, Then::kRelease}, {9, 80, 900, Then::kIgnore}};

// EASY, except that a pass that finds a job with an advance reservation fitting now (on processors free until its
// reservation) starts that job now, and nothing else.
cluster::ClusterPolicy eager() {
  cluster::ClusterPolicy p = cluster::cluster_policy("easy");
  p.name = "eager-easy";
  p.hands_on_profile = false;
  p.decide = [](const cluster::Snapshot& s) {
    for (std::size_t i = 0; i < s.queue.size(); ++i) {
      const auto& w = s.queue[i];
      if (w.advance && w.reserved_start > s.now + 1 && s.profile.min_free(s.now, w.reserved_start) >= w.procs) {
        cluster::Decision d;
        d.start.push_back({i, s.now, {}});
        return d;
      }
    }
    cluster::Decision d = cluster::backfill(s, 1);
    d.profile.reset();
    return d;
  };
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reservations)

BOOST_AUTO_TEST_CASE(admission_holds_only_where_the_profile_has_room) {
  AvailabilityProfile profile(4);
  profile.reserve(0, 100, 4);
  profile.reserve(200, 300, 2);
  BOOST_TEST(!cluster::admit_reservation(profile, 1, 50, 10, 0).has_value());   // all busy
  BOOST_TEST(cluster::admit_reservation(profile, 4, 100, 100, 0).has_value());  // [100, 200): free
  BOOST_TEST(!cluster::admit_reservation(profile, 3, 150, 100, 0).has_value()); // [200, 250): 2 free
  BOOST_TEST(cluster::admit_reservation(profile, 2, 150, 100, 0).has_value());
  BOOST_TEST(!cluster::admit_reservation(profile, 1, 150, 10, 160).has_value()); // in the past
  BOOST_TEST(!cluster::admit_reservation(profile, 5, 400, 10, 0).has_value());   // wider than the machine
}

BOOST_AUTO_TEST_CASE(two_phase_commit_starts_the_reserved_job_exactly_and_counts_every_message) {
  for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
    const Outcome o = run(kTrace, cluster::cluster_policy("easy"), model, kAsks);
    const std::map<std::int64_t, double> expected = {{1, 0},   {2, 200}, {3, 100}, {4, 300}, {5, 150},
                                                     {6, 450}, {7, 150}, {8, 650}, {9, 200}};
    for (const auto& [id, start] : expected) BOOST_TEST(o.start.at(id) == start, "job " << id);
    BOOST_TEST(o.sent.at("reservation-request") == 4u);
    BOOST_TEST(o.sent.at("reservation-held") == 3u);
    BOOST_TEST(o.sent.at("reservation-refused") == 1u);
    BOOST_TEST(o.sent.at("reservation-confirm") == 1u);
    BOOST_TEST(o.sent.at("reservation-release") == 1u);
    BOOST_TEST(o.sent.at("reservation-expired") == 1u);
    BOOST_TEST(o.sent.at("job") == 8u);  // jobs 1, 3-6 at submit; 7, 8, 9 after refusal, release, expiry
    BOOST_TEST(o.counters.reservations_held == 3u);
    BOOST_TEST(o.counters.reservations_confirmed == 1u);
    BOOST_TEST(o.counters.reservations_released == 1u);
    BOOST_TEST(o.counters.reservations_expired == 1u);
    BOOST_TEST(o.counters.reservations_refused == 1u);
    BOOST_TEST((std::find(o.checked.begin(), o.checked.end(), "reservation-honoured") != o.checked.end()));
    for (const auto& [name, n] : o.violations) BOOST_TEST(n == 0u, name << ": " << o.all);
  }
}

BOOST_AUTO_TEST_CASE(conservative_and_partitions_keep_the_reservation_too) {
  for (const char* policy : {"conservative", "easy-partitions", "conservative-partitions"})
    for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
      const Outcome o = run(kTrace, cluster::cluster_policy(policy), model, kAsks);
      BOOST_TEST(o.start.at(2) == 200.0, policy);
      for (const auto& [name, n] : o.violations) BOOST_TEST(n == 0u, policy << " " << name << ": " << o.all);
    }
}

BOOST_AUTO_TEST_CASE(fcfs_refuses_every_reservation_request) {
  const Outcome o = run(kTrace, cluster::cluster_policy("fcfs"), ResourceModel::kCount, kAsks);
  BOOST_TEST(o.sent.at("reservation-refused") == 4u);
  BOOST_TEST(o.sent.count("reservation-held") == 0u);
  BOOST_TEST((std::find(o.checked.begin(), o.checked.end(), "reservation-honoured") == o.checked.end()));
}

BOOST_AUTO_TEST_CASE(reservation_honoured_fails_when_a_reserved_job_starts_early) {
  const Outcome o = run(kTrace, eager(), ResourceModel::kCount, kAsks);
  BOOST_TEST(o.violations.at("reservation-honoured") == 1u, o.all);
  BOOST_TEST(o.all.find("job 2 starts at 150, its advance reservation is at 200") != std::string::npos, o.all);
}

BOOST_AUTO_TEST_CASE(periodic_slots_are_the_profile_scanned_and_free_when_published) {
  std::vector<sim::FreeSlots> reports;
  const Outcome o = run(kTrace, cluster::cluster_policy("easy"), ResourceModel::kCount, kAsks, 60, 15, &reports);
  BOOST_TEST((std::find(o.checked.begin(), o.checked.end(), "slots-free-when-published") != o.checked.end()));
  for (const auto& [name, n] : o.violations) BOOST_TEST(n == 0u, name << ": " << o.all);
  BOOST_TEST_REQUIRE(reports.size() > 2u);
  BOOST_TEST(o.sent.at("slots") == reports.size());
  BOOST_TEST(o.counters.slot_reports == reports.size());
  // At 15: job 1 runs [0, 100) on all 4, job 2's confirmed reservation holds 2 over [200, 300), job 3 has not come.
  // The scan: from 100, 2 processors for ever (free throughout) and 2 until 200; from 300 the other 2 for ever.
  const sim::FreeSlots& at15 = reports[1];
  BOOST_TEST(at15.as_of == 15.0);
  const std::vector<TimeSlot> expected = {{100, kForever, 2, {}}, {100, 200, 2, {}}, {300, kForever, 2, {}}};
  BOOST_TEST((at15.slots == expected));
  // The same trace with a cluster that forgets the reservation when it publishes: caught at once.
  const Outcome bad =
      run<ForgetfulCluster>(kTrace, cluster::cluster_policy("easy"), ResourceModel::kCount, kAsks, 60, 15);
  BOOST_TEST(bad.violations.at("slots-free-when-published") > 0u);
  BOOST_TEST(bad.all.find("slots-free-when-published: cluster cluster publishes at 15:") != std::string::npos, bad.all);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_reservations
