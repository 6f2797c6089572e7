// What the trace-driven commands share: the options that say how a trace becomes a workload (--trace,
// --processors, --estimates, --processor-field, --model, --lenient, and another simulator's conventions: --round,
// --run-offset, --estimate-offset, --min-time, --estimate-at-least-run, --run-is-estimate, --kill-at-request,
// --invalid-records) and the policy options. Our own.
#pragma once

#include "model/input.hpp"
#include "model/workload.hpp"
#include "reference/cluster_policies.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace schedcheck::cli {

struct TraceArgs {
  std::string trace;
  long long processors = 0;  // 0: from the header
  std::string estimates = "requested";
  std::string processor_field = "allocated";
  std::string model = "count";
  bool lenient = false;
  // Another simulator's conventions (workload::Conventions, docs/simulation.md).
  std::string rounding = "none";
  double run_offset = 0, estimate_offset = 0, min_time = 0;
  bool estimate_at_least_run = false, run_is_estimate = false, kill_at_request = false;
  std::string invalid_records = "skip";
  std::string passes = "instant";  // when the scheduler decides: once an instant, or after every event
};

// The options it adds (a command may exclude some, e.g. simulate --scenario).
struct TraceOptions {
  CLI::Option *trace, *processors, *estimates, *processor_field, *model, *lenient;
  std::vector<CLI::Option*> conventions;
};
TraceOptions add_trace_options(CLI::App* command, TraceArgs& a, bool trace_required = true);
// What the options say of reading a trace (workload::load applies them).
workload::ReadOptions read_options(const TraceArgs& a);
// The convention options given, as command-line text (" --round floor --min-time 1"; "" when none), to repeat a run.
std::string convention_flags(const TraceArgs& a);
// The workload of --trace: an SWF trace by the documented rules, or the JSON workload form (workload::load).
workload::Workload load(const TraceArgs& a);
cluster::ResourceModel model_of(const std::string& name);
// --clusters P1,P2,...: the sizes, each 1 to workload::kMaxProcessors.
std::vector<int> cluster_sizes(const std::string& text);
// The check of such an option at parsing (its help text lists the names): every comma-separated name is known.
CLI::Validator names_in(const std::vector<std::string>& known);

}  // namespace schedcheck::cli
