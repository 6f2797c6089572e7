// Rendering of reports for the terminal (table), for programs (JSON) and for spreadsheets (CSV). Our own.
#pragma once

#include "properties/registry.hpp"

#include <string>
#include <vector>

namespace schedcheck::cli {

enum class Format { kTable, kJson, kCsv };

// Table and CSV text is printable: each line escaped as model/input.hpp's printable_text does (user text in names).
std::string render_report(const Report& report, Format format);           // one check/run/solve
std::string report_text(const Report& report);                            // the table of one report, unescaped
std::string render_rows(const std::vector<Report>& reports, Format format); // one line per report (suite)
std::string csv_header();
std::string csv_row(const Report& report);

}  // namespace schedcheck::cli
