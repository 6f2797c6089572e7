// The two kinds of failure every layer reports: bad user input (exit 2) and a bug inside schedcheck (exit 4).
// Our own.
#pragma once

#include <stdexcept>

namespace schedcheck {

// Bad user input. what() is one line: "FILE: PATH: expected ..., got ...".
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A policy outside C++ failed: its process crashed, hung past its time limit or answered something that is not a
// decision. Bad input (exit 2) that ends the whole run: never a property of the instance being checked, so searches,
// shrinking and corpus writing let it through.
class PolicyFailure : public InputError {
public:
  using InputError::InputError;
};

// A bug inside schedcheck (e.g. a solver answer the validator rejects). Never the user's input.
class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

}  // namespace schedcheck
