// `schedcheck gantt` (see gantt.hpp): one rectangle per job and per maximal run of consecutive processors, jobs
// without allocated processors on first-fit lanes below them. Our own.
// Limits: whether a job id fits in its rectangle is estimated from the canvas size, not measured; the temporary
// directory and CHART.tmp are removed on every return and exception, not when the process is killed.
#include "cli/gantt.hpp"
#include "cli/signals.hpp"

#include "model/input.hpp"
#include "model/jobs_csv.hpp"
#include "model/processor_set.hpp"
#include "model/queue_window.hpp"
#include "reference/cluster_policies.hpp"
#include "simulation/window.hpp"
#include "solver/queue_window_exact.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace schedcheck::cli {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kDefaultMaxJobs = 2000;
constexpr int kExitGnuplotFailed = 4;
constexpr int kCanvasWidth = 1200;          // pixels
constexpr int kMinCanvasHeight = 420;
constexpr int kMaxCanvasHeight = 1400;
constexpr int kRowPixels = 24;              // per processor or lane, while the height stays within the bounds above
constexpr int kVerticalMarginPixels = 190;  // title, time axis and the key below the plot
constexpr int kHorizontalMarginPixels = 120;  // processor axis and right margin
constexpr double kLabelCharPixels = 7.5;    // width of one character of a 9 pt label (an estimate, not measured)
constexpr double kLabelPaddingPixels = 6.0;
constexpr double kLabelMinHeightPixels = 12.0;
constexpr int kEveryTicUpTo = 32;           // up to this many processors (or lanes), every one gets its tic
constexpr int kTargetTics = 16;
constexpr double kLaneHalfHeight = 0.4;     // lanes are drawn a little slimmer than processor rows
constexpr int kProcessorGuess = 4096;       // first parse size without --processors (a retry uses the maximum)
// ColorBrewer Set3: 12 pastel colours on which a black job id stays readable.
constexpr std::array<std::uint32_t, 12> kPalette = {0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462,
                                                    0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f};

struct GanttArgs {
  std::string jobs_csv;
  std::string window;       // a queue-window instance instead of a CSV
  std::string side = "optimum";
  std::string out;
  double from = 0, to = 0;  // read only when given (the CLI11 options' count())
  int processors = 0;       // 0: the highest processor used in the window, plus one
  std::string title;
  std::size_t max_jobs = kDefaultMaxJobs;
};

// One job in the window: its row, its runs of consecutive processors, or its lane when it has none.
struct WindowJob {
  const jobs_csv::ScheduleRow* row = nullptr;
  std::vector<std::pair<int, int>> runs;  // [first, last] processor
  int lane = -1;
};

// Removes a directory tree (a temporary directory of ours) when it goes out of scope.
class Cleanup {
public:
  explicit Cleanup(fs::path path) : path_(std::move(path)) {}
  Cleanup(const Cleanup&) = delete;
  Cleanup& operator=(const Cleanup&) = delete;
  ~Cleanup() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

fs::path make_temp_dir() {
  std::error_code error;
  const fs::path base = fs::temp_directory_path(error);
  if (error) throw InputError(fmt::format("gantt: no temporary directory ({}); set TMPDIR to a writable directory", error.message()));
  std::string pattern = (base / "schedcheck-gantt-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError(fmt::format("{}: cannot create a temporary directory ({}); set TMPDIR to a writable directory",
                                 base.string(), std::strerror(errno)));
  return pattern;
}

// A gnuplot single-quoted string: '' is a quote; control characters become spaces.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') out += "''";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += ' ';
    else out += c;
  }
  return out + "'";
}

// A string field of a gnuplot data file: double-quoted, with backslash escapes read after the field is cut (a
// quote inside is written \042, since a quote before a space would end the field); control characters become spaces.
std::string data_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += "\\042";
    else if (c == '\\') out += "\\\\";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += ' ';
    else out += c;
  }
  return out + "\"";
}

// The maximal runs of consecutive processors of a row's allocated_resources; none when the field is absent or empty.
std::vector<std::pair<int, int>> runs_of(const jobs_csv::ScheduleRow& row, const GanttArgs& a) {
  if (!row.allocated || row.allocated->find_first_not_of(' ') == std::string::npos) return {};
  std::string error;
  std::optional<ProcessorSet> set;
  if (a.processors > 0) {
    set = ProcessorSet::parse_intervals(*row.allocated, a.processors, &error);
  } else {
    set = ProcessorSet::parse_intervals(*row.allocated, kProcessorGuess, &error);
    if (!set) set = ProcessorSet::parse_intervals(*row.allocated, kMaxTrackedProcessors, &error);
  }
  if (!set)
    throw InputError(fmt::format("{}: line {}: column {}: {}{}; expected Batsim's interval syntax such as \"0-3 7\"",
                                 a.jobs_csv, row.line, jobs_csv::Columns{}.allocated, error,
                                 a.processors > 0 ? fmt::format(" (--processors {})", a.processors) : std::string()));
  std::vector<std::pair<int, int>> runs;
  for (const int p : set->members()) {
    if (!runs.empty() && runs.back().second == p - 1) runs.back().second = p;
    else runs.emplace_back(p, p);
  }
  return runs;
}

// One stderr line whatever a file name or gnuplot's message holds: control characters become '?'.
std::string one_line(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}

std::string counted(std::size_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

// A tic step of 1, 2 or 5 times a power of ten giving at most about kTargetTics tics over `span`.
int tic_step(int span) {
  for (int power = 1;; power *= 10)
    for (const int m : {1, 2, 5})
      if (span <= kTargetTics * m * power) return m * power;
}

// The first line of gnuplot's stderr that locates the error ("FILE" line N: ...), else the first non-blank one.
std::string first_error_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line, first;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r^") == std::string::npos) continue;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find("\" line ") != std::string::npos) return line;
    if (first.empty()) first = line;
  }
  return first.empty() ? "(nothing on stderr)" : first;
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  std::string_view rest(path);
  while (true) {
    const auto colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    std::error_code ignored;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate, ignored)) return candidate;
    if (colon == std::string_view::npos) return "";
    rest.remove_prefix(colon + 1);
  }
}

// Runs `gnuplot SCRIPT` with stdin and stdout on /dev/null and stderr into `err`; returns its wait status, or
// nullopt with `why` set when it could not be started.
std::optional<int> run_gnuplot(const std::string& gnuplot, const fs::path& script, const fs::path& err, std::string& why) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string program = gnuplot, script_path = script.string();
  char* argv[] = {program.data(), script_path.data(), nullptr};
  posix_spawnattr_t attributes;  // gnuplot must die on Ctrl-C even though our threads block it (cli/signals.hpp)
  posix_spawnattr_init(&attributes);
  const sigset_t mask = child_signal_mask();
  posix_spawnattr_setsigmask(&attributes, &mask);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) {
    why = std::strerror(rc);
    return std::nullopt;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      why = std::strerror(errno);
      return std::nullopt;
    }
  }
  return status;
}

int run_gantt(const GanttArgs& a, bool has_from, bool has_to) {
  // Usage first: the format follows the extension.
  std::string extension = fs::path(a.out).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (extension != ".png" && extension != ".svg")
    throw InputError(fmt::format("--out {}: expected a file name ending in .png or .svg (the format follows the extension)", a.out));
  const bool svg = extension == ".svg";
  if (has_from && !std::isfinite(a.from)) throw InputError(fmt::format("--from: expected a finite time, got {}", a.from));
  if (has_to && !std::isfinite(a.to)) throw InputError(fmt::format("--to: expected a finite time, got {}", a.to));

  const auto rows = jobs_csv::read_schedule(a.jobs_csv, jobs_csv::Columns{}, false);
  if (rows.empty())
    throw InputError(fmt::format("{}: no jobs (a header and no rows); expected the per-job CSV of a run "
                                 "(schedcheck simulate --jobs-csv)", a.jobs_csv));
  double first = std::numeric_limits<double>::infinity(), last = 0;
  for (const auto& row : rows) {
    first = std::min(first, row.start);
    last = std::max(last, row.finish);
  }
  const double lo = has_from ? a.from : first;
  double hi = has_to ? a.to : last;
  if (!has_from && !has_to && hi <= lo) hi = lo + 1;  // every job ran for no time at one instant
  if (hi <= lo)
    throw InputError(fmt::format("--from/--to: expected from < to, got the window {:g} to {:g} (the run spans {:g} to {:g})",
                                 lo, hi, first, last));

  std::vector<WindowJob> jobs;
  for (const auto& row : rows)
    if ((row.start < hi && row.finish > lo) || (row.start == row.finish && row.start >= lo && row.start <= hi))
      jobs.push_back(WindowJob{&row, {}, -1});
  if (jobs.empty())
    throw InputError(fmt::format("{}: no job runs between {:g} and {:g} (--from/--to; the run spans {:g} to {:g})",
                                 a.jobs_csv, lo, hi, first, last));
  if (jobs.size() > a.max_jobs)
    throw InputError(fmt::format("{}: {} jobs run between {:g} and {:g}, more than --max-jobs {}; narrow the window with "
                                 "--from/--to (a chart is for a case small enough to look at)",
                                 a.jobs_csv, jobs.size(), lo, hi, a.max_jobs));
  std::stable_sort(jobs.begin(), jobs.end(), [](const WindowJob& x, const WindowJob& y) {
    return x.row->start != y.row->start ? x.row->start < y.row->start : x.row->finish < y.row->finish;
  });

  // Processors, then first-fit lanes for the jobs that have none (in start order, so a lane never overlaps itself).
  int processors = a.processors;
  std::vector<double> lane_free_at;
  for (auto& job : jobs) {
    job.runs = runs_of(*job.row, a);
    if (!job.runs.empty()) {
      if (a.processors == 0) processors = std::max(processors, job.runs.back().second + 1);
      continue;
    }
    std::size_t lane = 0;
    while (lane < lane_free_at.size() && lane_free_at[lane] > job.row->start) ++lane;
    if (lane == lane_free_at.size()) lane_free_at.push_back(0);
    // A job that ran for no time still holds its lane at its instant.
    lane_free_at[lane] = std::max(job.row->finish, std::nextafter(job.row->start, std::numeric_limits<double>::infinity()));
    job.lane = static_cast<int>(lane);
  }
  const int lanes = static_cast<int>(lane_free_at.size());
  const int lane_offset = processors > 0 ? 2 : 1;  // with processors, an empty row (and the dashed line) first
  auto lane_y = [&](int lane) { return -static_cast<double>(lane + lane_offset); };
  const double y_top = processors > 0 ? processors - 0.5 : -0.5;
  const double y_bottom = lanes > 0 ? lane_y(lanes - 1) - 0.5 : -0.5;

  const int rows_shown = processors + lanes + (processors > 0 && lanes > 0 ? 1 : 0);
  const int height = std::clamp(kVerticalMarginPixels + rows_shown * kRowPixels, kMinCanvasHeight, kMaxCanvasHeight);
  const double x_pixels = static_cast<double>(kCanvasWidth - kHorizontalMarginPixels) / (hi - lo);
  const double y_pixels = static_cast<double>(height - kVerticalMarginPixels) / (y_top - y_bottom);

  // The data: rectangles (centre, corners, colour) and the labels that fit.
  std::string boxes, labels;
  for (const auto& job : jobs) {
    // By the row's place in the file, so that a job keeps its colour in every window.
    const std::uint32_t rgb = kPalette[static_cast<std::size_t>(job.row - rows.data()) % kPalette.size()];
    const double x0 = std::max(job.row->start, lo), x1 = std::min(job.row->finish, hi);
    std::vector<std::pair<double, double>> spans;  // y from, to
    for (const auto& [p, q] : job.runs) spans.emplace_back(p - 0.5, q + 0.5);
    if (job.runs.empty()) spans.emplace_back(lane_y(job.lane) - kLaneHalfHeight, lane_y(job.lane) + kLaneHalfHeight);
    for (const auto& [y0, y1] : spans) {
      const double xc = (x0 + x1) / 2, yc = (y0 + y1) / 2;
      boxes += fmt::format("{} {} {} {} {} {} {}\n", xc, yc, x0, x1, y0, y1, rgb);
      const double need = static_cast<double>(job.row->id.size()) * kLabelCharPixels + kLabelPaddingPixels;
      if ((x1 - x0) * x_pixels >= need && (y1 - y0) * y_pixels >= kLabelMinHeightPixels)
        labels += fmt::format("{} {} {}\n", xc, yc, data_string(job.row->id));
    }
  }

  // The script.
  const std::string tmp_out = a.out + ".tmp";
  const std::string title =
      !a.title.empty() ? a.title
                       : fmt::format("{}: {}, t = {:g} to {:g} s", fs::path(a.jobs_csv).filename().string(),
                                     counted(jobs.size(), "job"), lo, hi);
  std::string script;
  if (svg) {
    script += fmt::format("set terminal svg size {},{} font 'Sans,10' noenhanced background rgb 'white'\n", kCanvasWidth, height);
  } else {
    script += fmt::format("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {{\n"
                          "  set terminal pngcairo size {0},{1} font 'Sans,10' noenhanced background rgb 'white'\n"
                          "}} else {{\n"
                          "  set terminal png size {0},{1} noenhanced background rgb 'white'\n"
                          "}}\n",
                          kCanvasWidth, height);
  }
  script += fmt::format("set output {}\n", quoted(tmp_out));
  script += fmt::format("set title {}\n", quoted(title));
  script += "set xlabel 'time (s)'\n";
  script += fmt::format("set ylabel {}\n", quoted(processors > 0 ? "processor" : "lane (no processors allocated)"));
  script += fmt::format("set xrange [{}:{}]\nset yrange [{}:{}]\n", lo, hi, y_bottom, y_top);
  script += "set ytics nomirror out\nset xtics nomirror out\nset grid xtics lc rgb '#e0e0e0'\n";
  if (processors > 0) {
    const int step = processors <= kEveryTicUpTo ? 1 : tic_step(processors);
    script += fmt::format("set ytics 0,{},{}\n", step, processors - 1);
  } else {
    script += "set ytics ()\n";
  }
  for (int lane = 0; lane < lanes && lane < kEveryTicUpTo; ++lane)
    script += fmt::format("set ytics add ({} {})\n", quoted(fmt::format("lane {}", lane + 1)), lane_y(lane));
  if (processors > 0 && lanes > 0)
    script += fmt::format("set arrow from {0},-1 to {1},-1 nohead dt 2 lw 1.5 lc rgb '#606060' front\n", lo, hi);
  script += "set key below left Left reverse samplen 3\n";
  script += "set style fill solid 0.9 border lc rgb '#404040'\n";

  const std::string gnuplot = find_on_path("gnuplot");
  if (gnuplot.empty())
    throw InputError("gnuplot: not found on PATH; install the Debian package gnuplot-nox (scripts/deps does)");

  const Cleanup dir(make_temp_dir());
  const fs::path boxes_file = dir.path() / "boxes.dat", labels_file = dir.path() / "labels.dat",
                 script_file = dir.path() / "chart.gp", err_file = dir.path() / "gnuplot.err";
  std::string plot = fmt::format("plot {} using 1:2:3:4:5:6:7 with boxxyerror fc rgb variable notitle", quoted(boxes_file.string()));
  if (!labels.empty())
    plot += fmt::format(", \\\n     {} using 1:2:3 with labels font ',9' tc rgb 'black' notitle", quoted(labels_file.string()));
  const auto without = std::count_if(jobs.begin(), jobs.end(), [](const WindowJob& j) { return j.lane >= 0; });
  plot += fmt::format(", \\\n     NaN with boxes fc rgb '#{:06x}' title {}", kPalette[0],
                      quoted(processors > 0 ? "a job on its processors (colours cycle; the job id where it fits)"
                                            : "a job (colours cycle; the job id where it fits); no job has allocated "
                                              "processors (column allocated_resources): one lane per job running at once"));
  if (processors > 0 && lanes > 0)
    plot += fmt::format(", \\\n     NaN with lines dt 2 lw 1.5 lc rgb '#606060' title {}",
                        quoted(fmt::format("below the line: {} without allocated processors, on lanes (one lane per "
                                           "job running at once; a lane is not a processor)",
                                           counted(static_cast<std::size_t>(without), "job"))));
  script += plot + "\n";

  for (const auto& [file, text] : {std::pair{boxes_file, &boxes}, std::pair{labels_file, &labels},
                                   std::pair{script_file, &script}}) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << *text;
    out.flush();
    if (!out) throw InputError(fmt::format("{}: cannot write a temporary file (disk full? set TMPDIR)", file.string()));
  }

  {
    std::ofstream probe(tmp_out, std::ios::binary | std::ios::trunc);
    if (!probe)
      throw InputError(fmt::format("--out {}: cannot write {} (does the directory exist, is it writable?)", a.out, tmp_out));
  }
  // Ours now (a regular file): removed whatever happens; after the rename there is nothing left to remove.
  const std::unique_ptr<const std::string, void (*)(const std::string*)> partial(&tmp_out, [](const std::string* path) {
    std::error_code ignored;
    fs::remove(*path, ignored);
  });
  std::string why;
  const std::optional<int> status = run_gnuplot(gnuplot, script_file, err_file, why);
  if (!status) {
    std::cerr << one_line(fmt::format("schedcheck: gnuplot ({}) could not be run: {}", gnuplot, why)) << "\n";
    return kExitGnuplotFailed;
  }
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    const std::string how = WIFEXITED(*status) ? fmt::format("exit {}", WEXITSTATUS(*status))
                                               : fmt::format("signal {}", WTERMSIG(*status));
    std::cerr << one_line(fmt::format("schedcheck: gnuplot failed ({}) drawing {}: {}", how, a.out, first_error_line(err_file)))
              << "\n";
    return kExitGnuplotFailed;
  }
  std::error_code error;
  const auto size = fs::file_size(tmp_out, error);
  if (error || size == 0) {
    std::cerr << one_line(fmt::format("schedcheck: gnuplot exited 0 but wrote no image to {}: {}", tmp_out,
                                      first_error_line(err_file)))
              << "\n";
    return kExitGnuplotFailed;
  }
  fs::rename(tmp_out, a.out, error);
  if (error) throw InputError(fmt::format("--out {}: cannot rename {} to it ({})", a.out, tmp_out, error.message()));

  std::cout << fmt::format("gantt     wrote {} ({}, {}x{}): {} from t = {:g} to {:g} s on {}{}\n", a.out, svg ? "SVG" : "PNG",
                           kCanvasWidth, height, counted(jobs.size(), "job"), lo, hi,
                           counted(static_cast<std::size_t>(processors), "processor"),
                           lanes > 0 ? fmt::format(", {} of jobs without processors", counted(static_cast<std::size_t>(lanes), "lane"))
                                     : std::string());
  return 0;
}

// --window: the window's schedule (exact, or a policy played forward) as a per-job CSV in a temporary file, drawn
// like a run.
int run_window_gantt(const GanttArgs& a, bool has_from, bool has_to) {
  const window::Instance instance = window::read_instance(read_json_file(a.window), a.window);
  window::Schedule schedule;
  std::string side = a.side;
  if (a.side == "optimum") {
    const auto exact = window::solve_bnb(instance, SolveOptions{});
    if (!exact.decision)
      throw InputError(fmt::format("{}: --side optimum: no optimum ({}); draw a policy's schedule with --side", a.window,
                                   exact.detail));
    schedule = *exact.decision;
    side = fmt::format("optimum ({}, objective {:g})", to_string(exact.status), exact.objective);
  } else {
    schedule = sim::play_forward(instance, cluster::cluster_policy(a.side));
    side = fmt::format("{} played forward (objective {:g})", a.side, window::objective(instance, schedule));
  }
  const fs::path dir = make_temp_dir();
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } cleanup{dir};
  const fs::path csv = dir / "window.csv";
  {
    std::ofstream out(csv, std::ios::binary);
    out << jobs_csv::header();
    for (const auto& row : sim::window_rows(instance, schedule)) out << jobs_csv::format(row);
  }
  GanttArgs b = a;
  b.jobs_csv = csv.string();
  if (b.title.empty())
    b.title = fmt::format("{}: {} ({} objective; running jobs first)", fs::path(a.window).filename().string(), side,
                          window::to_string(instance.objective));
  if (b.processors == 0) b.processors = instance.processors;
  return run_gantt(b, has_from, has_to);
}

}  // namespace

std::function<int()> add_gantt_command(CLI::App& app) {
  auto args = std::make_shared<GanttArgs>();
  auto* gantt = app.add_subcommand(
      "gantt", "draw a Gantt chart (PNG or SVG, with gnuplot) of a run's per-job CSV (simulate --jobs-csv, or Batsim's "
               "out_jobs.csv): one rectangle per job and run of consecutive processors");
  gantt->add_option("--jobs-csv", args->jobs_csv, "the run's per-job CSV (Batsim's out_jobs.csv columns)");
  gantt->add_option("--out", args->out, "the chart: CHART.png or CHART.svg (the format follows the extension)")->required();
  auto* from = gantt->add_option("--from", args->from, "start of the time window (default: the first start)");
  auto* to = gantt->add_option("--to", args->to, "end of the time window (default: the last finish)");
  gantt->add_option("--processors", args->processors,
                    "processors 0..P-1 on the axis (default: up to the highest allocated in the window)")
      ->check(CLI::Range(1, kMaxTrackedProcessors));
  gantt->add_option("--title", args->title, "chart title (default: the file, job count and window)");
  gantt->add_option("--max-jobs", args->max_jobs, "refuse a window with more jobs than this")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  auto* csv = gantt->get_option("--jobs-csv");
  auto* window = gantt->add_option("--window", args->window,
                                   "draw a queue-window instance instead (JSON, docs/formats.md): its running jobs and "
                                   "its waiting jobs as --side schedules them");
  gantt->add_option("--side", args->side,
                    "with --window: `optimum` (the exact schedule, method sequences) or a policy played forward "
                    "(fcfs, easy, conservative)")
      ->capture_default_str()
      ->check(CLI::IsMember({"optimum", "fcfs", "easy", "conservative"}));
  csv->excludes(window);
  return [=]() -> int {
    if (!gantt->parsed()) return -1;
    if (args->window.empty()) {
      if (args->jobs_csv.empty()) throw InputError("gantt: give --jobs-csv FILE (a run) or --window FILE (a queue window)");
      return run_gantt(*args, from->count() > 0, to->count() > 0);
    }
    return run_window_gantt(*args, from->count() > 0, to->count() > 0);
  };
}

}  // namespace schedcheck::cli
