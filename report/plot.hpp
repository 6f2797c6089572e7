// Images drawn by gnuplot (Debian's gnuplot-nox), PNG or SVG by the output file's extension: the one driver behind
// `schedcheck gantt` and the experiments' figures. Our own. The script and its data files go to a temporary directory
// (gnuplot runs there, so the script names its data files by name); the image is written to OUT.tmp and renamed, so
// a reader never sees half an image; gnuplot's first error line is what a failure says. Limits: gnuplot must be on
// PATH; the temporary directory is removed on every return and exception, not when the process is killed.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace schedcheck::report {

struct Plot {
  int width = 1200;                // pixels
  int height = 600;
  std::string commands;            // gnuplot commands after the terminal and output lines (set ..., plot ...)
  std::vector<std::pair<std::string, std::string>> data;  // data files: name (as the commands use it), contents
};

// Whether `out` ends in .svg (else .png); throws InputError naming `option` unless it ends in .png or .svg.
bool is_svg(const std::string& out, const std::string& option = "--out");

// Draws `plot` into `out`. Returns "" when the image was written, else one line saying why gnuplot failed (an error
// in the script, a signal, no image written). Throws InputError when gnuplot is not on PATH, or the temporary
// directory or `out` cannot be written.
std::string draw(const Plot& plot, const std::string& out);
// Whether a gnuplot is on PATH (callers that draw many figures ask once).
bool gnuplot_available();

// A gnuplot single-quoted string: '' is a quote; control characters become spaces.
std::string quoted(const std::string& text);
// A file name for a gnuplot command, byte for byte: double-quoted, with control characters, " and \ as octal
// escapes (\012), which gnuplot reads back to the same bytes.
std::string path_string(const std::string& path);
// A string field of a gnuplot data file: double-quoted, with backslash escapes read after the field is cut (a quote
// inside is written \042); control characters become spaces.
std::string data_string(const std::string& text);
// One line whatever a file name or gnuplot's message holds: control characters become '?'.
std::string one_line(std::string text);

}  // namespace schedcheck::report
