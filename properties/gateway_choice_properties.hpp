// Properties of a gateway's choice of provider (model/gateway_choice.hpp): feasible on the providers' true profiles,
// no earlier than the exact earliest start, optimal, and every miss explained by stale published slots. Paper 002
// sec. 4-5 (violations of the gateway's plan) and our own wording of what explains one.
#pragma once

#include "model/gateway_choice.hpp"
#include "properties/registry.hpp"

#include <vector>

namespace schedcheck::gateway {

std::vector<PropertySpec<Instance, Choice>> properties();

}  // namespace schedcheck::gateway
