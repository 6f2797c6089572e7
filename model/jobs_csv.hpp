// The per-job CSV of a run (Batsim's out_jobs.csv columns, read unchanged by evalys, plus bounded_slowdown) and the one
// reader of schedules for `audit`, `compare-runs` and `gantt`: any CSV with job id, start and finish columns named by
// options, comma- or tab-separated (Alea's), plain or .gz, RFC 4180 quoting; a schedule written as SWF (predictsim's
// pyss) through the SWF reader. Our own.
#pragma once

#include "model/input.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::jobs_csv {

struct Row {
  std::string job_id;
  std::string workload_name;
  double submission_time = 0;
  int requested_number_of_resources = 0;
  double requested_time = 0;
  bool success = true;               // false: killed at its requested time (COMPLETED_WALLTIME_REACHED)
  double starting_time = 0;
  double execution_time = 0;
  double finish_time = 0;
  std::string allocated_resources;   // Batsim interval syntax: processors numbered within the job's cluster
  double bounded_slowdown = 0;
  std::optional<std::uint32_t> cluster;  // runs of several clusters: the index of the cluster it ran on
  double arrival = 0;                    // runs of several clusters: when it reached that cluster's queue
};

// job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,
// starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,
// consumed_energy,metadata,bounded_slowdown[,cluster,arrival_time]. `cluster` and `arrival_time`: the columns of a run
// of several clusters (the cluster's index, and when the job reached it: its submit time plus the broker's latency).
std::string header(bool cluster = false);
// One record, with its newline; text fields quoted as `field` does; the `cluster` and `arrival_time` fields when the
// row has a cluster (a file's rows all have one or none, as its header says).
std::string format(const Row& row);
// One CSV field as RFC 4180 writes it: as it is, or in double quotes (inner quotes doubled) when it holds a comma,
// a quote, CR or LF; byte for byte, so that a per-job CSV reads back (a cluster's name must match its scenario's).
// The one CSV quoting of the project.
std::string field(const std::string& text);
// A field of a report CSV (the experiments', `check`'s, `simulate`'s summary row): its control and bidirectional
// characters escaped as printable_text does (model/input.hpp), then quoted as `field` does.
std::string text_field(const std::string& text);

// Which columns hold what (defaults: Batsim's names).
struct Columns {
  std::string id = "job_id";
  std::string submit = "submission_time";      // optional unless a reader needs it
  std::string start = "starting_time";
  std::string finish = "finish_time";
  std::string allocated = "allocated_resources";  // optional
  std::string workload = "workload_name";         // optional: the trace a run replayed
  std::string cluster = "cluster";                // optional: the cluster a job ran on (an index from 0)
  std::string arrival = "arrival_time";           // optional: when the job reached its cluster's queue
  char delimiter = ',';                           // ',' or '\t' (Alea's completed_jobs CSV)
};

struct ScheduleRow {
  std::string id;
  std::optional<double> submit;
  double start = 0;
  double finish = 0;
  std::optional<std::string> allocated;
  std::optional<std::string> workload;
  std::size_t line = 0;
  std::optional<std::uint32_t> cluster;
  std::optional<double> arrival;  // when it reached its cluster's queue (a broker's latency after its submission)
};

// Every CSV record of a file (plain or .gz) in turn, the header first, with the line it starts on; records that are
// one line of spaces and tabs after the header are skipped, and a UTF-8 byte-order mark opening the file is dropped.
// Throws InputError "FILE: line N: ..." on an unterminated quote or a record longer than 1 MiB. The one CSV record
// reader of the project.
void for_each_record(const std::string& path,
                     const std::function<void(std::vector<std::string>& fields, std::size_t line)>& visit,
                     char delimiter = ',');

// A whole CSV file as text fields: its header and its rows (each as wide as the header).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string at(std::size_t row, const std::string& column) const;  // "" when the column is absent
};
// Throws InputError on an empty file or a row of another width than the header.
Table read_table(const std::string& path);

// Reads every row. Throws InputError "FILE: line N: column C: expected ..., got ..." on a missing column, a
// non-number, a negative or non-finite time (the arrival column's too), a finish before its start, a cluster that is
// not an integer from 0, or a job id listed twice.
// `need_submit`: the submit column must be present. A file named .swf or .swf.gz is a schedule written as SWF (field 1
// the job, field 2 its submission, field 3 its simulated wait, field 4 its run; `columns` unused): read by the SWF
// reader, a wait or run below 0 refused.
std::vector<ScheduleRow> read_schedule(const std::string& path, const Columns& columns, bool need_submit);
// The rows a reader would get back from a file of `rows` (without the file): what a chart of a run not written to
// disk draws.
std::vector<ScheduleRow> schedule_rows(const std::vector<Row>& rows);

}  // namespace schedcheck::jobs_csv
