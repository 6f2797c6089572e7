// A Gantt chart (PNG or SVG, by gnuplot: report/plot.hpp) of schedule rows: one rectangle per job and per maximal run
// of consecutive processors, the job id where it fits; jobs without allocated processors on first-fit lanes below
// them; the clusters of a run of several in bands of their own. Our own. For cases small enough to look at: refuses more than `max_jobs` jobs in the window. Used by
// `schedcheck gantt` and by the experiments (the worst window of a run).
#pragma once

#include "model/jobs_csv.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::report {

struct GanttOptions {
  std::optional<double> from, to;   // the time window (default: the first start to the last finish)
  int processors = 0;               // processors 0..P-1 on the axis (0: up to the highest allocated in the window)
  // Rows of several clusters (ScheduleRow::cluster): each cluster's processors in a band of their own, bands stacked
  // from cluster 0 at the bottom, labelled; `clusters` gives their sizes (empty: up to the highest allocated in each).
  std::vector<int> clusters;
  std::string title;                // "" : the source, the job count and the window
  std::size_t max_jobs = 2000;
  std::string source = "schedule";  // where the rows come from: messages and the default title name it
};

struct GanttChart {                 // what was drawn
  std::size_t jobs = 0;
  int processors = 0;               // in all clusters
  int clusters = 0;                 // bands drawn (0: the rows name no cluster)
  int lanes = 0;
  int width = 0, height = 0;
  double from = 0, to = 0;
};

// Draws the rows into `out` (.png or .svg). Returns "" when drawn (and fills `drawn`), else why gnuplot failed (one
// line). Throws InputError for bad rows or options (no rows, an empty or backwards window, too many jobs, processors
// beyond `processors` or beyond their cluster's size, a cluster index beyond `clusters`), and as report::draw does.
std::string draw_gantt(const std::vector<jobs_csv::ScheduleRow>& rows, const GanttOptions& options, const std::string& out,
                       GanttChart* drawn = nullptr);

}  // namespace schedcheck::report
