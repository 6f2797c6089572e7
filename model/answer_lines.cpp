// The reader of a policy's answer lines (see answer_lines.hpp). Our own.
#include "model/answer_lines.hpp"

#include "model/input.hpp"

#include <fmt/format.h>

namespace schedcheck {

bool AnswerLines::append(std::string_view bytes) {
  pending_.append(bytes);
  return pending_.size() <= max_pending_;
}

std::optional<std::string> AnswerLines::next() {
  const std::size_t newline = pending_.find('\n', scanned_);
  if (newline == std::string::npos) {
    scanned_ = pending_.size();
    return std::nullopt;
  }
  std::string line = pending_.substr(0, newline);
  pending_.erase(0, newline + 1);
  scanned_ = 0;
  return line;
}

void AnswerLines::clear() {
  pending_.clear();
  scanned_ = 0;
}

std::optional<nlohmann::json> read_answer(std::string line, const std::string& where) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  return parse_json_text(line, fmt::format("{}: the answer {}", where, quoted_text(line, 60)));
}

}  // namespace schedcheck
