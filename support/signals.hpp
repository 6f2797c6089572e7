// SIGINT and SIGTERM for a schedcheck process (the executable installs the watcher; library code only reads
// support/stop.hpp): the first asks every loop and solve to stop, so the run reports what it did and exits
// 128 + signal (130, 143); a second SIGINT or SIGTERM exits at once; and the signal mask of child processes.
// Our own. The signals are blocked in every thread and taken by one watcher thread (sigwait), so no library's own
// handler (Z3 installs one for SIGINT during a solve) can swallow them. SIGKILL cannot be caught: files are atomic.
#pragma once

#include <csignal>

namespace schedcheck {

// Call first in main, before any thread exists (threads inherit the blocked mask).
void install_stop_signals();
// The exit code an interrupted run ends with: 128 + the signal (0 when none arrived).
int interrupted_exit_code();
// The signal mask a child process should start with: the watcher's signals unblocked again (blocked signals stay
// blocked across exec). For posix_spawnattr_setsigmask / pthread_sigmask in a forked child.
sigset_t child_signal_mask();

}  // namespace schedcheck
