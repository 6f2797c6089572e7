// The one JSON instance reader (see input.hpp). Our own.
#include "model/input.hpp"

#include "model/gz_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_set>

namespace schedcheck {

namespace {

// A key as a step of a field path: as it is when it is a plain name, else quoted ("a b", "x\ny", "aaa...").
std::string with_key(const std::string& path, std::string_view key) {
  const bool plain = !key.empty() && key.size() <= 40 && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  const std::string step = plain ? std::string(key) : quoted_text(key);
  return path.empty() ? step : path + "." + step;
}

// The DOM parser, following the field path of the value being read and the keys each open object has given
// (nlohmann keeps the last of duplicate keys silently; the readers are strict, so a duplicate is an error). A SAX
// handler, not a parse callback: nlohmann's callback parser is many times slower on large files.
class TrackingParser : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

public:
  TrackingParser(nlohmann::json& result, const std::string& file) : Base(result, true), file_(file) {}

  bool null() { return Base::null() && read(); }
  bool boolean(bool value) { return Base::boolean(value) && read(); }
  bool number_integer(nlohmann::json::number_integer_t value) { return Base::number_integer(value) && read(); }
  bool number_unsigned(nlohmann::json::number_unsigned_t value) { return Base::number_unsigned(value) && read(); }
  bool number_float(nlohmann::json::number_float_t value, const std::string& text) {
    return Base::number_float(value, text) && read();
  }
  bool string(std::string& value) { return Base::string(value) && read(); }
  bool binary(nlohmann::json::binary_t& value) { return Base::binary(value) && read(); }
  bool start_object(std::size_t size) {
    open_frame(false);
    return Base::start_object(size);
  }
  bool start_array(std::size_t size) {
    open_frame(true);
    return Base::start_array(size);
  }
  bool end_object() {
    frames_.pop_back();
    return Base::end_object() && read();
  }
  bool end_array() {
    frames_.pop_back();
    return Base::end_array() && read();
  }
  bool key(std::string& key) {
    Frame& frame = frames_.back();
    frame.key = key;
    frame.has_key = true;
    if (!frame.keys.insert(key).second)
      throw InputError(fmt::format("{}: {}: duplicate field (an object may give each field once)", file_, path()));
    return Base::key(key);
  }

  // The path of the value being read: "bids[1].length", or "(top level)".
  std::string path() const {
    std::string out;
    for (const auto& f : frames_) {
      if (f.array) out += fmt::format("[{}]", f.index);
      else if (f.has_key) out = with_key(out, f.key);
    }
    return out.empty() ? "(top level)" : out;
  }

private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;    // array: elements read so far
    bool has_key = false;     // object: the key of the member being read
    std::string key;
    std::unordered_set<std::string> keys;
  };
  // An object or array opens inside the value being read; past kMaxJsonDepth levels the file is refused (what reads
  // the document copies and converts it recursively: a deeper one would overflow the stack).
  void open_frame(bool array) {
    if (frames_.size() >= kMaxJsonDepth)
      throw InputError(fmt::format("{}: {}: nested deeper than {} levels (objects and arrays inside one another); "
                                   "expected at most {}", file_, printable_text(path(), 120), kMaxJsonDepth,
                                   kMaxJsonDepth));
    frames_.emplace_back();
    frames_.back().array = array;
  }
  // A value is complete: the enclosing array moves on to its next element.
  bool read() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return true;
  }
  const std::string& file_;
  std::vector<Frame> frames_;
};

// nlohmann's message without its "[json.exception...] " prefix, its last-read token cut and the whole made printable
// (the token is copied raw: an invalid UTF-8 byte, a 100,000-character string).
std::string parser_message(const std::string& what) {
  std::string message = what;
  if (const auto at = message.find("parse error"); at != std::string::npos) message = message.substr(at);
  else if (const auto bracket = message.find("] "); bracket != std::string::npos) message = message.substr(bracket + 2);
  const std::string marker = "; last read: '";
  if (const auto last = message.find(marker); last != std::string::npos) {
    const auto begin = last + marker.size();
    auto end = message.rfind("'; expected ");
    if (end == std::string::npos || end < begin) end = message.size() > begin && message.back() == '\'' ? message.size() - 1 : message.size();
    message = message.substr(0, begin) + printable_text(std::string_view(message).substr(begin, end - begin), 40) +
              message.substr(end);
  }
  return printable_text(message);
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& file) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(fmt::format("{}: the file is empty; expected a JSON object (see docs/formats.md)", file));
  nlohmann::json result;
  TrackingParser parser(result, file);
  try {
    nlohmann::json::sax_parse(text, &parser);
    return result;
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line 1, column 2: ...".
    throw InputError(fmt::format("{}: not valid JSON: {}", file, parser_message(e.what())));
  } catch (const nlohmann::json::out_of_range& e) {  // 406: a number like 1e400 overflows a double
    const std::string message = e.what();
    const auto open = message.find('\''), close = message.rfind('\'');
    const std::string token = open != std::string::npos && close > open ? message.substr(open + 1, close - open - 1) : "";
    throw InputError(fmt::format("{}: {}: expected a finite number (a double), got {}", file, parser.path(),
                                 token.empty() ? parser_message(message) : printable_text(token, 40)));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON for schedcheck: {}", file, parser_message(e.what())));
  }
}

void require_not_directory(const std::string& file) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error))
    throw InputError(fmt::format("{}: is a directory; expected an instance file", file));
}

nlohmann::json read_json_file(const std::string& file) {
  require_not_directory(file);
  // Plain or gzip-compressed (zlib tells them apart), read in chunks: a failed allocation must propagate
  // (std::bad_alloc, a memory limit), never end the text early, which would report the file as truncated JSON.
  void* in = gz_open(file);
  if (!in) throw InputError(fmt::format("{}: cannot open the file (does it exist and is it readable?)", file));
  struct Close {
    void* file;
    ~Close() { gz_close(file); }
  } close{in};
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 16);
  while (const std::size_t n = gz_read(in, chunk.data(), chunk.size(), file)) text.append(chunk.data(), n);
  return parse_json_text(text, file);
}

std::string read_instance_header(const Field& root, const std::string& kind, const std::string& what,
                                 const std::string& file) {
  if (root.has("kind") && root.at("kind").as_string() != kind)
    root.at("kind").fail(fmt::format("\"{}\" (this problem reads {})", kind, what));
  return root.has("name") ? root.at("name").as_string() : file;
}

std::vector<std::string> read_names(const Field& list, const std::vector<std::string>& known, const std::string& what) {
  std::vector<std::string> out;
  for (const Field& item : list.items()) {
    const std::string n = item.as_string();
    if (std::find(known.begin(), known.end(), n) == known.end()) {
      std::string all;
      for (const auto& k : known) all += (all.empty() ? "" : ", ") + k;
      item.fail(what + " (one of " + all + ")");
    }
    if (std::find(out.begin(), out.end(), n) != out.end()) item.fail(what + ", each once");
    out.push_back(n);
  }
  if (out.empty()) list.fail("at least one " + what);
  return out;
}

std::string describe_json(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return quoted_text(value.get_ref<const std::string&>(), 36);
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

nlohmann::json object_schema(const std::string& title, nlohmann::json properties, const std::vector<std::string>& required,
                             bool nested) {
  nlohmann::json schema = {{"title", title},
                           {"type", "object"},
                           {"properties", std::move(properties)},
                           {"required", required},
                           {"additionalProperties", false}};
  if (!nested) schema["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  return schema;
}

std::vector<std::pair<std::string, Field>> Field::members() const {
  if (!value_->is_object()) fail("an object");
  std::vector<std::pair<std::string, Field>> out;
  out.reserve(value_->size());
  for (const auto& [key, value] : value_->items()) out.emplace_back(key, Field(value, file_, with_key(path_, key)));
  return out;
}

std::size_t IdIndex::of(const Field& field) const {
  if (!field.raw().is_string()) field.fail("the id of " + what_ + " of the instance");
  const auto it = index_.find(field.raw().get_ref<const std::string&>());
  if (it == index_.end()) field.fail("the id of " + what_ + " of the instance");
  return it->second;
}

std::size_t IdIndex::of_key(const std::string& key, const Field& member) const {
  const auto it = index_.find(key);
  if (it == index_.end())
    throw InputError(member.file() + ": " + member.path() + ": unknown key (expected the id of " + what_ +
                     " of the instance)");
  return it->second;
}

void Field::only_keys(std::initializer_list<std::string_view> allowed) const {
  if (!value_->is_object()) fail("an object");
  for (const auto& [key, unused] : value_->items()) {
    bool known = false;
    for (auto name : allowed) known = known || key == name;
    if (!known) {
      std::string names;
      for (auto name : allowed) names += (names.empty() ? "" : ", ") + std::string(name);
      throw InputError(fmt::format("{}: {}: unknown field (expected one of: {})", file_, with_key(path_, key), names));
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
  auto expected = [&] {  // formatted only on failure: a large instance reads hundreds of thousands of integers
    return max == std::numeric_limits<long long>::max() ? fmt::format("an integer >= {}", min)
                                                        : fmt::format("an integer in [{}, {}]", min, max);
  };
  long long v = 0;
  if (value_->is_number_unsigned()) {
    const auto u = value_->get<unsigned long long>();
    if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) fail(expected());
    v = static_cast<long long>(u);
  } else if (value_->is_number_integer()) {
    v = value_->get<long long>();
  } else if (value_->is_number_float()) {  // 4.0 is accepted as 4; 4.5 is not
    const double d = value_->get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15) fail(expected());
    v = static_cast<long long>(d);
  } else {
    fail(expected());
  }
  if (v < min || v > max) fail(expected());
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

namespace {

// The length of the UTF-8 sequence at text[i] and its code point; 0 when the bytes there are not UTF-8 (a stray
// continuation byte, a truncated or overlong sequence, a surrogate, a value above U+10FFFF).
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& code) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t least = 0;
  if (lead < 0x80) { code = lead; return 1; }
  if ((lead & 0xE0) == 0xC0) { length = 2; code = lead & 0x1F; least = 0x80; }
  else if ((lead & 0xF0) == 0xE0) { length = 3; code = lead & 0x0F; least = 0x800; }
  else if ((lead & 0xF8) == 0xF0) { length = 4; code = lead & 0x07; least = 0x10000; }
  else return 0;
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// Characters a terminal acts on or that reorder or break the line: C0, DEL, C1, U+2028/9, bidirectional controls.
bool is_control(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F || c == 0x2028 ||
         c == 0x2029 || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

std::string escaped(std::string_view text, std::size_t max_chars, bool quote) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    if (chars == max_chars) {
      out += "...";
      break;
    }
    char32_t code = 0;
    const std::size_t length = utf8_sequence(text, i, code);
    if (length == 0) out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
    else if (quote && (code == '"' || code == '\\')) out += {'\\', static_cast<char>(code)};
    else if (code == '\n') out += "\\n";
    else if (code == '\r') out += "\\r";
    else if (code == '\t') out += "\\t";
    else if (is_control(code)) out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(code));
    else out += text.substr(i, length);
    i += length == 0 ? 1 : length;
  }
  return quote ? "\"" + out + "\"" : out;
}

}  // namespace

std::string quoted_text(std::string_view text, std::size_t max_chars) { return escaped(text, max_chars, true); }

std::string printable_text(std::string_view text, std::size_t max_chars) { return escaped(text, max_chars, false); }

std::string printable_lines(std::string_view text) {
  std::string out;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    out += printable_text(text.substr(begin, end - begin));
    if (end < text.size()) out += '\n';
    begin = end + 1;
  }
  return out;
}

std::string json_text(const nlohmann::json& value, int indent) {
  // Outside strings JSON text is printable ASCII and white space, so each character escaped here is inside a string,
  // where \uXXXX stands for the same character (all lie in the Basic Multilingual Plane). The dump escapes C0 itself.
  const std::string text = value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t code = 0;
    const std::size_t length = std::max<std::size_t>(utf8_sequence(text, i, code), 1);  // UTF-8 after the dump
    if (code >= 0x7F && is_control(code)) out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(code));
    else out.append(text, i, length);
    i += length;
  }
  return out;
}

std::string joined(const std::vector<std::string>& names, std::string_view separator, std::string_view quote) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += quote;
    out += names[i];
    out += quote;
  }
  return out;
}

std::string choices(const std::vector<std::string>& names) { return joined(names, " | "); }

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t comma = text.find(',', at);
    parts.push_back(text.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) return parts;
    at = comma + 1;
  }
}

bool known_name(const std::vector<std::string>& known, const std::string& name) {
  return std::find(known.begin(), known.end(), name) != known.end();
}

std::vector<std::string> per_cluster(const std::string& option, const std::string& text, std::size_t clusters,
                                     const std::vector<std::string>& known) {
  std::vector<std::string> names = split_commas(text);
  const std::size_t n = std::max<std::size_t>(clusters, 1);
  for (const auto& name : names)
    if (!known_name(known, name))
      throw InputError(fmt::format("{}: expected {} (one for all clusters, or one per cluster separated by commas), "
                                   "got {}", option, choices(known), quoted_text(text)));
  if (names.size() == 1) return std::vector<std::string>(n, names.front());
  if (names.size() != n)
    throw InputError(fmt::format("{}: {} names for {} cluster{}; expected one for all or one per cluster{}", option,
                                 names.size(), n, n == 1 ? "" : "s", clusters > 1 ? " (--clusters)" : " (give --clusters)"));
  return names;
}

}  // namespace schedcheck
