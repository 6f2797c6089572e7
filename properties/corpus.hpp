// Corpus files: an instance plus a "schedcheck" block with the verdict recorded when it was found, how it was found
// and the command that re-checks it (docs/formats.md), for instances found by search or inside a run (a decision
// check). Our own. counterexamples/search.hpp adds the search's own naming and provenance.
#pragma once

#include "properties/registry.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace schedcheck {

// The corpus document of `instance` (the problem's JSON), checked as `report` under `check`; `found_by` says how it
// was found, `path` is where it will be written (the reproduce command names it).
nlohmann::json corpus_document(const nlohmann::json& instance, const Report& report, const std::string& problem,
                               const CheckRequest& check, const std::string& name, const std::string& found_by,
                               const std::string& path);

// The command that re-checks a file under the same request.
std::string check_command(const std::string& problem, const CheckRequest& request, const std::string& path);
// The options naming the policy in a command: --policy NAME, or the external command and its name.
std::string policy_options(const CheckRequest& request);
// A number as the commands print it ({:g}).
std::string format_number(double value);

}  // namespace schedcheck
