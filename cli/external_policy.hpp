// `--policy-cmd`: a policy outside C++ for check, run, search, suite and simulate (docs/protocol.md). Our own.
// The options, and the policy's processes (one a worker thread) registered as a policy of each problem the run uses.
#pragma once

#include "cli/policy_process.hpp"
#include "properties/registry.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace schedcheck::cli {

struct ExternalPolicyOptions {
  std::string command;           // --policy-cmd (empty: none)
  std::string name = "external"; // --policy-name: how reports and corpus file names call it
  unsigned timeout_ms = 10'000;  // --policy-timeout-ms: the longest wait for one decision
  bool given() const { return !command.empty(); }
};

// Adds --policy-cmd, --policy-name and --policy-timeout-ms to `command`; `policy` is the --policy option, which
// --policy-cmd excludes (and makes optional).
void add_external_policy_options(CLI::App* command, ExternalPolicyOptions& options, CLI::Option* policy);

class ExternalPolicy {
public:
  explicit ExternalPolicy(const ExternalPolicyOptions& options);  // starts the process (throws InputError)
  // Registers the process as `options.name` on `problem` (once per problem); throws InputError when the problem
  // takes no policies outside C++.
  void register_with(Problem& problem);
  JsonPolicy json_policy() const;  // ask the process; messages name the instance or the pass
  const std::string& name() const { return options_.name; }
  const std::string& command() const { return options_.command; }

private:
  ExternalPolicyOptions options_;
  std::shared_ptr<PolicyProcesses> process_;  // one a worker thread
  std::vector<const Problem*> registered_;
};

}  // namespace schedcheck::cli
