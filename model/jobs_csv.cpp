// The per-job CSV writer and schedule reader (see jobs_csv.hpp). Our own.
#include "model/jobs_csv.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <unordered_set>

namespace schedcheck::jobs_csv {

std::string header() {
  return "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
         "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
         "allocated_resources,consumed_energy,metadata,bounded_slowdown\n";
}

std::string format(const Row& r) {
  const double waiting = r.starting_time - r.submission_time;
  const double turnaround = r.finish_time - r.submission_time;
  const double stretch = r.execution_time > 0 ? turnaround / r.execution_time
                                              : (turnaround > 0 ? std::numeric_limits<double>::infinity() : 1.0);
  return fmt::format("{},{},,{},{},{},{},{},{},{},{},{},{},{},{},-1,,{}\n", r.job_id, r.workload_name, r.submission_time,
                     r.requested_number_of_resources, r.requested_time, r.success ? 1 : 0,
                     r.success ? "COMPLETED_SUCCESSFULLY" : "COMPLETED_WALLTIME_REACHED", r.starting_time,
                     r.execution_time, r.finish_time, waiting, turnaround, stretch, r.allocated_resources,
                     r.bounded_slowdown);
}

namespace {

// A field of the CSV in a message (quoted_text: escaped, cut after 30 characters).
std::string shown(const std::string& text) { return quoted_text(text, 30); }

// Splits one CSV line (RFC 4180 quotes within the line); false on an unterminated quote.
bool split(const std::string& line, std::vector<std::string>& fields) {
  fields.clear();
  std::string field;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"' && field.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
      was_quoted = false;
    } else {
      field += c;
    }
  }
  if (quoted) return false;
  fields.push_back(std::move(field));
  return true;
}

}  // namespace

std::vector<ScheduleRow> read_schedule(const std::string& path, const Columns& columns, bool need_submit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the schedule (does it exist and is it readable?)", path));
  std::string line;
  std::vector<std::string> fields;
  std::size_t line_no = 0;
  auto fail = [&](const std::string& why) -> void { throw InputError(fmt::format("{}: line {}: {}", path, line_no, why)); };
  auto next_line = [&]() {
    if (!std::getline(in, line)) return false;
    ++line_no;
    if (line.size() > (1u << 20)) fail("longer than 1 MiB (not a CSV line)");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  };
  if (!next_line()) throw InputError(fmt::format("{}: the file is empty; expected a CSV header line", path));
  if (!split(line, fields)) fail("unterminated quote in the header");
  auto column = [&](const std::string& name, bool required) -> long {
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i] == name) return static_cast<long>(i);
    if (required)
      fail(fmt::format("no column {} in the header (name the column with an option, see `schedcheck audit --help`)",
                       shown(name)));
    return -1;
  };
  const long id = column(columns.id, true), start = column(columns.start, true), finish = column(columns.finish, true);
  const long submit = column(columns.submit, need_submit), allocated = column(columns.allocated, false);
  const std::size_t width = fields.size();

  std::vector<ScheduleRow> rows;
  std::unordered_set<std::string> seen;
  while (next_line()) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (!split(line, fields)) fail("unterminated quote");
    if (fields.size() != width) fail(fmt::format("{} fields, the header has {}", fields.size(), width));
    auto number = [&](long col, const std::string& name) {
      const std::string& text = fields[static_cast<std::size_t>(col)];
      double value = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size() || text.empty() || !std::isfinite(value) || value < 0)
        fail(fmt::format("column {}: expected a time >= 0, got {}", name, shown(text)));
      return value;
    };
    ScheduleRow row;
    row.line = line_no;
    row.id = fields[static_cast<std::size_t>(id)];
    if (row.id.empty()) fail(fmt::format("column {}: expected a job id, got an empty field", columns.id));
    row.start = number(start, columns.start);
    row.finish = number(finish, columns.finish);
    if (row.finish < row.start)
      fail(fmt::format("column {}: finish {} is before start {}", columns.finish, row.finish, row.start));
    if (submit >= 0) row.submit = number(submit, columns.submit);
    if (allocated >= 0) row.allocated = fields[static_cast<std::size_t>(allocated)];
    if (!seen.insert(row.id).second) fail(fmt::format("column {}: job {} is listed twice", columns.id, shown(row.id)));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace schedcheck::jobs_csv
