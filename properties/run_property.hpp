// What a run property is (a name, its source, a summary) and its result on one run (violations, the first one in a
// sentence): shared by the papers' systems (properties/federation_properties.hpp, metascheduler_properties.hpp). Our
// own.
#pragma once

#include <cstddef>
#include <string>

namespace schedcheck {

struct RunPropertyInfo {
  std::string name;
  std::string source;
  std::string summary;
};

struct RunPropertyResult {
  std::string name;
  std::size_t violations = 0;
  std::string first;                // the first violation, one sentence naming the job and the instant
};

}  // namespace schedcheck
