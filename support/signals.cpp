// The signal watcher (see signals.hpp). Our own.
#include "support/signals.hpp"

#include "support/stop.hpp"

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace schedcheck {

namespace {

// What a quitting process must not leave behind, and whether results are being finished.
struct Leftovers {
  std::mutex lock;
  std::vector<std::string> temporaries;
  std::vector<pid_t> children;
  int finishing = 0;
};
Leftovers& leftovers() {
  static Leftovers* l = new Leftovers();  // never destroyed: the watcher may use it while the process exits
  return *l;
}

// Kills the registered children and removes the registered temporaries, then ends the process.
[[noreturn]] void quit_now(int signal) {
  {
    Leftovers& l = leftovers();
    const std::lock_guard<std::mutex> hold(l.lock);
    for (const pid_t child : l.children) ::kill(child, SIGKILL);
    for (const pid_t child : l.children) ::waitpid(child, nullptr, 0);  // it may not create its file afterwards
    for (const auto& path : l.temporaries) ::unlink(path.c_str());
  }
  ::_exit(128 + signal);
}

bool finishing() {
  Leftovers& l = leftovers();
  const std::lock_guard<std::mutex> hold(l.lock);
  return l.finishing > 0;
}

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
    if (stop_requested() && seconds_since_stop() < std::chrono::duration<double>(kRepeatInterval).count()) {
      // The same request delivered twice (GNU timeout signals the child, then its process group; a terminal's
      // Ctrl-C reaches every process of the foreground group): counted once.
      continue;
    }
    if (!stop_requested()) {
      request_stop(signal);
      say("schedcheck: ");
      say(name);
      say(" received: stopping; what was done so far is reported and kept (send it again to quit at once)\n");
    } else if (finishing() && !quit_requested()) {
      quit_slot().store(true);
      say("schedcheck: ");
      say(name);
      say(" received again: what is left to draw is skipped; summary.json is written, then the run quits\n");
      // The writer has kRepeatInterval to finish; then the process quits anyway.
      const auto deadline = std::chrono::steady_clock::now() + kRepeatInterval;
      while (finishing() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (finishing()) quit_now(signal);
    } else {
      say("schedcheck: ");
      say(name);
      say(" received again: quitting at once\n");
      quit_now(signal);
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

FinishingSection::FinishingSection() {
  const std::lock_guard<std::mutex> hold(leftovers().lock);
  ++leftovers().finishing;
}
FinishingSection::~FinishingSection() {
  const std::lock_guard<std::mutex> hold(leftovers().lock);
  --leftovers().finishing;
}

namespace {
template <class T>
void enlist(std::vector<T> Leftovers::*list, const T& value) {
  const std::lock_guard<std::mutex> hold(leftovers().lock);
  (leftovers().*list).push_back(value);
}
template <class T>
void delist(std::vector<T> Leftovers::*list, const T& value) {
  const std::lock_guard<std::mutex> hold(leftovers().lock);
  auto& all = leftovers().*list;
  if (const auto it = std::find(all.begin(), all.end(), value); it != all.end()) all.erase(it);
}
}  // namespace

RemovedOnQuit::RemovedOnQuit(std::string path) : path_(std::move(path)) { enlist(&Leftovers::temporaries, path_); }
RemovedOnQuit::~RemovedOnQuit() { delist(&Leftovers::temporaries, path_); }
KilledOnQuit::KilledOnQuit(pid_t pid) : pid_(pid) { enlist(&Leftovers::children, pid_); }
KilledOnQuit::~KilledOnQuit() { delist(&Leftovers::children, pid_); }

}  // namespace schedcheck
