// Auction scenario files (JSON, kind "auction-scenario", examples/scenarios/auction.json): paper 003's system as data
// a user copies and changes — the resources and their VO domains (Table 1, sec. 5.2), the users with their broker,
// domain, start, bid, fund, deadline and period (Table 2, sec. 5.1), the BoT each user runs, and the auctioneer's
// readings. Our own format. One strict reader: every error names the file and field; nothing is run on bad input.
#pragma once

#include "model/auction.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedcheck::auction {

inline constexpr const char* kScenarioKind = "auction-scenario";
inline constexpr double kCentsPerDollar = 100.0;  // funds are in G$, bids in cents per minute

struct UserSpec {
  std::string name;
  std::string domain;               // the VO domain whose GIS its broker asks (sec. 3)
  std::string policy;               // a broker of the catalogue (reference/auction_brokers.hpp)
  double start = 0;                 // seconds: when the broker starts
  std::optional<double> bid;        // Table 2's fixed bid, cents per minute (required by the No-Opt broker)
  std::size_t tasks = 0;            // m
  double min_length = 0;            // MI, tasks drawn uniformly in [min_length, max_length] (sec. 5.1)
  double max_length = 0;
  std::vector<double> lengths;      // given lengths instead of drawn ones (empty: drawn)
  double fund = 0;                  // G$
  double deadline = 0;              // D: seconds after start
  double period = 0;                // P: seconds between the broker's bids
  double income = 0;                // G$ received every `income_every` seconds
  double income_every = 0;          // 0: no income
};

struct Scenario {
  std::string file;
  std::string name;
  std::string comment;
  Capacity capacity = Capacity::kPerPe;
  Recompute recompute = Recompute::kInterval;
  TaskSpeed task_speed = TaskSpeed::kOnePe;
  double interval = 60;             // the auctioneers' bidding interval, seconds (sec. 5.1)
  double horizon = 0;               // seconds: the run stops there (a safety net: every user normally finishes)
  std::size_t check_every = 10;     // experiment auction: every k-th decision of each broker against auction-bid (0: none)
  std::vector<std::string> domains;
  std::vector<Resource> resources;
  std::vector<UserSpec> users;
};

// The names a scenario may use: the brokers of the catalogue, and which of them need a fixed bid.
struct ScenarioNames {
  std::vector<std::string> policies;
  std::vector<std::string> needs_bid;
};

// The resources a user of `domain` reaches: its domain's local ones first (in file order), then the others'.
std::vector<std::size_t> reachable(const Scenario& scenario, const std::string& domain);

Scenario read_scenario(const nlohmann::json& document, const std::string& file, const ScenarioNames& names);
Scenario read_scenario_file(const std::string& file, const ScenarioNames& names);
nlohmann::json write_scenario(const Scenario& scenario);

}  // namespace schedcheck::auction
