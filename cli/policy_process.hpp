// A policy outside C++ as a long-lived child process speaking JSON lines (docs/protocol.md): `--policy-cmd`.
// Our own. One process for a whole run (check, search, suite, simulate): a request line in, a decision line out;
// a crash, an answer that is not one JSON line, or no answer within the time limit is a PolicyFailure (exit 2)
// naming the request and what came back, and ends the process. The child runs in its own process group (Ctrl-C
// reaches schedcheck, which stops and ends the child), with SIGINT/SIGTERM unblocked; SIGPIPE is ignored once a child
// exists.
#pragma once

#include "model/answer_lines.hpp"

#include <nlohmann/json.hpp>

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <string>

namespace schedcheck::cli {

class PolicyProcess {
public:
  // Starts `/bin/sh -c command` (throws InputError when it cannot be started). `timeout_ms`: the longest wait for
  // one answer (the whole exchange: writing the request and reading the decision).
  PolicyProcess(std::string command, unsigned timeout_ms);
  ~PolicyProcess();  // closes the child's stdin, gives it 1 s to exit, then kills its process group
  PolicyProcess(const PolicyProcess&) = delete;
  PolicyProcess& operator=(const PolicyProcess&) = delete;

  // Sends `request` as one line and returns the decision line parsed. `about` names the request in messages
  // ("instance sla-1"). Throws PolicyFailure: the child exited or was killed, the line is not JSON, a time-out, or it
  // wrote more than its answer to the previous request (read before this request is sent: one line a request). After
  // a failure the process is ended and every later request fails with the first failure's message, so that a late
  // answer is never read as the answer to another request. Throws StopRequested when a stop was requested (also when
  // the child died of the same SIGINT/SIGTERM, as a batch system sends it to the whole job).
  nlohmann::json ask(const nlohmann::json& request, const std::string& about);

  const std::string& command() const { return command_; }
  std::size_t requests() const { return requests_; }

private:
  [[noreturn]] void fail(const std::string& about, const std::string& what);
  [[noreturn]] void end(std::string message);  // ends the child; every later ask() fails with `message`
  std::string exit_description();  // "exited with status 1", "was killed by signal 9 (SIGKILL)"; reaps the child
  // One read of the child's output into answers_, without waiting (the pipe does not block).
  enum class Read { kData, kNothing, kClosed, kTooLong, kError };
  Read read_some();
  // Reads all the child has written by now, without waiting; false when it does not fit in answers_.
  bool read_available();

  std::string command_;
  unsigned timeout_ms_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  AnswerLines answers_;  // what the child wrote, framed into answer lines (model/answer_lines.hpp)
  std::string broken_;   // the first failure's message ("" while the process answers)
  std::size_t requests_ = 0;
  bool reaped_ = false;
  int status_ = 0;
};

// One PolicyProcess a thread, for commands whose items run on several threads (--jobs): the process a thread asks
// is its own, started when the thread first asks (the first one at construction, so that a command that cannot be
// started is refused before any work). Each process sees the requests of one worker, in that worker's order.
class PolicyProcesses {
public:
  PolicyProcesses(std::string command, unsigned timeout_ms);
  nlohmann::json ask(const nlohmann::json& request, const std::string& about);  // as PolicyProcess::ask
  const std::string& command() const { return command_; }

private:
  PolicyProcess& mine();
  std::string command_;
  unsigned timeout_ms_;
  std::mutex lock_;
  std::unique_ptr<PolicyProcess> first_;  // the one started at construction, for the first thread that asks
  std::map<std::thread::id, std::unique_ptr<PolicyProcess>> by_thread_;
};

}  // namespace schedcheck::cli
