// Reading and writing policy parameters (see policy_params.hpp). Our own.
#include "model/policy_params.hpp"

#include "model/input.hpp"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>

namespace schedcheck::cluster {

std::string expected(const ParamSpec& spec) {
  const std::string range = fmt::format("a whole number from {} to {}", spec.least, spec.most);
  return spec.infinite ? range + " or `inf`" : range;
}

std::size_t checked_value(const ParamSpec& spec, std::size_t value) {
  if ((spec.infinite && value == kInfinite) || (value >= spec.least && value <= spec.most)) return value;
  throw std::invalid_argument(fmt::format("expected {}, got {}", expected(spec), value_text(value)));
}

std::size_t read_value(const ParamSpec& spec, std::string_view text) {
  if (spec.infinite && (text == "inf" || text == "infinity")) return kInfinite;
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == kInfinite)
    throw std::invalid_argument(fmt::format("expected {}, got {}", expected(spec), quoted_text(text)));
  return checked_value(spec, value);
}

std::size_t read_json_value(const ParamSpec& spec, const nlohmann::json& value) {
  if (value.is_string()) return read_value(spec, value.get<std::string>());
  if (value.is_number_integer()) return read_value(spec, value.dump());
  throw std::invalid_argument(fmt::format("expected {}, got {}", expected(spec), value.dump()));
}

const ParamSpec& spec_of(const std::vector<ParamSpec>& specs, std::string_view name, const std::string& policy) {
  std::vector<std::string> known;
  for (const ParamSpec& s : specs) {
    if (s.name == name) return s;
    known.push_back(s.name);
  }
  throw std::invalid_argument(fmt::format("expected a parameter of {} ({}), got {}", policy,
                                          known.empty() ? "it takes none" : "one of " + joined(known), quoted_text(name)));
}

ParamValue read_assignment(const std::vector<ParamSpec>& specs, std::string_view assignment, const std::string& policy) {
  const auto equals = assignment.find('=');
  if (equals == std::string_view::npos)
    throw std::invalid_argument(fmt::format("expected NAME=VALUE, got {}", quoted_text(assignment)));
  const ParamSpec& spec = spec_of(specs, assignment.substr(0, equals), policy);
  try {
    return ParamValue{spec.name, read_value(spec, assignment.substr(equals + 1))};
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(spec.name + ": " + e.what());
  }
}

std::string value_text(std::size_t value) { return value == kInfinite ? "inf" : std::to_string(value); }

nlohmann::json value_json(std::size_t value) { return value == kInfinite ? nlohmann::json("inf") : nlohmann::json(value); }

std::string describe(const ParamSpec& spec) {
  return fmt::format("{} ({}; default {}): {}", spec.name, expected(spec), value_text(spec.fallback), spec.help);
}

}  // namespace schedcheck::cluster
