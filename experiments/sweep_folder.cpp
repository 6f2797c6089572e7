// The points folder of a sweep (see sweep_folder.hpp). Our own.
#include "experiments/sweep_folder.hpp"

#include "model/input.hpp"
#include "support/errors.hpp"
#include "support/files.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace schedcheck::experiments {

namespace fs = std::filesystem;

namespace {
constexpr const char* kSweepFile = "sweep.json";

std::string point_file(std::size_t i) { return fmt::format("point-{:06}.cbor", i); }

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot be read", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json read_sweep_file(const std::string& points_dir) {
  const std::string path = (fs::path(points_dir) / kSweepFile).string();
  try {
    return nlohmann::json::parse(read_whole(path));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: expected the JSON a sweep writes ({})", path, e.what()));
  }
}

// The parts of sweep.json that say which sweep it is.
nlohmann::json identity_of(const nlohmann::json& sweep) {
  return {{"experiment", sweep.at("experiment")}, {"options", sweep.at("options")}, {"points", sweep.at("points")}};
}
}  // namespace

nlohmann::json options_json(const ExperimentOptions& o) {
  return {{"seeds", o.seeds},       {"quick", o.quick},         {"traces", o.traces},
          {"traces_dir", o.traces_dir}, {"scenario", o.scenario}, {"corpus", o.corpus},
          {"readings", o.readings}, {"reading_names", o.reading_names}};
}

ExperimentOptions options_from_json(const nlohmann::json& j) {
  ExperimentOptions o;
  o.seeds = j.at("seeds").get<std::size_t>();
  o.quick = j.at("quick").get<bool>();
  o.traces = j.at("traces").get<std::vector<std::string>>();
  o.traces_dir = j.at("traces_dir").get<std::string>();
  o.scenario = j.at("scenario").get<std::string>();
  o.corpus = j.at("corpus").get<std::string>();
  o.readings = j.at("readings").get<bool>();
  o.reading_names = j.at("reading_names").get<std::vector<std::string>>();
  return o;
}

nlohmann::json sweep_identity(const std::string& experiment, const ExperimentOptions& options,
                              const std::vector<Point>& points) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& p : points) all.push_back({p.parameters, p.seed, p.input, p.reading});
  return {{"experiment", experiment}, {"options", options_json(options)}, {"points", all}};
}

bool has_point_folder(const std::string& dir) {
  std::error_code ignored;
  return fs::is_regular_file(fs::path(dir) / "points" / kSweepFile, ignored);
}

PointFolder::PointFolder(const std::string& dir, nlohmann::json identity, const std::string& command,
                         const Shard& shard, bool resume)
    : path_((fs::path(dir) / "points").string()), identity_(std::move(identity)), resume_(resume) {
  identity_["command"] = command;
  identity_["shard"] = {shard.index, shard.count};
  std::error_code error;
  if (!resume || !fs::is_regular_file(fs::path(path_) / kSweepFile, error)) return;
  const nlohmann::json earlier = read_sweep_file(path_);
  if (identity_of(earlier) != identity_of(identity_))
    throw InputError(fmt::format("{}: --resume: these points are of another sweep ({} with other options or "
                                 "points); expected a folder this command wrote, or leave --resume out to start "
                                 "afresh", path_, quoted_text(earlier.value("experiment", std::string("?")))));
  const std::size_t n = identity_.at("points").size();
  for (std::size_t i = 0; i < n; ++i) kept_ += fs::is_regular_file(fs::path(path_) / point_file(i), error);
}

void PointFolder::open() const {
  std::error_code error;
  if (!resume_) fs::remove_all(path_, error);
  prepare_output_directory(path_, "--out");
  write_file_atomically((fs::path(path_) / kSweepFile).string(), identity_.dump(1) + "\n");
}

RecordStore PointFolder::store() const {
  RecordStore s;
  s.load = [dir = path_](std::size_t i) -> std::optional<std::string> {
    const fs::path file = fs::path(dir) / point_file(i);
    std::error_code error;
    if (!fs::is_regular_file(file, error)) return std::nullopt;
    return read_whole(file.string());
  };
  s.save = [dir = path_](std::size_t i, const std::string& bytes) {
    write_file_atomically((fs::path(dir) / point_file(i)).string(), bytes);
  };
  return s;
}

MergedSweep merge_sweep_shards(const std::vector<std::string>& dirs, const std::string& out, bool force,
                               const Registry& registry) {
  if (dirs.empty()) throw InputError("merge: expected the shards' --out folders");
  nlohmann::json first;
  ShardSet shards;  // shard index -> its points folder
  for (const auto& dir : dirs) {
    if (!has_point_folder(dir))
      throw InputError(fmt::format("{}: expected a shard's --out folder (points/sweep.json of `experiment ... --shard "
                                   "I/N`, or shard.json of `search ... --shard I/N`)", dir));
    const std::string points = (fs::path(dir) / "points").string();
    const nlohmann::json sweep = read_sweep_file(points);
    if (first.is_null()) first = sweep;
    else if (identity_of(sweep) != identity_of(first))
      throw InputError(fmt::format("merge: {} is a shard of another sweep than {} (another experiment, options or "
                                   "points)", dir, dirs.front()));
    shards.add(Shard{sweep.at("shard").at(0).get<std::size_t>(), sweep.at("shard").at(1).get<std::size_t>()}, points);
  }
  shards.require_all();
  const std::size_t count = shards.count();
  const std::size_t points = first.at("points").size();
  for (std::size_t i = 0; i < points; ++i) {
    const std::string& dir = shards.dir(i % count + 1);
    std::error_code error;
    if (!fs::is_regular_file(fs::path(dir) / point_file(i), error))
      throw InputError(fmt::format("merge: {}: point {} of shard {}/{} did not finish; run that shard again with "
                                   "--resume (its finished points are kept)", dir, i, i % count + 1, count));
  }

  MergedSweep merged;
  merged.experiment = first.at("experiment").get<std::string>();
  merged.command = first.at("command").get<std::string>();  // the first shard's, recorded without --shard
  merged.points = points;
  merged.shards = count;
  const ExperimentOptions options = options_from_json(first.at("options"));
  const CatalogueEntry& entry = find(merged.experiment);
  const std::unique_ptr<Experiment> experiment = entry.make(options, registry);
  const nlohmann::json identity = sweep_identity(merged.experiment, options, experiment->points());
  if (identity != identity_of(first))
    throw InputError(fmt::format("merge: {}: the experiment's points are not the shards' (its inputs changed since)",
                                 merged.experiment));
  claim_output_directory(out, "--out", force);
  const PointFolder folder(out, identity, merged.command, Shard{}, false);
  folder.open();
  const RecordStore into = folder.store();
  for (std::size_t i = 0; i < points; ++i)
    into.save(i, read_whole((fs::path(shards.dir(i % count + 1)) / point_file(i)).string()));
  SerialExecutor serial;  // every point is in the folder: nothing runs again
  const Sweep sweep = run_sweep(*experiment, serial, {}, into);
  merged.written = write_results(*experiment, options, sweep, out, merged.command);
  merged.violations = sweep.violations();
  return merged;
}

}  // namespace schedcheck::experiments
