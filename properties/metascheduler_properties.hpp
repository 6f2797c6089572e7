// Named properties of a run of paper 000's system, recomputed from the run's log (model/metascheduler.hpp): the
// paper's premise that providers keep every deadline they accepted, that every task of every job runs exactly once,
// and that no cluster runs more than its processors. Paper 000 sec. III-A ("do not violate the deadline of already
// scheduled tasks"), sec. IV, V; the wording is ours. Limits: times compared within kTimeTolerance.
#pragma once

#include "model/metascheduler.hpp"
#include "properties/run_property.hpp"

#include <string>
#include <vector>

namespace schedcheck::metascheduler {

using PropertyInfo = RunPropertyInfo;
const std::vector<PropertyInfo>& run_properties();   // in report order

// Checks every property of run_properties() on a finished run.
std::vector<RunPropertyResult> check_run(const System& system, const RunLog& run);

}  // namespace schedcheck::metascheduler
