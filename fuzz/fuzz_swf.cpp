// Fuzz target: the SWF reader (model/swf.hpp) and the workload made from it (model/workload.hpp, read_swf). The
// first byte chooses the read options (lenient, estimates, processor field, a given machine size); the rest is
// the trace. Properties: bad input is only ever an InputError; the records read, written (swf::write) and read
// again are the same; the workload read, written (write_swf) and read again has the same jobs and machine. Our own.
#include "fuzz/fuzz_support.hpp"
#include "model/swf.hpp"
#include "model/workload.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

using namespace schedcheck;

namespace {

const char* const kTarget = "swf";

std::vector<swf::Record> read_records(const std::string& path, bool lenient, swf::Header* header = nullptr) {
  swf::Reader reader(path, lenient);
  std::vector<swf::Record> records;
  swf::Record r;
  while (reader.next(r)) records.push_back(r);
  if (header) *header = reader.header();
  return records;
}

bool same_value(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::string records_text(const std::vector<swf::Record>& records) { return swf::write({}, records); }

std::string jobs_text(const workload::Workload& w) {
  std::string out = fmt::format("P = {}\n", w.processors);
  for (const auto& j : w.jobs) out += fmt::format("{} {} {} {} {}\n", j.id, j.submit, j.run, j.estimate, j.procs);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::ScratchFile first_file("trace.swf"), second_file("written.swf");
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  const std::string input = fuzz::text_of(data + 1, size - 1);
  workload::ReadOptions options;
  options.lenient = choice & 1;
  options.estimates = (choice & 2) ? workload::EstimateSource::kRuntime : workload::EstimateSource::kRequested;
  options.processor_field = (choice & 4) ? workload::ProcessorField::kRequested : workload::ProcessorField::kAllocated;
  if (choice & 8) options.processors = 1 + (choice >> 4) * 7;
  const std::string& path = first_file.write(input);

  // The records: read, write, read again.
  std::vector<swf::Record> records;
  bool records_read = true;
  try {
    records = read_records(path, options.lenient);
  } catch (const InputError&) {
    records_read = false;
  }
  if (records_read) {
    const std::string written = records_text(records);
    std::vector<swf::Record> again;
    try {
      again = read_records(second_file.write(written), false);
    } catch (const InputError& e) {
      fuzz::property_failed(kTarget, std::string("the reader rejects the records swf::write wrote: ") + e.what(), input,
                            written);
    }
    bool same = again.size() == records.size();
    for (std::size_t i = 0; same && i < records.size(); ++i)
      for (std::size_t k = 1; k <= swf::kFields; ++k) same = same && same_value(records[i].field(k), again[i].field(k));
    if (!same) fuzz::property_failed(kTarget, "records read, written, read again differ", input, written, records_text(again));
  }

  // The workload: read, write, read again (default options and the same machine: what was written is final).
  workload::Workload w;
  try {
    w = workload::read_swf(path, options);
  } catch (const InputError&) {
    return 0;
  }
  const std::string written = workload::write_swf(w, {"fuzz round trip"});
  workload::Workload again;
  try {
    again = workload::read_swf(second_file.write(written), workload::ReadOptions{});
  } catch (const InputError& e) {
    fuzz::property_failed(kTarget, std::string("the reader rejects the trace write_swf wrote: ") + e.what(), input, written);
  }
  if (jobs_text(again) != jobs_text(w))
    fuzz::property_failed(kTarget, "workload read, written, read again differs", input, jobs_text(w), jobs_text(again));
  return 0;
}
