// Report rendering (see output.hpp). Our own.
#include "cli/output.hpp"

#include "model/input.hpp"
#include "model/jobs_csv.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace schedcheck::cli {

namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

std::string decision_summary(const nlohmann::json& decision) {
  if (!decision.is_null() && decision.contains("summary") && decision["summary"].is_string())
    return decision["summary"].get<std::string>();  // a decision that is not a set of accepted jobs says itself
  if (decision.is_null() || !decision.contains("accepted")) return "";
  std::vector<std::string> ids;
  for (const auto& id : decision["accepted"]) {
    std::string text = id.get<std::string>();
    if (decision.contains("start") && decision["start"].contains(text))
      text += fmt::format("@{:g}", decision["start"][text].get<double>());
    ids.push_back(text);
  }
  return "accepted " + (ids.empty() ? std::string("(none)") : join(ids, " "));
}

// "completion=100 delay=60 ..." from a side's metrics object ("" when the problem has none).
std::string metrics_text(const nlohmann::json& metrics) {
  if (!metrics.is_object()) return "";
  std::string out;
  for (const auto& [key, value] : metrics.items())
    out += (out.empty() ? "" : " ") + key + "=" + (value.is_number() ? fmt::format("{:g}", value.get<double>()) : value.dump());
  return out;
}

std::string csv_field(const std::string& text) { return jobs_csv::text_field(text); }

// The names of a report's properties, by status, in report order.
struct NamesByStatus {
  std::vector<std::string> holds, fails, undecided, not_applicable;
};
NamesByStatus names_by_status(const Report& r) {
  NamesByStatus out;
  for (const auto& p : r.properties) {
    switch (p.status) {
      case PropertyStatus::kHolds: out.holds.push_back(p.name); break;
      case PropertyStatus::kFails: out.fails.push_back(p.name); break;
      case PropertyStatus::kUndecided: out.undecided.push_back(p.name); break;
      case PropertyStatus::kNotApplicable: out.not_applicable.push_back(p.name); break;
    }
  }
  return out;
}

std::string property_summary(const Report& r) {
  if (r.properties.empty()) return "-";  // solve: no policy, no properties
  const auto names = names_by_status(r);
  // Out of the properties that apply: those that do not are counted apart, never as holding.
  const std::size_t applicable = r.properties.size() - names.not_applicable.size();
  std::string out = fmt::format("{}/{} hold", names.holds.size(), applicable);
  if (!names.fails.empty()) out += "; FAILS " + join(names.fails, ",");
  if (!names.undecided.empty()) out += "; undecided " + join(names.undecided, ",");
  if (!names.not_applicable.empty()) out += fmt::format("; {} not applicable", names.not_applicable.size());
  return out;
}

std::string verdict_word(int exit_code) {
  switch (exit_code) {
    case 0: return "PASS";
    case 1: return "FAIL";
    case 3: return "UNDECIDED (a time, memory or stack limit)";
    default: return "ERROR";
  }
}

std::string gap_text(const Report& r) { return r.gap ? fmt::format("{:.4f}%", *r.gap * 100) : "-"; }

}  // namespace

std::string csv_header() {
  return "file,instance,problem,size,policy,heuristic_objective,exact_method,optimum_status,optimum_objective,gap,"
         "heuristic_seconds,exact_seconds,properties_hold,properties_fail,properties_undecided,"
         "properties_not_applicable,exit_code,heuristic_metrics,optimum_metrics\n";
}

std::string csv_row(const Report& r) {
  const auto names = names_by_status(r);
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.file),
                     csv_field(r.instance),
                     r.problem, r.size, r.heuristic.name, r.heuristic.ran ? fmt::format("{:.10g}", r.heuristic.objective) : "",
                     r.optimum.name, r.optimum.status,
                     r.optimum.ran && !r.optimum.decision.is_null() ? fmt::format("{:.10g}", r.optimum.objective) : "",
                     r.gap ? fmt::format("{:.10g}", *r.gap) : "", r.heuristic.ran ? fmt::format("{:.6f}", r.heuristic.seconds) : "",
                     r.optimum.ran ? fmt::format("{:.6f}", r.optimum.seconds) : "", join(names.holds, ";"),
                     join(names.fails, ";"), join(names.undecided, ";"), join(names.not_applicable, ";"), r.exit_code(),
                     csv_field(metrics_text(r.heuristic.metrics)), csv_field(metrics_text(r.optimum.metrics)));
}

namespace {
// Text for a terminal: every line through printable_text, so user text inside (an instance name, a file name, a
// provider id in a detail) can neither add lines nor send escape sequences. JSON goes through json_text, likewise.
std::string printable_lines(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    out += printable_text(std::string_view(text).substr(from, end - from));
    out += '\n';
    from = end + 1;
  }
  return out;
}
}  // namespace

std::string render_report(const Report& r, Format format) {
  if (format == Format::kJson) return json_text(r.to_json()) + "\n";
  if (format == Format::kCsv) return printable_lines(csv_header() + csv_row(r));
  return printable_lines(report_text(r));
}

std::string report_text(const Report& r) {
  std::string out = fmt::format("{}  {}  (n = {}, objective: {})\n", r.problem, r.file, r.size, r.objective_name);
  if (r.heuristic.ran) {
    out += fmt::format("  heuristic  {:<22} {:>14.6g}  {}\n", r.heuristic.name, r.heuristic.objective,
                       decision_summary(r.heuristic.decision));
    if (!r.heuristic.metrics.is_null()) out += fmt::format("             metrics {}\n", metrics_text(r.heuristic.metrics));
    if (!r.heuristic.detail.empty()) out += fmt::format("             infeasible: {}\n", r.heuristic.detail);
  }
  if (r.optimum.ran) {
    const std::string label = fmt::format("{} ({})", r.optimum.name, r.optimum.status);
    if (r.optimum.decision.is_null())
      out += fmt::format("  exact      {:<22} {:>14}  {:.3f} ms\n", label, "-", r.optimum.seconds * 1e3);
    else
      out += fmt::format("  exact      {:<22} {:>14.6g}  {}  ({:.3f} ms)\n", label, r.optimum.objective,
                         decision_summary(r.optimum.decision), r.optimum.seconds * 1e3);
    if (!r.optimum.metrics.is_null()) out += fmt::format("             metrics {}\n", metrics_text(r.optimum.metrics));
    if (!r.optimum.detail.empty()) out += fmt::format("             {}\n", r.optimum.detail);
    if (r.optimum.core.is_object())
      out += fmt::format("             core ({}): {}\n", r.optimum.core["minimal"].get<bool>() ? "minimal" : "not shown minimal",
                         join(r.optimum.core["ids"].get<std::vector<std::string>>(), ", "));
    if (r.optimum.phases.is_object()) {
      std::vector<std::string> parts;
      for (const auto& [name, seconds] : r.optimum.phases.items())
        parts.push_back(fmt::format("{} {:.3f} ms", name, seconds.get<double>() * 1e3));
      out += fmt::format("             phases: {}\n", join(parts, ", "));
    }
    if (r.optimum.chain.is_array())
      for (const auto& step : r.optimum.chain)
        out += fmt::format("             chain: {} ({}): {}, {:.3f} ms\n", step["method"].get<std::string>(),
                           step["why"].get<std::string>(), step["status"].get<std::string>(),
                           step["seconds"].get<double>() * 1e3);
  }
  if (r.heuristic.ran && r.optimum.ran)
    out += fmt::format("  gap        {}{}\n", gap_text(r), r.gap_note.empty() ? "" : "  (" + r.gap_note + ")");
  if (!r.properties.empty()) {
    out += "  properties\n";
    for (const auto& p : r.properties)
      out += fmt::format("    {:<31} {:<14} {}\n", p.name, to_string(p.status), p.detail);  // "not applicable"
  }
  out += fmt::format("  verdict    {} (exit {})\n", verdict_word(r.exit_code()), r.exit_code());
  return out;
}

std::string render_rows(const std::vector<Report>& reports, Format format) {
  if (format == Format::kJson) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& r : reports) all.push_back(r.to_json());
    return json_text(all) + "\n";
  }
  if (format == Format::kCsv) {
    std::string out = csv_header();
    for (const auto& r : reports) out += csv_row(r);
    return printable_lines(out);
  }
  std::string out = fmt::format("{:<36} {:<20} {:<20} {:>4} {:>12} {:>12} {:<9} {:>9}  {}\n", "instance", "problem",
                                "policy / exact", "n", "heuristic", "optimum", "status", "gap", "properties");
  for (const auto& r : reports) {
    std::string file = r.file.size() > 36 ? "..." + r.file.substr(r.file.size() - 33) : r.file;
    out += fmt::format("{:<36} {:<20} {:<20} {:>4} {:>12} {:>12} {:<9} {:>9}  {}\n", file, r.problem,
                       r.heuristic.ran ? r.heuristic.name : r.optimum.name, r.size,
                       r.heuristic.ran ? fmt::format("{:.6g}", r.heuristic.objective) : "-",
                       r.optimum.decision.is_null() ? "-" : fmt::format("{:.6g}", r.optimum.objective), r.optimum.status,
                       gap_text(r), property_summary(r));
  }
  return printable_lines(out);
}

}  // namespace schedcheck::cli
