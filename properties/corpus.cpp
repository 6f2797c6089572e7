// Corpus files of instances found inside runs or by search (see corpus.hpp). Our own.
#include "properties/corpus.hpp"

#include "support/files.hpp"

#include <fmt/format.h>

namespace schedcheck {

std::string format_number(double value) { return fmt::format("{:g}", value); }

std::string policy_options(const CheckRequest& request) {
  if (request.policy_cmd.empty()) return "--policy " + shell_quoted(request.policy);
  return fmt::format("--policy-cmd {} --policy-name {}", shell_quoted(request.policy_cmd),
                     shell_quoted(request.policy));
}

std::string check_command(const std::string& problem, const CheckRequest& request, const std::string& path) {
  if (!request.python_policy.empty())
    return fmt::format("python3: schedcheck.check({}, {}, policy={}, tolerance={}{})", nlohmann::json(problem).dump(),
                       nlohmann::json(path).dump(), request.python_policy, format_number(request.tolerance),
                       request.exact.empty() ? "" : ", exact=" + nlohmann::json(request.exact).dump());
  // Every argument shell-quoted where it needs it: the line runs as it stands, whatever the path holds.
  std::string command = fmt::format("schedcheck check {} {} --instance {}", shell_quoted(problem),
                                    policy_options(request), shell_quoted(path));
  if (!request.exact.empty()) command += " --exact " + shell_quoted(request.exact);
  if (request.solve.effort > 0) command += " --effort " + std::to_string(request.solve.effort);
  command += " --tolerance " + format_number(request.tolerance);
  return command;
}

nlohmann::json corpus_document(const nlohmann::json& instance, const Report& r, const std::string& problem,
                               const CheckRequest& check, const std::string& name, const std::string& found_by,
                               const std::string& path) {
  nlohmann::json doc = instance;
  doc["name"] = name;
  nlohmann::json verdict = {{"exit_code", r.exit_code()},
                            {"fails", r.failing()},
                            {"heuristic", r.heuristic.objective},
                            {"optimum_status", r.optimum.status},
                            {"optimum", r.optimum.objective},
                            {"gap", r.gap ? nlohmann::json(*r.gap) : nlohmann::json(nullptr)}};
  doc["schedcheck"] = {
      {"problem", problem},
      {"policy", check.policy},
      {"policy_cmd", check.policy_cmd.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.policy_cmd)},
      {"python_policy", check.python_policy.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.python_policy)},
      {"exact", check.exact.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.exact)},
      {"tolerance", check.tolerance},
      {"verdict", verdict},
      {"found_by", found_by},
      {"reproduce", check_command(problem, check, path)},
      {"explanation", ""},
  };
  return doc;
}

}  // namespace schedcheck
