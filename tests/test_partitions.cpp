// Suite `partitions`: paper 002's multiple resource partitions (EbM, CbM) on hand-computed traces (arithmetic in
// comments): one pivot per partition, borrowing that may and may not happen, and the run invariants
// partition-pivot-not-delayed and borrowing-delays-no-pivot against deliberately broken policies. Our own cases.
#include "counterexamples/workload_generator.hpp"
#include "tests/helpers.hpp"
#include "model/partitions.hpp"
#include "model/time_slots.hpp"
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/simulation.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <map>

namespace test_partitions {

using namespace schedcheck;
using cluster::ResourceModel;

namespace {

using J = test::HandJob;
workload::Workload make(int processors, const std::vector<J>& jobs) { return test::make_trace(processors, jobs); }

struct Run {
  std::map<std::int64_t, double> start;
  std::map<std::int64_t, std::string> on;
  std::map<std::string, std::size_t> violations;
  std::string first;  // the first violation's detail
  std::string all;    // every violation kept, one a line
};

Run run(const workload::Workload& w, cluster::ClusterPolicy policy, ResourceModel model,
        std::vector<std::string> names = {}) {
  if (names.empty()) names = runcheck::applicable(policy.name);
  runcheck::InvariantChecker checker(w, names);
  sim::Simulation s(w.jobs, sim::single_cluster(w, std::move(policy), model));
  s.add_observer(checker);
  const sim::RunResult r = s.run();
  Run out;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    out.start[w.jobs[j].id] = r.records[j].start;
    out.on[w.jobs[j].id] = r.records[j].allocated;
  }
  out.violations = checker.counts();
  if (!checker.violations().empty()) out.first = checker.violations().front().detail;
  for (const auto& v : checker.violations()) out.all += v.invariant + ": " + v.detail + "\n";
  return out;
}

cluster::ClusterPolicy named(const std::string& name, std::size_t pivots = 1) { return cluster::cluster_policy(name, pivots); }

// EASY with one pivot for the whole queue, declared as a partition policy: its passes leave partitions' first jobs
// without reservations.
cluster::ClusterPolicy one_pivot_declared_partitioned() {
  cluster::ClusterPolicy p = named("easy");
  p.name = "easy-declared-partitioned";
  p.partitions = cluster::runtime_partitions();
  p.promises = {runcheck::invariant::kPartitionPivot};
  p.hands_on_profile = false;
  return p;
}

// EbM, except that a job the pass makes a pivot starts at once when enough processors are free at this instant,
// whatever reservations lie ahead on them (with identity: the lowest-numbered free ones).
cluster::ClusterPolicy careless_borrower() {
  cluster::ClusterPolicy p = named("easy-partitions");
  p.name = "careless-borrower";
  const auto parts = *p.partitions;
  p.decide = [parts](const cluster::Snapshot& s) {
    cluster::Decision d = cluster::backfill(s, 1, &parts);
    d.profile.reset();
    const bool identity = s.profile.tracks_processors();
    ProcessorSet free = identity ? s.profile.free_over(s.now, std::nextafter(s.now, kForever)) : ProcessorSet();
    int free_count = s.profile.free_at(s.now);
    for (const auto& pl : d.start) {
      free_count -= s.queue[pl.index].procs;
      if (identity) free.subtract(pl.on);
    }
    std::vector<cluster::Placement> kept;
    for (const auto& pl : d.reserve) {
      const auto& job = s.queue[pl.index];
      if (job.reserved || free_count < job.procs) {
        kept.push_back(pl);
        continue;
      }
      const ProcessorSet on = identity ? free.lowest(job.procs) : ProcessorSet();
      if (identity) free.subtract(on);
      free_count -= job.procs;
      d.start.push_back({pl.index, s.now, on});
    }
    d.reserve = kept;
    return d;
  };
  p.hands_on_profile = false;
  return p;
}

// P = 6. Job 1 (partition 1, 2 processors) runs [0, 900); job 2 (partition 3, all 6) is partition 3's pivot at
// [900, 20900). Job 3 (partition 2, 3 processors, 2000 s) arrives at 2: 4 are free now, but over [900, 2002) job 2
// holds them all, so EbM makes it partition 2's pivot at 20900. Started at 2 it would hold one processor more than
// partition 2's 2 (with identity: 2-4, 4 of partition 3), over job 2's reservation.
const workload::Workload kBorrowOverPivot =
    make(6, {{1, 0, 900, 900, 2}, {2, 1, 20000, 20000, 6}, {3, 2, 2000, 2000, 3}});

// P = 6, count model. Job 1 (partition 2) runs [0, 2000) on 4; job 2 (partition 2, 3 processors) waits for it:
// reserved [2000, 3500). Job 3 (partition 1, all 6) arrives at 2; job 4 (partition 3, 2 processors, 10000 s) at 3.
// EbM: job 3 is partition 1's pivot, reserved [3500, 4000), so job 4 (it would hold 2 of the 6 then) waits and is
// partition 3's pivot at 4000. EASY: job 3 is no pivot; job 4 fits now (2 free before 2000, 3 over job 2's window)
// and starts at 3, and job 3 waits until it ends at 10003.
const workload::Workload kPivots = make(6, {{1, 0, 2000, 2000, 4}, {2, 1, 1500, 1500, 3}, {3, 2, 500, 500, 6},
                                            {4, 3, 10000, 10000, 2}});

// P = 6, processors model: partition 1 owns 0-1, 2 owns 2-3, 3 owns 4-5. Job 1 (partition 1, 4 processors) runs
// [0, 900) on 0-1 and borrows 2-3. Job 2 (partition 1, 4) is its pivot at [900, 1800) on 0-3. Job 3 (partition 3, 4
// processors, 20000 s) is partition 3's pivot at [1800, 21800) on its own 4-5 and borrowed 0-1. At 3 a partition-2
// job of 2 processors arrives: free now are 4-5 only (partition 3's).
workload::Workload borrowing(double estimate) {
  return make(6, {{1, 0, 900, 900, 4}, {2, 1, 900, 900, 4}, {3, 2, 20000, 20000, 4}, {4, 3, estimate, estimate, 2}});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(partitions)

BOOST_AUTO_TEST_CASE(eq1_puts_runtimes_in_three_partitions_of_equal_shares) {
  const auto parts = cluster::runtime_partitions();
  BOOST_TEST(parts.count() == 3u);
  BOOST_TEST(parts.of(0) == 0u);
  BOOST_TEST(parts.of(999.5) == 0u);
  BOOST_TEST(parts.of(1000) == 1u);
  BOOST_TEST(parts.of(9999) == 1u);
  BOOST_TEST(parts.of(10000) == 2u);
  BOOST_TEST(parts.owned(0, 6).to_intervals() == "0-1");
  BOOST_TEST(parts.owned(2, 6).to_intervals() == "4-5");
  // 7 = 3 + 2 + 2: the first share takes the remainder.
  BOOST_TEST(parts.size(0, 7) == 3);
  BOOST_TEST(parts.size(1, 7) == 2);
  BOOST_TEST(parts.size(2, 7) == 2);
  BOOST_TEST(parts.range_text(1) == "[1000, 10000)");
  BOOST_TEST(parts.range_text(2) == "[10000, inf)");
  // Own processors first (2-3 of partition 2), then the lowest others.
  const auto free = *ProcessorSet::parse_intervals("0 2-5", 6);
  BOOST_TEST(cluster::prefer_owned(free, parts.owned(1, 6), 3).to_intervals() == "0 2-3");
  BOOST_TEST(cluster::prefer_owned(free, parts.owned(1, 6), 1).to_intervals() == "2");
}

BOOST_AUTO_TEST_CASE(each_partition_keeps_its_own_pivot_where_easy_keeps_one) {
  for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
    const Run ebm = run(kPivots, named("easy-partitions"), model);
    BOOST_TEST(ebm.start.at(2) == 2000.0);
    BOOST_TEST(ebm.start.at(3) == 3500.0);
    BOOST_TEST(ebm.start.at(4) == 4000.0);
    const Run easy = run(kPivots, named("easy"), model);
    BOOST_TEST(easy.start.at(4) == 3.0);
    BOOST_TEST(easy.start.at(3) == 10003.0);
    // Conservative backfilling reserves job 3 at arrival too; CbM with it.
    BOOST_TEST(run(kPivots, named("conservative-partitions"), model).start.at(4) == 4000.0);
    for (const auto& [name, n] : ebm.violations) BOOST_TEST(n == 0u, name << ": " << ebm.first);
  }
}

BOOST_AUTO_TEST_CASE(a_job_borrows_free_processors_of_another_partition_only_without_delaying_its_pivot) {
  // 1000 s: it ends at 1003, before partition 3's pivot takes 4-5 at 1800: it borrows them.
  const Run may = run(borrowing(1000), named("easy-partitions"), ResourceModel::kProcessors);
  BOOST_TEST(may.on.at(1) == "0-3");
  BOOST_TEST(may.on.at(2) == "0-3");
  BOOST_TEST(may.on.at(3) == "0-1 4-5");
  BOOST_TEST(may.start.at(4) == 3.0);
  BOOST_TEST(may.on.at(4) == "4-5");
  // 2000 s: it would hold 4-5 until 2003, past the pivot's 1800: it waits and becomes partition 2's pivot, on its
  // own 2-3 when job 2 gives them back at 1800.
  const Run may_not = run(borrowing(2000), named("easy-partitions"), ResourceModel::kProcessors);
  BOOST_TEST(may_not.start.at(4) == 1800.0);
  BOOST_TEST(may_not.on.at(4) == "2-3");
  BOOST_TEST(may_not.start.at(3) == 1800.0);
  for (const auto& [name, n] : may_not.violations) BOOST_TEST(n == 0u, name << ": " << may_not.first);
  // EASY has one pivot (job 2): job 4 starts at 3 on 4-5, and job 3 at 1800 on the lowest free, 0-3. Under EbM
  // partition 3's pivot holds its own 4-5 first, and the job that would borrow them waits.
  const Run easy = run(borrowing(2000), named("easy"), ResourceModel::kProcessors);
  BOOST_TEST(easy.start.at(4) == 3.0);
  BOOST_TEST(easy.start.at(3) == 1800.0);
  BOOST_TEST(easy.on.at(3) == "0-3");
}

BOOST_AUTO_TEST_CASE(partition_invariants_fail_on_broken_policies_and_name_the_job) {
  const Run one = run(kPivots, one_pivot_declared_partitioned(), ResourceModel::kCount,
                     {runcheck::invariant::kPartitionPivot});
  BOOST_TEST(one.violations.at(runcheck::invariant::kPartitionPivot) > 0u);
  BOOST_TEST(one.first.find("job 3 is waiting job 1 of partition 1") != std::string::npos, one.first);
  BOOST_TEST(run(kBorrowOverPivot, named("easy-partitions"), ResourceModel::kCount).start.at(3) == 20900.0);
  const Run careless = run(kBorrowOverPivot, careless_borrower(), ResourceModel::kProcessors,
                           {runcheck::invariant::kBorrowing});
  BOOST_TEST(careless.violations.at(runcheck::invariant::kBorrowing) == 1u);
  BOOST_TEST(careless.first.find("job 3 (partition 2) starts at 2 until 2002 on processors 4 of other partitions") !=
                 std::string::npos,
             careless.first);
  BOOST_TEST(careless.first.find("job 2 (partition 3) from 900") != std::string::npos, careless.first);
  const Run counted = run(kBorrowOverPivot, careless_borrower(), ResourceModel::kCount, {runcheck::invariant::kBorrowing});
  BOOST_TEST(counted.violations.at(runcheck::invariant::kBorrowing) == 1u, counted.all);
  BOOST_TEST(counted.first.find("job 3 (partition 2, whose running jobs then hold 3 processors of its 2)") !=
                 std::string::npos,
             counted.first);
  BOOST_TEST(counted.first.find("3 processors the reservations hold are missing") != std::string::npos, counted.first);
}

// P = 6, processors model (partition 1 owns 0-1, 2 owns 2-3, 3 owns 4-5). Job 1 (partition 3, 2 processors) runs
// [0, 10000) on its own 4-5. Job 2 (partition 1, all 6, length 0: a DAS-2 record of run time 0) waits for them: its
// reservation at 10000 holds nothing over any time. Job 3 (partition 2, 3 processors, 9999 s) arrives at 2 and
// starts at once on its own 2-3 and borrowed 0, until 10001, past job 2's reservation: no pivot is delayed (job 2
// starts at 10000 as reserved), and borrowing-delays-no-pivot must say so.
BOOST_AUTO_TEST_CASE(a_reservation_of_length_zero_is_no_pivot_a_borrower_delays) {
  const workload::Workload w = make(6, {{1, 0, 10000, 10000, 2}, {2, 1, 0, 0, 6}, {3, 2, 9999, 9999, 3}});
  for (const char* policy : {"conservative-partitions", "easy-partitions"}) {
    const Run r = run(w, named(policy), ResourceModel::kProcessors);
    BOOST_TEST(r.start.at(3) == 2.0, policy);
    BOOST_TEST(r.on.at(3) == "0 2-3", policy);
    BOOST_TEST(r.start.at(2) == 10000.0, policy);
    BOOST_TEST(r.violations.at(runcheck::invariant::kBorrowing) == 0u, policy << ": " << r.all);
    BOOST_TEST(r.all.empty(), policy << ": " << r.all);
  }
}

// P = 10, the Grid partition 30%: floor(10 x 70 / 100) = 7, so the local partition owns 0-6 and the Grid one 7-9.
// Processors 0-3 busy until 1000: the whole profile's slots are 4-9 from 0 and 0-3 from 1000; the Grid partition's
// are cut to its 3 processors, its own first: 7-9 from 0, and 0-2 from 1000 (it owns none of 0-3).
BOOST_AUTO_TEST_CASE(the_grid_partition_publishes_its_share_of_the_free_time_slots) {
  const cluster::Partitions parts = cluster::origin_partitions(30.0);
  BOOST_TEST(parts.owned(0, 10).to_intervals() == "0-6");
  BOOST_TEST(parts.owned(1, 10).to_intervals() == "7-9");
  BOOST_TEST(parts.of(5000, false) == 0u);
  BOOST_TEST(parts.of(5, true) == 1u);
  AvailabilityProfile profile(10, true);
  profile.reserve(0, 1000, 4, ProcessorSet::first(10, 4));
  const auto grid = partition_slots(profile, 0, kForever, parts, 1, 10);
  BOOST_REQUIRE(grid.size() == 2u);
  BOOST_TEST(grid[0].start == 0.0);
  BOOST_TEST(grid[0].on.to_intervals() == "7-9");
  BOOST_TEST(grid[1].start == 1000.0);
  BOOST_TEST(grid[1].on.to_intervals() == "0-2");
  BOOST_TEST(partition_slots(profile, 0, kForever, cluster::origin_partitions(0.0), 1, 10).empty());
}

// P = 10, conservative-local-grid with the Grid partition 30% (7-9). A job of 2 processors run on the cluster alone
// is local: it takes 0-1 of the local partition. Sent by a router (a grid job) it takes the Grid partition's 7-8;
// one of 5 then takes the Grid partition's last, 9, and borrows 0-3. Every invariant holds.
BOOST_AUTO_TEST_CASE(local_and_grid_partitions_tell_jobs_apart_by_how_they_came) {
  const workload::Workload w = make(10, {{1, 0, 100, 100, 2}, {2, 1, 100, 100, 5}});
  const cluster::ClusterPolicy policy = cluster::cluster_policy("conservative-local-grid", cluster::ParamValues{{"grid_percent", 30}});
  const Run local = run(w, policy, ResourceModel::kProcessors);
  BOOST_TEST(local.on.at(1) == "0-1");
  BOOST_TEST(local.on.at(2) == "2-6");
  BOOST_TEST(local.all.empty(), local.all);
  sim::RunOptions options = sim::single_cluster(w, policy, ResourceModel::kProcessors);
  options.broker = sim::router_setup("round-robin", 0, 0);
  runcheck::InvariantChecker checker(w, runcheck::applicable(policy.name));
  sim::Simulation s(w.jobs, options);
  s.add_observer(checker);
  const sim::RunResult r = s.run();
  BOOST_TEST(r.records[0].allocated == "7-8");
  BOOST_TEST(r.records[1].allocated == "0-3 9");
  BOOST_TEST(checker.total() == 0u, checker.to_json().dump());
}

BOOST_AUTO_TEST_CASE(partition_policies_keep_every_invariant_they_promise_on_generated_traces) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    auto w = workload::generate_workload(seed, 30);
    for (auto& j : w.jobs) {  // runs of 1 to 100 s become 200 to 20000 s: every partition of Eq. 1 gets jobs
      j.submit *= 200;
      j.run *= 200;
      j.estimate *= 200;
    }
    for (const char* policy : {"easy-partitions", "conservative-partitions"})
      for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
        const Run r = run(w, named(policy), model);
        for (const auto& [name, n] : r.violations)
          BOOST_TEST(n == 0u, policy << " " << cluster::to_string(model) << " seed " << seed << ": " << name << ": "
                                     << r.first);
      }
  }
}

BOOST_AUTO_TEST_CASE(catalogue_names_the_partition_policies_with_their_pivots) {
  const auto ebm = named("easy-partitions", 2);
  BOOST_TEST(cluster::label(ebm) == "easy-partitions (2 pivots)");
  BOOST_TEST(cluster::param_flags(ebm) == " --pivots 2");
  BOOST_TEST(ebm.pivots == 2u);
  const auto applies = runcheck::applicable("conservative-partitions");
  BOOST_TEST((std::find(applies.begin(), applies.end(), "borrowing-delays-no-pivot") != applies.end()));
  BOOST_TEST((std::find(applies.begin(), applies.end(), "partition-pivot-not-delayed") != applies.end()));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_partitions
