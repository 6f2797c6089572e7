// A workload for the simulation: rigid jobs (submit time, processors, run time, estimate) on a machine of P
// processors, made from SWF records by documented rules, each skip counted by reason; and the small JSON form of
// a workload (instance kind "workload") used by tests, the run search and its corpus. Our own rules, following
// the usual conventions of trace-driven simulation (docs/simulation.md "Reading a trace").
#pragma once

#include "model/input.hpp"
#include "model/swf.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace schedcheck::workload {

inline constexpr const char* kInstanceKind = "workload";
inline constexpr long long kMaxProcessors = 10'000'000;

struct Job {
  std::int64_t id = 0;
  double submit = 0;
  double run = 0;        // the trace's run time
  double estimate = 0;   // what the scheduler believes (requested time, or the run time)
  int procs = 1;
  // Jobs run min(run, estimate): a job whose run time exceeds its estimate is killed at its estimate.
  double runtime() const { return run < estimate ? run : estimate; }
  bool killed() const { return run > estimate; }
};

// --estimates requested|runtime|field9: the requested time (field 9; the run time where it is -1 or 0), the run time,
// or field 9 as the trace gives it, -1 included (pyss reads it so: with its floor of 1 s and estimate >= run, a job of
// unknown request runs 1 s and is believed its run time).
enum class EstimateSource { kRequested, kRuntime, kField9 };
// Which SWF field gives a job's processors: field 5, else 8; field 8, else 5; field 5 alone (Alea's SWFLoader skips a
// record whose field 5 is -1).
enum class ProcessorField { kAllocated, kRequested, kAllocatedOnly };
// Their names ("requested", "runtime", "field9"; "allocated", "requested", "allocated-only"), both ways; nullopt for
// another name.
const char* to_string(EstimateSource source);
const char* to_string(ProcessorField field);
std::optional<EstimateSource> estimate_source(std::string_view name);
std::optional<ProcessorField> processor_field(std::string_view name);
std::vector<std::string> estimate_source_names();  // every name, in the order above (for options and messages)
std::vector<std::string> processor_field_names();

// A trace whose header gives no machine size, read without one (a folder of traces may leave it out, and say so).
class NoMachineSize : public InputError {
public:
  using InputError::InputError;
};

// Why a record does not become a job, in the order the rules are tried.
enum class Skip : std::size_t {
  kMalformed = 0,            // --lenient: a line that is not 18 numbers (counted by the reader)
  kNoRunTime,                // run time -1
  kNoProcessors,             // allocated and requested processors both -1 (or 0)
  kCancelledBeforeStart,     // status 5 with run time 0: cancelled while waiting
  kTooWide,                  // more processors than the machine has
  kCount
};
const char* to_string(Skip skip);
const char* explain(Skip skip);

// How another simulator turns a trace's times into the times it schedules (docs/simulation.md, "Conventions of other
// simulators"), so that a schedule it produced can be audited, or its run reproduced, without rewriting the trace.
// Applied to every job read, in this order: kill_at_request (SWF records), run_is_estimate, rounding, offsets, floor,
// then estimate_at_least_run. Default: none.
enum class Rounding { kNone, kFloor, kCeil, kNearest };
// What becomes of a record the reading rules skip for its run time or processors (no-run-time, no-processors,
// cancelled-before-start): skipped; read as pyss reads it (base/prototype.py, _job_input_to_job: a record whose run
// time is <= 0 or that names no processors becomes a job of max(1, field 5) processors that runs 1 s and is believed
// 1 s, submitted at max(submit, 1)); or, without a processor count, on one processor (GridSim's WorkloadFileReader).
enum class InvalidRecords { kSkip, kUnitJob, kOneProcessor };
struct Conventions {
  Rounding rounding = Rounding::kNone;  // run times and estimates to whole seconds (pyss: floor; Alea: nearest)
  double run_offset = 0;                // seconds added to every run time (GridSim, Batsim's SWF converter: 1)
  double estimate_offset = 0;           // seconds added to every estimate (GridSim: 1; batsched: 5)
  double floor = 0;                     // least run time and estimate, seconds (pyss, Alea: 1; GridSim: 2)
  // The scheduler believes max(estimate, run) and the job still ends at min(run, estimate) (pyss, Alea).
  bool estimate_at_least_run = false;
  // A job runs exactly its estimate (GridSim's WorkloadFileReader makes a job's length its requested time, field 9).
  bool run_is_estimate = false;
  // A job whose run time exceeds its requested time (field 9, when > 0) ends there, whatever the scheduler believes
  // (Alea shortens such jobs at submission, also with exact estimates).
  bool kill_at_request = false;
  InvalidRecords invalid = InvalidRecords::kSkip;
  bool any() const {
    return rounding != Rounding::kNone || run_offset != 0 || estimate_offset != 0 || floor != 0 || estimate_at_least_run ||
           run_is_estimate || kill_at_request || invalid != InvalidRecords::kSkip;
  }
};
const char* to_string(InvalidRecords invalid);                     // "skip", "unit-job", "one-processor"
std::optional<InvalidRecords> invalid_records(std::string_view name);  // nullopt for another name
std::vector<std::string> invalid_records_names();
const char* to_string(Rounding rounding);                 // "none", "floor", "ceil", "nearest"
std::optional<Rounding> rounding(std::string_view name);  // nullopt for another name
std::vector<std::string> rounding_names();
// "none", or what they change: "round floor, run +1 s, estimate +5 s, at least 1 s, estimate >= run", and the others'.
std::string describe(const Conventions& conventions);
// The job with the conventions applied (a job of length 0 stays 0 unless the floor lifts it).
Job with_conventions(Job job, const Conventions& conventions);

struct ReadOptions {
  EstimateSource estimates = EstimateSource::kRequested;
  ProcessorField processor_field = ProcessorField::kAllocated;
  std::optional<long long> processors;  // the machine; default: header MaxProcs, else MaxNodes
  bool lenient = false;
  std::size_t max_records = 0;          // read only the first this many job lines (0: all): a trace's beginning
  // Read only the jobs submitted within this many seconds of the first record's submit time (0: all): a trace's first
  // days. SWF: reading stops at the first record submitted later (the archive's logs are in submit order).
  double period = 0;
  Conventions conventions;
};

// A record the reading rules skipped, for a reader of schedules that may name it (`audit`).
struct SkippedRecord {
  std::int64_t id = 0;
  double submit = 0;
  Skip why = Skip::kMalformed;
};

struct Workload {
  std::string name;                 // file name or instance name
  int processors = 0;               // P
  std::string processors_from;      // "--processors", "MaxProcs", "MaxNodes" or "instance"
  std::vector<Job> jobs;            // by submit time (stable: file order among equal submit times)
  std::array<std::size_t, static_cast<std::size_t>(Skip::kCount)> skipped{};
  std::vector<SkippedRecord> skipped_records;  // every skipped record but the malformed ones, in file order
  std::size_t invalid_read = 0;     // records Conventions::invalid read as jobs instead of skipping them
  std::size_t records = 0;          // job lines read (malformed ones included)
  std::size_t reordered = 0;        // records that came before an earlier-submitted one in the file
  std::size_t estimates_from_runtime = 0;  // jobs whose estimate is their run time (field 9 unknown, or --estimates)
  std::size_t killed = 0;           // jobs whose run time exceeds their estimate
  std::string first_malformed;      // --lenient: the first malformed line's message
  std::optional<long long> unix_start_time;
  std::vector<std::pair<std::string, std::string>> header;  // the SWF header fields, in file order
  std::size_t skipped_total() const;
};

// The job a record makes, or why it makes none (rules in the order of Skip). `processors`: the machine.
struct Classified {
  std::optional<Job> job;
  Skip skip = Skip::kMalformed;
  bool estimate_from_runtime = false;
  bool read_as_invalid = false;  // a record the rules skip, read by Conventions::invalid
};
Classified classify(const swf::Record& record, const ReadOptions& options, long long processors);

// Reads a whole trace (.swf or .swf.gz). Throws InputError: unreadable file, a malformed line (unless
// lenient), no machine size (no --processors and no MaxProcs/MaxNodes header).
Workload read_swf(const std::string& path, const ReadOptions& options);

// Any workload file by its name: a .json file in the JSON form below, anything else an SWF trace read by read_swf.
// The one place where the trace options mean the same for every command and experiment: with the JSON form,
// `options.processors` may only enlarge the machine (exit 2 otherwise) and kRuntime estimates set every estimate to
// the run time; the processor field and leniency concern SWF only. Throws InputError.
Workload load(const std::string& path, const ReadOptions& options);
// The same for a workload in the JSON form already in memory (`path` names it in errors).
Workload load(const nlohmann::json& document, const std::string& path, const ReadOptions& options);

// The workload read with exact estimates (--estimates runtime) made from one read with requested ones: every estimate
// is the run time (no job is killed then), as reading the trace again with EstimateSource::kRuntime gives.
Workload with_exact_estimates(Workload workload);

// The JSON form: {"kind": "workload", "name", "processors", "jobs": [{"id", "submit", "run", "estimate", "procs"}]}.
Workload read_instance(const nlohmann::json& document, const std::string& file);
nlohmann::json write_instance(const Workload& workload);
// Batsim's workload JSON: {"nb_res", "jobs": [{"id", "subtime", "walltime", "res", "profile"}], "profiles": {NAME:
// {"type": "delay", "delay"}}} (Batsim's documentation, "Workload"). A job runs its profile's delay, killed at its
// walltime when it has one (Batsim's rule; -1 or none: no walltime, the estimate is the delay); ids are integers
// or strings holding one (schedules name jobs by them). Profiles of another type have no run time known before the
// run: refused (InputError naming the profile). `load` reads it for a .json file with "nb_res".
Workload read_batsim(const nlohmann::json& document, const std::string& file);
nlohmann::json write_batsim(const Workload& workload);  // one delay profile a distinct run time, walltime = estimate
// The SWF text of a workload (one record a job: fields 1, 2, 4, 5, 8, 9, status 1; -1 elsewhere), with comments.
std::string write_swf(const Workload& workload, const std::vector<std::string>& comments);

// An instance file of any problem as its JSON document: a .json file as it is; an .swf or .swf.gz trace as the
// workload form, with the "schedcheck" block of a corpus file when a header line "; schedcheck: {...}" holds one.
// Throws InputError.
nlohmann::json read_instance_file(const std::string& path);

}  // namespace schedcheck::workload
