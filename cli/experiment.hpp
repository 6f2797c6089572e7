// `schedcheck experiment --list | NAME --out DIR [--seeds N] [--jobs N] [--quick] [--json] [-q]`: runs one
// experiment of the catalogue (experiments/) and writes its tables, plots and summary.json. Our own.
#pragma once

#include "properties/registry.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace schedcheck::cli {

// Adds the subcommand; the returned function runs it when it was parsed, or returns -1. `command` is the whole
// command line (summary.json records it).
std::function<int()> add_experiment_command(CLI::App& app, const Registry& registry, const std::string& command);

}  // namespace schedcheck::cli
