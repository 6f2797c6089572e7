// The conformance suite of FCFS, EASY(k) and conservative backfilling: small traces that each exercise one rule of a
// policy (hand-computed starts, the arithmetic in each case's `why`) and windows of real traces, each under a named
// reading of the trace, with the schedule schedcheck certifies; and the verdict on a schedule another scheduler made
// for a case. Our own (the rules: docs/simulation.md). Limits: one cluster, the count model.
#pragma once

#include "model/jobs_csv.hpp"
#include "model/workload.hpp"
#include "properties/audit.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace schedcheck::conformance {

struct Case {
  std::string name;        // also the folder `export` writes it into
  std::string policy;      // fcfs, easy or conservative (cluster::cluster_policy names)
  std::size_t pivots = 1;  // easy: the reservation depth k
  // The reading of the trace, as schedcheck's trace options ("" = the documented default rules); a case of another
  // simulator's reading says whose in `reading`.
  std::string options;
  std::string reading = "default";
  std::string rule;        // the rule the case exercises, one line
  std::string why;         // why it exists: the mistake it catches, and the arithmetic of its starts
  std::string source;      // "hand-computed", or the trace and records a window was cut from
  std::string swf;         // the trace, SWF text
  // Hand-computed starts by job id (every job of the trace that runs); empty for a window, whose certified schedule
  // is schedcheck's own run, audited clean.
  std::map<std::int64_t, double> starts;
};

// Every case, in a fixed order (hand-made ones first, then the windows).
const std::vector<Case>& cases();
// The case of that name; throws InputError naming the known ones.
const Case& find(const std::string& name);

// The schedule schedcheck certifies for a case: its own run of the case's policy on the trace read with the case's
// options (`workload`, `pass_per_event`), one row a job that ran, in Batsim's out_jobs.csv columns.
std::vector<jobs_csv::Row> certified(const Case& c, const workload::Workload& workload, bool pass_per_event);
// The per-job CSV of those rows, header first.
std::string csv_text(const std::vector<jobs_csv::Row>& rows);

enum class Status { kPassed, kDiffers, kFailed };
const char* to_string(Status status);  // "passed", "differs", "FAILED"

struct Verdict {
  Status status = Status::kPassed;
  // failed: the first certain violation, with its invariant, instant and the job blamed; differs: the first job that
  // starts or ends elsewhere than in the certified schedule, and the audit's replay differences; passed: "".
  std::string detail;
  std::size_t moved = 0;  // jobs whose start or end differs from the certified schedule (or that one side lacks)
  runcheck::AuditResult audit;
};

// The verdict on `rows` (a schedule of the case's trace): failed when the audit finds a certain violation of the
// policy or of the rows' own rules (every job once, no start before submit, the run time kept, capacity); passed when
// every job starts and ends as in `expected` (the certified schedule); else differs: another schedule the audit
// cannot prove wrong (another legal order of passes, a reading the case does not follow, or a mistake no certain
// check sees: the replay's differences say where).
Verdict judge(const Case& c, const workload::Workload& workload, bool pass_per_event,
              const std::vector<jobs_csv::ScheduleRow>& rows, const std::vector<jobs_csv::ScheduleRow>& expected);

}  // namespace schedcheck::conformance
