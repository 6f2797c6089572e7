// SIGINT and SIGTERM for a schedcheck process (the executable installs the watcher; library code only reads
// support/stop.hpp): the first asks every loop and solve to stop, so the run reports what it did and exits
// 128 + signal (130, 143); signals within kRepeatInterval of the first count as that one (GNU timeout sends SIGTERM
// to the child and then to its group); a later SIGINT or SIGTERM exits at once; and the signal mask of children.
// Our own. The signals are blocked in every thread and taken by one watcher thread (sigwait), so no library's own
// handler (Z3 installs one for SIGINT during a solve) can swallow them. SIGKILL cannot be caught: files are atomic.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <string>

namespace schedcheck {

// A second SIGINT or SIGTERM this soon after the first is the same request delivered again, not "quit at once".
inline constexpr std::chrono::milliseconds kRepeatInterval{1000};

// Call first in main, before any thread exists (threads inherit the blocked mask).
void install_stop_signals();
// The exit code an interrupted run ends with: 128 + the signal (0 when none arrived).
int interrupted_exit_code();
// The signal mask a child process should start with: the watcher's signals unblocked again (blocked signals stay
// blocked across exec). For posix_spawnattr_setsigmask / pthread_sigmask in a forked child.
sigset_t child_signal_mask();

// While one is alive (a run writing its results: `experiment`), a later signal does not end the process at once: it
// sets quit_requested() (support/stop.hpp), so the writer skips what is left to draw and writes summary.json, and
// the process ends anyway when that takes more than kRepeatInterval.
class FinishingSection {
public:
  FinishingSection();
  ~FinishingSection();
  FinishingSection(const FinishingSection&) = delete;
  FinishingSection& operator=(const FinishingSection&) = delete;
};

// A file being written (PATH.tmp) or a child process (gnuplot; a negative pid: a process group, a command's shell
// and what it started) that a process quitting at once removes or kills first, so that it leaves no temporary
// behind; registered for the lifetime of the object.
class RemovedOnQuit {
public:
  explicit RemovedOnQuit(std::string path);
  ~RemovedOnQuit();
  RemovedOnQuit(const RemovedOnQuit&) = delete;
  RemovedOnQuit& operator=(const RemovedOnQuit&) = delete;

private:
  std::string path_;
};
class KilledOnQuit {
public:
  explicit KilledOnQuit(pid_t pid);
  ~KilledOnQuit();
  KilledOnQuit(const KilledOnQuit&) = delete;
  KilledOnQuit& operator=(const KilledOnQuit&) = delete;

private:
  pid_t pid_;
};

}  // namespace schedcheck
