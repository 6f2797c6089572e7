// Running a user's shell command as a child process with a time limit (`conformance run --cmd`). Our own. The
// command runs under /bin/sh -c in a process group of its own, stdin from /dev/null, stdout and stderr into files;
// on the time limit, a stop request (SIGINT/SIGTERM) or the end of schedcheck, the whole group is killed.
// Limits: POSIX only; the child does not inherit --memory-mb.
#pragma once

#include <string>

namespace schedcheck {

struct ChildEnd {
  enum class How { kExited, kSignalled, kTimedOut, kStopped, kNotStarted } how = How::kNotStarted;
  int code = 0;        // kExited: the exit status; kSignalled: the signal
  double seconds = 0;  // wall time from the start to the end
  std::string why;     // kNotStarted: what failed
};

// Runs `command` in `directory`, waits for it (at most `timeout_seconds`) and says how it ended.
ChildEnd run_shell_command(const std::string& command, const std::string& directory, const std::string& stdout_path,
                           const std::string& stderr_path, double timeout_seconds);
// "exit 3", "killed by signal 9", "timed out after 10 s", "stopped", "could not start: ..."
std::string describe(const ChildEnd& end, double timeout_seconds);

}  // namespace schedcheck
