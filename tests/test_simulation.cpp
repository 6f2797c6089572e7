// Suite `simulation`: processor sets and the profile with processor identity, the SWF reader and the workload
// rules, FCFS / EASY / conservative on hand-computed traces (arithmetic in comments), the engine's event order
// and determinism, and the invariant checker against deliberately broken policies (every invariant can fail).
// Source: our own; policies after Lifka 1995 and Mu'alem & Feitelson 2001 (docs/policies.md).
#include "counterexamples/grid_trace_generator.hpp"
#include "counterexamples/rng.hpp"
#include "counterexamples/workload_generator.hpp"
#include "tests/helpers.hpp"
#include "model/job_metrics.hpp"
#include "model/jobs_csv.hpp"
#include "model/profile.hpp"
#include "model/swf.hpp"
#include "model/workload.hpp"
#include "properties/run_invariants.hpp"
#include "reference/cluster_policies.hpp"
#include "reference/router_policies.hpp"
#include "simulation/observer.hpp"
#include "simulation/simulation.hpp"
#include "simulation/summary.hpp"

#include <boost/test/unit_test.hpp>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_simulation {

using namespace schedcheck;
namespace fs = std::filesystem;
using cluster::ResourceModel;

namespace {

using J = test::HandJob;
workload::Workload make(int processors, const std::vector<J>& jobs) { return test::make_trace(processors, jobs); }

cluster::ClusterPolicy named(const std::string& policy, std::size_t pivots = 1) {
  return cluster::cluster_policy(policy, pivots);
}

sim::RunResult run(const workload::Workload& w, cluster::ClusterPolicy policy, ResourceModel model = ResourceModel::kCount,
                   sim::Observer* observer = nullptr) {
  sim::Simulation s(w.jobs, sim::single_cluster(w, std::move(policy), model));
  if (observer) s.add_observer(*observer);
  return s.run();
}

std::map<std::int64_t, double> starts(const workload::Workload& w, cluster::ClusterPolicy policy,
                                      ResourceModel model = ResourceModel::kCount) {
  const sim::RunResult r = run(w, std::move(policy), model);
  std::map<std::int64_t, double> out;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) out[w.jobs[j].id] = r.records[j].start;
  return out;
}

std::string dump(const workload::Workload& w) { return workload::write_instance(w).dump(); }

// Runs a policy with every invariant it promises checked; returns the checker's counts.
std::map<std::string, std::size_t> violations(const workload::Workload& w, cluster::ClusterPolicy policy,
                                              const std::vector<std::string>& names,
                                              ResourceModel model = ResourceModel::kCount) {
  runcheck::InvariantChecker checker(w, names);
  run(w, std::move(policy), model, &checker);
  return checker.counts();
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / ("schedcheck-test-" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string swf_line(int id, double submit, double run, int alloc, int req, double req_time, int status = 1) {
  return std::to_string(id) + " " + std::to_string(static_cast<long long>(submit)) + " -1 " +
         std::to_string(static_cast<long long>(run)) + " " + std::to_string(alloc) + " -1 -1 " + std::to_string(req) +
         " " + std::to_string(static_cast<long long>(req_time)) + " -1 " + std::to_string(status) + " 1 1 -1 1 -1 -1 -1\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(simulation)

// ------------------------------------------------------------------ processor sets and the profile

BOOST_AUTO_TEST_CASE(processor_set_intervals_round_trip) {
  ProcessorSet s(70);
  for (int i : {0, 1, 2, 3, 7, 64, 65, 69}) s.set(i);
  BOOST_TEST(s.to_intervals() == "0-3 7 64-65 69");
  BOOST_TEST(s.count() == 8);
  const auto back = ProcessorSet::parse_intervals("69 0-3 64-65 7", 70);
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST((*back == s));
  BOOST_TEST(s.lowest(5).to_intervals() == "0-3 7");
  BOOST_TEST(ProcessorSet(5).to_intervals() == "");
}

BOOST_AUTO_TEST_CASE(processor_set_parse_rejects_bad_text) {
  std::string error;
  BOOST_TEST(!ProcessorSet::parse_intervals("0-4", 4, &error).has_value());  // 4 is outside 0..3
  BOOST_TEST(error.find("outside") != std::string::npos);
  BOOST_TEST(!ProcessorSet::parse_intervals("1 1", 4, &error).has_value());
  BOOST_TEST(error.find("twice") != std::string::npos);
  BOOST_TEST(!ProcessorSet::parse_intervals("a", 4, &error).has_value());
  BOOST_TEST(!ProcessorSet::parse_intervals("1,2", 4, &error).has_value());
  BOOST_TEST(!ProcessorSet::parse_intervals("3-1", 4, &error).has_value());
  BOOST_TEST(error.find("decreases") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(profile_identity_needs_one_set_for_the_whole_window) {
  // P = 4: processors 2,3 busy over [0,5), processors 0,1 reserved over [5,10). Two processors are free at every
  // instant, but never the same two over [0,10): the count model starts a 2-processor 10 s job at 0, the
  // processors model only at 5 (on 2,3, free from 5 on).
  AvailabilityProfile counts(4);
  counts.reserve(0, 5, 2);
  counts.reserve(5, 10, 2);
  BOOST_TEST(*counts.earliest_start(2, 10, 0) == 0.0);

  AvailabilityProfile sets(4, true);
  sets.reserve(0, 5, *ProcessorSet::parse_intervals("2-3", 4));
  sets.reserve(5, 10, *ProcessorSet::parse_intervals("0-1", 4));
  const auto slot = sets.earliest_slot(2, 10, 0);
  BOOST_TEST_REQUIRE(slot.has_value());
  BOOST_TEST(slot->start == 5.0);
  BOOST_TEST(slot->processors.to_intervals() == "2-3");
  BOOST_TEST(sets.earliest_slot(2, 5, 0)->processors.to_intervals() == "0-1");  // fits [0,5) on 0,1
  BOOST_TEST(!sets.slot_at(2, 0, 10).has_value());
  BOOST_TEST(sets.slot_at(2, 5, 10)->processors.to_intervals() == "2-3");
  BOOST_TEST(sets.consistent(0, 20));
}

BOOST_AUTO_TEST_CASE(profile_release_restores_and_merges) {
  AvailabilityProfile p(8, true);
  const auto a = *ProcessorSet::parse_intervals("0-2", 8);
  p.reserve(10, 20, a);
  BOOST_TEST(p.steps().size() == 3u);  // -inf, 10, 20
  BOOST_TEST(p.free_at(15) == 5);
  p.release(10, 20, a);
  BOOST_TEST(p.steps().size() == 1u);  // merged back into one step
  BOOST_TEST(p.free_at(15) == 8);
  // Reserving processors that are not free breaks the count/set agreement: consistent() says so.
  p.reserve(0, 10, a);
  p.reserve(5, 10, *ProcessorSet::parse_intervals("2-3", 8));
  BOOST_TEST(!p.consistent(0, 10));
}

BOOST_AUTO_TEST_CASE(profile_count_start_sees_its_own_hold_as_free) {
  // P = 4: a job holding 4 processors over [10,20) asks where else it could go: [0,10) has 2 free only.
  AvailabilityProfile p(4);
  p.reserve(0, 10, 2);
  p.reserve(10, 20, 4);
  const AvailabilityProfile::Hold own{10, 20, 4};
  BOOST_TEST(!p.earliest_count_start(4, 10, 0, 9, own).has_value());
  BOOST_TEST(*p.earliest_count_start(2, 10, 0, 9, own) == 0.0);  // 2 fit over [0,10)
  p.release(0, 10, 2);
  BOOST_TEST(*p.earliest_count_start(4, 10, 0, 9, own) == 0.0);   // now the whole machine is free before 10
  BOOST_TEST(*p.earliest_count_start(4, 12, 5, 9, own) == 5.0);   // [5,17): free, then its own hold
}

BOOST_AUTO_TEST_CASE(profile_move_is_release_then_reserve) {
  // Random holds moved earlier and later, overlapping their old window or not: the same steps as release + reserve.
  SplitMix64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    AvailabilityProfile moved(16), reference(16);
    std::vector<std::tuple<double, double, int>> holds;
    for (int k = 0; k < 12; ++k) {
      const double start = static_cast<double>(rng.integer(0, 60)), length = static_cast<double>(rng.integer(1, 30));
      const int procs = static_cast<int>(rng.integer(1, 4));
      moved.reserve(start, start + length, procs);
      reference.reserve(start, start + length, procs);
      holds.emplace_back(start, length, procs);
    }
    for (auto& [start, length, procs] : holds) {
      const double to = static_cast<double>(rng.integer(0, 60));
      moved.move(start, to, length, procs);
      reference.release(start, start + length, procs);
      reference.reserve(to, to + length, procs);
      start = to;
      const auto& a = moved.steps();
      const auto& b = reference.steps();
      BOOST_TEST_REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        BOOST_TEST(a[i].time == b[i].time);
        BOOST_TEST(a[i].free == b[i].free);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(profile_move_near_breakpoints_across_blocks_is_release_then_reserve) {
  // Hundreds of steps (many blocks), holds whose ends lie within the tolerance of other breakpoints moved to such
  // times too (some by less than a tolerance), so that the four ends snap to neighbours and splitting one end splits a
  // block: the same step function
  // as release + reserve (compared by same_from, which ignores slivers of two tolerances: the steps may snap in
  // another order).
  SplitMix64 rng(11);
  const double offsets[] = {0.0, 0.3 * kTimeTolerance, -0.3 * kTimeTolerance, 0.8 * kTimeTolerance,
                            -0.8 * kTimeTolerance};
  const auto near = [&](int lo, int hi) { return static_cast<double>(rng.integer(lo, hi)) + offsets[rng.integer(0, 4)]; };
  for (int trial = 0; trial < 20; ++trial) {
    AvailabilityProfile moved(64), reference(64);
    std::vector<std::tuple<double, double, int>> holds;
    for (int k = 0; k < 300; ++k) {
      const double start = near(0, 1000), end = near(1, 80) + std::round(start);
      const int procs = static_cast<int>(rng.integer(1, 3));
      if (!(end > start + 0.5) || moved.min_free(start, end) < procs) continue;
      moved.reserve(start, end, procs);
      reference.reserve(start, end, procs);
      holds.emplace_back(start, end - start, procs);
    }
    BOOST_TEST_REQUIRE(moved.steps().size() > 300);
    int moves = 0;
    for (auto& [start, length, procs] : holds) {
      // A quarter of the moves go less than a tolerance away: one part of the move has no length.
      const double to = rng.integer(0, 3) == 0 ? std::round(start) + offsets[rng.integer(0, 4)] : near(0, 1000);
      moved.release(start, start + length, procs);  // room for the move: free the hold, look, take it back
      const bool fits = moved.min_free(to, to + length) >= procs;
      moved.reserve(start, start + length, procs);
      if (!fits) continue;
      moved.move(start, to, length, procs);
      reference.release(start, start + length, procs);
      reference.reserve(to, to + length, procs);
      BOOST_TEST_REQUIRE(moved.same_from(reference, -1.0),
                         "move(" << start << " -> " << to << ", " << length << ", " << procs << ") differs from release + reserve");
      start = to;
      ++moves;
    }
    BOOST_TEST(moves > 100);
  }
}

BOOST_AUTO_TEST_CASE(profile_forget_before_keeps_the_present) {
  AvailabilityProfile p(4);
  for (int i = 0; i < 200; ++i) p.reserve(i, i + 1, 1 + i % 3);
  p.forget_before(150);
  BOOST_TEST(p.steps().size() < 120u);
  BOOST_TEST(p.free_at(150.5) == 4 - (1 + 150 % 3));
  BOOST_TEST(*p.earliest_start(4, 1, 150) == 200.0);
}

// ------------------------------------------------------------------ SWF reader and workload rules

BOOST_AUTO_TEST_CASE(swf_reads_header_fields_comments_and_crlf) {
  const std::string text = "; Version: 2.2\r\n;   MaxNodes: 32 (dual CPU)\n; MaxProcs: 64\n; Note: two words: no field\n" +
                           swf_line(1, 0, 10, 4, 4, 20) + "\n; a comment between records\n" + swf_line(2, 5, 7, -1, 2, -1);
  const auto path = write_temp("h.swf", text);
  swf::Reader reader(path, false);
  swf::Record r;
  BOOST_TEST_REQUIRE(reader.next(r));
  BOOST_TEST(r.job_id == 1);
  BOOST_TEST(r.requested_time == 20);
  BOOST_TEST(r.line == 5u);
  BOOST_TEST(*reader.header().max_procs == 64);
  BOOST_TEST(*reader.header().max_nodes == 32);
  BOOST_TEST(*reader.header().find("Version") == "2.2");
  BOOST_TEST(reader.header().find("Note") != nullptr);  // "Note" is one word: a field; its value holds the rest
  BOOST_TEST_REQUIRE(reader.next(r));
  BOOST_TEST(r.allocated_procs == -1);
  BOOST_TEST(!reader.next(r));
}

BOOST_AUTO_TEST_CASE(swf_writer_keeps_each_comment_on_one_line) {
  // A comment holding a line break (an explanation in a corpus block) must not start a record line: written as a
  // space, the file reads back with its one record and the comment whole.
  swf::Record one;
  one.job_id = 1;
  one.submit = 0;
  one.run = 10;
  one.allocated_procs = one.requested_procs = 2;
  const std::string text = swf::write({"Explanation: first\nsecond\r\nthird", "MaxProcs: 4"}, {one});
  BOOST_TEST(text.find("; Explanation: first second  third\n") == 0u, text);
  swf::Reader reader(write_temp("comment.swf", text), false);
  swf::Record r;
  BOOST_TEST_REQUIRE(reader.next(r));
  BOOST_TEST(r.job_id == 1);
  BOOST_TEST(!reader.next(r));
  BOOST_TEST(*reader.header().find("Explanation") == "first second  third");
}

BOOST_AUTO_TEST_CASE(swf_reads_gzip_streams) {
  const std::string text = "; MaxProcs: 8\n" + swf_line(1, 0, 10, 4, 4, 20) + swf_line(2, 3, 5, 8, 8, 5);
  const fs::path path = fs::temp_directory_path() / "schedcheck-test-g.swf.gz";
  gzFile out = gzopen(path.c_str(), "wb");
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
  const auto w = workload::read_swf(path.string(), {});
  BOOST_TEST(w.processors == 8);
  BOOST_TEST(w.processors_from == "MaxProcs");
  BOOST_TEST_REQUIRE(w.jobs.size() == 2u);
  BOOST_TEST(w.jobs[1].procs == 8);
}

BOOST_AUTO_TEST_CASE(swf_malformed_lines_name_file_line_and_field) {
  auto message = [](const std::string& line) {
    const auto path = write_temp("m.swf", "; MaxProcs: 8\n" + swf_line(1, 0, 10, 4, 4, 20) + line);
    try {
      workload::read_swf(path, {});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string few = message("2 5 -1 10 4\n");
  BOOST_TEST(few.find("line 3") != std::string::npos);
  BOOST_TEST(few.find("5 fields, expected 18") != std::string::npos);
  const std::string word = message("2 5 -1 ten 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n");
  BOOST_TEST(word.find("field 4 (run time): expected a number, got \"ten\"") != std::string::npos);
  const std::string negative = message("2 -5 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n");
  BOOST_TEST(negative.find("field 2 (submit time)") != std::string::npos);
  const std::string fraction = message("2 5 -1 10 4.5 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n");
  BOOST_TEST(fraction.find("field 5 (allocated processors): expected a whole number") != std::string::npos);
  const std::string minus_two = message("2 5 -1 10 4 -2 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n");
  BOOST_TEST(minus_two.find("expected -1 (unknown) or a number >= 0") != std::string::npos);
  const std::string many = message(swf_line(2, 5, 10, 4, 4, 20).substr(0, 40) + " 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n");
  BOOST_TEST(many.find("more than 18 fields") != std::string::npos);
  const std::string infinite = message("2 5 -1 inf 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n");
  BOOST_TEST(infinite.find("expected a number") != std::string::npos);
  const std::string huge(swf::kMaxLineLength + 10, '7');
  BOOST_TEST(message(huge + "\n").find("longer than") != std::string::npos);
  BOOST_TEST(message(huge).find("longer than") != std::string::npos);  // no newline at all
}

BOOST_AUTO_TEST_CASE(swf_lenient_skips_and_counts_malformed_lines) {
  const auto path = write_temp("l.swf", "; MaxProcs: 8\n" + swf_line(1, 0, 10, 4, 4, 20) + "garbage\n\x01\x02\n" +
                                            swf_line(2, 3, 5, 8, 8, 5));
  workload::ReadOptions options;
  options.lenient = true;
  const auto w = workload::read_swf(path, options);
  BOOST_TEST(w.jobs.size() == 2u);
  BOOST_TEST(w.skipped[static_cast<std::size_t>(workload::Skip::kMalformed)] == 2u);
  BOOST_TEST(w.records == 4u);
  BOOST_TEST(w.first_malformed.find("line 3") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(workload_rules_skip_and_fill_estimates) {
  // P = 8 from --processors (no header). Records, each testing one rule:
  const std::string text = swf_line(1, 0, -1, 4, 4, 20) +     // run time -1: skipped (no-run-time)
                           swf_line(2, 1, 10, -1, -1, 20) +   // no processor count: skipped
                           swf_line(3, 2, 0, 4, 4, 20, 5) +   // cancelled while waiting: skipped
                           swf_line(4, 3, 10, 9, 9, 20) +     // 9 > 8 processors: skipped
                           swf_line(5, 4, 10, -1, 2, 20) +    // allocated -1: requested 2 used
                           swf_line(6, 5, 30, 4, 4, 20) +     // run 30 > requested 20: killed at 20
                           swf_line(7, 6, 10, 4, 4, -1) +     // no requested time: estimate = run time
                           swf_line(8, 7, 12, 4, 4, 0) +      // requested time 0: no usable request either
                           swf_line(9, 8, 5, 3, 6, 40, 5);    // cancelled after it ran: kept
  const auto path = write_temp("r.swf", text);
  workload::ReadOptions options;
  options.processors = 8;
  const auto w = workload::read_swf(path, options);
  using workload::Skip;
  BOOST_TEST(w.skipped[static_cast<std::size_t>(Skip::kNoRunTime)] == 1u);
  BOOST_TEST(w.skipped[static_cast<std::size_t>(Skip::kNoProcessors)] == 1u);
  BOOST_TEST(w.skipped[static_cast<std::size_t>(Skip::kCancelledBeforeStart)] == 1u);
  BOOST_TEST(w.skipped[static_cast<std::size_t>(Skip::kTooWide)] == 1u);
  BOOST_TEST_REQUIRE(w.jobs.size() == 5u);
  BOOST_TEST(w.records == 9u);
  BOOST_TEST(w.jobs[0].procs == 2);
  BOOST_TEST(w.jobs[1].killed());
  BOOST_TEST(w.jobs[1].runtime() == 20.0);
  BOOST_TEST(w.jobs[2].estimate == 10.0);
  BOOST_TEST(w.jobs[3].estimate == 12.0);
  BOOST_TEST(w.estimates_from_runtime == 2u);
  BOOST_TEST(w.jobs[4].procs == 3);  // allocated (field 5) first
  options.processor_field = workload::ProcessorField::kRequested;
  BOOST_TEST(workload::read_swf(path, options).jobs[4].procs == 6);
  options.estimates = workload::EstimateSource::kRuntime;
  const auto exact = workload::read_swf(path, options);
  BOOST_TEST(exact.jobs[1].estimate == 30.0);
  BOOST_TEST(!exact.jobs[1].killed());
  BOOST_TEST(exact.estimates_from_runtime == 5u);
}

BOOST_AUTO_TEST_CASE(workload_machine_size_from_header_or_option) {
  const auto nodes = write_temp("n.swf", "; MaxNodes: 16\n" + swf_line(1, 0, 10, 4, 4, 20));
  BOOST_TEST(workload::read_swf(nodes, {}).processors == 16);
  BOOST_TEST(workload::read_swf(nodes, {}).processors_from == "MaxNodes");
  const auto bare = write_temp("b.swf", swf_line(1, 0, 10, 4, 4, 20));
  BOOST_CHECK_EXCEPTION(workload::read_swf(bare, {}), InputError, [](const InputError& e) {
    return std::string(e.what()).find("--processors") != std::string::npos;
  });
  BOOST_CHECK_THROW(workload::read_swf("/nonexistent/x.swf", {}), InputError);
}

BOOST_AUTO_TEST_CASE(workload_unsorted_records_are_ordered_by_submit) {
  const auto path = write_temp("u.swf", "; MaxProcs: 4\n" + swf_line(1, 10, 5, 1, 1, 5) + swf_line(2, 3, 5, 1, 1, 5) +
                                            swf_line(3, 3, 5, 1, 1, 5));
  const auto w = workload::read_swf(path, {});
  BOOST_TEST(w.reordered == 2u);
  BOOST_TEST(w.jobs[0].id == 2);  // stable: 2 before 3 (file order among equal submit times)
  BOOST_TEST(w.jobs[1].id == 3);
  BOOST_TEST(w.jobs[2].id == 1);
}

// ------------------------------------------------------------------ policies on hand-computed traces

BOOST_AUTO_TEST_CASE(fcfs_head_blocks_easy_backfills_without_delaying_the_pivot) {
  // P = 4. A (2 procs, 10 s) runs [0,10). B (4 procs, 5 s) at 1 cannot start before 10: the pivot, reserved [10,15).
  // C (1 proc, 5 s) at 2: 2 free, ends at 7 <= 10: EASY backfills it at 2; FCFS keeps it behind B: 15.
  // E (1 proc, 20 s) at 3: 1 free now, but [3,23) overlaps B's [10,15) which needs all 4: EASY does not start it;
  // it starts after B, at 15 (FCFS: at 15 too, with C: 1 + 1 procs free).
  const auto w = make(4, {{1, 0, 10, 10, 2}, {2, 1, 5, 5, 4}, {3, 2, 5, 5, 1}, {5, 3, 20, 20, 1}});
  const auto f = starts(w, named("fcfs"));
  BOOST_TEST(f.at(1) == 0.0);
  BOOST_TEST(f.at(2) == 10.0);
  BOOST_TEST(f.at(3) == 15.0);
  BOOST_TEST(f.at(5) == 15.0);
  const auto e = starts(w, named("easy"));
  BOOST_TEST(e.at(2) == 10.0);
  BOOST_TEST(e.at(3) == 2.0);
  BOOST_TEST(e.at(5) == 15.0);
  // Conservative: C reserved at arrival at 2 (starts at once), E reserved at 15 (no 20 s window before B).
  const auto c = starts(w, named("conservative"));
  BOOST_TEST(c.at(3) == 2.0);
  BOOST_TEST(c.at(5) == 15.0);
}

BOOST_AUTO_TEST_CASE(early_completion_moves_the_pivot_earlier) {
  // P = 4. A (2 procs, estimate 10, runs 3). B (4 procs, 5 s) at 1: reserved at 10 (A's estimated end). A ends at 3:
  // the reservation compresses to 3 and B starts then, under FCFS, EASY and conservative alike.
  const auto w = make(4, {{1, 0, 3, 10, 2}, {2, 1, 5, 5, 4}});
  for (const char* policy : {"fcfs", "easy", "conservative"}) BOOST_TEST(starts(w, named(policy)).at(2) == 3.0);
}

BOOST_AUTO_TEST_CASE(conservative_compression_keeps_every_guarantee) {
  // P = 2. R1 (1 proc, estimate 10, runs 1) and R2 (1 proc, 5 s) start at 0. A (2 procs, 10 s) at 0: reserved
  // [10,20). B (1 proc, 5 s) at 0: [5,10) has one processor free: reserved [5,10). R1 ends at 1 (early):
  // compression in queue order: A still needs both processors for 10 s, and [5,10) holds B: A stays at 10.
  // B: with its own hold free, [1,6) has one processor: B moves to 1 and starts. (A list schedule recomputed
  // from scratch would put A at 5 and push B to 15, past its guarantee 5: see the broken policy below.)
  const auto w = make(2, {{1, 0, 1, 10, 1}, {2, 0, 5, 5, 1}, {3, 0, 10, 10, 2}, {4, 0, 5, 5, 1}});
  const auto c = starts(w, named("conservative"));
  BOOST_TEST(c.at(3) == 10.0);
  BOOST_TEST(c.at(4) == 1.0);
  BOOST_TEST(violations(w, named("conservative"), runcheck::applicable("conservative")).at("conservative-guarantee") == 0u);
}

BOOST_AUTO_TEST_CASE(pivots_two_hold_the_second_reservation) {
  // P = 4. J1 (1 proc, 10 s) at 0; J4 (2 procs, estimate 19, runs 9) at 1: 1 free after them.
  // At 3: J2 (4 procs, estimate 13, runs 3), J3 (2 procs, estimate 6, runs 3).
  // 1 pivot: J2 reserved at 20 (J4's estimated end). At 10 J1 and J4 end (J4 early): J2 moves to 10 and starts;
  //   J3 waits (no processor free) and starts when J2 ends at 13.
  // 2 pivots: J3 is a pivot too, reserved [10,16) (2 free over [10,20)). At 10 compression: J2 cannot take 10
  //   (J3 holds 2 processors until 16): J2 moves to 16 only; J3's reservation is due: it starts at 10. J3 ends at
  //   13 (early): J2 compresses to 13.
  const auto w = make(4, {{1, 0, 10, 10, 1}, {4, 1, 9, 19, 2}, {2, 3, 3, 13, 4}, {3, 3, 3, 6, 2}});
  const auto one = starts(w, named("easy", 1));
  BOOST_TEST(one.at(2) == 10.0);
  BOOST_TEST(one.at(3) == 13.0);
  const auto two = starts(w, named("easy", 2));
  BOOST_TEST(two.at(2) == 13.0);
  BOOST_TEST(two.at(3) == 10.0);
}

BOOST_AUTO_TEST_CASE(easy_with_as_many_pivots_as_jobs_is_conservative) {
  // `conservative` is backfill with pivots = infinity; EASY with a finite k >= the number of jobs must behave the
  // same (every waiting job is among the first k), and with k = 1 it must not (on these traces it differs).
  std::size_t differ = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto w = workload::generate_workload(seed, 25);
    const auto a = starts(w, named("easy", 25));
    const auto b = starts(w, named("conservative"));
    BOOST_TEST((a == b), "easy --pivots 25 and conservative differ on " << dump(w));
    differ += starts(w, named("easy", 1)) != b;
  }
  BOOST_TEST(differ > 10u);
}

BOOST_AUTO_TEST_CASE(count_and_processors_models_differ_on_six_processors) {
  // P = 6. J1 (4 procs, 3 s) at 2 on 0-3, until 5. At 3: J2 (2 procs, 3 s) on 4-5 until 6; J3 (5 procs, 2 s)
  // reserved [6,8) on 0-4 (4 free over [5,6) only); J4 (1 proc, 9 s).
  // count: at 5, [5,6) has 4 free, [6,8) has 1, later 6: J4 fits from 5 (on processor 0, then "on" processor 5).
  // processors: from 5 the free sets are {0-3} then {5}: no common processor; from 6, {5} throughout: J4 at 6.
  const auto w = make(6, {{1, 2, 3, 3, 4}, {2, 3, 3, 3, 2}, {3, 3, 2, 2, 5}, {4, 3, 9, 9, 1}});
  BOOST_TEST(starts(w, named("conservative"), ResourceModel::kCount).at(4) == 5.0);
  BOOST_TEST(starts(w, named("conservative"), ResourceModel::kProcessors).at(4) == 6.0);
  const sim::RunResult r = run(w, named("conservative"), ResourceModel::kProcessors);
  BOOST_TEST(r.records[3].allocated == "5");
  BOOST_TEST(r.records[2].allocated == "0-4");
}

// Whole runs with parallel jobs on a machine of many words (700 processors): in the processors model every job runs on
// exactly its processor count, jobs whose runs overlap share no processor, and no promised invariant breaks; under
// FCFS (no reservation: the processors free now stay free over any window from now) both models start every job at
// the same instant.
BOOST_AUTO_TEST_CASE(processor_sets_of_whole_runs_are_disjoint_and_fcfs_agrees_across_models) {
  constexpr int kProcessors = 700;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SplitMix64 rng(seed);
    workload::Workload w;
    w.name = "wide";
    w.processors = kProcessors;
    double submit = 0;
    for (std::int64_t id = 1; id <= 400; ++id) {
      submit += static_cast<double>(rng.integer(0, 40));
      const int procs = rng.chance(0.5) ? 1 : rng.chance(0.9) ? static_cast<int>(rng.integer(2, 64))
                                                              : static_cast<int>(rng.integer(65, 500));
      const double run = static_cast<double>(rng.integer(1, 3000));
      w.jobs.push_back(workload::Job{id, submit, run, run * static_cast<double>(rng.integer(1, 3)), procs});
    }
    w.records = w.jobs.size();
    for (const char* policy : {"fcfs", "easy", "conservative"}) {
      runcheck::InvariantChecker checker(w, runcheck::applicable(policy));
      const sim::RunResult r = run(w, named(policy), ResourceModel::kProcessors, &checker);
      for (const auto& [invariant, count] : checker.counts()) BOOST_TEST(count == 0u, policy << ": " << invariant);
      std::vector<ProcessorSet> on;
      for (std::size_t j = 0; j < w.jobs.size(); ++j) {
        std::string error;
        const auto set = ProcessorSet::parse_intervals(r.records[j].allocated, kProcessors, &error);
        BOOST_REQUIRE_MESSAGE(set, policy << ": job " << w.jobs[j].id << ": " << error);
        BOOST_REQUIRE_EQUAL(set->count(), w.jobs[j].procs);
        on.push_back(*set);
      }
      for (std::size_t a = 0; a < w.jobs.size(); ++a)
        for (std::size_t b = a + 1; b < w.jobs.size(); ++b) {
          const bool overlap = r.records[a].start < r.records[b].end && r.records[b].start < r.records[a].end;
          BOOST_REQUIRE_MESSAGE(!(overlap && on[a].intersects(on[b])),
                                policy << ": jobs " << w.jobs[a].id << " and " << w.jobs[b].id << " share processors");
        }
    }
    BOOST_TEST((starts(w, named("fcfs"), ResourceModel::kCount) == starts(w, named("fcfs"), ResourceModel::kProcessors)),
               "seed " << seed);
  }
}

// ------------------------------------------------------------------ engine: event order, determinism

BOOST_AUTO_TEST_CASE(a_completion_frees_processors_for_an_arrival_at_the_same_instant) {
  // P = 4. A (4 procs, 10 s) at 0; B (4 procs) submitted at 10: completions go before arrivals, and the pass
  // after both: B starts at 10, not later.
  const auto w = make(4, {{1, 0, 10, 10, 4}, {2, 10, 5, 5, 4}});
  BOOST_TEST(starts(w, named("fcfs")).at(2) == 10.0);
}

BOOST_AUTO_TEST_CASE(zero_length_jobs_hold_no_processors) {
  // P = 2. Z (2 procs, estimate 0, runs 0) and A (2 procs, 5 s) both at 0: Z's window [0,0) is empty, so A starts at
  // 0 as well, and capacity holds.
  const auto w = make(2, {{1, 0, 0, 0, 2}, {2, 0, 5, 5, 2}});
  BOOST_TEST(starts(w, named("fcfs")).at(2) == 0.0);
  BOOST_TEST(violations(w, named("fcfs"), runcheck::applicable("fcfs")).at("capacity") == 0u);
}

BOOST_AUTO_TEST_CASE(a_job_that_ends_as_it_starts_gives_its_processors_back_in_both_models) {
  // P = 2. Z (1 proc, estimate 10, runs 0 s) and A (2 procs, 5 s) at 0. The first pass starts Z, which the scheduler
  // believes holds a processor until 10, so A waits; Z ends at 0, its hold goes back, and A starts at 0 in a second
  // pass at the same instant — with processor identity too (the engine once gave back an empty set there, leaving a
  // hold on a processor nobody used until 10; the capacity invariant compares the profile with the running jobs).
  const auto w = make(2, {{1, 0, 0, 10, 1}, {2, 0, 5, 5, 2}});
  for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
    BOOST_TEST(starts(w, named("fcfs"), model).at(2) == 0.0, cluster::to_string(model));
    BOOST_TEST(violations(w, named("easy"), runcheck::applicable("easy"), model).at("capacity") == 0u);
  }
}

BOOST_AUTO_TEST_CASE(runs_are_deterministic_and_independent) {
  const auto w = workload::generate_workload(7, 200);
  auto csv = [&](const sim::RunResult& r) {
    std::string out = jobs_csv::header();
    for (std::size_t j = 0; j < w.jobs.size(); ++j) out += jobs_csv::format(sim::job_row(w.jobs[j], r.records[j], "w"));
    return out;
  };
  for (const char* policy : {"fcfs", "easy", "conservative"})
    for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
      // Two simulations alive at once in one process, run interleaved with a third on another workload.
      sim::Simulation a(w.jobs, sim::single_cluster(w, named(policy), model));
      const auto other = workload::generate_workload(8, 50);
      sim::Simulation noise(other.jobs, sim::single_cluster(other, named(policy), model));
      sim::Simulation b(w.jobs, sim::single_cluster(w, named(policy), model));
      const auto ra = a.run();
      noise.run();
      const auto rb = b.run();
      BOOST_TEST(csv(ra) == csv(rb), policy << ": two runs differ");
    }
}

BOOST_AUTO_TEST_CASE(metrics_follow_the_definitions) {
  // P = 2: A (2 procs, 5 s) at 0; B (1 proc, 20 s) at 1 waits 4 s. Bounded slowdown: A max(1, 5/10) = 1;
  // B (4 + 20) / 20 = 1.2. Busy area 2x5 + 1x20 = 30 over [0, 25) on 2 processors: 60%.
  const auto w = make(2, {{1, 0, 5, 5, 2}, {2, 1, 20, 20, 1}});
  const auto r = run(w, named("fcfs"));
  const auto s = sim::summarise(w, r, 2, {});
  BOOST_TEST(s.makespan == 25.0);
  BOOST_TEST(std::abs(s.utilisation - 0.6) < 1e-12);
  BOOST_TEST(s.wait.mean == 2.0);
  BOOST_TEST(s.wait.max == 4.0);
  BOOST_TEST(std::abs(s.slowdown.mean - 1.1) < 1e-12);
  BOOST_TEST(bounded_slowdown(0, 5) == 1.0);
  BOOST_TEST(std::abs(improvement_ratio(2.0, 1.0) - 1.0) < 1e-12);   // (2 - 1) / 1
  BOOST_TEST(std::abs(improvement_ratio(1.0, 4.0) + 3.0) < 1e-12);   // (1 - 4) / 1
  const auto st = statistics({5, 1, 4, 2, 3});
  BOOST_TEST(st.median == 3.0);
  BOOST_TEST(st.p95 == 5.0);  // nearest rank: ceil(0.95 x 5) = 5th
}

BOOST_AUTO_TEST_CASE(warmup_and_stop_at_last_arrival_trim_the_metrics) {
  // P = 1: A (10 s) at 0, B (10 s) at 5 waits 5, C (10 s) at 30 waits 0. Warm-up 4 s: A is not measured. Stopping at
  // the last arrival (30): C has started but not finished at 30: measured jobs are A and B, B only after the warm-up.
  const auto w = make(1, {{1, 0, 10, 10, 1}, {2, 5, 10, 10, 1}, {3, 30, 10, 10, 1}});
  auto options = sim::single_cluster(w, named("fcfs"));
  options.stop_time = 30;
  runcheck::InvariantChecker checker(w, runcheck::applicable("fcfs"));
  sim::Simulation s(w.jobs, options);
  s.add_observer(checker);
  const auto r = s.run();
  BOOST_TEST(r.stopped);
  BOOST_TEST(checker.total() == 0u);  // a cut run accounts for the jobs still running: none is lost
  const auto summary = sim::summarise(w, r, 1, sim::MetricsWindow{4, true});
  BOOST_TEST(summary.finished == 2u);
  BOOST_TEST(summary.running == 1u);
  BOOST_TEST(summary.measured == 1u);  // B
  BOOST_TEST(summary.wait.mean == 5.0);
  BOOST_TEST(summary.window_from == 4.0);
  BOOST_TEST(summary.window_to == 30.0);
  // Busy processor-seconds inside [4, 30): A 6, B 10, C 0 = 16 over 26 s on one processor.
  BOOST_TEST(std::abs(summary.utilisation - 16.0 / 26.0) < 1e-12);
}

// ------------------------------------------------------------------ invariants fail on broken policies

namespace {
// Starts every waiting job now, whether or not it fits.
cluster::ClusterPolicy start_everything() {
  return {"start-everything", "test", "", 0, [](const cluster::Snapshot& s) {
            cluster::Decision d;
            for (std::size_t i = 0; i < s.queue.size(); ++i) d.start.push_back({i, s.now, {}});
            return d;
          }, {}, {}, {}, false, nullptr, std::nullopt};
}
// First fit: any job that fits starts, in queue order (skips the head): not FCFS.
cluster::ClusterPolicy first_fit() {
  return {"first-fit", "test", "", 0, [](const cluster::Snapshot& s) {
            cluster::Decision d;
            int free = s.profile.free_at(s.now);
            for (std::size_t i = 0; i < s.queue.size(); ++i)
              if (s.queue[i].procs <= free) {
                free -= s.queue[i].procs;
                d.start.push_back({i, s.now, {}});
              }
            return d;
          }, {}, {}, {}, false, nullptr, std::nullopt};
}
// EASY that reserves the pivot but backfills on the free processors of now only (ignores the reservation).
cluster::ClusterPolicy careless_easy() {
  return {"careless-easy", "test", "", 1, [](const cluster::Snapshot& s) {
            cluster::Decision d = cluster::backfill(s, 1);
            int free = s.profile.free_at(s.now);
            for (const auto& p : d.start) free -= s.queue[p.index].procs;
            std::vector<bool> placed(s.queue.size(), false);
            for (const auto& p : d.start) placed[p.index] = true;
            for (const auto& p : d.reserve) placed[p.index] = true;
            for (std::size_t i = 0; i < s.queue.size(); ++i)
              if (!placed[i] && !s.queue[i].reserved && s.queue[i].procs <= free) {
                free -= s.queue[i].procs;
                d.start.push_back({i, s.now, {}});
              }
            return d;
          }, {}, {}, {}, false, nullptr, std::nullopt};
}
// EASY without backfilling: reserves pivots, starts only jobs whose reservation is due.
cluster::ClusterPolicy lazy_easy() {
  return {"lazy-easy", "test", "", 1, [](const cluster::Snapshot& s) {
            cluster::Decision all = cluster::backfill(s, 1);
            cluster::Decision d;
            d.reserve = all.reserve;
            for (const auto& p : all.start)
              if (s.queue[p.index].reserved || p.index == 0) d.start.push_back(p);
            return d;
          }, {}, {}, {}, false, nullptr, std::nullopt};
}
// "Conservative" recomputed from scratch at every pass: every waiting job re-placed in queue order on the running
// jobs alone, old reservations ignored. It breaks guarantees when jobs end early.
cluster::ClusterPolicy from_scratch_conservative() {
  return {"from-scratch", "test", "", cluster::kEveryJob, [](const cluster::Snapshot& s) {
            AvailabilityProfile p(s.processors);
            for (const auto& r : s.running) p.reserve(s.now, std::max(s.now, r.estimated_end), r.procs);
            cluster::Decision d;
            for (std::size_t i = 0; i < s.queue.size(); ++i) {
              const auto& q = s.queue[i];
              const double t = *p.earliest_start(q.procs, q.estimate, s.now);
              p.reserve(t, t + q.estimate, q.procs);
              if (t <= s.now) d.start.push_back({i, s.now, {}});
              else if (!q.reserved || q.reserved_start != t) d.reserve.push_back({i, t, {}});
            }
            return d;
          }, {}, {}, {}, false, nullptr, std::nullopt};
}
// Never starts job index 0 of the trace (loses it).
cluster::ClusterPolicy loses_a_job() {
  return {"loses-a-job", "test", "", 0, [](const cluster::Snapshot& s) {
            cluster::Decision d = cluster::fcfs(s);
            std::erase_if(d.start, [&](const cluster::Placement& p) { return s.queue[p.index].job == 0; });
            return d;
          }, {}, {}, {}, false, nullptr, std::nullopt};
}
}  // namespace

BOOST_AUTO_TEST_CASE(invariants_catch_broken_policies) {
  // Over-subscription: two 3-processor jobs at once on 4 processors.
  const auto two = make(4, {{1, 0, 10, 10, 3}, {2, 0, 10, 10, 3}});
  BOOST_TEST(violations(two, start_everything(), {"capacity"}).at("capacity") > 0u);
  // First fit skips the head: B (4 procs) waits while C (1 proc) starts.
  const auto head = make(4, {{1, 0, 10, 10, 2}, {2, 1, 5, 5, 4}, {3, 2, 5, 5, 1}});
  BOOST_TEST(violations(head, first_fit(), {"fcfs-order"}).at("fcfs-order") == 1u);
  BOOST_TEST(violations(head, named("fcfs"), {"fcfs-order"}).at("fcfs-order") == 0u);
  // Careless EASY backfills E (1 proc, 20 s) over the pivot's reservation: the pivot starts late.
  const auto pivot = make(4, {{1, 0, 10, 10, 2}, {2, 1, 5, 5, 4}, {3, 2, 5, 5, 1}, {5, 3, 20, 20, 1}});
  BOOST_TEST(violations(pivot, careless_easy(), {"easy-pivot-not-delayed"}).at("easy-pivot-not-delayed") > 0u);
  BOOST_TEST(violations(pivot, named("easy"), {"easy-pivot-not-delayed"}).at("easy-pivot-not-delayed") == 0u);
  // Lazy EASY leaves C waiting although it fits without delaying the pivot.
  BOOST_TEST(violations(pivot, lazy_easy(), {"easy-maximal"}).at("easy-maximal") > 0u);
  BOOST_TEST(violations(pivot, named("easy"), {"easy-maximal"}).at("easy-maximal") == 0u);
  // From-scratch "conservative" pushes B past its guarantee (the compression example).
  const auto guarantee = make(2, {{1, 0, 1, 10, 1}, {2, 0, 5, 5, 1}, {3, 0, 10, 10, 2}, {4, 0, 5, 5, 1}});
  BOOST_TEST(violations(guarantee, from_scratch_conservative(), {"conservative-guarantee"}).at("conservative-guarantee") > 0u);
  // A job never started: lost at the end.
  const auto small = make(4, {{1, 0, 10, 10, 1}, {2, 0, 10, 10, 1}});
  BOOST_TEST(violations(small, loses_a_job(), {"jobs-conserved"}).at("jobs-conserved") == 1u);
}

BOOST_AUTO_TEST_CASE(invariant_messages_name_the_job_and_the_instant) {
  const auto pivot = make(4, {{1, 0, 10, 10, 2}, {2, 1, 5, 5, 4}, {3, 2, 5, 5, 1}, {5, 3, 20, 20, 1}});
  runcheck::InvariantChecker checker(pivot, {"easy-pivot-not-delayed"});
  run(pivot, careless_easy(), ResourceModel::kCount, &checker);
  BOOST_TEST_REQUIRE(!checker.violations().empty());
  const auto& v = checker.violations().front();
  BOOST_TEST(v.time == 3.0);  // E starts at 3 over B's reservation [10,15)
  BOOST_TEST(v.job == 5);
  BOOST_TEST(v.detail.find("job 2 (reserved at 10)") != std::string::npos, v.detail);
}

BOOST_AUTO_TEST_CASE(reference_policies_keep_every_invariant_on_generated_traces) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto w = workload::generate_workload(seed, 30);
    for (const char* policy : {"fcfs", "easy", "conservative"})
      for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
        runcheck::InvariantChecker checker(w, runcheck::applicable(policy));
        run(w, named(policy), model, &checker);
        BOOST_TEST(checker.total() == 0u, policy << " " << cluster::to_string(model) << ": "
                                                  << (checker.violations().empty() ? "" : checker.violations()[0].detail)
                                                  << " on " << dump(w));
      }
  }
}

BOOST_AUTO_TEST_CASE(grid_trace_generator_keeps_its_settings) {
  workload::GridTraceSettings settings{3, 20000, 300, 0.9};  // seed, jobs, processors, offered load
  const auto w = workload::generate_grid_trace(settings);
  BOOST_TEST_REQUIRE(w.jobs.size() == 20000u);
  BOOST_TEST(w.processors == 300);
  double work = 0;
  std::vector<double> runs;
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    const auto& j = w.jobs[i];
    BOOST_TEST_REQUIRE(j.procs == 1);
    BOOST_TEST_REQUIRE(j.run >= 1);
    BOOST_TEST_REQUIRE(j.estimate >= j.run);  // the queue limit a user would pick: no job is killed
    if (i > 0) BOOST_TEST_REQUIRE(j.submit >= w.jobs[i - 1].submit);
    work += j.run;
    runs.push_back(j.run);
  }
  const double load = work / (300 * (w.jobs.back().submit - w.jobs.front().submit));
  BOOST_TEST(std::abs(load - 0.9) < 0.01, "offered load " << load);
  std::sort(runs.begin(), runs.end());
  BOOST_TEST(runs[runs.size() / 2] >= 10);   // LPC-EGEE's median run time: 14 s
  BOOST_TEST(runs[runs.size() / 2] <= 20);
  BOOST_TEST(runs[runs.size() * 9 / 10] >= 2000);  // its 90th percentile: 3,006 s
  BOOST_TEST(runs[runs.size() * 9 / 10] <= 4000);
  // Seeded: the same settings give the same trace, another seed another.
  BOOST_TEST(workload::write_swf(workload::generate_grid_trace(settings), {}) == workload::write_swf(w, {}));
  settings.seed = 4;
  BOOST_TEST(workload::write_swf(workload::generate_grid_trace(settings), {}) != workload::write_swf(w, {}));
}

BOOST_AUTO_TEST_CASE(a_conservative_queue_sets_few_timers) {
  // Compression moves most reservations of a long conservative queue at every early end; one pending
  // reservation-due timer a cluster keeps the events near arrivals + completions (one timer a moved reservation
  // made 20x more events, and as much memory for the stale ones).
  const workload::GridTraceSettings settings{1, 3000, 100, 0.95, 200};  // ... and 200 jobs a burst
  const auto w = workload::generate_grid_trace(settings);
  const sim::RunResult r = run(w, named("conservative"));
  BOOST_TEST(r.clusters.at(0).max_queue > 200u);  // a long queue, or the test shows nothing
  BOOST_TEST(r.events < 3 * w.jobs.size(), r.events << " events for " << w.jobs.size() << " jobs");
  // The same starts as EASY would not show a lost due timer: every job still starts, none later than its first
  // reservation (the invariants).
  runcheck::InvariantChecker checker(w, runcheck::applicable("conservative"));
  run(w, named("conservative"), ResourceModel::kCount, &checker);
  BOOST_TEST(checker.total() == 0u, (checker.violations().empty() ? "" : checker.violations()[0].detail));
}

BOOST_AUTO_TEST_CASE(the_engine_adopts_the_policys_profile_only_unwatched_and_checks_it_when_watched) {
  // Backfilling hands its working profile on (Decision::profile). Unwatched, the engine adopts it; watched (an
  // observer: checking needs the engine's own profile), it applies the decision itself and compares. Both ways give
  // the same starts, and the comparison catches a policy whose profile is not its decision.
  struct Watch : sim::Observer {};
  const auto grid = workload::generate_grid_trace(workload::GridTraceSettings{2, 1500, 60, 0.95, 100});
  for (const auto& w : {grid, workload::generate_workload(7, 40), workload::generate_workload(8, 40)})
    for (const char* policy : {"fcfs", "easy", "conservative"})
      for (auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
        Watch watch;
        const sim::RunResult adopted = run(w, named(policy), model);
        const sim::RunResult applied = run(w, named(policy), model, &watch);
        for (std::size_t j = 0; j < w.jobs.size(); ++j)
          BOOST_TEST_REQUIRE(adopted.records[j].start == applied.records[j].start,
                             policy << " " << cluster::to_string(model) << ": job " << w.jobs[j].id << " on "
                                    << (w.jobs.size() < 100 ? dump(w) : "the grid trace"));
      }
  // A policy that promises its profile, which holds one processor more than its decision: an error once watched,
  // never a verdict. A policy that does not promise it (a wrapper that edits the decision) is applied, not compared.
  cluster::ClusterPolicy skewed = named("conservative");
  BOOST_TEST_REQUIRE(skewed.hands_on_profile);
  skewed.decide = [](const cluster::Snapshot& s) {
    cluster::Decision d = cluster::conservative(s);
    if (d.profile) d.profile->reserve(s.now, s.now + 1, 1);
    return d;
  };
  const auto w = workload::generate_workload(7, 40);
  Watch watch;
  BOOST_CHECK_THROW(run(w, skewed, ResourceModel::kCount, &watch), std::logic_error);
  BOOST_CHECK_NO_THROW(run(w, skewed, ResourceModel::kCount));
  skewed.hands_on_profile = false;
  runcheck::InvariantChecker checker(w, runcheck::applicable("conservative"));
  BOOST_CHECK_NO_THROW(run(w, skewed, ResourceModel::kCount, &checker));
  BOOST_TEST(checker.total() == 0u);
  BOOST_TEST(named("fcfs").hands_on_profile);
  BOOST_TEST(named("easy", 3).hands_on_profile);
}

BOOST_AUTO_TEST_CASE(a_broker_routes_jobs_to_clusters_by_messages) {
  // Two clusters (4 and 8 processors) behind a broker with a 2 s latency and status reports every 10 s. Round-robin
  // alternates, except that a job wider than 4 goes to the 8-processor cluster; every job arrives 2 s after its
  // submission; every invariant holds on both clusters.
  const auto w = make(8, {{1, 0, 5, 5, 2}, {2, 0, 5, 5, 2}, {3, 1, 5, 5, 6}, {4, 1, 5, 5, 1}, {5, 2, 5, 5, 1}});
  sim::RunOptions options = sim::single_cluster(w, named("easy"));
  options.clusters.push_back(options.clusters.front());
  options.clusters[0].processors = 4;
  options.clusters[0].name = "small";
  options.clusters[1].name = "large";
  options.broker = sim::router_setup("round-robin", 2.0, 10.0);
  sim::Simulation s(w.jobs, options);
  runcheck::InvariantChecker checker(w, runcheck::applicable("easy"));
  s.add_observer(checker);
  const auto r = s.run();
  BOOST_TEST(r.job_messages == 5u);
  BOOST_TEST(r.status_messages >= 2u);
  BOOST_TEST(r.messages == r.job_messages + r.status_messages);
  const std::vector<std::uint32_t> expected{0, 1, 1, 0, 1};  // job 3 (6 wide) skips the small cluster
  for (std::size_t j = 0; j < w.jobs.size(); ++j) {
    BOOST_TEST(r.records[j].cluster == expected[j], "job " << w.jobs[j].id);
    BOOST_TEST(r.records[j].arrival == w.jobs[j].submit + 2.0);
    BOOST_TEST((r.records[j].state == sim::JobState::kFinished));
  }
  BOOST_TEST(checker.total() == 0u);
  BOOST_CHECK_THROW(sim::router_setup("random", 0, 0), std::invalid_argument);
  BOOST_CHECK_THROW(sim::router_setup("least-loaded", 0, 0), std::invalid_argument);  // needs status reports
}

// A policy per cluster, each checked for its own promises: round-robin sends jobs 1, 3, 5 to an EASY cluster of 4, where
// job 5 (1 processor, 5 s) is backfilled at 2 beside job 1 while job 3 (4 processors) waits for 10; jobs 2 and 4 go to
// an FCFS cluster. Checked per cluster (easy, fcfs) the run is clean; checked as FCFS on both, the backfill on cluster 0
// breaks fcfs-order.
BOOST_AUTO_TEST_CASE(each_cluster_is_checked_against_its_own_policy) {
  const auto w = make(4, {{1, 0, 10, 10, 2}, {2, 0, 1, 1, 1}, {3, 1, 5, 5, 4}, {4, 1, 1, 1, 1}, {5, 2, 5, 5, 1}});
  sim::RunOptions options = sim::single_cluster(w, named("easy"));
  options.clusters.push_back(options.clusters.front());
  options.clusters[1].policy = named("fcfs");
  options.broker = sim::router_setup("round-robin", 0, 0);
  runcheck::InvariantChecker own(w, std::vector<std::vector<std::string>>{runcheck::applicable("easy"), runcheck::applicable("fcfs")});
  runcheck::InvariantChecker fcfs(w, std::vector<std::vector<std::string>>{runcheck::applicable("fcfs")});
  sim::Simulation s(w.jobs, options);
  s.add_observer(own);
  s.add_observer(fcfs);
  const auto r = s.run();
  BOOST_TEST(r.records[4].cluster == 0u);
  BOOST_TEST(r.records[4].start == 2.0);  // backfilled
  BOOST_TEST(r.records[2].start == 10.0);
  BOOST_TEST(own.total() == 0u, (own.violations().empty() ? "" : own.violations()[0].detail));
  BOOST_TEST(own.counts().count("fcfs-order") == 1u);  // checked (on cluster 1), and it holds
  BOOST_TEST(fcfs.counts().at("fcfs-order") >= 1u);
  BOOST_TEST(fcfs.counts().count("easy-maximal") == 0u);
}

// least-loaded (paper 002's gateway, Algorithm 1's "load of waiting/running jobs"): busy, queued and unreported
// processors over the cluster's; once every cluster is full the queues still tell them apart, and ties go to the next
// cluster after the last one used. Hand-computed: loads 8/8 + 6/8, 8/8 + 2/8, 8/8 + 0 + 4/8 -> cluster 1 (1.25).
BOOST_AUTO_TEST_CASE(least_loaded_counts_queued_work_and_rotates_ties) {
  const workload::Job job{1, 0, 10, 10, 1};
  std::vector<router::ClusterStatus> view(3);
  for (auto& c : view) {
    c.processors = 8;
    c.busy = 8;
  }
  view[0].queued_processors = 6;
  view[1].queued_processors = 2;
  view[2].unreported_processors = 4;
  BOOST_TEST(router::load(view[0]) == 1.75);
  BOOST_TEST(router::least_loaded(router::Snapshot{0, job, view, router::kNone}) == 1u);
  view[1].queued_processors = 4;  // clusters 1 and 2 tie at 1.5
  BOOST_TEST(router::least_loaded(router::Snapshot{0, job, view, router::kNone}) == 1u);
  BOOST_TEST(router::least_loaded(router::Snapshot{0, job, view, 1}) == 2u);   // after 1: 2
  BOOST_TEST(router::least_loaded(router::Snapshot{0, job, view, 2}) == 1u);   // after 2: 0 (more loaded), then 1
  for (auto& c : view) c.queued_processors = c.unreported_processors = 0;  // all equal: round-robin among them
  BOOST_TEST(router::least_loaded(router::Snapshot{0, job, view, 0}) == 1u);
  BOOST_TEST(router::least_loaded(router::Snapshot{0, job, view, 2}) == 0u);
}

// RFC 4180 in the schedule reader and the per-job CSV writer (fuzz target jobs-csv): quoted fields may hold commas,
// doubled quotes and line breaks (CR kept inside quotes, dropped at a CRLF record end); the writer quotes such text
// so that what it writes reads back the same; an unterminated quote names the line its record starts on.
BOOST_AUTO_TEST_CASE(jobs_csv_quoting_round_trip) {
  const std::string path = write_temp("quoted.csv",
                                      "job_id,starting_time,finish_time,allocated_resources\r\n"
                                      "\"a,b\",1,2,0-1\r\n"
                                      "\"x\r\ny\",2,3,\"0,2\"\r\n"
                                      "\"say \"\"hi\"\"\",3,4,5\r\n");
  const auto rows = jobs_csv::read_schedule(path, jobs_csv::Columns{}, false);
  BOOST_TEST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[0].id == "a,b");
  BOOST_TEST(rows[1].id == "x\r\ny");
  BOOST_TEST(rows[1].line == 3u);
  BOOST_TEST(*rows[1].allocated == "0,2");
  BOOST_TEST(rows[2].id == "say \"hi\"");
  BOOST_TEST(rows[2].line == 5u);
  BOOST_TEST(jobs_csv::field("plain") == "plain");
  BOOST_TEST(jobs_csv::field("a,b") == "\"a,b\"");
  BOOST_TEST(jobs_csv::field("say \"hi\"") == "\"say \"\"hi\"\"\"");

  std::string written = jobs_csv::header();
  for (const auto& r : rows) {
    jobs_csv::Row row;
    row.job_id = r.id;
    row.workload_name = "trace, \"v2\".swf";
    row.starting_time = r.start;
    row.finish_time = r.finish;
    row.allocated_resources = r.allocated.value_or("");
    written += jobs_csv::format(row);
  }
  const auto again = jobs_csv::read_schedule(write_temp("quoted-again.csv", written), jobs_csv::Columns{}, true);
  BOOST_TEST_REQUIRE(again.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BOOST_TEST(again[i].id == rows[i].id);
    BOOST_TEST(*again[i].allocated == *rows[i].allocated);
    BOOST_TEST(again[i].finish == rows[i].finish);
  }

  const std::string open = write_temp("unterminated.csv", "job_id,starting_time,finish_time\n1,0,1\n\"2,0,1\n3,0,1\n");
  try {
    jobs_csv::read_schedule(open, jobs_csv::Columns{}, false);
    BOOST_FAIL("an unterminated quote was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("line 3: unterminated quote") != std::string::npos, e.what());
  }
}

// A job whose run is shorter than kTimeTolerance holds no processor, in the engine and in the checks as in the
// profile (which reads its window as empty). Our own: jobs 1 and 2 end at 10; job 3 (a run and an estimate of 0.5
// microseconds) starts at 10, and job 4, which needs both processors, starts at 10 too; every invariant holds (the
// engine would otherwise count job 3 as holding a processor the profile gives job 4: a capacity breach).
BOOST_AUTO_TEST_CASE(a_job_shorter_than_the_time_tolerance_holds_no_processor) {
  const auto w = make(2, {{1, 0, 10, 10, 1}, {2, 0, 10, 10, 1}, {3, 1, 5e-7, 5e-7, 1}, {4, 2, 10, 10, 2}});
  for (const std::string name : {"fcfs", "easy", "conservative"})
    for (const auto model : {ResourceModel::kCount, ResourceModel::kProcessors}) {
      sim::RunOptions options = sim::single_cluster(w, named(name), model);
      options.clusters.front().pass_per_event = true;
      runcheck::InvariantChecker checker(w, runcheck::applicable(name));
      sim::Simulation simulation(w.jobs, options);
      simulation.add_observer(checker);
      const sim::RunResult r = simulation.run();
      const std::string what = name + (model == ResourceModel::kCount ? " count" : " processors") + " on " + dump(w);
      BOOST_TEST_CONTEXT(what) {
        BOOST_TEST(r.records[2].start == 10.0);
        BOOST_TEST(r.records[3].start == 10.0);
        BOOST_TEST(r.records[3].end == 20.0);
        BOOST_TEST(checker.total() == 0u, checker.to_json().dump());
      }
    }
}

// Batsim's workload format (model/workload.hpp, read_batsim / write_batsim): a generated workload written and read
// back is the same jobs; a walltime is the estimate and the job still runs its delay, killed at the walltime by the
// model's min(run, estimate); a profile whose run time is not known before the run, and a duplicated id, are refused.
BOOST_AUTO_TEST_CASE(batsim_workload_round_trip_and_refusals) {
  const auto w = workload::generate_workload(11, 60);
  const auto back = workload::read_batsim(workload::write_batsim(w), "w.json");
  BOOST_TEST(back.processors == w.processors);
  BOOST_REQUIRE(back.jobs.size() == w.jobs.size());
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    BOOST_TEST_CONTEXT("job " << w.jobs[i].id) {
      BOOST_TEST(back.jobs[i].id == w.jobs[i].id);
      BOOST_TEST(back.jobs[i].submit == w.jobs[i].submit);
      BOOST_TEST(back.jobs[i].run == w.jobs[i].run);
      BOOST_TEST(back.jobs[i].estimate == w.jobs[i].estimate);
      BOOST_TEST(back.jobs[i].procs == w.jobs[i].procs);
    }
  }
  const auto read = [](const std::string& text) { return workload::read_batsim(parse_json_text(text, "w.json"), "w.json"); };
  const auto killed = read(R"({"nb_res": 4, "jobs": [{"id": "7", "subtime": 1, "walltime": 10, "res": 2,
      "profile": "d20"}, {"id": 3, "subtime": 0, "res": 1, "profile": "d5"}],
      "profiles": {"d20": {"type": "delay", "delay": 20}, "d5": {"type": "delay", "delay": 5}}})");
  BOOST_REQUIRE(killed.jobs.size() == 2u);
  BOOST_TEST(killed.jobs[0].id == 3);  // sorted by submit time
  BOOST_TEST(killed.jobs[0].estimate == 5.0);  // no walltime: the delay is the estimate
  BOOST_TEST(killed.jobs[1].run == 20.0);
  BOOST_TEST(killed.jobs[1].estimate == 10.0);
  BOOST_TEST(killed.jobs[1].killed());
  const auto refused = [&](const std::string& text, const std::string& part) {
    try {
      (void)read(text);
      BOOST_ERROR("accepted " << text);
    } catch (const InputError& e) {
      BOOST_TEST(std::string(e.what()).find(part) != std::string::npos, e.what());
    }
  };
  refused(R"({"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}],
      "profiles": {"p": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}}})", "parallel_homogeneous");
  refused(R"({"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "d"},
      {"id": "1", "subtime": 2, "res": 1, "profile": "d"}], "profiles": {"d": {"type": "delay", "delay": 3}}})",
          "id 1 appears twice");
  refused(R"({"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 5, "profile": "d"}],
      "profiles": {"d": {"type": "delay", "delay": 3}}})", "res");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_simulation
