// Registration of `cluster-run`: a small trace replayed whole on one cluster by FCFS, EASY or conservative
// backfilling, with every run invariant checked on every decision and two policies compared on the same trace
// (docs/simulation.md). No exact method: the properties are over the run. Corpus files are tiny SWF
// traces whose header carries the recorded verdict and the commands that reproduce it.
#include "counterexamples/problems/problems.hpp"

#include "counterexamples/workload_generator.hpp"
#include "model/cluster_json.hpp"
#include "model/run_schedule.hpp"
#include "model/workload.hpp"
#include "properties/run_properties.hpp"
#include "reference/cluster_policies.hpp"

#include <fmt/format.h>

namespace schedcheck::problems {

namespace {

// The SWF text of a corpus document: the "schedcheck" block on one header line (read back by
// workload::read_instance_file), the verdict and the commands in words, then the trace.
std::string swf_corpus(const nlohmann::json& document) {
  const workload::Workload w = workload::read_instance(document, "(corpus)");
  std::vector<std::string> comments;
  const nlohmann::json& block = document.at("schedcheck");
  nlohmann::json one_line = block;
  one_line["name"] = document.value("name", "");
  comments.push_back("schedcheck: " + one_line.dump());
  comments.push_back("Counterexample: " + document.value("name", std::string("")));
  // The block is the corpus file's own (any JSON the reader took): a field of another type is shown as JSON.
  auto text = [&](const char* key, const std::string& otherwise) {
    const auto it = block.find(key);
    return it == block.end() ? otherwise : it->is_string() ? it->get<std::string>() : it->dump();
  };
  comments.push_back("Explanation: " + text("explanation", "(to write)"));
  comments.push_back("Reproduce: " + text("reproduce", ""));
  comments.push_back(fmt::format("Replay: schedcheck simulate --trace FILE --policy {} --check --jobs-csv out.csv",
                                 text("policy", "")));
  comments.push_back("FoundBy: " + text("found_by", ""));
  return workload::write_swf(w, comments);
}

}  // namespace

std::unique_ptr<Problem> cluster_run() {
  using workload::Workload;
  using runcheck::RunDecision;
  ProblemSpec<Workload, RunDecision> spec;
  spec.name = "cluster-run";
  spec.source = "our own (trace-driven simulation of one cluster; policies of Lifka 1995, Mu'alem & Feitelson 2001)";
  spec.summary = "replay a small trace on one cluster; invariants on every decision, policies compared on the same trace";
  spec.instance_kind = workload::kInstanceKind;
  spec.sense = Sense::kMinimise;
  spec.objective_name = "mean bounded slowdown (bound 10 s)";
  spec.read = workload::read_instance;
  spec.write = workload::write_instance;
  spec.validate = [](const Workload& w, const RunDecision& d) { return validate_run(w, d.schedule); };
  spec.describe = runcheck::describe;
  spec.metrics = [](const Workload& w, const RunDecision& d) {
    const RunMetrics m = run_metrics(w, d.schedule);
    return nlohmann::json{{"mean_bounded_slowdown", m.mean_slowdown}, {"mean_wait", m.mean_wait}, {"max_wait", m.max_wait}};
  };
  spec.size = [](const Workload& w) { return w.jobs.size(); };
  spec.instance_name = [](const Workload& w) { return w.name; };
  for (const cluster::ClusterPolicy& policy : cluster::cluster_policies())
    spec.policies.push_back({{policy.name, policy.source, policy.summary},
                             [policy](const Workload& w) { return runcheck::simulate_checked(w, policy); }});
  // A policy outside C++ decides every scheduling pass of the run (docs/protocol.md, "cluster pass").
  spec.decide_external = [](const Workload& w, const JsonPolicy& policy, const std::string& name) {
    return runcheck::simulate_checked(w, runcheck::external_cluster_policy(w, policy, name));
  };
  spec.decision_schema = cluster::decision_schema();
  spec.properties = runcheck::run_properties();
  spec.generator.settings =
      "n jobs; P in {4, 8, 16}; submit gaps U{0..20} s (1 in 4 with the previous job); procs U{1..P/4} or U{1..P}; run "
      "U{1..50} s; estimate = run x {1, 1, 1.5, 2, 4}, or run/2 (killed) 1 in 10 (counterexamples/workload_generator.hpp)";
  spec.generator.generate = workload::generate_workload;
  spec.generator.shrink = workload::shrink_workload;
  spec.corpus_extension = ".swf";
  spec.corpus_text = swf_corpus;
  return std::make_unique<TypedProblem<Workload, RunDecision>>(std::move(spec));
}

}  // namespace schedcheck::problems
