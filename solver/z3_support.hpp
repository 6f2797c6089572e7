// Shared Z3 plumbing for every exact formulation: exact rationals from doubles, flat sums, time, effort and size
// limits, checked model reading.
// Our own. Z3 4.8.12: the timeout and rlimit parameters must be unsigned (p.set("timeout", 1000u)).
#pragma once

#include "solver/result.hpp"

#include <z3++.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace schedcheck::z3support {

// A finite double as an exact Z3 real: the shortest decimal that reads back as this double (std::to_chars),
// i.e. the literal the user wrote (9.7 is 97/10, not the dyadic 9.699999999999999289...). Every encoding reasons
// on these decimals, so 5.8 + 2.6 = 9.7 - 1.3 holds in Z3 as it does for the user and the validator.
z3::expr exact_real(z3::context& ctx, double value);
// The decimal string exact_real uses (fixed notation, no exponent: Z3 numerals take none).
std::string shortest_decimal_string(double value);
// The exact decimal numerator/denominator string "m/2^k" of a finite double, as Z3 numerals accept it.
std::string exact_rational_string(double value);
// A Z3 real numeral from a model, as the nearest double.
double to_double(const z3::expr& numeral);
// The sum of `terms` as one n-ary term (`empty` when there are none). Never a chain a + b + c ... built term by term:
// its depth is the number of terms, and Z3 4.8.12 frees such a chain one level per pass over all its terms when it
// tears a context down (a 200-bid timed encoding: 32 s of teardown with chains, 2.5 s with n-ary sums).
z3::expr flat_sum(const z3::expr_vector& terms, const z3::expr& empty);
// Z3's own memory ceiling for every later solve (the global parameter memory_max_size, megabytes): past it a solve
// ends with an error that the methods report as unknown, before the process's ceiling (support/memory.hpp) is hit.
void limit_memory_mb(unsigned megabytes);
// A value from a model, refusing one Z3 left unevaluated: an evaluation cut short by an interrupt returns its input
// as it is (is_true() would read an unevaluated Boolean as false). Throws z3::exception("canceled") instead.
bool bool_value(const z3::model& model, const z3::expr& e);
z3::expr numeral_value(const z3::model& model, const z3::expr& e);

}  // namespace schedcheck::z3support

#include <atomic>
#include <cstddef>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace schedcheck::z3support {

// The time limit of every Z3 solve: a watchdog thread calls ctx.interrupt() at the deadline. We do not use
// Z3 4.8.12's "timeout" parameter: its timer can deadlock inside Z3_solver_check (seen here at n = 1000 with a
// 10 s limit: hung for over 5 minutes; Z3 PR #5371). A single interrupt can be lost, so the watchdog repeats it
// until the solve returns; the answer may still come up to ~1 s after the deadline on large instances.
// Once it has fired, every later call on the context may be cut short: building a model throws "canceled" and a
// model read may be one Z3 never finished. So a method builds, solves and reads inside one try block (the detail
// of a z3::exception: stop_reason), and sets ExactResult::interrupted from interrupted() (see solver/result.hpp).
// The size check a Z3 method makes before it builds anything. On a large encoding Z3 notices the interrupt late (a
// 100-job deadline-feasibility check returned 2.7 s after it), whatever the limit, so each method states the most
// encoding terms it builds, solves and tears down within the limit plus the margin of docs/cli.md (measured:
// docs/performance.md), and answers unknown at once beyond. "" when `terms` fits, else the reason.
std::string over_size_limit(const std::string& what, double terms, double max_terms);

// The effort budget (SolveOptions::effort, solver/result.hpp) of the same solve: Z3's resource counter ("rlimit
// count", deterministic, cumulative over the context) may reach kZ3RlimitPerUnit x effort. Every check goes through
// check() below, which gives the solver what is left of it as its "rlimit" (a check's rlimit counts from the check's
// start); a check past the budget answers unknown and effort_spent() says why.
class Deadline {
public:
  Deadline(z3::context& ctx, const SolveOptions& options);
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;
  // The deadline has passed, the effort budget is spent, or the user asked to stop (support/stop.hpp): stop searching.
  bool passed() const;
  bool interrupted() const { return interrupted_.load(); }
  bool effort_spent() const { return effort_spent_; }
  // The checks of every Z3 method, within what is left of the effort budget (unknown at once when nothing is).
  z3::check_result check(z3::solver& solver);
  z3::check_result check(z3::solver& solver, const z3::expr_vector& assumptions);
  z3::check_result check(z3::optimize& opt);
  // The limit that stopped the solve: the effort budget's wording when it is spent, else the time limit's.
  std::string limit_text(std::string_view then = {}) const;
  // "time limit of N ms reached (z3: canceled)" after the watchdog fired, the effort budget's wording when it is
  // spent, else "z3 error: ...".
  std::string stop_reason(const z3::exception& e) const;

private:
  template <class Solver>
  bool give_rest(Solver& solver);  // false: nothing is left
  template <class Solver>
  void count(Solver& solver, z3::check_result answer);

  z3::context& ctx_;
  std::chrono::steady_clock::time_point deadline_;
  unsigned timeout_ms_;
  std::uint64_t effort_;
  std::uint64_t rlimit_budget_;  // kZ3RlimitPerUnit x effort_ (0: none)
  std::uint64_t rlimit_used_ = 0;
  bool effort_spent_ = false;
  std::atomic<bool> interrupted_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread watchdog_;
};

}  // namespace schedcheck::z3support
