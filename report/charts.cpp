// Bar and CDF charts (see charts.hpp). Our own.
#include "report/charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedcheck::report {

namespace {
std::string number(double x) { return std::isfinite(x) ? fmt::format("{:.10g}", x) : "NaN"; }

std::string common(const std::string& title, const std::string& x_label, const std::string& y_label) {
  std::string s = fmt::format("set title {}\nset xlabel {}\nset ylabel {}\n", quoted(title), quoted(x_label), quoted(y_label));
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
      data += " " + number(k < s.values.size() ? s.values[k] : NAN);
      if (errors) data += " " + number(k < s.errors.size() ? s.errors[k] : 0.0);
    }
    data += "\n";
  }
  Plot plot;
  plot.width = std::max(900, 220 + static_cast<int>(c.categories.size() * (c.series.size() * 18 + 30)));
  plot.height = 560;
  plot.data = {{"bars.dat", data}};
  std::string s = common(c.title, c.x_label, c.y_label);
  s += "set style data histograms\n";
  s += errors ? "set style histogram errorbars gap 1 lw 1\n" : "set style histogram clustered gap 1\n";
  s += "set style fill solid 0.85 border lc rgb '#404040'\nset boxwidth 0.9\n";
  s += "set xtics rotate by -30 left\n";
  s += c.log_y ? "set logscale y\nset yrange [*:*]\n" : "set yrange [0:*]\n";
  s += "plot ";
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const std::size_t column = errors ? 2 + 2 * i : 2 + i;
    s += fmt::format("{}'bars.dat' using {}{}{} title {}", i ? ", \\\n     " : "", column,
                     errors ? fmt::format(":{}", column + 1) : "", i == 0 ? ":xtic(1)" : "", quoted(c.series[i].name));
  }
  plot.commands = s + "\n";
  return plot;
}

Plot cdf_plot(const CdfChart& c) {
  Plot plot;
  plot.width = 1000;
  plot.height = 600;
  std::string s = common(c.title, c.x_label, "fraction of samples at or below x");

  // A log axis needs a positive sample somewhere: with none (every gap 0, say) the axis stays linear.
  const bool positive = std::any_of(c.series.begin(), c.series.end(), [](const CdfSeries& series) {
    return std::any_of(series.samples.begin(), series.samples.end(), [](double x) { return std::isfinite(x) && x > 0; });
  });
  if (c.log_x && positive) s += "set logscale x\n";
  if (!positive) s += "set xrange [-1:1]\n";
  std::string lines;
  double lowest = 1;  // the lowest fraction drawn at a positive x (zoom_y)
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    std::vector<double> v = c.series[i].samples;
    std::sort(v.begin(), v.end());
    const std::size_t zeros = c.series[i].zeros;
    const double n = static_cast<double>(v.size() + zeros);
    std::string data;
    std::size_t seen = 0;
    bool zeros_out = zeros == 0;
    const auto emit_zeros = [&] {  // the unlisted zeros, as one step at 0
      data += "0 " + number(static_cast<double>(seen + zeros) / n) + "\n";
      zeros_out = true;
    };
    for (const double x : v) {
      if (!zeros_out && x > 0) emit_zeros();
      ++seen;
      const double fraction = static_cast<double>(seen + (zeros_out ? zeros : 0)) / n;
      if (x > 0 || !c.log_x) lowest = std::min(lowest, fraction);
      data += number(x) + " " + number(fraction) + "\n";
    }
    if (!zeros_out) emit_zeros();
    const std::string name = fmt::format("cdf{}.dat", i);
    plot.data.emplace_back(name, data.empty() ? std::string("NaN NaN\n") : data);
    lines += fmt::format("{}'{}' using 1:2 with steps lw 2 title {}", i ? ", \\\n     " : "", name,
                         quoted(fmt::format("{} ({} samples)", c.series[i].name, static_cast<std::size_t>(n))));
  }
  if (c.zoom_y && lowest < 1) {
    const double margin = (1 - lowest) * 0.05;
    s += fmt::format("set yrange [{}:{}]\n", number(lowest - margin), number(1 + margin));
  } else {
    s += "set yrange [0:1.02]\n";
  }
  plot.commands = s + "plot " + lines + "\n";
  return plot;
}

}  // namespace schedcheck::report
