// The SWF reader and writer (see swf.hpp). Our own.
#include "model/swf.hpp"

#include "model/gz_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace schedcheck::swf {

const char* const kFieldNames[kFields] = {
    "job id",          "submit time",        "wait time",      "run time",   "allocated processors",
    "average CPU time", "used memory",       "requested processors", "requested time", "requested memory",
    "status",          "user id",            "group id",       "executable", "queue",
    "partition",       "preceding job",      "think time"};

namespace {
constexpr std::size_t kBufferSize = 1 << 18;
// The read buffer holds a chunk and the longest line; it starts at the file's size (small files open cheaply: a
// corpus or a fuzz input) and doubles, up to this, while a line does not fit.
constexpr std::size_t kMaxBuffer = kBufferSize + kMaxLineLength + 1;
constexpr std::size_t kMinChunk = 4096;
// Fields that count things or name things: integers (the others are times or sizes and may be fractional).
constexpr bool kIntegral[kFields] = {true, false, false, false, true,  false, false, true,  false,
                                     false, true, true, true, true, true, true, true, false};

// A token of the trace in a message (quoted_text: escaped, cut after 30 characters).
std::string shown(const char* begin, const char* end) {
  return quoted_text(std::string_view(begin, static_cast<std::size_t>(end - begin)), 30);
}

// A whole token as a number: plain integers (almost every SWF field) by hand, anything else by std::from_chars.
bool parse_number(const char* begin, const char* end, double& value) {
  const char* p = begin;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  if (p < end && end - p <= 15) {
    long long whole = 0;
    const char* q = p;
    while (q < end && *q >= '0' && *q <= '9') whole = whole * 10 + (*q++ - '0');
    if (q == end) {
      value = negative ? -static_cast<double>(whole) : static_cast<double>(whole);
      return true;
    }
  }
  const auto [stop, ec] = std::from_chars(begin, end, value);
  return ec == std::errc() && stop == end && std::isfinite(value);
}

std::optional<long long> leading_integer(const std::string& value) {
  long long out = 0;
  const char* begin = value.data();
  while (*begin == ' ' || *begin == '\t') ++begin;
  const auto [end, ec] = std::from_chars(begin, value.data() + value.size(), out);
  if (ec != std::errc() || end == begin) return std::nullopt;
  return out;
}
}  // namespace

double Record::field(std::size_t k) const {
  const double values[kFields] = {job_id,          submit,         wait,       run,       allocated_procs, avg_cpu,
                                  used_memory,     requested_procs, requested_time, requested_memory, status,
                                  user,            group,          executable, queue,     partition, preceding_job,
                                  think_time};
  return values[k - 1];
}

const std::string* Header::find(const std::string& key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return &v;
  return nullptr;
}

struct Reader::GzFile {
  void* handle = nullptr;  // model/gz_input.hpp
  ~GzFile() { gz_close(handle); }
};

Reader::Reader(const std::string& path, bool lenient)
    : path_(path), lenient_(lenient), file_(std::make_unique<GzFile>()) {
  require_not_directory(path);
  std::error_code unknown;
  const std::uintmax_t size = std::filesystem::file_size(path, unknown);
  const std::size_t chunk = unknown ? kBufferSize : static_cast<std::size_t>(std::clamp<std::uintmax_t>(size, kMinChunk, kBufferSize));
  buffer_.resize(chunk + 1);
  file_->handle = gz_open(path, chunk);
  if (!file_->handle)
    throw InputError(fmt::format("{}: cannot open the trace (does it exist and is it readable?)", path));
}

Reader::~Reader() = default;

void Reader::fill() {
  if (eof_) return;
  if (begin_ > 0) {  // keep the unread tail at the front
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ + 1 == buffer_.size() && buffer_.size() < kMaxBuffer)  // full: a long line, or a compressed file
    buffer_.resize(std::min(kMaxBuffer, 2 * buffer_.size()));
  const std::size_t room = buffer_.size() - 1 - end_;  // one byte stays free for the sentinel of a last line
  if (room == 0) return;
  const std::size_t got = gz_read(file_->handle, buffer_.data() + end_, room, fmt::format("{}: line {}", path_, line_ + 1));
  if (got == 0) eof_ = true;
  end_ += got;
}

bool Reader::next_line(const char*& begin, const char*& end) {
  while (true) {
    const char* data = buffer_.data();
    const void* newline = std::memchr(data + begin_, '\n', end_ - begin_);
    if (newline) {
      begin = data + begin_;
      end = static_cast<const char*>(newline);
      begin_ = static_cast<std::size_t>(end - data) + 1;
      ++line_;
      if (end > begin && end[-1] == '\r') --end;
      if (static_cast<std::size_t>(end - begin) > kMaxLineLength) {
        ++malformed_;
        const std::string why = fmt::format("{}: line {}: longer than {} characters (not an SWF line)", path_, line_,
                                            kMaxLineLength);
        if (!lenient_) throw InputError(why);
        if (first_malformed_.empty()) first_malformed_ = why;
        continue;
      }
      return true;
    }
    if (end_ - begin_ > kMaxLineLength) {  // no newline within a line's length: skip to the next newline
      ++line_;
      ++malformed_;
      const std::string why = fmt::format("{}: line {}: longer than {} characters (not an SWF line)", path_, line_,
                                          kMaxLineLength);
      if (!lenient_) throw InputError(why);
      if (first_malformed_.empty()) first_malformed_ = why;
      while (true) {
        begin_ = end_;
        fill();
        if (end_ == begin_) return false;
        const void* nl = std::memchr(buffer_.data() + begin_, '\n', end_ - begin_);
        if (nl) {
          begin_ = static_cast<std::size_t>(static_cast<const char*>(nl) - buffer_.data()) + 1;
          break;
        }
      }
      continue;
    }
    if (eof_) {
      if (begin_ == end_) return false;
      begin = buffer_.data() + begin_;  // a last line without a newline: a '\n' sentinel after it (parse())
      end = buffer_.data() + end_;
      buffer_[end_] = '\n';
      begin_ = end_;
      ++line_;
      if (end > begin && end[-1] == '\r') --end;
      return true;
    }
    fill();
  }
}

void Reader::comment(const char* begin, const char* end) {
  // "; Key: value" (spaces around the key are allowed, as in the archive's logs).
  const char* p = begin + 1;
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  const char* colon = static_cast<const char*>(std::memchr(p, ':', static_cast<std::size_t>(end - p)));
  if (!colon || colon == p) return;
  std::string key(p, colon);
  if (key.find(' ') != std::string::npos || key.find('\t') != std::string::npos) return;  // prose, not a field
  const char* v = colon + 1;
  while (v < end && (*v == ' ' || *v == '\t')) ++v;
  const char* e = end;
  while (e > v && (e[-1] == ' ' || e[-1] == '\t')) --e;
  std::string value(v, e);
  if (key == "MaxProcs") header_.max_procs = leading_integer(value);
  if (key == "MaxNodes") header_.max_nodes = leading_integer(value);
  if (key == "UnixStartTime") header_.unix_start_time = leading_integer(value);
  header_.fields.emplace_back(std::move(key), std::move(value));
}

std::string Reader::parse(const char* begin, const char* end, Record& out) const {
  // *end is never a space, a tab or a digit (the line's '\n' or '\r', or the sentinel next_line() writes after a
  // last line): the two hot loops below need no bounds check.
  double values[kFields];
  const char* p = begin;
  std::size_t k = 0;
  while (true) {
    while (*p == ' ' || *p == '\t') ++p;
    if (p == end) break;
    const char* token = p;
    auto token_end = [&] {
      const char* e = token;
      while (e < end && *e != ' ' && *e != '\t') ++e;
      return e;
    };
    if (k == kFields)
      return fmt::format("more than {} fields (extra field {}); an SWF line has exactly {}", kFields,
                         shown(token, token_end()), kFields);
    // Fast path: a plain integer (almost every SWF field); anything else goes through parse_number.
    const bool negative = *p == '-';
    if (negative) ++p;
    const char* digits = p;
    long long whole = 0;
    while (static_cast<unsigned>(*p - '0') < 10 && p - digits < 16) whole = whole * 10 + (*p++ - '0');
    double value = 0;
    if (p > digits && p - digits <= 15 && (p == end || *p == ' ' || *p == '\t')) {
      // A whole number below 1e15: only its sign can be wrong; -1 (unknown) is fine except as the submit time.
      if (!negative || (whole == 1 && k != 1)) {
        values[k++] = negative ? -1.0 : static_cast<double>(whole);
        continue;
      }
      value = -static_cast<double>(whole);
    } else {
      p = token_end();
      if (!parse_number(token, p, value))
        return fmt::format("field {} ({}): expected a number, got {}", k + 1, kFieldNames[k], shown(token, p));
    }
    if (value < 0 && value != -1)
      return fmt::format("field {} ({}): expected -1 (unknown) or a number >= 0, got {}", k + 1, kFieldNames[k],
                         shown(token, p));
    if (k == 1 && value < 0)
      return fmt::format("field 2 (submit time): expected a time >= 0, got {}", shown(token, p));
    if (kIntegral[k] && value != std::floor(value))
      return fmt::format("field {} ({}): expected a whole number, got {}", k + 1, kFieldNames[k], shown(token, p));
    if (value > 1e15)
      return fmt::format("field {} ({}): expected at most 1e15, got {}", k + 1, kFieldNames[k], shown(token, p));
    values[k++] = value;
  }
  if (k != kFields) return fmt::format("{} fields, expected {} (SWF v2.2: job id ... think time)", k, kFields);
  out.job_id = values[0];
  out.submit = values[1];
  out.wait = values[2];
  out.run = values[3];
  out.allocated_procs = values[4];
  out.avg_cpu = values[5];
  out.used_memory = values[6];
  out.requested_procs = values[7];
  out.requested_time = values[8];
  out.requested_memory = values[9];
  out.status = values[10];
  out.user = values[11];
  out.group = values[12];
  out.executable = values[13];
  out.queue = values[14];
  out.partition = values[15];
  out.preceding_job = values[16];
  out.think_time = values[17];
  return "";
}

bool Reader::next(Record& out) {
  const char* begin = nullptr;
  const char* end = nullptr;
  while (next_line(begin, end)) {
    const char* p = begin;
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    if (p == end) continue;  // blank line
    if (*p == ';') {
      comment(p, end);
      continue;
    }
    const std::string why = parse(p, end, out);
    if (why.empty()) {
      out.line = line_;
      return true;
    }
    ++malformed_;
    const std::string message = fmt::format("{}: line {}: {}", path_, line_, why);
    if (!lenient_) throw InputError(message + " (or pass --lenient to skip and count such lines)");
    if (first_malformed_.empty()) first_malformed_ = message;
  }
  return false;
}

std::string write(const std::vector<std::string>& comments, const std::vector<Record>& records) {
  std::string out;
  for (const auto& c : comments) {  // one header line each: a line break inside would start a record line
    std::string line = c;
    std::replace(line.begin(), line.end(), '\n', ' ');
    std::replace(line.begin(), line.end(), '\r', ' ');
    out += "; " + line + "\n";
  }
  for (const auto& r : records) {
    for (std::size_t k = 1; k <= kFields; ++k) out += fmt::format("{}{}", k == 1 ? "" : " ", r.field(k));
    out += "\n";
  }
  return out;
}

}  // namespace schedcheck::swf
