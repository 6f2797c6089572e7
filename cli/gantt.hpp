// `schedcheck gantt`: a Gantt chart (PNG or SVG) of a run's per-job CSV (Batsim's out_jobs.csv columns), drawn
// by gnuplot from a script and data file that schedcheck writes to a temporary directory. Our own.
// For small cases a person wants to look at: refuses more than --max-jobs jobs in the window; needs `gnuplot`.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace schedcheck::cli {

// Adds the subcommand; the returned function runs it when it was parsed, or returns -1.
std::function<int()> add_gantt_command(CLI::App& app);

}  // namespace schedcheck::cli
