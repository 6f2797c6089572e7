// Trace options shared by simulate and audit (see trace_options.hpp). Our own.
#include "cli/trace_options.hpp"

#include "cli/validators.hpp"

#include <fmt/format.h>

#include <algorithm>
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
                                    "is -1), `runtime` (field 4, as paper 002 does) or `field9` (field 9 as it is, -1 "
                                    "included: pyss, with --min-time 1 --estimate-at-least-run)")
                    ->capture_default_str()
                    ->check(CLI::IsMember(workload::estimate_source_names()));
  o.processor_field = command->add_option("--processor-field", a.processor_field,
                                          "processors of a job: `allocated` (field 5, else field 8), `requested` "
                                          "(field 8, else field 5) or `allocated-only` (field 5; Alea)")
                          ->capture_default_str()
                          ->check(CLI::IsMember(workload::processor_field_names()));
  o.model = command->add_option("--model", a.model,
                                "resource model: `count` (any k free processors at every instant) or `processors` (k "
                                "specific processors free over the whole window, as GridSim); with --clusters, one "
                                "for all or one per cluster (count,processors,...)")
                ->capture_default_str()
                ->check(names_in({"count", "processors"}));
  o.lenient = command->add_flag("--lenient", a.lenient, "skip and count malformed trace lines instead of stopping at the first");
  // Another simulator's conventions, applied to every job in this order (docs/simulation.md lists each simulator's).
  const char* const conventions = "Conventions of another simulator";
  o.conventions = {
      command->add_option("--round", a.rounding, "round run times and estimates to whole seconds: none | floor (pyss) | "
                                                 "ceil | nearest (Alea)")
          ->capture_default_str()->check(CLI::IsMember(workload::rounding_names()))->group(conventions),
      command->add_option("--run-offset", a.run_offset, "seconds added to every run time after rounding (GridSim, "
                                                        "Batsim's SWF converter: 1)")
          ->check(finite_range(-1e9, 1e9))->group(conventions),
      command->add_option("--estimate-offset", a.estimate_offset, "seconds added to every estimate after rounding "
                                                                  "(GridSim: 1; batsched: 5)")
          ->check(finite_range(-1e9, 1e9))->group(conventions),
      command->add_option("--min-time", a.min_time, "least run time and estimate after the offsets, seconds (pyss, "
                                                    "Alea: 1; GridSim: 2)")
          ->check(finite_range(0.0, 1e12))->group(conventions),
      command->add_flag("--estimate-at-least-run", a.estimate_at_least_run,
                        "the scheduler believes max(estimate, run time) and the job still ends at min(run time, "
                        "estimate) (pyss, Alea)")
          ->group(conventions),
      command->add_flag("--run-is-estimate", a.run_is_estimate,
                        "every job runs exactly its estimate, before rounding and offsets (GridSim's reader: a job's "
                        "length is its requested time)")
          ->group(conventions),
      command->add_flag("--kill-at-request", a.kill_at_request,
                        "a job whose run time exceeds its requested time (field 9) ends there, whatever --estimates "
                        "says (Alea; SWF traces)")
          ->group(conventions),
      command->add_option("--invalid-records", a.invalid_records,
                          "records the reading rules skip for their run time or processors: skip | unit-job (pyss: "
                          "run <= 0 or no processors make a job of 1 s on max(1, field 5) processors) | one-processor "
                          "(GridSim: no processor count makes 1)")
          ->capture_default_str()->check(CLI::IsMember(workload::invalid_records_names()))->group(conventions),
      command->add_option("--passes", a.passes, "when the scheduler decides: instant (one pass after all the events "
                                                "of an instant; Batsim, GridSim) | event (a pass after every arrival "
                                                "and every completion: pyss, Alea)")
          ->capture_default_str()->check(CLI::IsMember({"instant", "event"}))->group(conventions)};
  return o;
}

workload::ReadOptions read_options(const TraceArgs& a) {  // the names were checked by the options' IsMember
  workload::ReadOptions options;
  options.estimates = *workload::estimate_source(a.estimates);
  options.processor_field = *workload::processor_field(a.processor_field);
  if (a.processors > 0) options.processors = a.processors;
  options.lenient = a.lenient;
  options.conventions.rounding = *workload::rounding(a.rounding);
  options.conventions.run_offset = a.run_offset;
  options.conventions.estimate_offset = a.estimate_offset;
  options.conventions.floor = a.min_time;
  options.conventions.estimate_at_least_run = a.estimate_at_least_run;
  options.conventions.run_is_estimate = a.run_is_estimate;
  options.conventions.kill_at_request = a.kill_at_request;
  options.conventions.invalid = *workload::invalid_records(a.invalid_records);
  return options;
}

std::string convention_flags(const TraceArgs& a) {
  std::string out;
  if (a.rounding != "none") out += " --round " + a.rounding;
  if (a.run_offset != 0) out += fmt::format(" --run-offset {}", a.run_offset);
  if (a.estimate_offset != 0) out += fmt::format(" --estimate-offset {}", a.estimate_offset);
  if (a.min_time != 0) out += fmt::format(" --min-time {}", a.min_time);
  if (a.estimate_at_least_run) out += " --estimate-at-least-run";
  if (a.run_is_estimate) out += " --run-is-estimate";
  if (a.kill_at_request) out += " --kill-at-request";
  if (a.invalid_records != "skip") out += " --invalid-records " + a.invalid_records;
  if (a.passes != "instant") out += " --passes " + a.passes;
  return out;
}

workload::Workload load(const TraceArgs& a) { return workload::load(a.trace, read_options(a)); }

cluster::ResourceModel model_of(const std::string& name) {
  const auto model = cluster::resource_model(name);
  if (!model) throw InputError(fmt::format("--model: expected count or processors, got {}", quoted_text(name)));
  return *model;
}

std::vector<int> cluster_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data() + at, text.data() + comma, value);
    if (ec != std::errc() || end != text.data() + comma || value < 1 || value > workload::kMaxProcessors)
      throw InputError(fmt::format("--clusters: expected processors per cluster as P1,P2,... (each 1 to {}), got {}",
                                   workload::kMaxProcessors, quoted_text(text)));
    sizes.push_back(static_cast<int>(value));
    at = comma + 1;
  }
  return sizes;
}

CLI::Validator names_in(const std::vector<std::string>& known) {
  return CLI::Validator(
      [known](std::string& text) -> std::string {
        for (const auto& name : split_commas(text))
          if (!known_name(known, name)) return fmt::format("{} is not one of {}", quoted_text(name), choices(known));
        return "";
      },
      "{" + choices(known) + "}[,...]");
}

}  // namespace schedcheck::cli
