// `schedcheck conformance list | export DIR | run --cmd COMMAND | check DIR`: the conformance suite of FCFS, EASY(k)
// and conservative backfilling (properties/conformance.hpp) turned on another scheduler's implementation. Our own.
// Limits: one cluster; the user's command is a POSIX shell command.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace schedcheck::cli {

// Adds the command and its four subcommands; the returned function runs whichever was parsed, or returns -1.
std::function<int()> add_conformance_command(CLI::App& app);

}  // namespace schedcheck::cli
