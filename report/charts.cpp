// Bar and CDF charts (see charts.hpp). Our own.
#include "report/charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::report {

namespace {
std::string number(double x) { return std::isfinite(x) ? fmt::format("{:.10g}", x) : "NaN"; }

// A title broken into lines of at most `width` characters at spaces, so that no part of it falls off the image, as
// a gnuplot double-quoted string (\n breaks a line there; quoted() makes single-quoted strings, which keep it).
std::string title_string(const std::string& title, int image_width) {
  // The key stands outside on the right and the title is centred on the plot beside it: about 7 pixels a character.
  const std::size_t width = static_cast<std::size_t>(std::max(40, (image_width - 350) / 7));
  std::vector<std::string> lines(1);
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    word.clear();
  };
  for (const char c : title) {
    if (c == ' ') flush();
    else word += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  }
  flush();
  std::string out = "\"";
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (k) out += "\\n";
    for (const char c : lines[k]) out += c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\") : std::string(1, c);
  }
  return out + "\"";
}

std::string common(const std::string& title, const std::string& x_label, const std::string& y_label, int image_width) {
  std::string s = fmt::format("set title {} noenhanced\nset xlabel {}\nset ylabel {}\n", title_string(title, image_width),
                              quoted(x_label), quoted(y_label));
  s += "set key outside right top vertical Left reverse samplen 2\nset grid ytics lc rgb '#e0e0e0'\n";
  s += "set border 3\nset xtics nomirror\nset ytics nomirror\n";
  return s;
}
}  // namespace

Plot bar_plot(const BarChart& c) {
  const bool errors = std::any_of(c.series.begin(), c.series.end(), [](const BarSeries& s) { return !s.errors.empty(); });
  std::string data;
  for (std::size_t k = 0; k < c.categories.size(); ++k) {
    data += data_string(c.categories[k]);
    for (const auto& s : c.series) {
      data += ' ';
      data += number(k < s.values.size() ? s.values[k] : NAN);
      if (errors) {
        data += ' ';
        data += number(k < s.errors.size() ? s.errors[k] : 0.0);
      }
    }
    data += "\n";
  }
  Plot plot;
  plot.width = std::max(900, 220 + static_cast<int>(c.categories.size() * (c.series.size() * 18 + 30)));
  plot.height = 560;
  plot.data = {{"bars.dat", data}};
  std::string s = common(c.title, c.x_label, c.y_label, plot.width);
  s += "set style data histograms\n";
  s += errors ? "set style histogram errorbars gap 1 lw 1\n" : "set style histogram clustered gap 1\n";
  s += "set style fill solid 0.85 border lc rgb '#404040'\nset boxwidth 0.9\n";
  s += "set xtics rotate by -30 left\n";
  // Bars below zero (an improvement ratio that is negative) need the axis below zero, and a line at zero.
  bool negative = false;
  for (const auto& series : c.series)
    for (const double v : series.values) negative = negative || v < 0;
  s += c.log_y ? "set logscale y\nset yrange [*:*]\n" : negative ? "set yrange [*:*]\nset xzeroaxis lt -1\n" : "set yrange [0:*]\n";
  s += "plot ";
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const std::size_t column = errors ? 2 + 2 * i : 2 + i;
    s += fmt::format("{}'bars.dat' using {}{}{} title {}", i ? ", \\\n     " : "", column,
                     errors ? fmt::format(":{}", column + 1) : "", i == 0 ? ":xtic(1)" : "", quoted(c.series[i].name));
  }
  for (const auto& [name, y] : c.lines)
    s += fmt::format(", \\\n     {} with lines lw 2 dt 2 title {}", number(y), quoted(name));
  plot.commands = s + "\n";
  return plot;
}

Plot cdf_plot(const CdfChart& c) {
  Plot plot;
  plot.width = 1000;
  plot.height = 600;
  std::string s = common(c.title, c.x_label, "fraction of samples at or below x", plot.width);

  // A log axis needs a positive sample somewhere: with none (every gap 0, say) the picture says so in words.
  double low = INFINITY, high = 0;
  std::size_t total = 0;
  for (const auto& series : c.series) {
    total += series.samples.size() + series.zeros;
    for (const double x : series.samples)
      if (std::isfinite(x) && x > 0) {
        low = std::min(low, x);
        high = std::max(high, x);
      }
  }
  const bool positive = high > 0;
  if (c.log_x && positive) {
    // Ticks at most about ten: every k-th power of ten over a wide range; 1, 2 and 5 times each power over three
    // decades or less (1 to 9 times when that gives fewer than four), so that a narrow range still shows its scale.
    const int first = static_cast<int>(std::floor(std::log10(low))), last = static_cast<int>(std::ceil(std::log10(high)));
    std::vector<double> ticks;
    if (last - first > 3) {
      const int step = std::max(1, (last - first + 9) / 10);
      for (int e = first; e <= last; e += step) ticks.push_back(std::pow(10.0, e));
    } else {
      static const std::vector<double> kMantissas[] = {{1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
      for (const std::vector<double>& steps : kMantissas) {
        ticks.clear();
        for (int e = first; e <= last; ++e)
          for (const double m : steps) {
            const double t = m * std::pow(10.0, e);
            if (t >= low / 1.0001 && t <= high * 1.0001) ticks.push_back(t);
          }
        if (ticks.size() >= 4) break;
      }
    }
    s += "set logscale x\n";
    s += fmt::format("set xrange [{}:{}]\n", number(std::min(low / 1.5, ticks.empty() ? low : ticks.front())),
                     number(std::max(high * 1.5, ticks.empty() ? high : ticks.back())));
    std::string list;
    for (const double t : ticks) list += fmt::format("{}\"{:g}\" {}", list.empty() ? "" : ", ", t, number(t));
    if (!list.empty()) s += "set xtics (" + list + ")\n";
  }
  if (!positive) {
    s += "set xrange [0:1]\n";
    s += fmt::format("set label 1 {} at graph 0.5, 0.5 center\n",
                     quoted(total == 0 ? "no sample to draw" : fmt::format("every one of the {} samples is 0: nothing to draw "
                                                                           "(all at the optimum)", total)));
  }
  std::string lines;
  double lowest = 1;  // the lowest fraction drawn at a positive x (zoom_y)
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    std::vector<double> v = c.series[i].samples;
    std::sort(v.begin(), v.end());
    const std::size_t zeros = c.series[i].zeros + static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [](double x) { return x <= 0; }));
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return x <= 0; }), v.end());
    const double n = static_cast<double>(v.size() + zeros);
    std::string data;
    if (!c.log_x && zeros > 0) data += "0 " + number(static_cast<double>(zeros) / n) + "\n";
    std::size_t seen = zeros;
    for (const double x : v) {
      ++seen;
      const double fraction = static_cast<double>(seen) / n;
      lowest = std::min(lowest, fraction);
      data += number(x) + " " + number(fraction) + "\n";
    }
    // On a log axis the zeros are off the axis: the line starts at the first positive gap, at the fraction the zeros
    // reach, and the legend says how many are 0 (a series of zeros alone draws nothing and says so there).
    if (c.log_x && zeros > 0 && !v.empty()) data = number(v.front()) + " " + number(static_cast<double>(zeros) / n) + "\n" + data;
    if (c.log_x && zeros > 0) lowest = std::min(lowest, static_cast<double>(zeros) / n);
    const std::string name = fmt::format("cdf{}.dat", i);
    plot.data.emplace_back(name, data.empty() || (c.log_x && v.empty()) ? std::string("NaN NaN\n") : data);
    const std::string at_zero = zeros == 0 ? "" : v.empty() ? ", all 0" : fmt::format(", {:.4g}% at 0", 100.0 * zeros / n);
    lines += fmt::format("{}'{}' using 1:2 with steps lw 2 title {}", i ? ", \\\n     " : "", name,
                         quoted(n == 0 ? c.series[i].name + " (no sample)"
                                       : fmt::format("{} ({} samples{})", c.series[i].name, static_cast<std::size_t>(n), at_zero)));
  }
  if (c.zoom_y && positive && lowest < 1) {
    const double margin = (1 - lowest) * 0.05;
    s += fmt::format("set yrange [{}:{}]\n", number(lowest - margin), number(1 + margin));
  } else {
    s += "set yrange [0:1.02]\n";
  }
  plot.commands = s + "plot " + lines + "\n";
  return plot;
}

Plot line_plot(const LineChart& c) {
  Plot plot;
  plot.width = 1100;
  plot.height = 560;
  std::string s = common(c.title, c.x_label, c.y_label, plot.width);
  s += "set yrange [0:*]\n";
  std::string lines;
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    std::string data;
    const LineSeries& series = c.series[i];
    for (std::size_t k = 0; k < series.x.size() && k < series.y.size(); ++k)
      data += std::isfinite(series.y[k]) ? number(series.x[k]) + " " + number(series.y[k]) + "\n" : "\n";
    const std::string name = fmt::format("line{}.dat", i);
    plot.data.emplace_back(name, data.empty() ? std::string("NaN NaN\n") : data);
    lines += fmt::format("{}'{}' using 1:2 with {} lw 2 title {}", i ? ", \\\n     " : "", name,
                         c.steps ? "steps" : "lines", quoted(series.name));
  }
  plot.commands = s + "plot " + lines + "\n";
  return plot;
}

}  // namespace schedcheck::report
