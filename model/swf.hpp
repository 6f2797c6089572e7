// The one reader of the Standard Workload Format (SWF v2.2, Feitelson et al., Parallel Workloads Archive):
// 18 whitespace-separated fields a line, `;` comment lines (header fields "; Key: value"), -1 for unknown.
// Our own. Streaming: .swf and .swf.gz (zlib's gz* functions, which also read plain files) through a bounded
// buffer (the file's size up to 256 KiB, plus the longest line), so a file of millions of lines never needs its whole text in memory; lines over kMaxLineLength bytes
// are malformed. Also the writer of small traces (corpus files).
#pragma once

#include "model/input.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::swf {

inline constexpr std::size_t kFields = 18;
inline constexpr std::size_t kMaxLineLength = 1 << 16;
// The names of the 18 fields, in order (field k of the standard is kFieldNames[k - 1]).
extern const char* const kFieldNames[kFields];

// One job line, every field as the file gives it (-1 = unknown). Times in seconds.
struct Record {
  double job_id = -1;             // 1
  double submit = -1;             // 2 submit time
  double wait = -1;               // 3 wait time (in the logged system)
  double run = -1;                // 4 run time
  double allocated_procs = -1;    // 5 number of allocated processors
  double avg_cpu = -1;            // 6 average CPU time used
  double used_memory = -1;        // 7
  double requested_procs = -1;    // 8 requested number of processors
  double requested_time = -1;     // 9 requested time (the user's runtime estimate)
  double requested_memory = -1;   // 10
  double status = -1;             // 11 (1 completed, 0 failed, 5 cancelled, ...)
  double user = -1;               // 12
  double group = -1;              // 13
  double executable = -1;         // 14
  double queue = -1;              // 15
  double partition = -1;          // 16
  double preceding_job = -1;      // 17
  double think_time = -1;         // 18
  std::size_t line = 0;           // line number in the file (1-based)

  double field(std::size_t k) const;  // field k in 1..18
};

// Header comments "; Key: value" in file order; MaxProcs, MaxNodes and UnixStartTime parsed when present.
struct Header {
  std::vector<std::pair<std::string, std::string>> fields;
  std::optional<long long> max_procs, max_nodes, unix_start_time;
  const std::string* find(const std::string& key) const;
};

class Reader {
public:
  // Opens `path` (throws InputError naming it when it cannot be read). `lenient`: malformed lines are skipped
  // and counted instead of throwing.
  Reader(const std::string& path, bool lenient);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // The next job line; false at the end. A malformed line throws InputError "FILE: line N: field K (name):
  // expected ..., got ..." unless lenient. Comment lines go to the header as they are met.
  bool next(Record& out);
  const Header& header() const { return header_; }
  std::size_t lines() const { return line_; }
  std::size_t malformed() const { return malformed_; }
  // The first malformed line's message (lenient mode), "" when none.
  const std::string& first_malformed() const { return first_malformed_; }

private:
  bool next_line(const char*& begin, const char*& end);  // a line without its newline; false at the end
  void fill();
  void comment(const char* begin, const char* end);
  // Parses a job line into `out`; "" when fine, else what is wrong.
  std::string parse(const char* begin, const char* end, Record& out) const;

  std::string path_;
  bool lenient_;
  struct GzFile;
  std::unique_ptr<GzFile> file_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // unread bytes are buffer_[begin_, end_)
  bool eof_ = false;
  std::size_t line_ = 0, malformed_ = 0;
  std::string first_malformed_;
  Header header_;
};

// Text of a small SWF file: the comment lines (each written as "; " + line, a line break in it as a space) then one
// line a record.
std::string write(const std::vector<std::string>& comments, const std::vector<Record>& records);

}  // namespace schedcheck::swf
