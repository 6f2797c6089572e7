// Fuzz target: the schedule reader of `audit` and `compare-runs` (model/jobs_csv.hpp, read_schedule) with the
// per-job CSV writer of `simulate --jobs-csv`. The first byte chooses whether the submit column is required.
// Properties: bad input is only ever an InputError; a schedule read, written in Batsim's columns and read again
// has the same ids, submit, start and finish times and allocations. Our own.
#include "fuzz/fuzz_support.hpp"
#include "model/jobs_csv.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>

using namespace schedcheck;

namespace {

const char* const kTarget = "jobs-csv";

std::string rows_text(const std::vector<jobs_csv::ScheduleRow>& rows, bool with_submit) {
  std::string out;
  for (const auto& r : rows)
    out += fmt::format("[{}] submit {} start {} finish {} allocated [{}]\n", r.id,
                       with_submit && r.submit ? fmt::format("{}", *r.submit) : "-", r.start, r.finish,
                       r.allocated.value_or(""));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::ScratchFile first_file("schedule.csv"), second_file("written.csv");
  if (size == 0) return 0;
  const bool need_submit = data[0] & 1;
  const std::string input = fuzz::text_of(data + 1, size - 1);
  std::vector<jobs_csv::ScheduleRow> rows;
  try {
    rows = jobs_csv::read_schedule(first_file.write(input), jobs_csv::Columns{}, need_submit);
  } catch (const InputError&) {
    return 0;
  }
  std::string written = jobs_csv::header();
  for (const auto& r : rows) {
    jobs_csv::Row row;
    row.job_id = r.id;
    row.workload_name = "fuzz, \"round\" trip";  // a name that needs quoting, as a trace file name may
    row.submission_time = r.submit.value_or(0);
    row.starting_time = r.start;
    row.finish_time = r.finish;
    row.execution_time = r.finish - r.start;
    row.allocated_resources = r.allocated.value_or("");
    written += jobs_csv::format(row);
  }
  std::vector<jobs_csv::ScheduleRow> again;
  try {
    again = jobs_csv::read_schedule(second_file.write(written), jobs_csv::Columns{}, true);
  } catch (const InputError& e) {
    fuzz::property_failed(kTarget, std::string("the reader rejects the CSV the writer wrote: ") + e.what(), input, written);
  }
  // A column the input lacked is written empty or 0: compare what the input had.
  const bool had_allocated = rows.empty() || rows.front().allocated.has_value();
  if (!had_allocated)
    for (auto& r : again) r.allocated.reset();
  const bool had_submit = rows.empty() || rows.front().submit.has_value();
  if (rows_text(again, had_submit) != rows_text(rows, had_submit))
    fuzz::property_failed(kTarget, "schedule read, written, read again differs", input, rows_text(rows, had_submit),
                          rows_text(again, had_submit));
  return 0;
}
