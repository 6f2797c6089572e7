// The problem registry and reports (see registry.hpp). Our own.
#include "properties/registry.hpp"

#include <cmath>

namespace schedcheck {

const char* to_string(PropertyStatus status) {
  switch (status) {
    case PropertyStatus::kHolds: return "holds";
    case PropertyStatus::kFails: return "fails";
    case PropertyStatus::kUndecided: return "undecided";
    case PropertyStatus::kNotApplicable: return "not applicable";
  }
  return "undecided";
}

double relative_gap(Sense sense, double heuristic, double optimum) {
  if (optimum == 0) return heuristic == 0 ? 0.0 : (sense == Sense::kMaximise ? 0.0 : 1.0);
  const double gap = sense == Sense::kMaximise ? (optimum - heuristic) / optimum : (heuristic - optimum) / optimum;
  return std::abs(gap) < 1e-12 ? 0.0 : gap;
}

bool Report::any_fails() const {
  for (const auto& p : properties)
    if (p.status == PropertyStatus::kFails) return true;
  return false;
}

bool Report::exact_unproven() const {
  return optimum.ran && optimum.status != "optimal" && optimum.status != "infeasible";  // both are proofs
}

bool Report::any_undecided() const {
  for (const auto& p : properties)
    if (p.status == PropertyStatus::kUndecided) return true;
  return exact_unproven();
}

int Report::exit_code() const {
  if (any_fails()) return 1;
  if (any_undecided()) return 3;
  return 0;
}

std::vector<std::string> Report::failing() const {
  std::vector<std::string> names;
  for (const auto& p : properties)
    if (p.status == PropertyStatus::kFails) names.push_back(p.name);
  return names;
}

namespace {
nlohmann::json side_json(const SideReport& side) {
  if (!side.ran) return nullptr;
  nlohmann::json out = {{"name", side.name},     {"status", side.status}, {"objective", side.objective},
                        {"seconds", side.seconds}, {"detail", side.detail}};
  if (!side.decision.is_null()) out.update(side.decision);  // accepted, start, ...
  if (!side.metrics.is_null()) out["metrics"] = side.metrics;
  if (!side.chain.is_null()) out["chain"] = side.chain;
  if (!side.phases.is_null()) out["phases"] = side.phases;
  if (!side.core.is_null()) out["core"] = side.core;
  return out;
}
}  // namespace

nlohmann::json Report::to_json() const {
  nlohmann::json out;
  out["problem"] = problem;
  out["instance"] = instance;
  out["file"] = file;
  out["size"] = size;
  out["objective_name"] = objective_name;
  out["policy"] = heuristic.ran ? nlohmann::json(heuristic.name) : nlohmann::json(nullptr);
  out["heuristic"] = side_json(heuristic);
  out["optimum"] = side_json(optimum);
  out["gap"] = gap ? nlohmann::json(*gap) : nlohmann::json(nullptr);
  out["gap_note"] = gap_note.empty() ? nlohmann::json(nullptr) : nlohmann::json(gap_note);
  out["properties"] = nlohmann::json::array();
  for (const auto& p : properties) {
    const bool decided = p.status == PropertyStatus::kHolds || p.status == PropertyStatus::kFails;
    const nlohmann::json holds = decided ? nlohmann::json(p.status == PropertyStatus::kHolds) : nlohmann::json(nullptr);
    out["properties"].push_back({{"name", p.name}, {"holds", holds}, {"status", to_string(p.status)}, {"detail", p.detail}});
  }
  out["exit_code"] = process_exit_code(exit_code());  // after a stop request: the process's 130 or 143
  return out;
}

void Registry::add(std::unique_ptr<Problem> problem) {
  if (find(problem->info().name)) throw std::invalid_argument("problem " + problem->info().name + " is registered twice");
  problems_.push_back(std::move(problem));
}

nlohmann::json problem_json(const Problem& p) {
  auto described = [](const std::vector<Described>& items) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : items) out.push_back({{"name", d.name}, {"source", d.source}, {"summary", d.summary}});
    return out;
  };
  return {{"problem", p.info().name},
          {"source", p.info().source},
          {"summary", p.info().summary},
          {"instance_kind", p.instance_kind()},
          {"policies", [&] {
             nlohmann::json out = described(p.policies());
             for (auto& policy : out)
               if (const std::string member = p.policy_only_with(policy["name"]); !member.empty()) policy["only_with"] = member;
             return out;
           }()},
          {"exact", described(p.exact_methods())},
          {"properties", described(p.properties())},
          {"generator", p.generator_settings()},
          {"external_policies", p.accepts_external_policies()}};
}

const Problem* Registry::find(const std::string& name) const {
  for (const auto& p : problems_)
    if (p->info().name == name) return p.get();
  return nullptr;
}

const Problem& Registry::get(const std::string& name) const {
  if (const Problem* p = find(name)) return *p;
  std::string known;
  for (const auto& p : problems_) known += (known.empty() ? "" : ", ") + p->info().name;
  throw std::invalid_argument("unknown problem '" + name + "' (known: " + known + "; see `schedcheck list`)");
}

}  // namespace schedcheck
