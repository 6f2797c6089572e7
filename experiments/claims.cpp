// The claims of a paper evaluated over an experiment's runs, and their files (see claims.hpp). Our own.
#include "experiments/claims.hpp"

#include "experiments/runner.hpp"

#include "model/input.hpp"
#include "model/jobs_csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace schedcheck::experiments {

std::vector<Claim> Experiment::claims() const { return {}; }
std::vector<Reading> Experiment::readings() const { return {}; }

const char* to_string(Agreement a) {
  switch (a) {
    case Agreement::kAgrees: return "agrees";
    case Agreement::kPartly: return "partly";
    case Agreement::kDisagrees: return "disagrees";
    case Agreement::kUnmeasured: return "not measured";
  }
  return "not measured";
}

Agreement agreement_named(const std::string& name) {
  for (const Agreement a : {Agreement::kAgrees, Agreement::kPartly, Agreement::kDisagrees, Agreement::kUnmeasured})
    if (name == to_string(a)) return a;
  throw std::invalid_argument("expected agrees, partly, disagrees or not measured, got '" + name + "'");
}

Results::Results(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>& records, std::string reading)
    : reading_(std::move(reading)) {
  // The key of a run: its parameters and seed (a reading's point repeats a default point's).
  auto key = [](const Point& p) { return std::pair(p.parameters, p.seed); };
  std::map<std::pair<std::vector<std::pair<std::string, std::string>>, std::uint64_t>, const RunRecord*> replaced;
  if (!reading_.empty())
    for (std::size_t i = 0; i < points.size(); ++i)
      if (points[i].reading == reading_) replaced[key(points[i])] = records[i] ? &*records[i] : nullptr;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].reading.empty()) continue;
    const auto it = replaced.find(key(points[i]));
    const RunRecord* r = it != replaced.end() ? it->second : records[i] ? &*records[i] : nullptr;
    if (r) runs_.emplace_back(&points[i], r);
  }
}

namespace {

bool point_matches(const Point& point, const Where& where) {
  return std::all_of(where.begin(), where.end(), [&](const auto& w) { return point.parameter(w.first) == w.second; });
}

}  // namespace

std::vector<const RunRecord*> Results::runs(const Where& where) const {
  std::vector<const RunRecord*> out;
  for (const auto& [point, record] : runs_)
    if (point_matches(*point, where)) out.push_back(record);
  return out;
}

Spread Results::value(const Where& where, const std::function<double(const RunRecord&)>& of) const {
  std::vector<double> v;
  for (const RunRecord* r : runs(where)) {
    const double x = of(*r);
    if (!std::isnan(x)) v.push_back(x);
  }
  return spread(v);
}

std::map<std::uint64_t, double> Results::per_seed(const Where& where, const std::function<double(const RunRecord&)>& of) const {
  std::map<std::uint64_t, double> out;
  for (const auto& [point, record] : runs_)
    if (point_matches(*point, where)) {
      const double x = of(*record);
      if (!std::isnan(x)) out[point->seed] = x;
    }
  return out;
}

Spread Results::metric(const Where& where, const std::string& name) const {
  return value(where, [&](const RunRecord& r) { return r.metric(name); });
}

std::vector<ClaimRow> evaluate_claims(const std::vector<Claim>& claims, const std::vector<Reading>& readings,
                                      const std::vector<Point>& points,
                                      const std::vector<std::optional<RunRecord>>& records) {
  std::vector<std::string> names = {""};
  for (const Reading& r : readings)
    if (!r.needs_runs || std::any_of(points.begin(), points.end(), [&](const Point& p) { return p.reading == r.name; }))
      names.push_back(r.name);
  std::vector<ClaimRow> rows;
  for (const std::string& name : names) {
    const Results results(points, records, name);
    for (const Claim& c : claims) {
      ClaimRow row{c.id, c.where, c.words, c.test, c.input, name.empty() ? "default" : name, Agreement::kUnmeasured, ""};
      try {
        const Finding f = c.check(results);
        row.verdict = f.verdict;
        row.measured = f.measured;
      } catch (const std::exception& e) {
        row.measured = std::string("not measured: ") + e.what();
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

namespace {

// The readings of the rows, "default" first, in their order.
std::vector<std::string> reading_names(const std::vector<ClaimRow>& rows) {
  std::vector<std::string> names;
  for (const auto& r : rows)
    if (std::find(names.begin(), names.end(), r.reading) == names.end()) names.push_back(r.reading);
  return names;
}

// The claims' ids in their order (each once).
std::vector<const ClaimRow*> first_rows(const std::vector<ClaimRow>& rows) {
  std::vector<const ClaimRow*> out;
  for (const auto& r : rows)
    if (std::none_of(out.begin(), out.end(), [&](const ClaimRow* o) { return o->id == r.id; })) out.push_back(&r);
  return out;
}

const ClaimRow* row_of(const std::vector<ClaimRow>& rows, const std::string& id, const std::string& reading) {
  for (const auto& r : rows)
    if (r.id == id && r.reading == reading) return &r;
  return nullptr;
}

std::string cell(std::string text) {  // a Markdown table cell: no bar, no line break
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

std::string claims_csv(const std::vector<ClaimRow>& rows) {
  std::string out = csv_line({"claim", "kind", "where", "paper", "test", "reading", "verdict", "measured"});
  for (const auto& r : rows)
    out += csv_line({r.id, r.input ? "input" : "result", r.where, r.words, r.test, r.reading, to_string(r.verdict), r.measured});
  return out;
}

std::string claims_readings_csv(const std::vector<ClaimRow>& rows) {
  const std::vector<std::string> names = reading_names(rows);
  std::vector<std::string> header = {"claim"};
  header.insert(header.end(), names.begin(), names.end());
  std::string out = csv_line(header);
  for (const ClaimRow* first : first_rows(rows)) {
    std::vector<std::string> line = {first->id};
    for (const auto& n : names) {
      const ClaimRow* r = row_of(rows, first->id, n);
      line.push_back(r ? to_string(r->verdict) : "");
    }
    out += csv_line(line);
  }
  return out;
}

std::vector<ClaimRow> read_claims_csv(const std::string& path) {
  const jobs_csv::Table t = jobs_csv::read_table(path);
  for (const char* column : {"claim", "kind", "where", "paper", "test", "reading", "verdict", "measured"})
    if (std::find(t.header.begin(), t.header.end(), column) == t.header.end())
      throw InputError(fmt::format("{}: line 1: no column {} (expected the claims.csv of an experiment)", path, column));
  std::vector<ClaimRow> rows;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::string kind = t.at(i, "kind");
    if (kind != "result" && kind != "input")
      throw InputError(fmt::format("{}: line {}: column kind: expected result or input, got {}", path, i + 2, quoted_text(kind, 40)));
    ClaimRow r{t.at(i, "claim"), t.at(i, "where"), t.at(i, "paper"), t.at(i, "test"), kind == "input", t.at(i, "reading"),
               Agreement::kUnmeasured, t.at(i, "measured")};
    try {
      r.verdict = agreement_named(t.at(i, "verdict"));
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("{}: line {}: column verdict: {}", path, i + 2, e.what()));
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string claims_markdown(const std::vector<ClaimRow>& rows, const std::vector<Reading>& readings) {
  const std::vector<std::string> names = reading_names(rows);
  std::string out = "| claim | paper | the paper says | test | measured | verdict |\n|---|---|---|---|---|---|\n";
  for (const ClaimRow* first : first_rows(rows)) {
    const ClaimRow* d = row_of(rows, first->id, "default");
    if (!d) d = first;
    out += fmt::format("| `{}`{} | {} | \"{}\" | {} | {} | **{}** |\n", d->id, d->input ? " (input)" : "", cell(d->where),
                       cell(d->words), cell(d->test), cell(d->measured), to_string(d->verdict));
  }
  if (names.size() <= 1) return out;
  out += "\n| claim |";
  std::string rule = "|---|";
  for (const auto& n : names) {
    out += fmt::format(" {} |", n);
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const ClaimRow* first : first_rows(rows)) {
    out += fmt::format("| `{}` |", first->id);
    for (const auto& n : names) {
      const ClaimRow* r = row_of(rows, first->id, n);
      out += fmt::format(" {} |", r ? to_string(r->verdict) : "");
    }
    out += "\n";
  }
  for (std::size_t k = 1; k < names.size(); ++k) {
    const auto reading = std::find_if(readings.begin(), readings.end(), [&](const Reading& r) { return r.name == names[k]; });
    std::string changed;
    for (const ClaimRow* first : first_rows(rows)) {
      const ClaimRow* d = row_of(rows, first->id, "default");
      const ClaimRow* r = row_of(rows, first->id, names[k]);
      if (d && r && d->verdict != r->verdict)
        changed += fmt::format("| `{}` | {} → **{}** | {} |\n", r->id, to_string(d->verdict), to_string(r->verdict),
                               cell(r->measured));
    }
    out += fmt::format("\nUnder `{}`{}: ", names[k],
                       reading != readings.end() ? fmt::format(" ({}; {})", reading->what, reading->scenario) : "");
    out += changed.empty() ? "no verdict changes.\n"
                           : "the verdicts that change.\n\n| claim | default → this reading | measured |\n|---|---|---|\n" + changed;
  }
  return out;
}

nlohmann::json claims_counts(const std::vector<ClaimRow>& rows, const std::string& reading, bool inputs) {
  nlohmann::json counts = {{"agrees", 0}, {"partly", 0}, {"disagrees", 0}, {"not measured", 0}};
  for (const auto& r : rows)
    if (r.reading == reading && r.input == inputs) counts[to_string(r.verdict)] = counts[to_string(r.verdict)].get<int>() + 1;
  return counts;
}

double relative_change(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || a == 0) return NAN;
  return (b - a) / std::fabs(a);
}

std::string percent_change(double a, double b) {
  const double c = relative_change(a, b);
  return std::isnan(c) ? "n/a" : fmt::format("{:+.1f}%", 100 * c);
}

std::string number(double x) {
  if (std::isnan(x)) return "n/a";
  if (std::fabs(x) >= 1e4) {
    std::string s = fmt::format("{:.3e}", x);  // 2.750e+09
    const auto e = s.find('e');
    std::string mantissa = s.substr(0, e);
    while (mantissa.back() == '0') mantissa.pop_back();
    if (mantissa.back() == '.') mantissa.pop_back();
    return mantissa + "e" + std::to_string(std::stoi(s.substr(e + 1)));
  }
  return fmt::format("{:.4g}", x);
}

Finding near(double measured, double paper, double close, double factor, const std::string& what) {
  Finding f;
  const double off = relative_change(paper, measured);
  f.measured = fmt::format("{} {} against the paper's {} ({})", what, number(measured), number(paper), percent_change(paper, measured));
  if (std::isnan(off) || paper <= 0) return f;
  const double ratio = measured / paper;
  f.verdict = std::fabs(off) <= close                               ? Agreement::kAgrees
              : ratio >= 1 / factor && ratio <= factor ? Agreement::kPartly
                                                                    : Agreement::kDisagrees;
  return f;
}

Difference difference(const std::map<std::uint64_t, double>& a, const std::map<std::uint64_t, double>& b) {
  Difference d;
  std::vector<double> paired;
  for (const auto& [seed, x] : a)
    if (const auto it = b.find(seed); it != b.end()) paired.push_back(x - it->second);
  if (!paired.empty() && paired.size() == a.size() && paired.size() == b.size()) {
    const Spread s = spread(paired);
    d.count = paired.size();
    d.mean = s.mean;
    d.standard_error = s.stddev / std::sqrt(static_cast<double>(paired.size()));
    d.paired = true;
    return d;
  }
  auto values = [](const std::map<std::uint64_t, double>& m) {
    std::vector<double> v;
    for (const auto& [seed, x] : m) v.push_back(x);
    return spread(v);
  };
  const Spread sa = values(a), sb = values(b);
  if (sa.count == 0 || sb.count == 0) return d;
  d.count = std::min(sa.count, sb.count);
  d.mean = sa.mean - sb.mean;
  d.standard_error = std::sqrt(sa.stddev * sa.stddev / static_cast<double>(sa.count) +
                               sb.stddev * sb.stddev / static_cast<double>(sb.count));
  return d;
}

void Checks::add(bool holds, const std::string& numbers) {
  ++checked_;
  holding_ += holds;
  text_ += (text_.empty() ? "" : separator_) + numbers + (holds ? "" : " (not)");
}

Finding Checks::finding() const {
  if (checked_ == 0) return {Agreement::kUnmeasured, "no run of what it compares"};
  return {verdict(), fmt::format("{} of {} hold: {}", holding_, checked_, text_)};
}

Agreement share_holding(std::size_t holding, std::size_t checked) {
  if (checked == 0) return Agreement::kUnmeasured;
  return holding == checked ? Agreement::kAgrees : holding > 0 ? Agreement::kPartly : Agreement::kDisagrees;
}

}  // namespace schedcheck::experiments
