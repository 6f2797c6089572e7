// The built-in problem registry: every problem schedcheck knows, with its policies, exact methods,
// properties and generator. Our own. To add a policy of your own, see docs/api.md and examples/custom_policy.cpp.
#pragma once

#include "properties/registry.hpp"

namespace schedcheck {

// A fresh registry with every built-in problem (no global state: add your own policies to the copy you get).
Registry make_builtin_registry();

}  // namespace schedcheck
