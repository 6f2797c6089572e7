// The signal watcher (see signals.hpp). Our own.
#include "support/signals.hpp"

#include "support/stop.hpp"

#include <pthread.h>
#include <unistd.h>

#include <cstring>
#include <thread>

namespace schedcheck {

namespace {

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

void say(const char* text) {  // write(2): no locale, no stream state shared with the main thread
  const std::size_t length = std::strlen(text);
  for (std::size_t done = 0; done < length;) {
    const ssize_t n = ::write(STDERR_FILENO, text + done, length - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

void watch(sigset_t set) {
  for (;;) {
    int signal = 0;
    if (sigwait(&set, &signal) != 0) continue;
    const char* name = signal == SIGINT ? "SIGINT" : "SIGTERM";
    if (!stop_requested()) {
      request_stop(signal);
      say("schedcheck: ");
      say(name);
      say(" received: stopping; what was done so far is reported and kept (send it again to quit at once)\n");
    } else {
      say("schedcheck: ");
      say(name);
      say(" received again: quitting at once\n");
      ::_exit(128 + signal);
    }
  }
}

}  // namespace

void install_stop_signals() {
  // Both are blocked in every thread (so no library's handler takes them), but a signal the parent set to be ignored
  // (`nohup`, a shell's background job without job control) stays ignored: the watcher does not wait for it.
  sigset_t set = stop_signals(), watched = stop_signals();
  for (const int signal : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) sigdelset(&watched, signal);
  }
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  if (!sigisemptyset(&watched)) std::thread(watch, watched).detach();
}

int interrupted_exit_code() { return stop_requested() ? 128 + stop_signal() : 0; }

sigset_t child_signal_mask() {
  sigset_t current;
  pthread_sigmask(SIG_SETMASK, nullptr, &current);
  sigdelset(&current, SIGINT);
  sigdelset(&current, SIGTERM);
  return current;
}

}  // namespace schedcheck
