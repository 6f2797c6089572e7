// The cluster value types' names (see cluster.hpp). Our own.
#include "model/cluster.hpp"

namespace schedcheck::cluster {

const char* to_string(ResourceModel model) { return model == ResourceModel::kCount ? "count" : "processors"; }

std::optional<ResourceModel> resource_model(std::string_view name) {
  if (name == "count") return ResourceModel::kCount;
  if (name == "processors") return ResourceModel::kProcessors;
  return std::nullopt;
}

}  // namespace schedcheck::cluster
