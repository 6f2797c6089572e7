// Trace options shared by simulate and audit (see trace_options.hpp). Our own.
#include "cli/trace_options.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>

namespace schedcheck::cli {

namespace fs = std::filesystem;

TraceOptions add_trace_options(CLI::App* command, TraceArgs& a, bool trace_required) {
  TraceOptions o;
  o.trace = command->add_option("--trace,-t", a.trace, "workload trace in the Standard Workload Format (.swf or .swf.gz), or a workload instance (.json, docs/formats.md)");
  if (trace_required) o.trace->required();
  o.processors = command->add_option("--processors", a.processors,
                                     "processors of the machine (default: the header's MaxProcs, else MaxNodes)")
                     ->check(CLI::Range(1LL, workload::kMaxProcessors));
  o.estimates = command->add_option("--estimates", a.estimates,
                                    "what the scheduler believes a job runs: `requested` (field 9; the run time where it "
                                    "is -1) or `runtime` (field 4, as paper 002 does)")
                    ->capture_default_str()
                    ->check(CLI::IsMember({"requested", "runtime"}));
  o.processor_field = command->add_option("--processor-field", a.processor_field,
                                          "processors of a job: `allocated` (field 5, else field 8) or `requested` "
                                          "(field 8, else field 5)")
                          ->capture_default_str()
                          ->check(CLI::IsMember({"allocated", "requested"}));
  o.model = command->add_option("--model", a.model,
                                "resource model: `count` (any k free processors at every instant) or `processors` (k "
                                "specific processors free over the whole window, as GridSim)")
                ->capture_default_str()
                ->check(CLI::IsMember({"count", "processors"}));
  o.lenient = command->add_flag("--lenient", a.lenient, "skip and count malformed trace lines instead of stopping at the first");
  return o;
}

workload::ReadOptions read_options(const TraceArgs& a) {  // the names were checked by the options' IsMember
  workload::ReadOptions options;
  options.estimates = *workload::estimate_source(a.estimates);
  options.processor_field = *workload::processor_field(a.processor_field);
  if (a.processors > 0) options.processors = a.processors;
  options.lenient = a.lenient;
  return options;
}

workload::Workload load(const TraceArgs& a) { return workload::load(a.trace, read_options(a)); }

cluster::ResourceModel model_of(const std::string& name) {
  const auto model = cluster::resource_model(name);
  if (!model) throw InputError(fmt::format("--model: expected count or processors, got {}", quoted_text(name)));
  return *model;
}

std::string choices(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " | ") + n;
  return out;
}

std::size_t parse_pivots(const std::string& text) {
  if (text == "inf" || text == "infinity") return cluster::kEveryJob;
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0)
    throw InputError(fmt::format("--pivots: expected a whole number >= 1 or `inf`, got {}", quoted_text(text)));
  return value;
}

}  // namespace schedcheck::cli
