// The one JSON instance reader: parses a file and reads typed fields with their path, so that
// every input error names the file, the field path (e.g. `bids[3].procs`) and what was expected.
// Our own. Strict: unknown and duplicate fields are errors (a typo must not silently fall back to a default).
#pragma once

#include "support/errors.hpp"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace schedcheck {

// How deeply objects and arrays may nest in any JSON schedcheck reads (a file, a Python dict): the documents are
// copied and converted recursively, and a bound keeps that within any thread's stack. No format needs more than ten.
inline constexpr std::size_t kMaxJsonDepth = 256;

// Parses `text` as JSON; throws InputError naming `file` and the line/column on a syntax error, and the field path
// of a duplicate key in an object, of a number that overflows a double (1e400) or of a value nested deeper than
// kMaxJsonDepth.
nlohmann::json parse_json_text(const std::string& text, const std::string& file);
// Reads and parses a file; throws InputError when it is missing, a directory, empty or not JSON.
nlohmann::json read_json_file(const std::string& file);
// Throws InputError when `file` names a directory (opening one succeeds on Linux and reads as an empty file).
void require_not_directory(const std::string& file);

// A JSON value together with where it came from. Accessors throw InputError with the full path.
class Field {
public:
  Field(const nlohmann::json& value, std::string file, std::string path = "");

  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }
  const nlohmann::json& raw() const { return *value_; }

  Field at(std::string_view key) const;             // required member of an object
  bool has(std::string_view key) const;             // object has the member (and it is not null)
  std::vector<Field> items() const;                 // the elements of a required array
  std::vector<std::pair<std::string, Field>> members() const;  // the members of a required object, in order
  void only_keys(std::initializer_list<std::string_view> allowed) const;  // rejects unknown members

  std::string as_string() const;                    // non-empty string
  bool as_bool() const;                             // true or false
  long long as_int(long long min, long long max) const;  // integer in [min, max]
  double as_number(double min, double max) const;   // finite number in [min, max]
  double as_positive() const;                       // finite number > 0
  double as_non_negative() const;                   // finite number >= 0

  [[noreturn]] void fail(const std::string& expected) const;  // "FILE: PATH: expected X, got Y"

private:
  const nlohmann::json* value_;
  std::string file_;
  std::string path_;
};

// The ids of an instance's items (bids, jobs, providers), for reading references to them (decisions of policies
// outside C++): `of` gives the index of the item a field names, or fails naming the field ("expected the id of a
// bid of the instance, got ..."). Duplicate ids keep the first.
class IdIndex {
public:
  template <class Range, class IdOf>
  IdIndex(const Range& items, IdOf id_of, std::string what) : what_(std::move(what)) {
    std::size_t i = 0;
    for (const auto& item : items) index_.emplace(id_of(item), i++);
  }
  std::size_t of(const Field& field) const;  // the field must be a string naming one of the ids
  std::size_t of_key(const std::string& key, const Field& member) const;  // an object key naming one of the ids

private:
  std::unordered_map<std::string, std::size_t> index_;
  std::string what_;
};

// A JSON Schema (draft 2020-12) of an object with these properties, the required ones, and no other member: the
// decision schemas of policies outside C++ (docs/protocol.md). `nested`: a part of another schema (no "$schema").
nlohmann::json object_schema(const std::string& title, nlohmann::json properties, const std::vector<std::string>& required,
                             bool nested = false);

// The header every instance file shares: an optional "kind" that must equal `kind` (else an error saying which
// problems read it, `what`), and an optional "name" (default: the file name). Returns the instance name.
std::string read_instance_header(const Field& root, const std::string& kind, const std::string& what,
                                 const std::string& file);

// A list of names, each one of `known` and given once, at least one (a sweep's policies, estimates, models): fails
// naming the item ("expected <what> (one of a, b)", "expected <what>, each once").
std::vector<std::string> read_names(const Field& list, const std::vector<std::string>& known, const std::string& what);

// The names in order, `separator` between them and each inside `quote` ("a, b, c"; with quote "\"": "\"a\", \"b\""):
// the one wording of a list of known names in messages.
std::string joined(const std::vector<std::string>& names, std::string_view separator = ", ", std::string_view quote = "");
// "a | b | c": the choices of an option, for its help text and messages.
std::string choices(const std::vector<std::string>& names);
// "a,b,c" -> {"a", "b", "c"} (an empty text: one empty name).
std::vector<std::string> split_commas(const std::string& text);
bool known_name(const std::vector<std::string>& known, const std::string& name);
// A per-cluster option (`--policy easy,conservative`, `--model count,processors`): one name for every cluster, or
// one per cluster, each among `known`. Returns `clusters` names (one cluster when `clusters` is 0 or 1). Throws
// InputError naming `option`.
std::vector<std::string> per_cluster(const std::string& option, const std::string& text, std::size_t clusters,
                                     const std::vector<std::string>& known);

// Short rendering of a JSON value for error messages ("-2", "\"abc\"", "an object"); strings as quoted_text.
std::string describe_json(const nlohmann::json& value);

// The one way user text (a key, an id, a token, a file name) enters a message, so that the message stays one
// harmless line: control characters (C0, DEL, C1), line separators and bidirectional controls are escaped (\n,
// \u001b, \u202e), bytes that are not UTF-8 are shown as \xFF, and text longer than `max_chars` characters is cut
// with "...". quoted_text also escapes " and \ and adds the quotes: "bad\nkey", "aaaa...".
std::string quoted_text(std::string_view text, std::size_t max_chars = 40);
// The same without quotes (a " or \ stays as it is), for a whole message or a message of a library; not cut unless
// `max_chars` is given (a message names its file, whatever its length).
std::string printable_text(std::string_view text, std::size_t max_chars = std::string_view::npos);
// A text of several lines (a command's text summary) with each line as printable_text makes it: the newlines kept.
std::string printable_lines(std::string_view text);

// JSON text for what schedcheck prints or writes for programs (every --json, summary.json): `value.dump(indent)` with
// the characters printable_text escapes and JSON may leave raw (DEL, C1 controls, U+2028/9, bidirectional controls)
// written as \uXXXX too, so that user text in a string (an instance name, a file name) cannot act on a terminal or
// reorder a line when the JSON is shown; a program reading it gets the same strings. Bytes that are not UTF-8 become
// U+FFFD (nlohmann's dump would throw).
std::string json_text(const nlohmann::json& value, int indent = 2);

}  // namespace schedcheck
