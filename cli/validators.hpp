// Option validators for the schedcheck command line. Our own. CLI11's Range lets NaN through (every comparison with
// NaN is false); finite_range refuses it, and infinities, with the range in the message.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

namespace schedcheck::cli {

// A finite number in [low, high], or with `open_low` in (low, high] (a length of time that must be positive).
inline CLI::Validator finite_range(double low, double high, bool open_low = false) {
  const std::string range = fmt::format("{}{:g}, {:g}]", open_low ? "(" : "[", low, high);
  return CLI::Validator(
      [low, high, open_low, range](std::string& text) -> std::string {
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < low ||
            (open_low && value == low) || value > high)
          return fmt::format("expected a finite number in {}, got \"{}\"", range, text);
        return "";
      },
      "NUMBER in " + range);
}

}  // namespace schedcheck::cli
