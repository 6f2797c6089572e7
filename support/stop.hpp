// A process-wide request to stop: set once when the user interrupts the run (SIGINT, SIGTERM; support/signals.cpp).
// Our own. Every exact method and every long loop (search, suite, simulate) treats it as its time limit having been
// reached, so an interrupted run stops within a second and still reports what it did. Reading it is one relaxed load.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>

namespace schedcheck {

inline std::atomic<int>& stop_signal_slot() {
  static std::atomic<int> signal{0};
  return signal;
}
// The signal that asked to stop (SIGINT = 2, SIGTERM = 15), 0 while none has.
inline int stop_signal() { return stop_signal_slot().load(std::memory_order_relaxed); }
inline bool stop_requested() { return stop_signal() != 0; }
inline std::atomic<std::chrono::steady_clock::rep>& stop_time_slot() {
  static std::atomic<std::chrono::steady_clock::rep> ticks{0};
  return ticks;
}
// Called from the signal-watching thread or a signal handler (lock-free atomic stores); the first request wins.
inline void request_stop(int signal) {
  int none = 0;
  if (stop_signal_slot().compare_exchange_strong(none, signal))
    stop_time_slot().store(std::chrono::steady_clock::now().time_since_epoch().count());
}
// Seconds since the stop request (0 while none).
inline double seconds_since_stop() {
  if (!stop_requested()) return 0;
  const std::chrono::steady_clock::duration since =
      std::chrono::steady_clock::now().time_since_epoch() - std::chrono::steady_clock::duration(stop_time_slot().load());
  return std::chrono::duration<double>(since).count();
}
// A second signal while a run writes what it did (support/signals.hpp): skip whatever is left to draw or re-check.
inline std::atomic<bool>& quit_slot() {
  static std::atomic<bool> quit{false};
  return quit;
}
inline bool quit_requested() { return quit_slot().load(std::memory_order_relaxed); }
// A stopped run writes its results within a second of the request: tables and summary.json always, plots and
// re-checked corpus files while this much of the second is left, and none once a second signal came.
inline constexpr double kFinishSeconds = 0.8;
inline bool finishing_time_up() { return stop_requested() && (quit_requested() || seconds_since_stop() > kFinishSeconds); }
// What a result cut short by the request says: "interrupted by SIGINT".
inline std::string stop_request_text() {
  return stop_signal() == 2 ? "interrupted by SIGINT" : stop_signal() == 15 ? "interrupted by SIGTERM" : "interrupted";
}
// The exit status of a run whose own verdict is `code`: 128 + the signal after a stop request (130, 143), else `code`.
// What a report's `exit_code` says, so that the report and the process never disagree.
inline int process_exit_code(int code) { return stop_requested() ? 128 + stop_signal() : code; }
// Thrown where waiting any longer would ignore the request (e.g. a policy process's answer, cli/policy_process.hpp);
// loops that report what they did (search, suite, simulate, exhaustive search) catch it as their stop.
class StopRequested : public std::runtime_error {
public:
  StopRequested() : std::runtime_error(stop_request_text()) {}
};
// For tests that interrupt more than once in one process.
inline void clear_stop_request() {
  stop_signal_slot().store(0);
  quit_slot().store(false);
}

}  // namespace schedcheck
