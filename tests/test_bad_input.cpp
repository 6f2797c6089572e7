// Suite `bad_input`: every reader rule rejects bad input with one InputError line that names the file, the
// field path (e.g. `bids[1].procs`) and what was expected. The CLI side is tests/cli_bad_input.sh.
// Source: our own (docs/formats.md, model/input.hpp).
#include "model/input.hpp"
#include "model/sla.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

// This file's own namespace: its using-directives and helpers stay apart from the other test files' (the
// test executable compiles them in batches).
namespace test_bad_input {

using namespace schedcheck;

namespace {

const std::string kFile = "bad-input.json";

// A valid document with two bids and one running job; each test breaks one thing in it.
std::string valid(const std::string& site = R"("processors": 10, "mips": 100, "price": 2)",
                  const std::string& running = R"({"id": "r1", "procs": 2, "remaining": 30})",
                  const std::string& bid0 = R"("id": "A", "procs": 4, "length": 40000, "budget": 400, "deadline": 300)",
                  const std::string& bid1 = R"("id": "B", "procs": 3, "length": 30000, "budget": 300, "deadline": 300)") {
  return R"({"kind": "sla-site", "site": {)" + site + R"(}, "running": [)" + running + R"(], "bids": [{)" + bid0 +
         R"(}, {)" + bid1 + R"(}]})";
}

// Reads `text` as file kFile; requires an InputError whose one-line message contains every part.
void expect_input_error(const std::string& text, const std::vector<std::string>& parts) {
  BOOST_TEST_CONTEXT("input: " << text) {
    try {
      const auto document = parse_json_text(text, kFile);
      (void)sla::read_instance(document, kFile);
      BOOST_ERROR("accepted bad input");
    } catch (const InputError& e) {
      const std::string m = e.what();
      BOOST_TEST(m.rfind(kFile + ": ", 0) == 0u, "message does not start with the file name: " << m);
      BOOST_TEST(m.find('\n') == std::string::npos, "message is not one line: " << m);
      for (const auto& part : parts) BOOST_TEST(m.find(part) != std::string::npos, "missing '" << part << "' in: " << m);
    } catch (const std::exception& e) {
      BOOST_ERROR("threw " << typeid(e).name() << " instead of InputError: " << e.what());
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bad_input)

BOOST_AUTO_TEST_CASE(the_base_document_is_valid) {
  const auto s = sla::read_instance(parse_json_text(valid(), kFile), kFile);
  BOOST_TEST(s.bids.size() == 2u);
  BOOST_TEST(s.site.free_processors == 8);  // 10 - 2
}

BOOST_AUTO_TEST_CASE(empty_or_blank_text_is_rejected) {
  expect_input_error("", {"the file is empty", "expected a JSON object"});
  expect_input_error(" \n\t ", {"the file is empty"});
}

BOOST_AUTO_TEST_CASE(text_that_is_not_json_is_rejected_with_position) {
  expect_input_error("not json", {"not valid JSON", "line 1"});
  expect_input_error(R"({"site": {"processors": 10,})", {"not valid JSON", "line 1"});
  expect_input_error("{\n  \"a\": 1,\n  oops\n}", {"not valid JSON", "line 3"});
}

BOOST_AUTO_TEST_CASE(top_level_array_is_rejected) {
  expect_input_error("[1, 2]", {"(top level)", "expected an object", "an array"});
  expect_input_error("42", {"(top level)", "expected an object"});
}

BOOST_AUTO_TEST_CASE(wrong_kind_is_rejected) {
  std::string text = valid();
  text.replace(text.find("sla-site"), 8, "dag");
  expect_input_error(text, {"kind", "expected \"sla-site\"", "\"dag\""});
}

BOOST_AUTO_TEST_CASE(missing_required_fields_are_named_by_path) {
  expect_input_error(R"({"bids": []})", {"site: missing required field"});
  expect_input_error(R"({"site": {"processors": 10, "mips": 1, "price": 1}})", {"bids: missing required field"});
  expect_input_error(valid(R"("processors": 10, "price": 2)"), {"site.mips: missing required field"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": 2})"),
                     {"running[0].remaining: missing required field"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": 2, "remaining": 30})",
                           R"("id": "A", "procs": 4, "length": 40000, "budget": 400, "deadline": 300)",
                           R"("id": "B", "procs": 3, "length": 30000, "deadline": 300)"),
                     {"bids[1].budget: missing required field"});
}

namespace {
// The base document with bid B's field set to `value` (raw JSON).
std::string with_b(const std::string& field, const std::string& value) {
  std::string bid1 = R"("id": "B", "procs": 3, "length": 30000, "budget": 300, "deadline": 300)";
  const auto at = bid1.find("\"" + field + "\"");
  if (at == std::string::npos) {
    bid1 += ", \"" + field + "\": " + value;
  } else {
    const auto colon = bid1.find(':', at);
    const auto end = bid1.find(',', colon);
    bid1.replace(colon + 2, (end == std::string::npos ? bid1.size() : end) - colon - 2, value);
  }
  return valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": 2, "remaining": 30})",
               R"("id": "A", "procs": 4, "length": 40000, "budget": 400, "deadline": 300)", bid1);
}
}  // namespace

BOOST_AUTO_TEST_CASE(mistyped_fields_are_rejected_with_expected_type) {
  expect_input_error(with_b("procs", "\"3\""), {"bids[1].procs", "expected an integer in [1, 10]", "got \"3\""});
  expect_input_error(with_b("length", "\"30000\""), {"bids[1].length", "expected a positive number", "got \"30000\""});
  expect_input_error(with_b("budget", "true"), {"bids[1].budget", "expected a number >= 0", "got true"});
  expect_input_error(with_b("id", "7"), {"bids[1].id", "expected a non-empty string", "got 7"});
  expect_input_error(with_b("id", "\"\""), {"bids[1].id", "expected a non-empty string"});
  expect_input_error(with_b("deadline", "null"), {"bids[1].deadline", "expected a positive number", "got null"});
  expect_input_error(valid(R"("processors": "ten", "mips": 100, "price": 2)"),
                     {"site.processors", "expected an integer in [1, 1000000]", "got \"ten\""});
  expect_input_error(R"({"site": {"processors": 10, "mips": 1, "price": 1}, "bids": {"id": "A"}})",
                     {"bids", "expected an array", "an object"});
  expect_input_error(R"({"site": [], "bids": []})", {"site", "expected an object"});
}

BOOST_AUTO_TEST_CASE(non_positive_and_fractional_processors_are_rejected) {
  expect_input_error(with_b("procs", "-2"), {"bids[1].procs", "expected an integer in [1, 10]", "got -2"});
  expect_input_error(with_b("procs", "0"), {"bids[1].procs", "expected an integer in [1, 10]", "got 0"});
  expect_input_error(with_b("procs", "2.5"), {"bids[1].procs", "expected an integer in [1, 10]", "got 2.5"});
  expect_input_error(valid(R"("processors": 0, "mips": 100, "price": 2)"), {"site.processors", "got 0"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": -1, "remaining": 30})"),
                     {"running[0].procs", "expected an integer in [1, 10]", "got -1"});
}

BOOST_AUTO_TEST_CASE(integral_float_processors_are_accepted) {
  // Documented in Field::as_int: 3.0 reads as 3.
  const auto s = sla::read_instance(parse_json_text(with_b("procs", "3.0"), kFile), kFile);
  BOOST_TEST(s.bids[1].procs == 3);
}

BOOST_AUTO_TEST_CASE(processors_above_site_processors_are_rejected) {
  expect_input_error(with_b("procs", "11"), {"bids[1].procs", "expected an integer in [1, 10]", "got 11"});
  // Running jobs: 2 + 9 = 11 > 10 in total.
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)",
                           R"({"id": "r1", "procs": 2, "remaining": 30}, {"id": "r2", "procs": 9, "remaining": 5})"),
                     {"running[1].procs", "at most site.processors = 10 in total"});
  expect_input_error(valid(R"("processors": 10, "free": 11, "mips": 100, "price": 2)", "{\"id\": \"r1\", \"procs\": 2, \"remaining\": 30}"),
                     {"site.free", "expected an integer in [0, 10]", "got 11"});
}

BOOST_AUTO_TEST_CASE(negative_and_zero_numbers_are_rejected) {
  expect_input_error(with_b("budget", "-1"), {"bids[1].budget", "a finite number >= 0", "got -1"});
  expect_input_error(with_b("deadline", "0"), {"bids[1].deadline", "a positive finite number", "got 0"});
  expect_input_error(with_b("length", "-30000"), {"bids[1].length", "a positive finite number"});
  expect_input_error(with_b("alpha", "-0.5"), {"bids[1].alpha", "a finite number >= 0", "got -0.5"});
  expect_input_error(with_b("expected_response", "0"), {"bids[1].expected_response", "a positive finite number"});
  expect_input_error(valid(R"("processors": 10, "mips": 0, "price": 2)"), {"site.mips", "a positive finite number"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": -2)"), {"site.price", "a finite number >= 0"});
  // A running job may end at the decision instant (remaining 0, model/sla.hpp); it may not have ended before it.
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": 2, "remaining": -1})"),
                     {"running[0].remaining", "a finite number >= 0", "got -1"});
}

BOOST_AUTO_TEST_CASE(numbers_above_magnitude_limit_are_rejected) {
  expect_input_error(with_b("length", "1e13"), {"bids[1].length", "a number <= 1e+12"});
  expect_input_error(valid(R"("processors": 10, "mips": 1e13, "price": 2)"), {"site.mips", "a number <= 1e+12"});
}

BOOST_AUTO_TEST_CASE(non_finite_number_1e400_is_an_input_error) {
  // nlohmann::json refuses 1e400 (it overflows a double) with out_of_range.406, not a parse_error: the reader must
  // still report it as bad input naming the file and the field path (and never as an internal error).
  expect_input_error(with_b("length", "1e400"), {kFile + ": bids[1].length: expected a finite number (a double), got 1e400"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 1e400)"), {": site.price: expected a finite number"});
  expect_input_error(R"({"site": {"processors": 10, "mips": 100, "price": 2}, "bids": [1, [2, -1e999]]})",
                     {": bids[1][1]: expected a finite number (a double), got -1e999"});
  expect_input_error("1e400", {": (top level): expected a finite number"});
}

BOOST_AUTO_TEST_CASE(duplicate_keys_are_rejected_with_the_path) {
  // nlohmann keeps the last of duplicate keys; the readers are strict, so parse_json_text (which every reader goes
  // through) refuses them, naming the path of the second occurrence.
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": 2, "remaining": 30})",
                           R"("id": "A", "procs": 4, "length": 40000, "budget": 400, "deadline": 300, "procs": 5)"),
                     {kFile + ": bids[0].procs: duplicate field (an object may give each field once)"});
  std::string text = valid();
  text.insert(text.size() - 1, R"(, "kind": "sla-site")");
  expect_input_error(text, {kFile + ": kind: duplicate field"});
  expect_input_error(R"({"a": [{}, {"x": {"y": 1, "y\n": 2, "y": 3}}]})", {kFile + ": a[1].x.y: duplicate field"});
  expect_input_error(R"({"a\u001b": 1, "a\u001b": 2})", {kFile + R"(: "a\u001b": duplicate field)"});
  // The same key in different objects, and equal values in an array, are fine.
  BOOST_CHECK_NO_THROW(parse_json_text(R"({"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 1}]})", kFile));
}

BOOST_AUTO_TEST_CASE(user_text_in_messages_is_escaped_and_cut) {
  // A key is user text. It must not break the line, reach the terminal as an escape sequence, or be
  // printed whole when it is 100,000 characters long.
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2, "co\nst": 3)"),
                     {kFile + R"(: site."co\nst": unknown field (expected one of:)"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2, "\u001b[2J\u009b\u202e": 3)"),
                     {R"(site."\u001b[2J\u009b\u202e": unknown field)"});
  const std::string long_key(100'000, 'k');
  try {
    (void)sla::read_instance(parse_json_text(valid(R"("processors": 10, "mips": 100, "price": 2, ")" + long_key + R"(": 3)"), kFile), kFile);
    BOOST_ERROR("accepted a 100,000-character unknown key");
  } catch (const InputError& e) {
    const std::string m = e.what();
    BOOST_TEST(m.find(std::string(R"(site.")").append(40, 'k').append(R"(...": unknown field)")) != std::string::npos, m);
    BOOST_TEST(m.size() < 300u, m.size());
  }
  // Values are described the same way (quoted_text, cut after 36 characters).
  expect_input_error(with_b("procs", std::string("\"").append(100, 'x').append("\"")),
                     {std::string("got \"").append(36, 'x').append("...\"")});
  expect_input_error(with_b("procs", R"("a\nb\"c")"), {R"(got "a\nb\"c")"});
}

BOOST_AUTO_TEST_CASE(the_parser_message_never_copies_invalid_utf8) {
  // nlohmann's parse error echoes the token it read, raw: a 0xFF byte, or a 100,000-character string (cut after 40).
  const std::string shown[] = {R"(last read: '"a\xFF'; expected string literal)", std::string("last read: '\"").append(39, 'b').append("...'")};
  const std::string texts[] = {"{\"a\xFF\": 1}", std::string("{\"bids\": \"").append(100'000, 'b').append("\xFF\"}")};
  for (int k = 0; k < 2; ++k) {
    try {
      (void)parse_json_text(texts[k], kFile);
      BOOST_ERROR("accepted invalid UTF-8");
    } catch (const InputError& e) {
      const std::string m = e.what();
      BOOST_TEST(m.rfind(kFile + ": not valid JSON: parse error at line 1", 0) == 0u, m);
      BOOST_TEST(m.find(shown[k]) != std::string::npos, m);
      BOOST_TEST(m.find('\xFF') == std::string::npos, m);
      BOOST_TEST(m.size() < 400u, m.size());
    }
  }
}

BOOST_AUTO_TEST_CASE(quoted_text_escapes_controls_and_invalid_utf8) {
  BOOST_TEST(quoted_text("plain") == R"("plain")");
  BOOST_TEST(quoted_text("a\"b\\c\td") == R"("a\"b\\c\td")");
  BOOST_TEST(quoted_text("caf\xC3\xA9") == "\"caf\xC3\xA9\"");        // valid UTF-8 stays as it is
  BOOST_TEST(quoted_text("\xE2\x80\xAEx") == R"("\u202ex")");          // right-to-left override
  BOOST_TEST(quoted_text("\xC2\x9B" "1m") == R"("\u009b1m")");          // C1 CSI
  BOOST_TEST(quoted_text("\xC0\xAF\xC3") == R"("\xC0\xAF\xC3")");      // overlong, then truncated
  BOOST_TEST(quoted_text("\xED\xA0\x80") == R"("\xED\xA0\x80")");      // a surrogate
  BOOST_TEST(quoted_text(std::string(41, 'a')) == std::string("\"").append(40, 'a').append("...\""));
  BOOST_TEST(quoted_text(std::string(40, 'a')) == std::string("\"").append(40, 'a').append("\""));
  BOOST_TEST(printable_text("say \"hi\"\\n\x1b[0m") == "say \"hi\"\\n\\u001b[0m");  // no quotes added or escaped
}

BOOST_AUTO_TEST_CASE(duplicate_ids_are_rejected) {
  // bid vs bid
  std::string text = with_b("id", "\"A\"");
  expect_input_error(text, {"bids[1].id", "an id not used by another job or bid", "got \"A\""});
  // bid vs running job
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "A", "procs": 2, "remaining": 30})"),
                     {"bids[0].id", "an id not used by another job or bid", "got \"A\""});
  // running vs running
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)",
                           R"({"id": "r1", "procs": 2, "remaining": 30}, {"id": "r1", "procs": 1, "remaining": 5})"),
                     {"running[1].id", "an id not used by another job or bid"});
}

BOOST_AUTO_TEST_CASE(unknown_fields_are_rejected_with_known_names) {
  // Typo "proc" for "procs" (and procs then missing): the unknown field is reported first.
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": 2, "remaining": 30})",
                           R"("id": "A", "proc": 4, "length": 40000, "budget": 400, "deadline": 300)"),
                     {"bids[0].proc: unknown field", "procs"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2, "cost": 3)"), {"site.cost: unknown field", "price"});
  std::string text = valid();
  text.insert(1, R"("bidz": [], )");
  expect_input_error(text, {"bidz: unknown field", "bids"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2)", R"({"id": "r1", "procs": 2, "remaining": 30, "x": 1})"),
                     {"running[0].x: unknown field"});
}

BOOST_AUTO_TEST_CASE(pricing_must_be_named) {
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2, "pricing": "per-mi")"),
                     {"site.pricing", "processor-time", "wall-clock"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2, "pricing": 1)"), {"site.pricing"});
}

BOOST_AUTO_TEST_CASE(budget_test_must_be_a_boolean) {
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2, "budget_test": 1)"),
                     {"site.budget_test", "expected true or false", "got 1"});
  expect_input_error(valid(R"("processors": 10, "mips": 100, "price": 2, "budget_test": "yes")"),
                     {"site.budget_test", "expected true or false"});
}

BOOST_AUTO_TEST_CASE(free_inconsistent_with_running_jobs_is_rejected) {
  expect_input_error(valid(R"("processors": 10, "free": 10, "mips": 100, "price": 2)"),
                     {"site.free", "8 (site.processors minus the processors of the running jobs)", "got 10"});
}

BOOST_AUTO_TEST_CASE(read_json_file_names_a_missing_file) {
  try {
    (void)read_json_file("/nonexistent/dir/instance.json");
    BOOST_ERROR("read a file that does not exist");
  } catch (const InputError& e) {
    const std::string m = e.what();
    BOOST_TEST(m.find("/nonexistent/dir/instance.json") != std::string::npos, m);
    BOOST_TEST(m.find("cannot open") != std::string::npos, m);
  }
}

BOOST_AUTO_TEST_CASE(read_json_file_says_a_directory_is_a_directory) {
  const auto dir = std::filesystem::temp_directory_path();
  try {
    (void)read_json_file(dir.string());
    BOOST_ERROR("read a directory");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()) == dir.string() + ": is a directory; expected an instance file");
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_bad_input
