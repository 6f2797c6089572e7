// The trace-driven commands of the schedcheck executable: simulate, audit, compare-runs. Our own.
// Each adds its subcommand and options to the app; the caller runs the one the user chose.
#pragma once

#include "properties/registry.hpp"

#include <CLI/CLI.hpp>

#include <functional>

namespace schedcheck::cli {

// Adds `simulate`, `audit` and `compare-runs`; returns the function that runs whichever was parsed (or an empty
// function when none was).
std::function<int()> add_trace_commands(CLI::App& app, const Registry& registry);

}  // namespace schedcheck::cli
