// The child process of a shell command (see child.hpp). Our own.
#include "support/child.hpp"

#include "support/memory.hpp"
#include "support/signals.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace schedcheck {

ChildEnd run_shell_command(const std::string& command, const std::string& directory, const std::string& stdout_path,
                           const std::string& stderr_path, double timeout_seconds) {
  ChildEnd end;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // The command runs in `directory`: `cd` first, then the command, in one shell (posix_spawn has no working
  // directory of its own in glibc 2.36).
  std::string shell = "/bin/sh", flag = "-c", script = "cd \"$0\" && eval \"$1\"", dir = directory, text = command;
  char* argv[] = {shell.data(), flag.data(), script.data(), dir.data(), text.data(), nullptr};
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  const sigset_t mask = child_signal_mask();
  sigset_t defaults;  // SIGPIPE as a shell expects it, whether or not schedcheck ignores it
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attributes, &mask);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);  // a group of its own: the time limit kills the command's children too
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  pid_t pid = 0;
  int rc = 0;
  const auto started = std::chrono::steady_clock::now();
  {
    const OriginalMemoryLimit unlimited;
    rc = ::posix_spawn(&pid, shell.c_str(), &actions, &attributes, argv, environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) {
    end.why = std::strerror(rc);
    return end;
  }
  const KilledOnQuit killed(-pid);  // the group
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  int status = 0;
  auto kill_group = [&](ChildEnd::How how) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    end.how = how;
    end.seconds = elapsed();
    return end;
  };
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      ::kill(-pid, SIGKILL);  // what the command left running in its group
      end.seconds = elapsed();
      if (WIFEXITED(status)) {
        end.how = ChildEnd::How::kExited;
        end.code = WEXITSTATUS(status);
      } else {
        end.how = ChildEnd::How::kSignalled;
        end.code = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
      }
      return end;
    }
    if (done < 0 && errno != EINTR) {
      end.why = std::strerror(errno);
      return kill_group(ChildEnd::How::kNotStarted);
    }
    if (stop_requested()) return kill_group(ChildEnd::How::kStopped);
    if (elapsed() > timeout_seconds) return kill_group(ChildEnd::How::kTimedOut);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::string describe(const ChildEnd& end, double timeout_seconds) {
  switch (end.how) {
    case ChildEnd::How::kExited: return fmt::format("exit {}", end.code);
    case ChildEnd::How::kSignalled: return fmt::format("killed by signal {}", end.code);
    case ChildEnd::How::kTimedOut: return fmt::format("timed out after {} s (killed)", timeout_seconds);
    case ChildEnd::How::kStopped: return "stopped (SIGINT/SIGTERM)";
    case ChildEnd::How::kNotStarted: return "could not start: " + end.why;
  }
  return "?";
}

}  // namespace schedcheck
