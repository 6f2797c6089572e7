// The charts of the experiments' figures, as gnuplot plots (report/plot.hpp): grouped bars (a value per category
// and series, with an optional error bar: the standard deviation over seeds, and reference lines), cumulative
// distributions (the fraction of samples at or below x, one line per series) and values over time. Our own. Limits: the axis labels and titles are plain
// text; a log axis needs positive values (others are left out of the log scale by gnuplot).
#pragma once

#include "report/plot.hpp"

#include <string>
#include <utility>
#include <vector>

namespace schedcheck::report {

struct BarSeries {
  std::string name;
  std::vector<double> values;   // one per category (NaN: no bar)
  std::vector<double> errors;   // empty, or one per category
};

struct BarChart {
  std::string title, x_label, y_label;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  bool log_y = false;
  std::vector<std::pair<std::string, double>> lines = {};  // horizontal lines across the bars: (name, y), a deadline
};
Plot bar_plot(const BarChart& chart);

// Values over time, one line per series; a series may have gaps (NaN: the line breaks there).
struct LineSeries {
  std::string name;
  std::vector<double> x, y;     // the same length
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<LineSeries> series;
  bool steps = false;           // a value holds until the next sample (a bid over an interval)
};
Plot line_plot(const LineChart& chart);

struct CdfSeries {
  std::string name;
  std::vector<double> samples;
  std::size_t zeros = 0;        // further samples at 0, not listed (a compact form for data that is mostly 0)
};

struct CdfChart {
  std::string title, x_label;
  std::vector<CdfSeries> series;
  bool log_x = false;
  bool zoom_y = false;          // the y axis from the lowest fraction drawn (data nearly all at one value), not from 0
};
Plot cdf_plot(const CdfChart& chart);

}  // namespace schedcheck::report
