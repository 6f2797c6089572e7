// Fuzz target: the corpus reader, as `check` and the corpus test read a counterexample file: the file (JSON, or an
// SWF trace whose header line "; schedcheck: {...}" holds the block; the first byte chooses the extension) through
// workload::read_instance_file, then the reader of the problem its "schedcheck" block names. Properties: bad input is
// only ever an InputError; the corpus text the problem writes for the instance and its block (what `search --out`
// writes) reads back as the same instance and block. Our own.
#include "counterexamples/builtin.hpp"
#include "fuzz/fuzz_support.hpp"
#include "model/input.hpp"
#include "model/workload.hpp"

#include <cstddef>
#include <cstdint>

using namespace schedcheck;

namespace {
const char* const kTarget = "corpus";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Registry registry = make_builtin_registry();
  static const fuzz::ScratchFile json_file("corpus.json"), swf_file("corpus.swf"), written_json("written.json"),
      written_swf("written.swf");
  if (size == 0) return 0;
  const fuzz::ScratchFile& file = (data[0] & 1) ? swf_file : json_file;
  const std::string input = fuzz::text_of(data + 1, size - 1);
  nlohmann::json document, instance;
  const Problem* problem = nullptr;
  try {
    document = workload::read_instance_file(file.write(input));
    if (!document.is_object() || !document.contains("schedcheck")) return 0;  // not a corpus file
    const nlohmann::json& block = document["schedcheck"];
    if (!block.is_object() || !block.contains("problem") || !block["problem"].is_string()) return 0;
    problem = registry.find(block["problem"].get<std::string>());
    if (!problem) return 0;
    instance = problem->normalize(document, file.path());
  } catch (const InputError&) {
    return 0;
  }
  nlohmann::json block = document["schedcheck"];
  nlohmann::json corpus = instance;
  corpus["schedcheck"] = block;
  const std::string text = problem->corpus_text(corpus);
  const bool swf = problem->corpus_extension() == ".swf";
  nlohmann::json again, again_instance;
  try {
    again = workload::read_instance_file((swf ? written_swf : written_json).write(text));
    again_instance = problem->normalize(again, "(written)");
  } catch (const InputError& e) {
    fuzz::property_failed(kTarget, std::string("the corpus reader rejects the corpus text the problem wrote: ") + e.what(),
                          input, text);
  }
  if (again_instance != instance)
    fuzz::property_failed(kTarget, "the instance read back differs", input, instance.dump(2), again_instance.dump(2));
  if (swf) block["name"] = instance["name"];  // the SWF header line carries the instance's name in the block
  if (!again.contains("schedcheck") || again["schedcheck"] != block)
    fuzz::property_failed(kTarget, "the schedcheck block read back differs", input, block.dump(2),
                          again.value("schedcheck", nlohmann::json()).dump(2));
  return 0;
}
