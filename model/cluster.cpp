// The cluster value types' one function (see cluster.hpp). Our own.
#include "model/cluster.hpp"

namespace schedcheck::cluster {

const char* to_string(ResourceModel model) { return model == ResourceModel::kCount ? "count" : "processors"; }

}  // namespace schedcheck::cluster
