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

namespace {
nlohmann::json side_record(const SideReport& s) {
  return {{"name", s.name},         {"ran", s.ran},           {"status", s.status}, {"objective", s.objective},
          {"seconds", s.seconds},   {"detail", s.detail},     {"decision", s.decision}, {"metrics", s.metrics},
          {"chain", s.chain},       {"phases", s.phases},     {"core", s.core}};
}
SideReport side_from_record(const nlohmann::json& j) {
  SideReport s;
  s.name = j.at("name").get<std::string>();
  s.ran = j.at("ran").get<bool>();
  s.status = j.at("status").get<std::string>();
  s.objective = j.at("objective").get<double>();
  s.seconds = j.at("seconds").get<double>();
  s.detail = j.at("detail").get<std::string>();
  s.decision = j.at("decision");
  s.metrics = j.at("metrics");
  s.chain = j.at("chain");
  s.phases = j.at("phases");
  s.core = j.at("core");
  return s;
}
PropertyStatus property_status(const std::string& text) {
  for (const PropertyStatus s : {PropertyStatus::kHolds, PropertyStatus::kFails, PropertyStatus::kUndecided,
                                 PropertyStatus::kNotApplicable})
    if (text == to_string(s)) return s;
  throw std::invalid_argument("report record: unknown property status " + text);
}
}  // namespace

nlohmann::json report_record(const Report& r) {
  nlohmann::json properties = nlohmann::json::array();
  for (const auto& p : r.properties) properties.push_back({p.name, to_string(p.status), p.detail});
  return {{"problem", r.problem},     {"instance", r.instance},          {"file", r.file},
          {"size", r.size},           {"objective_name", r.objective_name}, {"heuristic", side_record(r.heuristic)},
          {"optimum", side_record(r.optimum)}, {"gap", r.gap ? nlohmann::json(*r.gap) : nlohmann::json(nullptr)},
          {"gap_note", r.gap_note},   {"properties", properties}};
}

Report report_from_record(const nlohmann::json& j) {
  Report r;
  r.problem = j.at("problem").get<std::string>();
  r.instance = j.at("instance").get<std::string>();
  r.file = j.at("file").get<std::string>();
  r.size = j.at("size").get<std::size_t>();
  r.objective_name = j.at("objective_name").get<std::string>();
  r.heuristic = side_from_record(j.at("heuristic"));
  r.optimum = side_from_record(j.at("optimum"));
  if (!j.at("gap").is_null()) r.gap = j.at("gap").get<double>();
  r.gap_note = j.at("gap_note").get<std::string>();
  for (const auto& p : j.at("properties"))
    r.properties.push_back({p.at(0).get<std::string>(), property_status(p.at(1).get<std::string>()),
                            p.at(2).get<std::string>()});
  return r;
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
