// Suite `claims`: the paper's claims as executable checks (experiments/claims.hpp) on a toy experiment whose runs
// are known by construction: a claim that agrees under the default reading and must flip when its reading is
// switched, a reading's runs replacing only the default runs with its parameters and seed, a reading that needs no
// runs, a check that throws reported as not measured, and claims.csv, claims-readings.csv and claims.md as written and
// read back. Our own.
#include "experiments/claims.hpp"
#include "experiments/runner.hpp"
#include "support/files.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace test_claims {

using namespace schedcheck;
using namespace schedcheck::experiments;

namespace {

// y = x under the default reading; under "decreasing", y = -x; under "flat-at-1", the point x = 1 alone runs again and
// gives y = 0. The claim "y rises with x" agrees by default, disagrees under "decreasing", and under "flat-at-1" reads
// the default run at x = 0 and the reading's at x = 1 (equal: disagrees too). "as-written" needs no run: the claim
// reads its runs as y = -x.
class Toy final : public Experiment {
public:
  explicit Toy(bool readings) : readings_(readings) {}
  const Described& info() const override { return info_; }
  std::vector<Reading> readings() const override {
    return {{"decreasing", "\"sweep\": {\"sign\": -1}", "y = -x"},
            {"flat-at-1", "\"sweep\": {\"flat\": true}", "x = 1 gives 0"},
            {"as-written", "(none)", "read as y = -x", false}};
  }
  std::vector<Point> points() const override {
    std::vector<Point> out;
    for (const std::string reading : {"", "decreasing", "flat-at-1"}) {
      if (!reading.empty() && !readings_) continue;
      for (const int x : {0, 1, 2}) {
        if (reading == "flat-at-1" && x != 1) continue;
        Point p;
        p.parameters = {{"x", std::to_string(x)}};
        p.reading = reading;
        out.push_back(p);
      }
    }
    return out;
  }
  RunRecord run(const Point& p) const override {
    const double x = std::stod(p.parameter("x"));
    RunRecord r;
    r.metrics = {{"y", p.reading == "decreasing" ? -x : p.reading == "flat-at-1" ? 0.0 : x}};
    return r;
  }
  std::vector<Figure> figures(const std::vector<Point>& points, const std::vector<std::optional<RunRecord>>&) const override {
    seen_by_figures = points.size();
    return {};
  }
  std::vector<Claim> claims() const override {
    auto y = [](const Results& r, int x) {
      const double v = r.metric({{"x", std::to_string(x)}}, "y").mean;
      return r.reading() == "as-written" ? -v : v;
    };
    Claim input{"x-counts", "sec. 0", "three points", "3 runs", [](const Results& r) {
                  return Finding{r.runs().size() == 3 ? Agreement::kAgrees : Agreement::kDisagrees, "runs"};
                }};
    input.input = true;
    return {input,
            {"y-rises", "sec. 1", "y grows with x", "y(2) > y(1) > y(0)",
             [=](const Results& r) {
               const bool rises = y(r, 2) > y(r, 1) && y(r, 1) > y(r, 0);
               return Finding{rises ? Agreement::kAgrees : Agreement::kDisagrees,
                              fmt::format("y = {}, {}, {}", y(r, 0), y(r, 1), y(r, 2))};
             }},
            {"throws", "sec. 2", "a statement, with \"quotes\", a comma and a | bar", "none",
             [](const Results&) -> Finding { throw std::invalid_argument("no such cluster"); }}};
  }
  mutable std::size_t seen_by_figures = 0;

private:
  bool readings_;
  Described info_{"toy", "our own", "a toy"};
};

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<ClaimRow> evaluated(const Toy& toy, Sweep& sweep) {
  const auto executor = make_executor(1);
  sweep = run_sweep(toy, *executor);
  return evaluate_claims(toy.claims(), toy.readings(), sweep.points, sweep.records);
}

const ClaimRow& row(const std::vector<ClaimRow>& rows, const std::string& id, const std::string& reading) {
  for (const auto& r : rows)
    if (r.id == id && r.reading == reading) return r;
  throw std::logic_error("no row " + id + " under " + reading);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(claims)

BOOST_AUTO_TEST_CASE(a_claim_flips_when_its_reading_is_switched) {
  Sweep sweep;
  const std::vector<ClaimRow> rows = evaluated(Toy(true), sweep);
  BOOST_TEST(sweep.points.size() == 7u);  // 3 default, 3 decreasing, 1 flat-at-1
  BOOST_TEST((row(rows, "y-rises", "default").verdict == Agreement::kAgrees));
  BOOST_TEST(row(rows, "y-rises", "default").measured == "y = 0, 1, 2");
  BOOST_TEST((row(rows, "y-rises", "decreasing").verdict == Agreement::kDisagrees));
  BOOST_TEST(row(rows, "y-rises", "decreasing").measured == "y = 0, -1, -2");
  // Only the reading's own point is replaced: x = 0 and 2 are the default runs'.
  BOOST_TEST(row(rows, "y-rises", "flat-at-1").measured == "y = 0, 0, 2");
  BOOST_TEST((row(rows, "y-rises", "flat-at-1").verdict == Agreement::kDisagrees));
  // A reading that needs no run judges the default runs its own way.
  BOOST_TEST((row(rows, "y-rises", "as-written").verdict == Agreement::kDisagrees));
  // A check that throws is not measured, with the reason; it is never a verdict.
  BOOST_TEST((row(rows, "throws", "default").verdict == Agreement::kUnmeasured));
  BOOST_TEST(row(rows, "throws", "default").measured == "not measured: no such cluster");
}

BOOST_AUTO_TEST_CASE(without_readings_only_the_readings_that_need_no_runs_are_judged) {
  Sweep sweep;
  const std::vector<ClaimRow> rows = evaluated(Toy(false), sweep);
  BOOST_TEST(rows.size() == 6u);  // three claims, under the default and as-written
  BOOST_TEST((row(rows, "y-rises", "default").verdict == Agreement::kAgrees));
  BOOST_TEST((row(rows, "y-rises", "as-written").verdict == Agreement::kDisagrees));
}

BOOST_AUTO_TEST_CASE(files_written_and_read_back) {
  const Toy toy(true);
  const auto executor = make_executor(1);
  const Sweep sweep = run_sweep(toy, *executor);
  const std::string dir = (std::filesystem::temp_directory_path() / "schedcheck-test-claims").string();
  std::filesystem::remove_all(dir);
  ExperimentOptions options;
  options.readings = true;
  const Written w = write_results(toy, options, sweep, dir, "test");
  BOOST_TEST(toy.seen_by_figures == 3u);  // the figures see the default runs only
  BOOST_TEST(w.summary["claims"]["counts"]["agrees"] == 1);  // the claims about results; the input's apart
  BOOST_TEST(w.summary["claims"]["counts"]["not measured"] == 1);
  BOOST_TEST(w.summary["claims"]["inputs"]["agrees"] == 1);
  BOOST_TEST(w.summary["claims"]["by_reading"]["decreasing"]["disagrees"] == 1);
  const std::vector<ClaimRow> back = read_claims_csv(dir + "/claims.csv");
  BOOST_TEST(back.size() == 12u);
  BOOST_TEST(row(back, "x-counts", "default").input);
  BOOST_TEST(!row(back, "y-rises", "default").input);
  BOOST_TEST(row(back, "throws", "default").words == "a statement, with \"quotes\", a comma and a | bar");
  BOOST_TEST((row(back, "y-rises", "decreasing").verdict == Agreement::kDisagrees));
  const std::string table = read_text_file(dir + "/claims-readings.csv");
  BOOST_TEST(table.find("y-rises,agrees,disagrees,disagrees,disagrees") != std::string::npos, table);
  const std::string md = read_text_file(dir + "/claims.md");
  BOOST_TEST(md.find("| `y-rises` | agrees → **disagrees** | y = 0, -1, -2 |") != std::string::npos, md);
  BOOST_TEST(md.find("| `x-counts` (input) |") != std::string::npos, md);
  BOOST_TEST(md.find("a | bar") == std::string::npos);  // the bar escaped in its table cell
  BOOST_TEST(md.find("a \\| bar") != std::string::npos);
  BOOST_TEST(claims_markdown(back) == claims_markdown(read_claims_csv(dir + "/claims.csv")));
  const std::string runs = read_text_file(dir + "/runs.csv");
  BOOST_TEST(runs.find("x,reading,seed,metric,value") == 0u, runs);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(building_blocks) {
  BOOST_TEST(number(2.75e9) == "2.75e9");
  BOOST_TEST(number(11830) == "1.183e4");
  BOOST_TEST(number(4549.3) == "4549");
  BOOST_TEST(percent_change(100, 111.1) == "+11.1%");
  BOOST_TEST(percent_change(0, 1) == "n/a");
  // Within 10%, then within a factor of 2 either way.
  BOOST_TEST((near(105, 100, 0.1, 2, "x").verdict == Agreement::kAgrees));
  BOOST_TEST((near(130, 100, 0.1, 2, "x").verdict == Agreement::kPartly));
  BOOST_TEST((near(55, 100, 0.1, 2, "x").verdict == Agreement::kPartly));
  BOOST_TEST((near(45, 100, 0.1, 2, "x").verdict == Agreement::kDisagrees));
  BOOST_TEST((near(250, 100, 0.1, 2, "x").verdict == Agreement::kDisagrees));
  BOOST_TEST((near(3, 100, 0.1, 2, "x").verdict == Agreement::kDisagrees));
  // Paired differences over the seeds both sides ran; else the difference of the means.
  const Difference paired = difference({{1, 5}, {2, 7}, {3, 9}}, {{1, 4}, {2, 6}, {3, 8}});
  BOOST_TEST((paired.paired && paired.count == 3u && paired.mean == 1.0 && paired.standard_error == 0.0));
  const Difference unpaired = difference({{1, 5}, {2, 7}}, {{3, 4}, {4, 6}});
  BOOST_TEST((!unpaired.paired && unpaired.mean == 1.0));
  BOOST_TEST(unpaired.standard_error == std::sqrt(2.0 / 2 + 2.0 / 2), boost::test_tools::tolerance(1e-12));
  BOOST_TEST((share_holding(2, 2) == Agreement::kAgrees));
  BOOST_TEST((share_holding(1, 2) == Agreement::kPartly));
  BOOST_TEST((share_holding(0, 2) == Agreement::kDisagrees));
  BOOST_TEST((share_holding(0, 0) == Agreement::kUnmeasured));
  BOOST_TEST((agreement_named("partly") == Agreement::kPartly));
  BOOST_CHECK_THROW(agreement_named("maybe"), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace test_claims
