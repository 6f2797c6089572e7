// The per-job CSV writer and schedule reader (see jobs_csv.hpp). Our own.
#include "model/jobs_csv.hpp"

#include "model/gz_input.hpp"
#include "model/input.hpp"
#include "model/swf.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string_view>
#include <functional>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace schedcheck::jobs_csv {

std::string header(bool cluster) {
  return std::string("job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
                     "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
                     "allocated_resources,consumed_energy,metadata,bounded_slowdown") +
         (cluster ? ",cluster,arrival_time\n" : "\n");
}

std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string text_field(const std::string& text) { return field(printable_text(text)); }

std::string format(const Row& r) {
  const double waiting = r.starting_time - r.submission_time;
  const double turnaround = r.finish_time - r.submission_time;
  const double stretch = r.execution_time > 0 ? turnaround / r.execution_time
                                              : (turnaround > 0 ? std::numeric_limits<double>::infinity() : 1.0);
  return fmt::format("{},{},,{},{},{},{},{},{},{},{},{},{},{},{},-1,,{}{}\n", field(r.job_id), field(r.workload_name), r.submission_time,
                     r.requested_number_of_resources, r.requested_time, r.success ? 1 : 0,
                     r.success ? "COMPLETED_SUCCESSFULLY" : "COMPLETED_WALLTIME_REACHED", r.starting_time,
                     r.execution_time, r.finish_time, waiting, turnaround, stretch, field(r.allocated_resources),
                     r.bounded_slowdown, r.cluster ? fmt::format(",{},{}", *r.cluster, r.arrival) : std::string());
}

namespace {

// A field of the CSV in a message (quoted_text: escaped, cut after 30 characters).
std::string shown(const std::string& text) { return quoted_text(text, 30); }

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// Splits CSV records (RFC 4180 quotes) fed a line at a time: a record ends with a line that leaves no quoted
// field open, so a quoted field may hold line breaks. Text after a closing quote joins the field; a quote inside an
// unquoted field is an ordinary character. Linear in the record's length.
class RecordSplitter {
public:
  explicit RecordSplitter(char delimiter) : delimiter_(delimiter) {}
  void start() {
    fields_.clear();
    field_.clear();
    quoted_ = was_quoted_ = false;
  }
  // Feeds one more piece of the record (a line without its line break, or the break itself inside quotes); true
  // when no quoted field is open at its end. A quote ending a piece closes the field: what follows it is a break.
  bool feed(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (quoted_) {
        if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
          field_ += '"';
          ++i;
        } else if (c == '"') {
          quoted_ = false;
        } else {
          field_ += c;
        }
      } else if (c == '"' && field_.empty() && !was_quoted_) {
        quoted_ = was_quoted_ = true;
      } else if (c == delimiter_) {
        fields_.push_back(std::move(field_));
        field_.clear();
        was_quoted_ = false;
      } else {
        field_ += c;
      }
    }
    return !quoted_;
  }
  std::vector<std::string>& finish() {
    fields_.push_back(std::move(field_));
    field_.clear();
    return fields_;
  }

private:
  char delimiter_;
  std::vector<std::string> fields_;
  std::string field_;
  bool quoted_ = false, was_quoted_ = false;
};

}  // namespace

void for_each_record(const std::string& path,
                     const std::function<void(std::vector<std::string>& fields, std::size_t line)>& visit,
                     char delimiter) {
  require_not_directory(path);
  GzInput in(path);  // plain or .gz; a read error or a failed allocation propagates instead of ending the file early
  std::vector<std::string> fields;
  std::size_t line_no = 0, record_line = 0;  // lines read; the line the record starts on
  RecordSplitter splitter(delimiter);
  auto fail = [&](const std::string& why) -> void { throw InputError(fmt::format("{}: line {}: {}", path, record_line, why)); };
  // The next record's fields: one line, or several while a quoted field holds line breaks (kept as they are, CR
  // included); a CR ending the record (CRLF files) is dropped. False at the end of the file. A record that is one
  // line of spaces and tabs is skipped.
  auto next_record = [&]() {
    for (;;) {
      std::string physical;
      if (!std::getline(in, physical)) return false;
      record_line = ++line_no;
      // A UTF-8 byte-order mark before the header (spreadsheets write one) is no part of its first column's name.
      if (record_line == 1 && physical.starts_with(kByteOrderMark)) physical.erase(0, kByteOrderMark.size());
      splitter.start();
      std::size_t length = 0;
      bool blank = false;
      for (;;) {
        length += physical.size() + 1;
        if (length > (1u << 20)) fail("longer than 1 MiB (not a CSV record)");
        const bool cr = !physical.empty() && physical.back() == '\r';
        if (cr) physical.pop_back();
        if (record_line == line_no) blank = physical.find_first_not_of(" \t") == std::string::npos;  // its first line
        if (splitter.feed(physical)) {
          fields = std::move(splitter.finish());
          break;
        }
        splitter.feed(cr ? "\r\n" : "\n");
        if (!std::getline(in, physical)) fail("unterminated quote (the quoted field runs to the end of the file)");
        ++line_no;
      }
      if (!blank || record_line == 1) return true;
    }
  };
  while (next_record()) visit(fields, record_line);
}

Table read_table(const std::string& path) {
  Table table;
  for_each_record(path, [&](std::vector<std::string>& fields, std::size_t line) {
    if (line == 1) {
      table.header = std::move(fields);
      return;
    }
    if (fields.size() != table.header.size())
      throw InputError(fmt::format("{}: line {}: {} fields, the header has {}", path, line, fields.size(), table.header.size()));
    table.rows.push_back(std::move(fields));
  });
  if (table.header.empty()) throw InputError(fmt::format("{}: the file is empty; expected a CSV header line", path));
  return table;
}

std::string Table::at(std::size_t row, const std::string& column) const {
  for (std::size_t k = 0; k < header.size(); ++k)
    if (header[k] == column) return rows.at(row).at(k);
  return "";
}

namespace {
// A schedule written as SWF (see read_schedule).
std::vector<ScheduleRow> read_swf_schedule(const std::string& path) {
  std::vector<ScheduleRow> rows;
  std::unordered_set<std::string> seen;
  swf::Reader reader(path, false);
  swf::Record record;
  while (reader.next(record)) {
    auto fail = [&](const std::string& why) -> void { throw InputError(fmt::format("{}: line {}: {}", path, record.line, why)); };
    if (record.wait < 0) fail(fmt::format("field 3 (wait time): expected the simulated wait (>= 0) of a schedule written as SWF, got {}", record.wait));
    if (record.run < 0) fail(fmt::format("field 4 (run time): expected the simulated run (>= 0) of a schedule written as SWF, got {}", record.run));
    ScheduleRow row;
    row.line = record.line;
    row.id = fmt::format("{}", static_cast<std::int64_t>(record.job_id));
    row.submit = record.submit;
    row.start = record.submit + record.wait;
    row.finish = row.start + record.run;
    if (!seen.insert(row.id).second) fail(fmt::format("field 1 (job number): job {} is listed twice", row.id));
    rows.push_back(std::move(row));
  }
  return rows;
}
}  // namespace

std::vector<ScheduleRow> read_schedule(const std::string& path, const Columns& columns, bool need_submit) {
  if (path.ends_with(".swf") || path.ends_with(".swf.gz")) return read_swf_schedule(path);
  std::vector<ScheduleRow> rows;
  std::unordered_set<std::string> seen;
  long id = -1, start = -1, finish = -1, submit = -1, allocated = -1, workload = -1, cluster = -1, arrival = -1;
  std::size_t width = 0;
  for_each_record(path, [&](std::vector<std::string>& fields, std::size_t line) {
    auto fail = [&](const std::string& why) -> void { throw InputError(fmt::format("{}: line {}: {}", path, line, why)); };
    if (line == 1) {  // the header
      auto column = [&](const std::string& name, bool required) -> long {
        for (std::size_t i = 0; i < fields.size(); ++i)
          if (fields[i] == name) return static_cast<long>(i);
        if (required)
          fail(fmt::format("no column {} in the header (name the column with an option, see `schedcheck audit --help`)",
                           shown(name)));
        return -1;
      };
      id = column(columns.id, true), start = column(columns.start, true), finish = column(columns.finish, true);
      submit = column(columns.submit, need_submit), allocated = column(columns.allocated, false);
      workload = column(columns.workload, false), cluster = column(columns.cluster, false);
      arrival = column(columns.arrival, false);
      width = fields.size();
      return;
    }
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
    row.line = line;
    row.id = fields[static_cast<std::size_t>(id)];
    if (row.id.empty()) fail(fmt::format("column {}: expected a job id, got an empty field", columns.id));
    row.start = number(start, columns.start);
    row.finish = number(finish, columns.finish);
    if (row.finish < row.start)
      fail(fmt::format("column {}: finish {} is before start {}", columns.finish, row.finish, row.start));
    if (submit >= 0) row.submit = number(submit, columns.submit);
    if (arrival >= 0) row.arrival = number(arrival, columns.arrival);
    if (allocated >= 0) row.allocated = fields[static_cast<std::size_t>(allocated)];
    if (workload >= 0) row.workload = fields[static_cast<std::size_t>(workload)];
    if (cluster >= 0) {
      const std::string& text = fields[static_cast<std::size_t>(cluster)];
      std::uint32_t value = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        fail(fmt::format("column {}: expected a cluster index (an integer from 0), got {}", columns.cluster, shown(text)));
      row.cluster = value;
    }
    if (!seen.insert(row.id).second) fail(fmt::format("column {}: job {} is listed twice", columns.id, shown(row.id)));
    rows.push_back(std::move(row));
  }, columns.delimiter);
  if (id < 0) throw InputError(fmt::format("{}: the file is empty; expected a CSV header line", path));
  return rows;
}

std::vector<ScheduleRow> schedule_rows(const std::vector<Row>& rows) {
  std::vector<ScheduleRow> out;
  out.reserve(rows.size());
  std::size_t line = 1;
  for (const Row& row : rows)
    out.push_back(ScheduleRow{row.job_id, row.submission_time, row.starting_time, row.finish_time,
                              row.allocated_resources, row.workload_name, ++line, row.cluster,
                              row.cluster ? std::optional<double>(row.arrival) : std::nullopt});
  return out;
}

}  // namespace schedcheck::jobs_csv
