// The one JSON instance reader (see input.hpp). Our own.
#include "model/input.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace schedcheck {

nlohmann::json parse_json_text(const std::string& text, const std::string& file) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(fmt::format("{}: the file is empty; expected a JSON object (see docs/formats.md)", file));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line 1, column 2: ...".
    std::string message = e.what();
    const auto at = message.find("parse error");
    if (at != std::string::npos) message = message.substr(at);
    throw InputError(fmt::format("{}: not valid JSON: {}", file, message));
  } catch (const nlohmann::json::exception& e) {  // e.g. out_of_range.406: a number like 1e400 overflows
    std::string message = e.what();
    const auto bracket = message.find("] ");
    if (bracket != std::string::npos) message = message.substr(bracket + 2);
    throw InputError(fmt::format("{}: not valid JSON for schedcheck: {} (numbers must be finite doubles)", file, message));
  }
}

nlohmann::json read_json_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the file (does it exist and is it readable?)", file));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_json_text(buffer.str(), file);
}

std::string read_instance_header(const Field& root, const std::string& kind, const std::string& what,
                                 const std::string& file) {
  if (root.has("kind") && root.at("kind").as_string() != kind)
    root.at("kind").fail(fmt::format("\"{}\" (this problem reads {})", kind, what));
  return root.has("name") ? root.at("name").as_string() : file;
}

std::string describe_json(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: {
      std::string s = value.dump();
      return s.size() > 40 ? s.substr(0, 37) + "...\"" : s;
    }
    default: return value.dump();
  }
}

Field::Field(const nlohmann::json& value, std::string file, std::string path)
    : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

void Field::fail(const std::string& expected) const {
  throw InputError(fmt::format("{}: {}: expected {}, got {}", file_, path_.empty() ? "(top level)" : path_,
                               expected, describe_json(*value_)));
}

bool Field::has(std::string_view key) const {
  if (!value_->is_object()) return false;
  const auto it = value_->find(key);
  return it != value_->end() && !it->is_null();
}

Field Field::at(std::string_view key) const {
  if (!value_->is_object()) fail("an object");
  const auto it = value_->find(key);
  const std::string child = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  if (it == value_->end())
    throw InputError(fmt::format("{}: {}: missing required field", file_, child));
  return Field(*it, file_, child);
}

std::vector<Field> Field::items() const {
  if (!value_->is_array()) fail("an array");
  std::vector<Field> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], file_, fmt::format("{}[{}]", path_, i));
  return out;
}

void Field::only_keys(std::initializer_list<std::string_view> allowed) const {
  if (!value_->is_object()) fail("an object");
  for (const auto& [key, unused] : value_->items()) {
    bool known = false;
    for (auto name : allowed) known = known || key == name;
    if (!known) {
      std::string names;
      for (auto name : allowed) names += (names.empty() ? "" : ", ") + std::string(name);
      const std::string child = path_.empty() ? key : path_ + "." + key;
      throw InputError(fmt::format("{}: {}: unknown field (expected one of: {})", file_, child, names));
    }
  }
}

std::string Field::as_string() const {
  if (!value_->is_string() || value_->get<std::string>().empty()) fail("a non-empty string");
  return value_->get<std::string>();
}

bool Field::as_bool() const {
  if (!value_->is_boolean()) fail("true or false");
  return value_->get<bool>();
}

long long Field::as_int(long long min, long long max) const {
  const std::string expected = max == std::numeric_limits<long long>::max()
                                   ? fmt::format("an integer >= {}", min)
                                   : fmt::format("an integer in [{}, {}]", min, max);
  long long v = 0;
  if (value_->is_number_unsigned()) {
    const auto u = value_->get<unsigned long long>();
    if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) fail(expected);
    v = static_cast<long long>(u);
  } else if (value_->is_number_integer()) {
    v = value_->get<long long>();
  } else if (value_->is_number_float()) {  // 4.0 is accepted as 4; 4.5 is not
    const double d = value_->get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15) fail(expected);
    v = static_cast<long long>(d);
  } else {
    fail(expected);
  }
  if (v < min || v > max) fail(expected);
  return v;
}

double Field::as_number(double min, double max) const {
  if (!value_->is_number()) fail(fmt::format("a number in [{}, {}]", min, max));
  const double v = value_->get<double>();
  if (!std::isfinite(v)) fail("a finite number");
  if (v < min || v > max) fail(fmt::format("a number in [{}, {}]", min, max));
  return v;
}

double Field::as_positive() const {
  if (!value_->is_number()) fail("a positive number");
  const double v = value_->get<double>();
  if (!std::isfinite(v) || v <= 0) fail("a positive finite number");
  return v;
}

double Field::as_non_negative() const {
  if (!value_->is_number()) fail("a number >= 0");
  const double v = value_->get<double>();
  if (!std::isfinite(v) || v < 0) fail("a finite number >= 0");
  return v;
}

}  // namespace schedcheck
