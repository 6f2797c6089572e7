// Shared Z3 plumbing for every exact formulation: exact rationals from doubles, time limits, model reading.
// Our own. Z3 4.8.12: the timeout parameter must be unsigned (p.set("timeout", 1000u)).
#pragma once

#include <z3++.h>

#include <string>

namespace schedcheck::z3support {

// The exact value of a finite double as a Z3 real numeral (a double is a dyadic rational m / 2^k).
z3::expr exact_real(z3::context& ctx, double value);
// The exact decimal numerator/denominator string "m/2^k" of a finite double, as Z3 numerals accept it.
std::string exact_rational_string(double value);
// A Z3 real numeral from a model, as the nearest double.
double to_double(const z3::expr& numeral);
// Parameters with the time limit set (milliseconds, unsigned as 4.8.12 requires).
z3::params with_timeout(z3::context& ctx, unsigned timeout_ms);

}  // namespace schedcheck::z3support
