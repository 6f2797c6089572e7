// The parameters a cluster policy declares (name, type, range, default, help) and an assignment of values to them:
// one reader of "NAME=VALUE" and of a value's text, one writer of the values as text and JSON, for the command line,
// scenario files, Python and every output. Our own. Limits: one type, the whole number (with `inf` where declared).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace schedcheck::cluster {

inline constexpr std::size_t kInfinite = std::numeric_limits<std::size_t>::max();  // a value of `inf`

struct ParamSpec {
  std::string name;                  // as the command line, scenario files and Python name it
  std::size_t least = 1, most = 1'000'000'000;  // a whole number in [least, most] ...
  bool infinite = false;             // ... or `inf` (`infinity`): kInfinite
  std::size_t fallback = 1;          // the default
  std::string help;                  // one line
  std::string one;                   // the label's unit of one ("pivot": "easy (1 pivot)", "easy (2 pivots)"); empty:
                                     // "name=value"
  std::string flag;                  // a command-line synonym of --policy-param NAME=VALUE ("--pivots"), or empty
};

struct ParamValue {
  std::string name;
  std::size_t value = 0;
  bool operator==(const ParamValue&) const = default;
};
using ParamValues = std::vector<ParamValue>;  // in the order the policy declares them

// "a whole number from 1 to 1000000000 or `inf`": what a value of `spec` must be.
std::string expected(const ParamSpec& spec);
// A value itself: `value` when in range (or kInfinite where declared); std::invalid_argument as read_value otherwise.
std::size_t checked_value(const ParamSpec& spec, std::size_t value);
// A value's text ("4", "inf"): throws std::invalid_argument "expected ..., got ..." when it is none.
std::size_t read_value(const ParamSpec& spec, std::string_view text);
// A JSON value of a scenario file: a whole number, or "inf" where declared; read as its text is.
std::size_t read_json_value(const ParamSpec& spec, const nlohmann::json& value);
// "NAME=VALUE" for one of `specs` (`policy` names the policy in the error of an unknown name): throws
// std::invalid_argument "NAME: expected ..., got ..." (or what names were expected).
ParamValue read_assignment(const std::vector<ParamSpec>& specs, std::string_view assignment, const std::string& policy);
// The declaration of `name`: one of `specs`, or std::invalid_argument naming the known ones.
const ParamSpec& spec_of(const std::vector<ParamSpec>& specs, std::string_view name, const std::string& policy);

// A value as every output writes it: "4", "inf".
std::string value_text(std::size_t value);
// ... and as JSON: 4, "inf".
nlohmann::json value_json(std::size_t value);

// "--help" and listings: "pivots (a whole number from 1 to 1000000000 or `inf`; default 1): HELP".
std::string describe(const ParamSpec& spec);

}  // namespace schedcheck::cluster
