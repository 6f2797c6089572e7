// Fuzz target `protocol`: the reader of a policy's answers (docs/protocol.md) as `--policy-cmd` meets them: bytes as
// the policy's standard output, framed by AnswerLines, each line read by read_answer and taken as a decision by the
// problem's external-policy path (Problem::external_decision). Our own. Limits: generated instances only; no process
// and no time-out (cli/policy_process.cpp keeps those, around the same reader).
//
// Input: byte 0 picks the problem (its index in the registry, modulo their number: every problem is reached); byte 1
// the instance (`generate PROBLEM --size {1,3,6,10}[b & 3] --seed 1 + (b >> 2 & 3)`); byte 2 how the bytes arrive
// (low 7 bits: bytes a read, 0 = all at once; high bit: an answer limit of 512 bytes instead of 256 MiB); the rest is
// what the policy writes. Up to kRequests requests are asked in turn, as a search asks one process (cluster-run:
// whole runs, a line per scheduling pass), until an answer fails. Properties:
// - only PolicyFailure escapes (anything else, InputError included, is a finding: the instance is valid);
// - the framing loses and invents nothing: the lines returned, each with its newline, then the bytes pending, are the
//   bytes given, and no line holds a newline;
// - an accepted decision, as the problem writes it (`check --json`), reads back unchanged when a policy answers with
//   it. cluster-run has no writer for a pass decision: there the run is replayed from the accepted answers, each
//   written back as one JSON line, and must come out the same (the reading depends on the JSON value only).

#include "counterexamples/builtin.hpp"
#include "fuzz/fuzz_support.hpp"
#include "model/answer_lines.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace schedcheck;

namespace {

const char* const kTarget = "protocol";
constexpr int kRequests = 8;
constexpr std::size_t kSmallLimit = 512;
constexpr std::array<std::size_t, 4> kSizes = {1, 3, 6, 10};

const Registry& registry() {
  static const Registry r = make_builtin_registry();
  return r;
}

const nlohmann::json& instance_of(const Problem& problem, std::uint8_t choice) {
  static std::map<std::pair<const Problem*, int>, nlohmann::json> cache;
  auto [it, fresh] = cache.try_emplace({&problem, choice & 15});
  if (fresh) it->second = problem.generate(1 + ((choice >> 2) & 3), kSizes[choice & 3]);
  return it->second;
}

// The policy's standard output as PolicyProcess::ask meets it: read in pieces, framed, one line per request.
class Stdout {
public:
  Stdout(std::string_view bytes, std::size_t piece, std::size_t limit) : bytes_(bytes), piece_(piece), lines_(limit) {}

  // The next answer, or PolicyFailure as ask() reports it (end of output, too long, blank, not JSON).
  nlohmann::json answer() {
    for (;;) {
      if (auto line = lines_.next()) {
        if (line->find('\n') != std::string::npos) fuzz::property_failed(kTarget, "a line holds a newline", bytes_);
        framed_ += *line + '\n';
        std::optional<nlohmann::json> answer = read_answer(std::move(*line), "--policy-cmd fuzz on a request");
        if (!answer) throw PolicyFailure("--policy-cmd fuzz on a request: an empty line instead of a decision");
        return std::move(*answer);
      }
      if (given_ == bytes_.size()) throw PolicyFailure("--policy-cmd fuzz on a request: it exited without a decision");
      const std::size_t n = std::min(piece_ ? piece_ : bytes_.size(), bytes_.size() - given_);
      const bool within = lines_.append(bytes_.substr(given_, n));
      given_ += n;
      if (!within) {
        overflowed_ = true;
        throw PolicyFailure("--policy-cmd fuzz on a request: an answer longer than the limit without a newline");
      }
    }
  }

  void check_framing() const {
    if (overflowed_) return;  // the process is ended then: what was pending is dropped
    if (framed_ + lines_.pending() != bytes_.substr(0, given_))
      fuzz::property_failed(kTarget, "the lines and the pending bytes are not the bytes given", bytes_,
                            framed_ + lines_.pending());
  }

private:
  std::string_view bytes_;
  std::size_t piece_, given_ = 0;
  AnswerLines lines_;
  std::string framed_;
  bool overflowed_ = false;
};

// A policy that answers `answers` in turn, each written as one line and read back as the process's answers are.
JsonPolicy replaying(const std::vector<nlohmann::json>& answers, std::size_t& next) {
  return [&answers, &next](const nlohmann::json&) {
    if (next == answers.size()) throw PolicyFailure("--policy-cmd replay: more requests than answers");
    return *read_answer(answers[next++].dump(), "--policy-cmd replay");
  };
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const auto& problems = registry().problems();
  const Problem& problem = *problems[data[0] % problems.size()];
  const nlohmann::json& document = instance_of(problem, data[1]);
  const std::string input = fuzz::text_of(data, size);
  Stdout out(std::string_view(input).substr(3), data[2] & 127, (data[2] & 128) ? kSmallLimit : AnswerLines::kMaxAnswer);
  const bool cluster_run = problem.info().name == "cluster-run";

  for (int request = 0; request < kRequests; ++request) {
    std::vector<nlohmann::json> accepted;  // the answers of this request (cluster-run: of every pass of the run)
    const JsonPolicy policy = [&](const nlohmann::json&) { return accepted.emplace_back(out.answer()); };
    nlohmann::json first;
    try {
      first = problem.external_decision(document, "fuzz.json", policy, "fuzz");
    } catch (const PolicyFailure&) {
      break;  // ends the run, as a failing policy ends schedcheck's
    } catch (const std::exception& e) {
      fuzz::property_failed(kTarget, std::string("not a PolicyFailure escaped: ") + e.what(), input);
    }
    // Write, then read again: the decision as written (cluster-run: the accepted pass answers) answered back.
    std::vector<nlohmann::json> answers = cluster_run ? accepted : std::vector<nlohmann::json>{first};
    std::size_t next = 0;
    nlohmann::json second;
    try {
      second = problem.external_decision(document, "fuzz.json", replaying(answers, next), "fuzz");
    } catch (const std::exception& e) {
      fuzz::property_failed(kTarget, std::string("the reader rejects the decision written back: ") + e.what(), input,
                            nlohmann::json(answers).dump(2));
    }
    if (second != first)
      fuzz::property_failed(kTarget, "the decision read back differs", input, first.dump(2), second.dump(2));
    if (next != answers.size())
      fuzz::property_failed(kTarget, "the replayed run asked fewer passes", input, nlohmann::json(answers).dump(2));
  }
  out.check_framing();
  return 0;
}
