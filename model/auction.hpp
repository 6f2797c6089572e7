// Auction-based proportional-share resources (paper 003 sec. 3.2): the share of Eq. 1 under a one-PE cap, the bid
// bounds of Eq. 2, the charge of Eq. 3 with the 20% surcharge on users of another VO domain, and the time-shared
// resource as a value type (accounts with their queued tasks and bids, the split, advance, next completion, charges).
// Units: work in MI, speeds in MIPS, time in seconds, bids as rates in cents per minute (Table 2), charges in cents.
#pragma once

#include <cstddef>
#include <deque>
#include <limits>
#include <string>
#include <vector>

namespace schedcheck::auction {

inline constexpr double kSurcharge = 0.20;          // sec. 5.1: "an extra 20% of a user bid" for another domain
inline constexpr double kSecondsPerMinute = 60.0;   // bids are per minute
inline constexpr double kWorkEpsilon = 1e-6;        // MI: a task with less left than this has completed

// What Table 1's C is. kPerPe (the default): the SPEC CINT2000 rating of one processor (a Xeon 2.6 GHz rates about
// 1050, a P4 2.0 GHz about 684), so R0 has 4 x 1050 MIPS and one task runs at most at 1050. kTotal: sec. 3.2's
// words, "the total processing capability of r", so R0 has 1050 MIPS in all and one task at most 1050 / 4.
enum class Capacity { kPerPe, kTotal };
// When the auctioneer recomputes the split. kInterval: at each bidding interval only (sec. 3.2: "at every period P,
// the Auctioneer re-calculates each user share"); a user whose last task ends leaves its share idle until then.
// kEvent: also whenever the set of users with a running task changes (GridSim's time-shared resources).
enum class Recompute { kInterval, kEvent };
// How fast one task may run. kOnePe (the default): never faster than one PE, a share above it is given to the other
// users (a task runs on one processor). kShare: at its whole share (Eq. 1 as printed; the paper's Fig. 3 and 5 show
// single users above one PE's part of R1).
enum class TaskSpeed { kOnePe, kShare };

// The auctioneer's rule as a catalogue: each reading of the model (an auction scenario's `capacity`, `recompute`
// and `task_speed`), one entry a value, in the order of its enum (the first is the default). `schedcheck list`, the
// scenario reader and the docs take the names from here.
struct AuctioneerRule {
  std::string key;       // the scenario field: "capacity", "recompute", "task_speed"
  std::string value;     // "per-pe", ...
  std::string source;
  std::string summary;
};
const std::vector<AuctioneerRule>& auctioneer_rules();
// The enum index of `value` for `key` (its position among the key's entries), -1 when the key has no such value.
int rule_index(const std::string& key, const std::string& value);
const std::string& rule_value(const std::string& key, int index);   // the inverse
std::string rule_values(const std::string& key);                    // "\"per-pe\" or \"total\"", for messages

struct Resource {
  std::string name;
  int pes = 1;                        // PE_r
  double mips = 0;                    // C_r as Table 1 prints it
  double min_bid = 0;                 // minB_r, cents per minute
  double max_bid = 0;                 // maxB_r
  std::vector<std::string> domains;   // the VO domains whose GIS it registers with
};

// The whole resource's MIPS, and the most one task can get (one PE), under a reading of C.
double total_mips(const Resource& resource, Capacity capacity);
double task_mips_cap(const Resource& resource, Capacity capacity);
double task_mips_cap(const Resource& resource, Capacity capacity, TaskSpeed speed);
// A user of `domain` is local to the resource when the resource registers in that domain (sec. 3.1).
bool is_local(const Resource& resource, const std::string& domain);
// Eq. 2's bounds: the bid clamped to [minB_r, maxB_r].
double clamp_bid(const Resource& resource, double bid);

// Eq. 1 with the one-PE cap, by water-filling: each claim gets B_i / sum(B) of the capacity not yet given, except
// claims whose proportional part exceeds `cap`, which get `cap`; what they leave is split again among the others in
// proportion to their bids. Every share is <= cap and the shares sum to min(capacity, claims x cap). Bids > 0.
std::vector<double> split(const std::vector<double>& bids, double capacity, double cap);
// The share of one claim with bid `bid` against claims of total bid `others` that the cap does not bind.
double share_against(double bid, double others, double capacity, double cap);
// Eq. 3 for one interval: min(q_i / S_i, 1) x B_i x minutes, with q_i / S_i the part of the interval used, and the
// surcharge when `foreign`. `used_seconds` <= `interval_seconds`.
double interval_charge(double bid, double used_seconds, double interval_seconds, bool foreign);

// One task a user submitted to a resource.
struct Task {
  std::size_t id = 0;        // the user's task index
  double length = 0;         // MI
  double remaining = 0;      // MI left
  double started = -1;       // time it started running, -1 while queued
};

// A user's account on a resource (sec. 4: "the broker opens a new account on every r").
struct Account {
  std::size_t user = 0;
  bool foreign = false;        // from another VO domain: surcharged
  double bid = 0;              // B_i in force this interval
  double next_bid = -1;        // a bid that arrived during the interval, from the next one (-1: none)
  std::deque<Task> tasks = {}; // front: the running task (one per user, no preemption), then the queue
  double share = 0;            // MIPS in force
  double charged = 0;          // cents accrued (Eq. 3 and the surcharge)
  double used_this_interval = 0;  // seconds with a running task in the current interval
};

struct Completion {
  std::size_t user = 0;
  std::size_t task = 0;
  double time = 0;
};

// A time-shared resource driven by an actor: submit and bid at any time, begin_interval at each interval boundary,
// advance_to the next event (min of the next completion and the interval's end), charges accrued as it runs.
class TimeShared {
public:
  TimeShared(Resource resource, Capacity capacity, Recompute recompute, double interval_seconds,
             TaskSpeed speed = TaskSpeed::kOnePe);

  const Resource& resource() const { return resource_; }
  double now() const { return now_; }
  double interval() const { return interval_; }
  const std::vector<Account>& accounts() const { return accounts_; }
  const Account* account(std::size_t user) const;

  // Opens the user's account with a first bid, in force at once (a new user shares the resource from its first task);
  // a second call is a new bid, in force from the next interval.
  void bid(std::size_t user, bool foreign, double bid);
  // Queues a task; it runs when the user's earlier tasks here have completed.
  void submit(std::size_t user, std::size_t task, double length);
  // The interval boundary: bids that arrived take effect, used time resets, the split is recomputed.
  void begin_interval();
  // Time of the next task completion at the current shares (kForever-like infinity when nothing runs).
  double next_completion() const;
  // Runs every running task at its share up to `time` (>= now, <= next_completion()), accruing charges; returns the
  // tasks that completed, and starts each user's next queued task. Recomputes the split when the set of running
  // users changed and the reading is kEvent.
  std::vector<Completion> advance_to(double time);
  // The user's remaining work here (L_total of sec. 4.1.4: the running and the queued tasks), tasks left, share.
  double remaining(std::size_t user) const;
  std::size_t tasks_left(std::size_t user) const;
  // Sum of the bids in force of users with a running task other than `user` (the auctioneer knows it, the broker
  // does not: sec. 3.2).
  double others_bid(std::size_t user) const;
  // The split now, for observers: the sum of the shares in force.
  double shares_sum() const;

private:
  void resplit();
  Account* find(std::size_t user);

  Resource resource_;
  Capacity capacity_;
  Recompute recompute_;
  TaskSpeed speed_;
  double interval_;
  double now_ = 0;
  std::vector<Account> accounts_;
};

inline constexpr double kNever = std::numeric_limits<double>::infinity();

}  // namespace schedcheck::auction
