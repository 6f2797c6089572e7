// Fuzz target: one problem's JSON instance reader, through the registry as `check` reads it; the problem is named by
// the environment variable SCHEDCHECK_FUZZ_PROBLEM (e.g. sla-admission), so one binary serves every registered
// problem. Property: read, write, read again gives the same document, and the written text parses back to it; bad
// input is only ever an InputError (anything else escaping is a crash). Our own.
#include "counterexamples/builtin.hpp"
#include "fuzz/fuzz_support.hpp"
#include "model/input.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace schedcheck;

namespace {
const Registry& registry() {
  static const Registry r = make_builtin_registry();
  return r;
}
const Problem* chosen = nullptr;
std::string target;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* name = std::getenv("SCHEDCHECK_FUZZ_PROBLEM");
  chosen = name ? registry().find(name) : nullptr;
  if (!chosen) {
    std::fprintf(stderr, "fuzz_instance: set SCHEDCHECK_FUZZ_PROBLEM to a problem of `schedcheck list` (got %s)\n",
                 name ? name : "nothing");
    std::exit(2);
  }
  target = std::string("instance/") + name;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Problem& problem = *chosen;
  const std::string input = fuzz::text_of(data, size);
  nlohmann::json first;
  try {
    first = problem.normalize(parse_json_text(input, "fuzz.json"), "fuzz.json");
  } catch (const InputError&) {
    return 0;  // rejected with a message: what bad input must get
  }
  const std::string written = first.dump(2);  // as `generate` and the corpus write an instance
  nlohmann::json second;
  try {
    second = problem.normalize(parse_json_text(written, "(written)"), "(written)");
  } catch (const InputError& e) {
    fuzz::property_failed(target, std::string("the reader rejects what the writer wrote: ") + e.what(), input, written);
  }
  if (second != first)
    fuzz::property_failed(target, "read, write, read again differs", input, written, second.dump(2));
  return 0;
}
