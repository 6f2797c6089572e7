// --policy-cmd options and registration (see external_policy.hpp). Our own.
#include "cli/external_policy.hpp"

#include "cli/validators.hpp"
#include "model/input.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace schedcheck::cli {

void add_external_policy_options(CLI::App* command, ExternalPolicyOptions& options, CLI::Option* policy) {
  auto* cmd = command->add_option("--policy-cmd", options.command,
                                  "a policy outside C++: this shell command is started once and answers one JSON line "
                                  "per decision (docs/protocol.md)");
  if (policy) {
    policy->excludes(cmd);
    cmd->excludes(policy);
  }
  command->add_option("--policy-name", options.name, "name of the --policy-cmd policy in reports and corpus files")
      ->capture_default_str();
  command->add_option("--policy-timeout-ms", options.timeout_ms,
                      "--policy-cmd: the longest wait for one decision, milliseconds")
      ->capture_default_str()
      ->check(CLI::Range(1u, 86'400'000u));
}

ExternalPolicy::ExternalPolicy(const ExternalPolicyOptions& options)
    : options_(options), process_(std::make_shared<PolicyProcesses>(options.command, options.timeout_ms)) {
  const auto& n = options_.name;
  const bool plain = !n.empty() && n.size() <= 64 && std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
  if (!plain)
    throw InputError(fmt::format("--policy-name: expected 1 to 64 letters, digits, '-', '_' or '.', got {}", quoted_text(n)));
}

void ExternalPolicy::register_with(Problem& problem) {
  if (std::find(registered_.begin(), registered_.end(), &problem) != registered_.end()) return;
  if (!problem.accepts_external_policies())
    throw InputError(fmt::format("--policy-cmd: problem {} takes no policies outside C++", problem.info().name));
  try {
    problem.add_external_policy({options_.name, "--policy-cmd " + options_.command, "a policy outside C++ (docs/protocol.md)"},
                                json_policy());
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("--policy-name {}: {} (choose another name)", quoted_text(options_.name), e.what()));
  }
  registered_.push_back(&problem);
}

JsonPolicy ExternalPolicy::json_policy() const {
  return [process = process_](const nlohmann::json& request) {
    std::string about = "a request";
    if (const auto it = request.find("instance"); it != request.end() && it->is_object()) {
      const auto name = it->find("name");
      about = "instance " + (name != it->end() && name->is_string() ? quoted_text(name->get<std::string>()) : "(unnamed)");
    } else if (const auto snapshot = request.find("snapshot"); snapshot != request.end() && snapshot->is_object()) {
      about = fmt::format("the scheduling pass at t={:g}", snapshot->value("now", 0.0));
    }
    return process->ask(request, about);
  };
}

}  // namespace schedcheck::cli
