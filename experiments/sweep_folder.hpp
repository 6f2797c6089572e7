// The points folder of a sweep (DIR/points): what sweep it is (sweep.json) and one file per finished point, written
// as each finishes. It is how a sweep cut by a batch job's time limit resumes (--resume: points already there are not
// run again), how the shards of a job array hand their points over, and what `schedcheck merge` combines into the
// results one run writes, byte for byte. Our own. Limits: paths in the options (traces, scenarios) are kept as given,
// so a merge reads them from where the shards did.
#pragma once

#include "experiments/runner.hpp"
#include "support/executor.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace schedcheck::experiments {

// The options that decide a sweep's points and runs (not --jobs, --out or --shard), as JSON and back.
nlohmann::json options_json(const ExperimentOptions& options);
ExperimentOptions options_from_json(const nlohmann::json& j);

// What makes two runs the same sweep: the experiment, its options and every point (parameters, seed, input, reading).
nlohmann::json sweep_identity(const std::string& experiment, const ExperimentOptions& options,
                              const std::vector<Point>& points);

class PointFolder {
public:
  // DIR/points for the sweep `identity`, read only: with `resume`, the points an earlier run of the same sweep
  // finished are counted (InputError when DIR/points holds another sweep's), so that a refusal changes nothing.
  // `command` (without --shard) and `shard` are what sweep.json records.
  PointFolder(const std::string& dir, nlohmann::json identity, const std::string& command, const Shard& shard,
              bool resume);
  // Makes the folder this run's: without `resume` whatever it held is removed first; writes sweep.json.
  void open() const;
  RecordStore store() const;    // load: a kept point's record; save: writes the point's file (atomically)
  std::size_t kept() const { return kept_; }  // points kept from an earlier run
  const std::string& path() const { return path_; }

private:
  std::string path_;
  nlohmann::json identity_;
  bool resume_ = false;
  std::size_t kept_ = 0;
};

// `schedcheck merge --out OUT DIR...` for experiment shards: every DIR/points must be of one sweep, its shards 1..N
// each given once and each finished (InputError naming the missing shard or point otherwise). Copies the points into
// OUT/points, makes the experiment from the recorded options and writes its results into OUT as one run of the
// recorded command does. Returns the experiment's exit code (1 when a run violated something).
struct MergedSweep {
  std::string experiment;
  std::string command;
  std::size_t points = 0, shards = 0;
  Written written;
  std::size_t violations = 0;
};
MergedSweep merge_sweep_shards(const std::vector<std::string>& dirs, const std::string& out, bool force,
                               const Registry& registry);

// Whether DIR holds a sweep's points folder (DIR/points/sweep.json).
bool has_point_folder(const std::string& dir);

}  // namespace schedcheck::experiments
