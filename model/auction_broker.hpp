// What a user's broker sees and decides in paper 003's auction system (sec. 4): the resources its GIS lists (sec.
// 4.1.1), each resource's answer to the progress query (sec. 4.1.4: S_r, B_r, L_total), the tasks not yet submitted
// (the Local Domain policy's List), the clock; the decision is the submissions and bids to send now. Value types and
// their JSON (the JSON-lines protocol of outside brokers); no policy here.
#pragma once

#include "model/auction.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::auction {

struct ResourceView {
  std::size_t resource = 0;     // index in the scenario
  std::string name;
  bool local = false;           // registered in the user's domain (no surcharge)
  int pes = 1;                  // PE_r
  double mips = 0;              // C_r as the GIS lists it
  double min_bid = 0, max_bid = 0;
  // The progress query's answer, for a resource where the user has an account:
  bool account = false;
  double share = 0;             // S_r, MIPS the user's running task gets now
  double bid = 0;               // B_r in force (or last sent), cents per minute
  double remaining = 0;         // L_total, MI of the user's tasks there (running and queued)
  std::size_t tasks = 0;        // the user's tasks there (running and queued)
};

struct PendingTask {
  std::size_t id = 0;
  double length = 0;            // MI
};

struct BrokerSnapshot {
  double now = 0;
  double start = 0;             // the user's start (start_time of sec. 4.1.4)
  double deadline = 0;          // D, seconds after start
  double period = 0;            // P
  bool initial = false;         // the first call: no account anywhere yet (sec. 4.1.2-4.1.3)
  std::optional<double> fixed_bid;  // Table 2's bid (No-Opt)
  double balance = 0;           // G$
  std::vector<ResourceView> resources;   // local ones first, then global ones (sec. 3.1)
  std::vector<PendingTask> pending;      // tasks not submitted yet
};

struct Submission {
  std::size_t task = 0;         // PendingTask::id
  std::size_t resource = 0;     // index into BrokerSnapshot::resources
};

struct BidOrder {
  std::size_t resource = 0;     // index into BrokerSnapshot::resources
  double bid = 0;               // cents per minute
};

struct BrokerDecision {
  std::vector<BidOrder> bids;            // a new bid for each resource named (the first one opens the account)
  std::vector<Submission> submissions;
};

nlohmann::json write_snapshot(const BrokerSnapshot& snapshot);
// A decision of a broker outside C++: {"bids": [{"resource": NAME, "bid": X}], "submit": [{"task": ID, "resource":
// NAME}]}. Throws InputError naming `where` and the field.
BrokerDecision read_decision(const BrokerSnapshot& snapshot, const nlohmann::json& document, const std::string& where);
nlohmann::json write_decision(const BrokerSnapshot& snapshot, const BrokerDecision& decision);

// A decision's first problem against its snapshot ("" when none): a task not pending or submitted twice, an index out
// of range, a submission to a resource with no account and no bid in the decision, a bid <= 0.
std::string decision_problem(const BrokerSnapshot& snapshot, const BrokerDecision& decision);

}  // namespace schedcheck::auction
