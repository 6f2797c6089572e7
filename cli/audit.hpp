// `schedcheck audit` (check a schedule another simulator produced against the invariants of the policy it claims
// to implement) and `schedcheck compare-runs` (paper 002's improvement ratio R and per-metric differences between
// two runs). Our own.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace schedcheck::cli {

// Adds both subcommands; the returned function runs whichever was parsed, or returns -1.
std::function<int()> add_audit_commands(CLI::App& app);

}  // namespace schedcheck::cli
