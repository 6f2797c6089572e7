// The policy child process (see policy_process.hpp). Our own.
#include "cli/policy_process.hpp"

#include "model/input.hpp"
#include "support/memory.hpp"
#include "support/signals.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

extern char** environ;

namespace schedcheck::cli {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kStopPoll = std::chrono::milliseconds(100);

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string signal_name(int signal) {
  const char* name = sigabbrev_np(signal);
  return name ? fmt::format("{} (SIG{})", signal, name) : std::to_string(signal);
}

}  // namespace

PolicyProcess::PolicyProcess(std::string command, unsigned timeout_ms)
    : command_(std::move(command)), timeout_ms_(std::max(1u, timeout_ms)) {
  if (command_.empty()) throw InputError("--policy-cmd: expected a command, got an empty string");
  std::signal(SIGPIPE, SIG_IGN);  // a child that dies must not kill us on our next write
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
    throw InputError(fmt::format("--policy-cmd {}: cannot create pipes: {}", quoted_text(command_), std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  const sigset_t mask = child_signal_mask();
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attributes, &mask);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);  // its own group: the terminal's Ctrl-C goes to schedcheck only
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::string shell = "/bin/sh", dash_c = "-c";
  char* argv[] = {shell.data(), dash_c.data(), command_.data(), nullptr};
  int rc = 0;
  {
    const OriginalMemoryLimit unlimited;  // the child does not inherit --memory-mb
    rc = ::posix_spawn(&pid_, shell.c_str(), &actions, &attributes, argv, environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in[0]);
  ::close(out[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  if (rc != 0) {
    close_fd(to_child_);
    close_fd(from_child_);
    pid_ = -1;
    throw InputError(fmt::format("--policy-cmd {}: cannot start /bin/sh: {}", quoted_text(command_), std::strerror(rc)));
  }
  ::fcntl(to_child_, F_SETFL, O_NONBLOCK);
  ::fcntl(from_child_, F_SETFL, O_NONBLOCK);
}

PolicyProcess::~PolicyProcess() {
  close_fd(to_child_);  // EOF on its stdin: a well-behaved policy exits
  if (pid_ > 0 && !reaped_) {
    const auto until = Clock::now() + std::chrono::seconds(1);
    while (Clock::now() < until) {
      if (::waitpid(pid_, &status_, WNOHANG) == pid_) {
        reaped_ = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!reaped_) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status_, 0);
    }
  }
  close_fd(from_child_);
}

std::string PolicyProcess::exit_description() {
  if (!reaped_) {
    // The child closed its stdout; give it a moment to exit so that its status can be told.
    for (int i = 0; i < 100 && !reaped_; ++i) {
      if (::waitpid(pid_, &status_, WNOHANG) == pid_) reaped_ = true;
      else std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!reaped_) return "closed its standard output";
  }
  if (WIFEXITED(status_)) {
    const int code = WEXITSTATUS(status_);
    return fmt::format("exited with status {}{}", code, code == 127 ? " (command not found?)" : "");
  }
  if (WIFSIGNALED(status_)) return "was killed by signal " + signal_name(WTERMSIG(status_));
  return "stopped";
}

void PolicyProcess::fail(const std::string& about, const std::string& what) {
  // The child may have died of the stop signal schedcheck got too (both in one process group or job): give the
  // signal handler a moment, then report the stop rather than a policy failure.
  const int signal = reaped_ && WIFSIGNALED(status_) ? WTERMSIG(status_) : 0;
  const bool by_stop_signal = signal == SIGINT || signal == SIGTERM || signal == SIGHUP;
  for (int i = 0; by_stop_signal && i < 100 && !stop_requested(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (stop_requested()) throw StopRequested();
  end(fmt::format("--policy-cmd {} on {}: {}", quoted_text(command_), about, what));
}

void PolicyProcess::end(std::string message) {
  broken_ = std::move(message);
  // Nothing it writes later may be read as an answer: end it now (the destructor reaps it).
  close_fd(to_child_);
  if (pid_ > 0 && !reaped_) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
  }
  answers_.clear();
  throw PolicyFailure(broken_);
}

PolicyProcess::Read PolicyProcess::read_some() {
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(from_child_, buffer, sizeof buffer);
    if (n > 0) return answers_.append({buffer, static_cast<std::size_t>(n)}) ? Read::kData : Read::kTooLong;
    if (n == 0) return Read::kClosed;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? Read::kNothing : Read::kError;  // errno kept for the message
  }
}

bool PolicyProcess::read_available() {
  Read read = Read::kData;
  while (read == Read::kData) read = read_some();
  return read != Read::kTooLong;  // an end of file or an error shows in the next poll
}

nlohmann::json PolicyProcess::ask(const nlohmann::json& request, const std::string& about) {
  if (!broken_.empty()) throw PolicyFailure(broken_ + " (the policy process was ended then)");
  // Whatever it wrote since its last answer answers no request (two lines for one request): read as this request's
  // answer it would make every later decision another instance's, so the run ends here.
  if (!read_available() || !answers_.pending().empty())
    fail(about, fmt::format("it wrote {} {}: one answer line a request",
                            quoted_text(answers_.pending(), 60),
                            requests_ == 0 ? "before any request" : "after its answer to the previous request"));
  ++requests_;
  std::string out = request.dump();
  out += '\n';
  std::size_t written = 0;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
  std::string line;
  for (;;) {
    if (written == out.size()) {
      if (auto next = answers_.next()) {
        line = std::move(*next);
        break;
      }
    }
    if (stop_requested()) throw StopRequested();  // the run reports what it did (support/stop.hpp)
    const auto now = Clock::now();
    if (now >= deadline)
      fail(about, fmt::format("no decision within --policy-timeout-ms {} ms{}", timeout_ms_,
                              written < out.size() ? " (it did not read the whole request)" : ""));
    pollfd fds[2] = {{from_child_, POLLIN, 0}, {to_child_, POLLOUT, 0}};
    const nfds_t count = written < out.size() ? 2 : 1;
    const auto wait = std::min(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now), kStopPoll);
    const int ready = ::poll(fds, count, static_cast<int>(wait.count()) + 1);
    if (ready < 0 && errno != EINTR) fail(about, std::string("poll: ") + std::strerror(errno));
    if (ready <= 0) continue;
    if (count == 2 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(to_child_, out.data() + written, out.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      else if (n < 0 && errno != EAGAIN && errno != EINTR) fail(about, "it stopped reading its input and " + exit_description());
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      switch (read_some()) {
        case Read::kData:
        case Read::kNothing:
          break;
        case Read::kTooLong:
          fail(about, fmt::format("an answer longer than {} MiB without a newline", AnswerLines::kMaxAnswer >> 20));
        case Read::kClosed: {
          const std::string& rest = answers_.pending();
          const std::string partial = rest.empty() ? "" : ", after " + quoted_text(rest, 60) + " without a newline";
          fail(about, "it " + exit_description() + " without a decision" + partial);
        }
        case Read::kError:
          fail(about, std::string("read: ") + std::strerror(errno));
      }
    }
  }
  std::optional<nlohmann::json> answer;
  try {
    answer = read_answer(std::move(line), fmt::format("--policy-cmd {} on {}", quoted_text(command_), about));
  } catch (const InputError& e) {
    end(e.what());
  }
  if (!answer) fail(about, "an empty line instead of a decision");
  return std::move(*answer);
}

PolicyProcesses::PolicyProcesses(std::string command, unsigned timeout_ms)
    : command_(std::move(command)), timeout_ms_(timeout_ms),
      first_(std::make_unique<PolicyProcess>(command_, timeout_ms_)) {}

PolicyProcess& PolicyProcesses::mine() {
  const std::lock_guard<std::mutex> hold(lock_);
  auto& process = by_thread_[std::this_thread::get_id()];
  if (!process) process = first_ ? std::move(first_) : std::make_unique<PolicyProcess>(command_, timeout_ms_);
  return *process;
}

nlohmann::json PolicyProcesses::ask(const nlohmann::json& request, const std::string& about) {
  return mine().ask(request, about);
}

}  // namespace schedcheck::cli
