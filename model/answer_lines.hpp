// The reader of a policy's answers (docs/protocol.md): the bytes a policy outside C++ writes on its standard
// output, framed into lines, and the decision JSON in one line. Our own. Pure (no process, no clock): the policy
// process (cli/policy_process.hpp) feeds it what it reads, the `protocol` fuzz target arbitrary bytes.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace schedcheck {

// Bytes in, in pieces of any size as they arrive; complete lines out, in order. Each byte is looked at once
// however long a line grows (a 256 MiB answer in 64 KiB reads is linear).
class AnswerLines {
public:
  static constexpr std::size_t kMaxAnswer = 256u << 20;  // one decision line: 256 MiB at most

  explicit AnswerLines(std::size_t max_pending = kMaxAnswer) : max_pending_(max_pending) {}

  // Appends what was read. False when more than `max_pending` bytes wait unanswered (an answer that long without a
  // newline is the policy's failure).
  bool append(std::string_view bytes);
  // The next complete line without its newline, or nothing while the bytes after the last newline are all there is.
  std::optional<std::string> next();
  const std::string& pending() const { return pending_; }  // the bytes not yet returned as a line
  void clear();

private:
  std::string pending_;
  std::size_t scanned_ = 0;  // pending_ before this holds no newline
  std::size_t max_pending_;
};

// The decision in one answer line: a final '\r' dropped, then the strict reader of every JSON input (duplicate
// keys, 1e400 are errors). Nothing for a blank line (the caller reports "an empty line instead of a decision");
// throws InputError "WHERE: the answer "LINE": not valid JSON ..." for anything else that is not JSON.
std::optional<nlohmann::json> read_answer(std::string line, const std::string& where);

}  // namespace schedcheck
