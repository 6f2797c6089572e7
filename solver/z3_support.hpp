// Shared Z3 plumbing for every exact formulation: exact rationals from doubles, time limits, model reading.
// Our own. Z3 4.8.12: the timeout parameter must be unsigned (p.set("timeout", 1000u)).
#pragma once

#include <z3++.h>

#include <string>

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

}  // namespace schedcheck::z3support

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace schedcheck::z3support {

// The time limit of every Z3 solve: a watchdog thread calls ctx.interrupt() at the deadline. We do not use
// Z3 4.8.12's "timeout" parameter: its timer can deadlock inside Z3_solver_check (seen here at n = 1000 with a
// 10 s limit: hung for over 5 minutes; Z3 PR #5371). A single interrupt can be lost, so the watchdog repeats it
// until the solve returns; the answer may still come up to ~1 s after the deadline on large instances.
class Deadline {
public:
  Deadline(z3::context& ctx, unsigned timeout_ms);
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;
  bool passed() const { return std::chrono::steady_clock::now() >= deadline_; }

private:
  std::chrono::steady_clock::time_point deadline_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread watchdog_;
};

}  // namespace schedcheck::z3support
