// Option validators for the schedcheck command line. Our own. CLI11's Range lets NaN through (every comparison with
// NaN is false); finite_range refuses it, and infinities, with the range in the message.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

namespace schedcheck::cli {

inline CLI::Validator finite_range(double low, double high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < low || value > high)
          return fmt::format("expected a finite number in [{:g}, {:g}], got \"{}\"", low, high, text);
        return "";
      },
      fmt::format("NUMBER in [{:g}, {:g}]", low, high));
}

}  // namespace schedcheck::cli
