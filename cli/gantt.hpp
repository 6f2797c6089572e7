// `schedcheck gantt`: a Gantt chart (PNG or SVG) of a run's per-job CSV (Batsim's out_jobs.csv columns), or of a
// queue window's schedule, drawn by report/gantt.hpp. Our own. For small cases a person wants to look at: refuses
// more than --max-jobs jobs in the window; needs `gnuplot`.
#pragma once

#include "properties/registry.hpp"

#include <CLI/CLI.hpp>

#include <functional>

namespace schedcheck::cli {

// Adds the subcommand; the returned function runs it when it was parsed, or returns -1.
std::function<int()> add_gantt_command(CLI::App& app, const Registry& registry);

}  // namespace schedcheck::cli
