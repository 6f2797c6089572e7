// Workloads from SWF records and the JSON workload form (see workload.hpp). Our own.
#include "model/workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace schedcheck::workload {

const char* to_string(Skip skip) {
  switch (skip) {
    case Skip::kMalformed: return "malformed";
    case Skip::kNoRunTime: return "no-run-time";
    case Skip::kNoProcessors: return "no-processors";
    case Skip::kCancelledBeforeStart: return "cancelled-before-start";
    case Skip::kTooWide: return "wider-than-machine";
    case Skip::kCount: break;
  }
  return "?";
}

const char* explain(Skip skip) {
  switch (skip) {
    case Skip::kMalformed: return "malformed line skipped (--lenient)";
    case Skip::kNoRunTime: return "run time -1 (field 4)";
    case Skip::kNoProcessors: return "no processor count (fields 5 and 8 both -1 or 0)";
    case Skip::kCancelledBeforeStart: return "cancelled before it started (status 5, run time 0)";
    case Skip::kTooWide: return "asks more processors than the machine has";
    case Skip::kCount: break;
  }
  return "?";
}

std::size_t Workload::skipped_total() const { return std::accumulate(skipped.begin(), skipped.end(), std::size_t{0}); }

Classified classify(const swf::Record& record, const ReadOptions& options, long long processors) {
  Classified out;
  const Conventions& c = options.conventions;
  const double first = options.processor_field == ProcessorField::kRequested ? record.requested_procs : record.allocated_procs;
  const double second = options.processor_field == ProcessorField::kRequested ? record.allocated_procs
                        : options.processor_field == ProcessorField::kAllocated ? record.requested_procs
                                                                                 : -1;
  double procs = first > 0 ? first : second;
  Job job;
  job.id = static_cast<std::int64_t>(record.job_id);
  job.submit = record.submit;
  // pyss: a record without a run time or processors, or of run time 0, is a job of one second (see InvalidRecords).
  if (c.invalid == InvalidRecords::kUnitJob && (record.run <= 0 || !(procs > 0))) {
    job.submit = std::max(record.submit, 1.0);
    job.run = job.estimate = 1;
    job.procs = static_cast<int>(std::max(1.0, record.allocated_procs));
    if (job.procs > processors) {
      out.skip = Skip::kTooWide;
      return out;
    }
    out.job = with_conventions(job, c);
    out.read_as_invalid = true;
    return out;
  }
  if (record.run < 0) {
    out.skip = Skip::kNoRunTime;
    return out;
  }
  if (!(procs > 0) && c.invalid == InvalidRecords::kOneProcessor) {
    procs = 1;
    out.read_as_invalid = true;
  }
  if (!(procs > 0)) {
    out.skip = Skip::kNoProcessors;
    return out;
  }
  if (record.status == 5 && record.run == 0) {
    out.skip = Skip::kCancelledBeforeStart;
    return out;
  }
  if (procs > static_cast<double>(processors)) {
    out.skip = Skip::kTooWide;
    return out;
  }
  job.run = record.run;
  job.procs = static_cast<int>(procs);
  // Requested time -1 (or 0: no usable request) means the scheduler knows no estimate: it uses the run time (unless
  // field 9 is read as it is).
  const bool as_given = options.estimates == EstimateSource::kField9;
  out.estimate_from_runtime = !as_given && (options.estimates == EstimateSource::kRuntime || !(record.requested_time > 0));
  job.estimate = out.estimate_from_runtime ? record.run : record.requested_time;
  if (c.kill_at_request && record.requested_time > 0) job.run = std::min(job.run, record.requested_time);
  if (c.any()) job = with_conventions(job, c);
  job.estimate = std::max(job.estimate, 0.0);  // field 9's -1 left by no floor: believed to end at once
  out.job = job;
  return out;
}

namespace {
// Stable order by submit time; counts the records that came after a later-submitted one.
std::size_t sort_by_submit(std::vector<Job>& jobs) {
  std::size_t reordered = 0;
  double latest = -std::numeric_limits<double>::infinity();
  for (const auto& j : jobs) {
    if (j.submit < latest) ++reordered;
    latest = std::max(latest, j.submit);
  }
  if (reordered) std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.submit < b.submit; });
  return reordered;
}
}  // namespace

Workload read_swf(const std::string& path, const ReadOptions& options) {
  swf::Reader reader(path, options.lenient);
  Workload w;
  w.name = path;
  swf::Record record;
  long long processors = 0;
  bool have_size = false;
  auto settle_size = [&] {
    if (have_size) return;
    have_size = true;
    const auto& h = reader.header();
    if (options.processors) {
      processors = *options.processors;
      w.processors_from = "--processors";
    } else if (h.max_procs && *h.max_procs > 0) {
      processors = *h.max_procs;
      w.processors_from = "MaxProcs";
    } else if (h.max_nodes && *h.max_nodes > 0) {
      processors = *h.max_nodes;
      w.processors_from = "MaxNodes";
    } else {
      throw NoMachineSize(fmt::format("{}: the header gives no machine size (no '; MaxProcs:' or '; MaxNodes:' line); "
                                   "give it with --processors P", path));
    }
    if (processors < 1 || processors > kMaxProcessors)
      throw InputError(fmt::format("{}: {}: expected a machine of 1 to {} processors, got {}", path, w.processors_from,
                                   kMaxProcessors, processors));
  };
  std::optional<double> first_submit;
  std::unordered_map<std::int64_t, std::size_t> first_line;  // job number -> the line it was first read on
  while ((options.max_records == 0 || w.records < options.max_records) && reader.next(record)) {
    settle_size();  // the header comes before the first record
    if (!first_submit) first_submit = record.submit;
    if (options.period > 0 && record.submit > *first_submit + options.period) break;
    ++w.records;
    const Classified c = classify(record, options, processors);
    if (!c.job) {
      ++w.skipped[static_cast<std::size_t>(c.skip)];
      w.skipped_records.push_back(SkippedRecord{static_cast<std::int64_t>(record.job_id), record.submit, c.skip});
      continue;
    }
    w.invalid_read += c.read_as_invalid;
    // A job number twice would make two rows of one id in every per-job CSV (which audit and compare-runs match by
    // id): refused, as the JSON instance reader refuses it.
    if (const auto [at, fresh] = first_line.emplace(c.job->id, record.line); !fresh)
      throw InputError(fmt::format("{}: line {}: field 1 (job number): job {} is listed twice (first on line {}); "
                                   "expected distinct job numbers", path, record.line, c.job->id, at->second));
    w.estimates_from_runtime += c.estimate_from_runtime;
    w.killed += c.job->killed();
    w.jobs.push_back(*c.job);
  }
  settle_size();  // a trace without job lines still needs a size
  w.processors = static_cast<int>(processors);
  w.skipped[static_cast<std::size_t>(Skip::kMalformed)] = reader.malformed();
  w.records += reader.malformed();
  w.first_malformed = reader.first_malformed();
  w.unix_start_time = reader.header().unix_start_time;
  w.header = reader.header().fields;
  w.reordered = sort_by_submit(w.jobs);
  return w;
}

namespace {
// The jobs read: distinct ids (else `jobs` fails naming one), sorted by submit time, counted.
void finish_jobs(Workload& w, const Field& jobs) {
  w.records = w.jobs.size();
  std::vector<std::int64_t> ids;
  for (const auto& j : w.jobs) ids.push_back(j.id);
  std::sort(ids.begin(), ids.end());
  if (const auto dup = std::adjacent_find(ids.begin(), ids.end()); dup != ids.end())
    jobs.fail(fmt::format("distinct job ids (id {} appears twice)", *dup));
  w.reordered = sort_by_submit(w.jobs);
}
}  // namespace

Workload read_instance(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  root.only_keys({"kind", "name", "comment", "processors", "jobs", "schedcheck"});
  Workload w;
  w.name = read_instance_header(root, kInstanceKind, "\"workload\" files (docs/formats.md)", file);
  w.processors = static_cast<int>(root.at("processors").as_int(1, kMaxProcessors));
  w.processors_from = "instance";
  for (const Field& item : root.at("jobs").items()) {
    item.only_keys({"id", "submit", "run", "estimate", "procs"});
    Job job;
    job.id = item.at("id").as_int(0, 1'000'000'000'000'000LL);
    job.submit = item.at("submit").as_number(0, 1e15);
    job.run = item.at("run").as_number(0, 1e15);
    job.estimate = item.has("estimate") ? item.at("estimate").as_number(0, 1e15) : job.run;
    if (job.estimate == 0 && job.run > 0) item.at("estimate").fail("an estimate > 0 for a job that runs (run > 0)");
    job.procs = static_cast<int>(item.at("procs").as_int(1, w.processors));
    w.killed += job.killed();
    w.jobs.push_back(job);
  }
  finish_jobs(w, root.at("jobs"));
  return w;
}

nlohmann::json write_instance(const Workload& workload) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const auto& j : workload.jobs)
    jobs.push_back({{"id", j.id}, {"submit", j.submit}, {"run", j.run}, {"estimate", j.estimate}, {"procs", j.procs}});
  return {{"kind", kInstanceKind}, {"name", workload.name}, {"processors", workload.processors}, {"jobs", jobs}};
}

Workload read_batsim(const nlohmann::json& document, const std::string& file) {
  const Field root(document, file);
  Workload w;
  w.name = std::filesystem::path(file).filename().string();
  w.processors = static_cast<int>(root.at("nb_res").as_int(1, kMaxProcessors));
  w.processors_from = "nb_res";
  std::unordered_map<std::string, double> delays;  // the delay profiles
  std::unordered_map<std::string, std::string> others;  // any other profile: its type
  for (const auto& [name, profile] : root.at("profiles").members()) {
    const std::string type = profile.at("type").as_string();
    if (type == "delay")
      delays.emplace(name, profile.at("delay").as_number(0, 1e15));
    else
      others.emplace(name, type);
  }
  for (const Field& item : root.at("jobs").items()) {
    Job job;
    const Field id = item.at("id");
    if (id.raw().is_string()) {
      const std::string text = id.as_string();
      long long value = -1;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size() || value < 0)
        id.fail("an integer job id (or a string holding one: schedules name jobs by it)");
      job.id = value;
    } else {
      job.id = id.as_int(0, 1'000'000'000'000'000LL);
    }
    job.submit = item.at("subtime").as_number(0, 1e15);
    const Field profile = item.at("profile");
    const std::string name = profile.as_string();
    const auto delay = delays.find(name);
    if (delay == delays.end()) {
      const auto other = others.find(name);
      profile.fail(other != others.end()
                       ? fmt::format("a delay profile (profile {} is of type {}: its run time is not known before the "
                                     "run)", quoted_text(name), quoted_text(other->second))
                       : "the name of a profile of \"profiles\"");
    }
    job.run = delay->second;
    job.estimate = job.run;
    if (item.has("walltime")) {
      const double walltime = item.at("walltime").as_number(-1, 1e15);
      if (walltime > 0) {
        job.estimate = walltime;
        // Batsim kills a job at its walltime, as the model ends a job at min(run, estimate).
      } else if (walltime != -1) {
        item.at("walltime").fail("a walltime > 0, or -1 for none");
      }
    }
    job.procs = static_cast<int>(item.at("res").as_int(1, w.processors));
    w.killed += job.killed();
    w.jobs.push_back(job);
  }
  finish_jobs(w, root.at("jobs"));
  return w;
}

nlohmann::json write_batsim(const Workload& workload) {
  nlohmann::json jobs = nlohmann::json::array(), profiles = nlohmann::json::object();
  for (const auto& j : workload.jobs) {
    const std::string profile = fmt::format("delay_{}", j.run);
    profiles[profile] = {{"type", "delay"}, {"delay", j.run}};
    nlohmann::json job = {{"id", std::to_string(j.id)}, {"subtime", j.submit}, {"res", j.procs}, {"profile", profile}};
    job["walltime"] = j.estimate > 0 ? j.estimate : -1.0;
    jobs.push_back(std::move(job));
  }
  return {{"nb_res", workload.processors}, {"jobs", jobs}, {"profiles", profiles}};
}

std::string write_swf(const Workload& workload, const std::vector<std::string>& comments) {
  std::vector<std::string> header = comments;
  header.push_back("Version: 2.2");
  header.push_back(fmt::format("MaxProcs: {}", workload.processors));
  std::vector<swf::Record> records;
  for (const auto& j : workload.jobs) {
    swf::Record r;
    r.job_id = static_cast<double>(j.id);
    r.submit = j.submit;
    r.run = j.run;
    r.allocated_procs = j.procs;
    r.requested_procs = j.procs;
    r.requested_time = j.estimate > 0 ? j.estimate : -1;
    r.status = 1;
    records.push_back(r);
  }
  return swf::write(header, records);
}

}  // namespace schedcheck::workload

namespace schedcheck::workload {

namespace {
// An enumeration's names, both ways (the value, its name in options, files and summaries).
template <typename E, std::size_t N>
using Names = std::array<std::pair<E, const char*>, N>;
template <typename E, std::size_t N>
const char* name_in(const Names<E, N>& names, E value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return "?";
}
template <typename E, std::size_t N>
std::optional<E> value_in(const Names<E, N>& names, std::string_view text) {
  for (const auto& [v, name] : names)
    if (text == name) return v;
  return std::nullopt;
}
template <typename E, std::size_t N>
std::vector<std::string> all_names(const Names<E, N>& names) {
  std::vector<std::string> out;
  for (const auto& entry : names) out.emplace_back(entry.second);
  return out;
}
constexpr Names<EstimateSource, 3> kEstimateSources{{{EstimateSource::kRequested, "requested"},
                                                     {EstimateSource::kRuntime, "runtime"},
                                                     {EstimateSource::kField9, "field9"}}};
constexpr Names<ProcessorField, 3> kProcessorFields{{{ProcessorField::kAllocated, "allocated"},
                                                    {ProcessorField::kRequested, "requested"},
                                                    {ProcessorField::kAllocatedOnly, "allocated-only"}}};
constexpr Names<InvalidRecords, 3> kInvalidRecords{{{InvalidRecords::kSkip, "skip"},
                                                    {InvalidRecords::kUnitJob, "unit-job"},
                                                    {InvalidRecords::kOneProcessor, "one-processor"}}};
constexpr Names<Rounding, 4> kRoundings{{{Rounding::kNone, "none"}, {Rounding::kFloor, "floor"},
                                         {Rounding::kCeil, "ceil"}, {Rounding::kNearest, "nearest"}}};
}  // namespace

const char* to_string(EstimateSource source) { return name_in(kEstimateSources, source); }
std::optional<EstimateSource> estimate_source(std::string_view name) { return value_in(kEstimateSources, name); }
const char* to_string(ProcessorField field) { return name_in(kProcessorFields, field); }
std::optional<ProcessorField> processor_field(std::string_view name) { return value_in(kProcessorFields, name); }
const char* to_string(InvalidRecords invalid) { return name_in(kInvalidRecords, invalid); }
std::optional<InvalidRecords> invalid_records(std::string_view name) { return value_in(kInvalidRecords, name); }
const char* to_string(Rounding r) { return name_in(kRoundings, r); }
std::optional<Rounding> rounding(std::string_view name) { return value_in(kRoundings, name); }
std::vector<std::string> estimate_source_names() { return all_names(kEstimateSources); }
std::vector<std::string> processor_field_names() { return all_names(kProcessorFields); }
std::vector<std::string> invalid_records_names() { return all_names(kInvalidRecords); }
std::vector<std::string> rounding_names() { return all_names(kRoundings); }

std::string describe(const Conventions& c) {
  if (!c.any()) return "none";
  std::vector<std::string> parts;
  if (c.rounding != Rounding::kNone) parts.push_back(fmt::format("round {}", to_string(c.rounding)));
  if (c.run_offset != 0) parts.push_back(fmt::format("run {:+} s", c.run_offset));
  if (c.estimate_offset != 0) parts.push_back(fmt::format("estimate {:+} s", c.estimate_offset));
  if (c.floor != 0) parts.push_back(fmt::format("at least {} s", c.floor));
  if (c.estimate_at_least_run) parts.push_back("estimate >= run");
  if (c.run_is_estimate) parts.push_back("run = estimate");
  if (c.kill_at_request) parts.push_back("killed at the request");
  if (c.invalid == InvalidRecords::kUnitJob) parts.push_back("records without run time or processors as 1 s jobs");
  if (c.invalid == InvalidRecords::kOneProcessor) parts.push_back("records without processors on 1 processor");
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

Job with_conventions(Job job, const Conventions& c) {
  if (c.run_is_estimate) job.run = job.estimate;
  auto time = [&](double t, double offset) {
    switch (c.rounding) {
      case Rounding::kNone: break;
      case Rounding::kFloor: t = std::floor(t); break;
      case Rounding::kCeil: t = std::ceil(t); break;
      case Rounding::kNearest: t = std::round(t); break;
    }
    return std::max(t + offset, c.floor);
  };
  job.run = time(job.run, c.run_offset);
  job.estimate = time(job.estimate, c.estimate_offset);
  if (c.estimate_at_least_run && job.run > job.estimate) std::swap(job.run, job.estimate);  // believes run, ends at estimate
  return job;
}

Workload with_exact_estimates(Workload w) {
  for (auto& job : w.jobs) job.estimate = job.run;
  w.estimates_from_runtime = w.jobs.size();
  w.killed = 0;
  return w;
}

Workload load(const std::string& path, const ReadOptions& options) {
  if (!path.ends_with(".json") && !path.ends_with(".json.gz")) return read_swf(path, options);
  return load(read_json_file(path), path, options);  // the small JSON form (tests, the run search's instances)
}

Workload load(const nlohmann::json& document, const std::string& path, const ReadOptions& options) {
  Workload w = document.is_object() && document.contains("nb_res") ? read_batsim(document, path)
                                                                     : read_instance(document, path);
  if (options.processors) {
    if (*options.processors < w.processors)
      throw InputError(fmt::format("{}: --processors {} is fewer than the instance's {}", path, *options.processors,
                                   w.processors));
    w.processors = static_cast<int>(*options.processors);
    w.processors_from = "--processors";
  }
  if (options.estimates == EstimateSource::kRuntime) w = with_exact_estimates(std::move(w));
  if (options.conventions.any()) {
    w.killed = 0;
    for (auto& job : w.jobs) {
      job = with_conventions(job, options.conventions);
      w.killed += job.killed();
    }
  }
  if (options.max_records && w.jobs.size() > options.max_records) w.jobs.resize(options.max_records);
  if (options.period > 0 && !w.jobs.empty()) {
    const double cut = w.jobs.front().submit + options.period;  // jobs are by submit time
    w.jobs.erase(std::find_if(w.jobs.begin(), w.jobs.end(), [&](const Job& j) { return j.submit > cut; }), w.jobs.end());
  }
  return w;
}

nlohmann::json read_instance_file(const std::string& path) {
  const std::string name = path;
  const bool swf = name.size() >= 4 && (name.ends_with(".swf") || name.ends_with(".swf.gz"));
  if (!swf) return read_json_file(path);
  const Workload w = read_swf(path, ReadOptions{});
  nlohmann::json document = write_instance(w);
  for (const auto& [key, value] : w.header)
    if (key == "schedcheck") {
      document["schedcheck"] = parse_json_text(value, path + " (header line '; schedcheck:')");
      if (document["schedcheck"].contains("name")) document["name"] = document["schedcheck"]["name"];
    }
  return document;
}

}  // namespace schedcheck::workload
