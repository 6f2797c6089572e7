// Shared Z3 plumbing (see z3_support.hpp). Our own.
#include "solver/z3_support.hpp"

#include "solver/result.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace schedcheck::z3support {

namespace {
// How often the watchdog repeats its interrupt after the deadline until the solve returns.
constexpr std::chrono::milliseconds kInterruptRepeat{20};
constexpr std::chrono::milliseconds kStopPoll{50};
// Room for any double in fixed notation: at most ~310 integer digits or ~1075 fractional digits.
constexpr std::size_t kDecimalBufferSize = 1200;
// Decimal string times two, for building 2^k exactly.
std::string times_two(const std::string& decimal) {
  std::string out(decimal.size() + 1, '0');
  int carry = 0;
  for (std::size_t i = decimal.size(); i-- > 0;) {
    const int d = (decimal[i] - '0') * 2 + carry;
    out[i + 1] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  out[0] = static_cast<char>('0' + carry);
  return out[0] == '0' ? out.substr(1) : out;
}
}  // namespace

std::string exact_rational_string(double value) {
  if (!std::isfinite(value)) throw std::invalid_argument("exact_rational_string: non-finite value");
  if (value == 0) return "0";
  int exponent = 0;
  const double mantissa = std::frexp(value, &exponent);  // value = mantissa * 2^exponent, 0.5 <= |mantissa| < 1
  auto scaled = static_cast<std::int64_t>(std::ldexp(mantissa, 53));  // exact: 53 significant bits
  exponent -= 53;
  while (scaled % 2 == 0 && exponent < 0) {
    scaled /= 2;
    ++exponent;
  }
  std::string numerator = std::to_string(scaled);
  if (exponent >= 0) {
    bool negative = numerator[0] == '-';
    std::string magnitude = negative ? numerator.substr(1) : numerator;
    for (int i = 0; i < exponent; ++i) magnitude = times_two(magnitude);
    return (negative ? "-" : "") + magnitude;
  }
  std::string denominator = "1";
  for (int i = 0; i < -exponent; ++i) denominator = times_two(denominator);
  return numerator + "/" + denominator;
}

std::string shortest_decimal_string(double value) {
  if (!std::isfinite(value)) throw std::invalid_argument("shortest_decimal_string: non-finite value");
  // Fixed notation of the shortest round-trip form; the longest (a subnormal) is well under this size.
  std::array<char, kDecimalBufferSize> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed);
  if (error != std::errc()) throw std::invalid_argument("shortest_decimal_string: value does not fit");
  return std::string(buffer.data(), end);
}

z3::expr exact_real(z3::context& ctx, double value) {
  return ctx.real_val(shortest_decimal_string(value).c_str());
}

double to_double(const z3::expr& numeral) {
  // get_decimal_string is exact enough (we ask for 20 digits) and avoids int64 overflow of num/den.
  const std::string text = numeral.get_decimal_string(20);
  return std::stod(text.back() == '?' ? text.substr(0, text.size() - 1) : text);
}

z3::expr flat_sum(const z3::expr_vector& terms, const z3::expr& empty) {
  if (terms.empty()) return empty;
  return z3::sum(terms);
}

void limit_memory_mb(unsigned megabytes) { z3::set_param("memory_max_size", static_cast<int>(megabytes)); }

bool bool_value(const z3::model& model, const z3::expr& e) {
  const z3::expr value = model.eval(e, true);
  if (!value.is_true() && !value.is_false()) throw z3::exception("canceled");
  return value.is_true();
}

z3::expr numeral_value(const z3::model& model, const z3::expr& e) {
  const z3::expr value = model.eval(e, true);
  if (!value.is_numeral()) throw z3::exception("canceled");
  return value;
}

std::string over_size_limit(const std::string& what, double terms, double max_terms) {
  if (terms <= max_terms) return "";
  return fmt::format("{}: {:.3g} encoding terms, more than the {:.3g} this method stops promptly at its time limit "
                     "(size limit, checked before starting; docs/performance.md)", what, terms, max_terms);
}

bool Deadline::passed() const {
  return effort_spent_ || stop_requested() || std::chrono::steady_clock::now() >= deadline_;
}

std::string Deadline::limit_text(std::string_view then) const {
  if (effort_spent_ && !interrupted()) return effort_budget_reached(effort_, then);
  return time_limit_reached(timeout_ms_, then);
}

std::string Deadline::stop_reason(const z3::exception& e) const {
  if (interrupted() && stop_requested()) return stop_request_text() + " (z3: " + e.msg() + ")";
  if (interrupted() || effort_spent_) return limit_text(std::string(" (z3: ") + e.msg() + ")");
  return std::string("z3 error: ") + e.msg();
}

namespace {
// The context's resource count so far, from a solver's statistics ("rlimit count"; none before an optimiser's first
// check: `known` then).
template <class Solver>
std::uint64_t rlimit_count(Solver& solver, std::uint64_t known) {
  const z3::stats stats = solver.statistics();
  for (unsigned i = 0; i < stats.size(); ++i)
    if (stats.key(i) == "rlimit count")
      return std::max(known, stats.is_uint(i) ? static_cast<std::uint64_t>(stats.uint_value(i))
                                              : static_cast<std::uint64_t>(stats.double_value(i)));
  return known;
}
}  // namespace

template <class Solver>
bool Deadline::give_rest(Solver& solver) {
  if (rlimit_budget_ == 0) return true;
  rlimit_used_ = rlimit_count(solver, rlimit_used_);
  if (rlimit_used_ >= rlimit_budget_) {
    effort_spent_ = true;
    return false;
  }
  z3::params p(ctx_);
  p.set("rlimit", static_cast<unsigned>(std::min<std::uint64_t>(rlimit_budget_ - rlimit_used_,
                                                                std::numeric_limits<unsigned>::max())));
  solver.set(p);
  return true;
}

template <class Solver>
void Deadline::count(Solver& solver, z3::check_result answer) {
  if (rlimit_budget_ == 0) return;
  rlimit_used_ = rlimit_count(solver, rlimit_used_);
  if (answer == z3::unknown && rlimit_used_ >= rlimit_budget_) effort_spent_ = true;
}

z3::check_result Deadline::check(z3::solver& solver) {
  if (!give_rest(solver)) return z3::unknown;
  const z3::check_result answer = solver.check();
  count(solver, answer);
  return answer;
}

z3::check_result Deadline::check(z3::solver& solver, const z3::expr_vector& assumptions) {
  if (!give_rest(solver)) return z3::unknown;
  const z3::check_result answer = solver.check(assumptions);
  count(solver, answer);
  return answer;
}

z3::check_result Deadline::check(z3::optimize& opt) {
  if (!give_rest(opt)) return z3::unknown;
  const z3::check_result answer = opt.check();
  count(opt, answer);
  return answer;
}

Deadline::Deadline(z3::context& ctx, const SolveOptions& options)
    : ctx_(ctx),
      deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(options.timeout_ms)),
      timeout_ms_(options.timeout_ms),
      effort_(options.effort),
      rlimit_budget_(options.effort > std::numeric_limits<std::uint64_t>::max() / kZ3RlimitPerUnit
                         ? std::numeric_limits<std::uint64_t>::max()
                         : options.effort * kZ3RlimitPerUnit),
      watchdog_([this, &ctx] {
        std::unique_lock<std::mutex> lock(mutex_);
        // Wake every kStopPoll to see a stop request (SIGINT/SIGTERM, support/stop.hpp) as well as the deadline.
        for (;;) {
          const auto until = std::min(deadline_, std::chrono::steady_clock::now() + kStopPoll);
          if (wake_.wait_until(lock, until, [this] { return finished_; })) return;
          if (stop_requested() || std::chrono::steady_clock::now() >= deadline_) break;
        }
        // One interrupt can be lost (Z3 resets its cancel flag when it enters a new check or tactic):
        // keep interrupting until the solve has returned.
        do {
          interrupted_ = true;  // before the interrupt: a read that sees false finished before it
          ctx.interrupt();
        } while (!wake_.wait_for(lock, kInterruptRepeat, [this] { return finished_; }));
      }) {}

Deadline::~Deadline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
  }
  wake_.notify_one();
  watchdog_.join();
}

}  // namespace schedcheck::z3support
