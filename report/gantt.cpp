// Gantt charts of a run (see gantt.hpp): one rectangle per job and per maximal run of consecutive processors, jobs
// without allocated processors on first-fit lanes below them. Our own.
// Limits: whether a job id fits in its rectangle is estimated from the canvas size, not measured.
#include "report/gantt.hpp"

#include "model/processor_set.hpp"
#include "report/plot.hpp"
#include "support/errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::report {

namespace {

namespace fs = std::filesystem;

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

// One job in the window: its row, its runs of consecutive processors, or its lane when it has none.
struct WindowJob {
  const jobs_csv::ScheduleRow* row = nullptr;
  std::vector<std::pair<int, int>> runs;  // [first, last] processor
  int lane = -1;
};

// The maximal runs of consecutive processors of a row's allocated_resources; none when the field is absent or empty.
// `size`: the processors of the row's machine (its cluster), 0 when not given.
std::vector<std::pair<int, int>> runs_of(const jobs_csv::ScheduleRow& row, const GanttOptions& a, int size) {
  if (!row.allocated || row.allocated->find_first_not_of(' ') == std::string::npos) return {};
  std::string error;
  std::optional<ProcessorSet> set;
  if (size > 0) {
    set = ProcessorSet::parse_intervals(*row.allocated, size, &error);
  } else {
    set = ProcessorSet::parse_intervals(*row.allocated, kProcessorGuess, &error);
    if (!set) set = ProcessorSet::parse_intervals(*row.allocated, kMaxTrackedProcessors, &error);
  }
  if (!set)
    throw InputError(fmt::format("{}: line {}: column {}: {}{}; expected Batsim's interval syntax such as \"0-3 7\"",
                                 a.source, row.line, jobs_csv::Columns{}.allocated, error,
                                 size > 0 ? fmt::format(" ({} {})", row.cluster && !a.clusters.empty()
                                                                         ? fmt::format("cluster {} of --clusters:", *row.cluster)
                                                                         : std::string("--processors"), size)
                                          : std::string()));
  std::vector<std::pair<int, int>> runs;
  for (const int p : set->members()) {
    if (!runs.empty() && runs.back().second == p - 1) runs.back().second = p;
    else runs.emplace_back(p, p);
  }
  return runs;
}

std::string counted(std::size_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

// A tic step of 1, 2 or 5 times a power of ten giving at most about kTargetTics tics over `span`.
int tic_step(int span) {
  for (int power = 1;; power *= 10)
    for (const int m : {1, 2, 5})
      if (span <= kTargetTics * m * power) return m * power;
}

}  // namespace

std::string draw_gantt(const std::vector<jobs_csv::ScheduleRow>& rows, const GanttOptions& a, const std::string& out,
                       GanttChart* drawn) {
  if (rows.empty())
    throw InputError(fmt::format("{}: no jobs (a header and no rows); expected the per-job CSV of a run "
                                 "(schedcheck simulate --jobs-csv)", a.source));
  double first = std::numeric_limits<double>::infinity(), last = 0;
  for (const auto& row : rows) {
    first = std::min(first, row.start);
    last = std::max(last, row.finish);
  }
  const double lo = a.from ? *a.from : first;
  double hi = a.to ? *a.to : last;
  if (!a.from && !a.to && hi <= lo) hi = lo + 1;  // every job ran for no time at one instant
  if (hi <= lo)
    throw InputError(fmt::format("--from/--to: expected from < to, got the window {:g} to {:g} (the run spans {:g} to {:g})",
                                 lo, hi, first, last));

  std::vector<WindowJob> jobs;
  for (const auto& row : rows)
    if ((row.start < hi && row.finish > lo) || (row.start == row.finish && row.start >= lo && row.start <= hi))
      jobs.push_back(WindowJob{&row, {}, -1});
  if (jobs.empty())
    throw InputError(fmt::format("{}: no job runs between {:g} and {:g} (--from/--to; the run spans {:g} to {:g})",
                                 a.source, lo, hi, first, last));
  if (jobs.size() > a.max_jobs)
    throw InputError(fmt::format("{}: {} jobs run between {:g} and {:g}, more than --max-jobs {}; narrow the window with "
                                 "--from/--to (a chart is for a case small enough to look at)",
                                 a.source, jobs.size(), lo, hi, a.max_jobs));
  std::stable_sort(jobs.begin(), jobs.end(), [](const WindowJob& x, const WindowJob& y) {
    return x.row->start != y.row->start ? x.row->start < y.row->start : x.row->finish < y.row->finish;
  });

  // Several clusters: one band each, of its size (or up to its highest processor in the window).
  const bool banded = !a.clusters.empty() || std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.cluster.has_value(); });
  if (banded && a.processors > 0)
    throw InputError(fmt::format("--processors: {} names the cluster of each job (a run of several clusters); give the "
                                 "clusters' sizes with --clusters P1,P2,...", a.source));
  std::vector<int> band(a.clusters);  // each cluster's rows, from its size or the jobs below
  for (const auto& row : rows) {
    if (!banded) break;
    if (!row.cluster)
      throw InputError(fmt::format("--clusters: {} has no column {} (a run of one cluster); leave --clusters out",
                                   a.source, jobs_csv::Columns{}.cluster));
    if (!a.clusters.empty() && *row.cluster >= a.clusters.size())
      throw InputError(fmt::format("{}: line {}: column {}: expected a cluster index from 0 to {} (--clusters gives {}), "
                                   "got {}", a.source, row.line, jobs_csv::Columns{}.cluster, a.clusters.size() - 1,
                                   a.clusters.size(), *row.cluster));
    if (*row.cluster >= band.size()) band.resize(*row.cluster + 1, 0);
  }
  auto size_of = [&](const jobs_csv::ScheduleRow& row) {
    return !banded ? a.processors : a.clusters.empty() ? 0 : a.clusters[*row.cluster];
  };

  // Processors, then first-fit lanes for the jobs that have none (in start order, so a lane never overlaps itself).
  int processors = banded ? 0 : a.processors;
  std::vector<double> lane_free_at;
  for (auto& job : jobs) {
    job.runs = runs_of(*job.row, a, size_of(*job.row));
    if (!job.runs.empty()) {
      if (banded) {
        int& height = band[*job.row->cluster];
        if (a.clusters.empty()) height = std::max(height, job.runs.back().second + 1);
      } else if (a.processors == 0) {
        processors = std::max(processors, job.runs.back().second + 1);
      }
      continue;
    }
    std::size_t lane = 0;
    while (lane < lane_free_at.size() && lane_free_at[lane] > job.row->start) ++lane;
    if (lane == lane_free_at.size()) lane_free_at.push_back(0);
    // A job that ran for no time still holds its lane at its instant.
    lane_free_at[lane] = std::max(job.row->finish, std::nextafter(job.row->start, std::numeric_limits<double>::infinity()));
    job.lane = static_cast<int>(lane);
  }
  // The bands, from cluster 0 at the bottom, one empty row between two; each job's runs moved into its band.
  std::vector<int> band_from(band.size(), 0);
  for (std::size_t c = 0; c < band.size(); ++c) {
    band[c] = std::max(band[c], 1);
    band_from[c] = processors;
    processors += band[c] + (c + 1 < band.size() ? 1 : 0);
  }
  if (banded)
    for (auto& job : jobs)
      for (auto& [p, q] : job.runs) {
        p += band_from[*job.row->cluster];
        q += band_from[*job.row->cluster];
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
  const std::string title =
      !a.title.empty() ? a.title
                       : fmt::format("{}: {}, t = {:g} to {:g} s", fs::path(a.source).filename().string(),
                                     counted(jobs.size(), "job"), lo, hi);
  std::string script;
  script += fmt::format("set title {}\n", quoted(title));
  script += "set xlabel 'time (s)'\n";
  script += fmt::format("set ylabel {}\n", quoted(banded ? "cluster:processor (clusters stacked, cluster 0 at the bottom)"
                                                : processors > 0 ? "processor" : "lane (no processors allocated)"));
  script += fmt::format("set xrange [{}:{}]\nset yrange [{}:{}]\n", lo, hi, y_bottom, y_top);
  script += "set ytics nomirror out\nset xtics nomirror out\nset grid xtics lc rgb '#e0e0e0'\n";
  if (banded) {  // each band's processors, labelled cluster:processor, and a dashed line between two bands
    script += "set ytics ()\n";
    for (std::size_t c = 0; c < band.size(); ++c) {
      const int span = band[c] * static_cast<int>(band.size());  // about kTargetTics tics over all the bands
      const int step = span <= kEveryTicUpTo ? 1 : tic_step(span);
      for (int p = 0; p < band[c]; p += step)
        script += fmt::format("set ytics add ({} {})\n", quoted(fmt::format("{}:{}", c, p)), band_from[c] + p);
      script += fmt::format("set label {} at graph 0.005, first {} left front font ',9' tc rgb '#202020'\n",
                            quoted(fmt::format("cluster {}{}", c, a.clusters.empty() ? "" : fmt::format(" ({} processors)", band[c]))),
                            band_from[c] + band[c] - 0.5);
      if (c > 0)
        script += fmt::format("set arrow from {0},{2} to {1},{2} nohead dt 3 lw 1 lc rgb '#606060' front\n", lo, hi,
                              band_from[c] - 1);
    }
  } else if (processors > 0) {
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

  std::string plot = "plot 'boxes.dat' using 1:2:3:4:5:6:7 with boxxyerror fc rgb variable notitle";
  if (!labels.empty()) plot += ", \\\n     'labels.dat' using 1:2:3 with labels font ',9' tc rgb 'black' notitle";
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

  Plot chart;
  chart.width = kCanvasWidth;
  chart.height = height;
  chart.commands = std::move(script);
  chart.data = {{"boxes.dat", std::move(boxes)}, {"labels.dat", std::move(labels)}};
  if (std::string failed = draw(chart, out); !failed.empty()) return failed;
  int in_bands = 0;
  for (const int b : band) in_bands += b;
  if (drawn)
    *drawn = GanttChart{jobs.size(), banded ? in_bands : processors, static_cast<int>(band.size()), lanes, kCanvasWidth,
                        height, lo, hi};
  return "";
}


}  // namespace schedcheck::report
