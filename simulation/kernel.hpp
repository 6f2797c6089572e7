// The discrete-event kernel: time, actors, typed messages and timers. Our own, after SimGrid's s4u actors and
// mailboxes and Batsim's event hooks. Deterministic: an instant's events go by lane (ends, arrivals, messages, timers),
// by creation within a lane, then one end-of-instant call per actor that asked, in the order asked; no global state.
// Limits: one thread a kernel; a payload is one value owned until its delivery returns (small ones inline, no heap).
#pragma once

#include "model/profile.hpp"  // kForever
#include "support/payload.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace schedcheck::sim {

using ActorId = std::uint32_t;
inline constexpr ActorId kNoActor = 0xffffffffu;

// The documented order of what happens at one instant. kEnd: something ends (a job's completion: its processors
// come back before anything else is decided); kArrival: work arrives from outside (a trace's submission); kMessage:
// a message is delivered; kTimer: a timer an actor set falls due (a reservation, a status period, a bid expiry).
// The end-of-instant calls (a cluster's scheduling pass) come after all of them.
enum class Lane : std::uint8_t { kEnd = 0, kArrival = 1, kMessage = 2, kTimer = 3 };

// A message as its receiver sees it, for the length of one on_message call (the payload is freed when it returns).
struct Message {
  ActorId from = kNoActor;
  std::uint32_t kind = 0;   // the payload's kind, interned by the kernel (Kernel::kinds() names it)
  Payload payload;
  // The payload when it is a T, else null; get<T>() throws std::logic_error naming both kinds instead.
  template <MessageType T>
  const T* as() const { return payload.as<T>(); }
  template <MessageType T>
  const T& get() const { return payload.get<T>(); }
};

// A timer that was set, to withdraw it (Context::cancel).
struct TimerHandle {
  std::uint64_t id = ~std::uint64_t{0};
};

struct RunLimits {
  double stop_time = kForever;   // events after this time are not processed (paper 002: the last arrival)
  // false: a nested run that must finish (a queue window played forward inside a check); a stop request
  // (SIGINT/SIGTERM, support/stop.hpp) then ends the run around it instead of leaving this one unfinished.
  bool stops_on_request = true;
};

struct KernelStats {
  std::size_t events = 0;                  // events processed (timers and deliveries; end-of-instant calls not counted)
  std::size_t messages = 0;                // messages delivered
  std::vector<std::size_t> sent_by_kind;   // messages sent, by kind id (Kernel::kinds() names them)
  double end_time = 0;                     // time of the last processed event
  bool stopped = false;                    // stop_time cut the run, or a stop request (then `interrupted` too)
  bool interrupted = false;                // a stop request (SIGINT/SIGTERM) cut the run
  double wall_seconds = 0;
};

class Kernel;

// A timer tag made of what falls due (an actor's enum `Due`, below 256: the top 8 bits) and an index (a job, an
// execution: the low 56 bits), for actors that keep several kinds of timers.
template <class Due>
struct TimerTag {
  static constexpr std::uint64_t kIndexBits = 56;
  static constexpr std::uint64_t of(Due due, std::uint64_t index) {
    return (static_cast<std::uint64_t>(due) << kIndexBits) | index;
  }
  static constexpr Due due(std::uint64_t tag) { return static_cast<Due>(tag >> kIndexBits); }
  static constexpr std::size_t index(std::uint64_t tag) { return tag & ((std::uint64_t{1} << kIndexBits) - 1); }
};

// The verbs an actor has, handed to each of its calls.
class Context {
public:
  double now() const;
  ActorId self() const { return self_; }
  // A message to `to` carrying `value`, delivered after `delay` seconds (>= 0) in the message lane; counted by its
  // kind when sent. The kernel owns the value until the receiver's on_message returns.
  template <MessageType T>
  void send(ActorId to, T value, double delay = 0) { send(to, Payload(std::move(value)), delay); }
  void send(ActorId to, Payload payload, double delay = 0);
  // Wakes this actor (on_timer with `tag`) at `time` (>= now), in `lane` (kTimer unless it ends or brings work).
  TimerHandle wake_at(double time, std::uint64_t tag, Lane lane = Lane::kTimer);
  // Withdraws a timer of this actor's that has not fired: it fires no call and does not move the clock (a bid
  // expiry once the bid is decided, a call-back a policy asked for once nothing is left to decide). O(1).
  void cancel(TimerHandle timer);
  // Asks for one on_instant_end call once every event at now is done (asking twice in an instant is asking once).
  void end_of_instant();
  // The id of T's kind (Kernel::kind).
  template <MessageType T>
  std::uint32_t kind();

private:
  friend class Kernel;
  Context(Kernel& kernel, ActorId self) : kernel_(kernel), self_(self) {}
  Kernel& kernel_;
  ActorId self_;
};

class Actor {
public:
  virtual ~Actor() = default;
  virtual void on_start(Context&) {}                         // once, before the first event, in the order added
  virtual void on_message(Context&, const Message&) {}
  virtual void on_timer(Context&, std::uint64_t /*tag*/) {}
  virtual void on_instant_end(Context&) {}                   // asked for with Context::end_of_instant
};

class Kernel {
public:
  explicit Kernel(RunLimits limits = {});
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // The kernel owns its actors; ids are 0, 1, ... in the order added.
  ActorId add(std::unique_ptr<Actor> actor, std::string name);
  std::size_t actors() const { return actors_.size(); }
  const std::string& name(ActorId id) const { return names_[id]; }

  // The id of a message kind, by name (the same name always gives the same id within a kernel); kinds are counted and
  // listed in the order they were first named or sent.
  std::uint32_t kind(std::string_view name);
  // The id of T's kind (T::kind); one type a kind name (a second type of the same name is std::logic_error).
  template <MessageType T>
  std::uint32_t kind() { return kind_of(&Payload::type_of<T>); }
  const std::vector<std::string>& kinds() const { return kinds_; }

  // Called about every `every_seconds` of wall time with (now, wall seconds), and once at the end.
  void on_progress(std::function<void(double, double)> callback, double every_seconds = 1.0);

  // Starts every actor, then processes events until none is left, stop_time is passed, or a stop is requested
  // (a StopRequested thrown by an end-of-instant call, e.g. a policy process interrupted while it is asked, also
  // ends the run as interrupted). Runs once.
  KernelStats run();
  double now() const { return now_; }

private:
  friend class Context;
  struct Event {
    double time = 0;
    std::uint64_t order = 0;  // lane in the top 8 bits, then the creation order (the tie-break within a lane)
    ActorId actor = 0;
    std::uint64_t payload = 0;  // a timer's tag, or a message's slot in in_flight_
    Lane lane() const { return static_cast<Lane>(order >> 56); }
  };
  // A 4-ary heap of events by (time, lane, creation order).
  class Queue {
  public:
    void push(const Event& e);
    Event pop();
    const Event& top() const { return heap_.front(); }
    bool empty() const { return heap_.empty(); }

  private:
    std::vector<Event> heap_;
  };

  static constexpr std::uint64_t kSeqMask = (std::uint64_t{1} << 56) - 1;
  std::uint64_t push(double time, Lane lane, ActorId actor, std::uint64_t payload);  // returns the creation order
  void send(ActorId from, ActorId to, Payload payload, double delay);
  std::uint32_t kind_of(const Payload::Type* type);
  void end_of_instant(ActorId actor);

  RunLimits limits_;
  std::vector<std::unique_ptr<Actor>> actors_;
  std::vector<std::string> names_;
  std::vector<std::string> kinds_;
  std::vector<const Payload::Type*> kind_types_;             // by kind id: the type it names (null: not sent yet)
  std::vector<std::pair<const Payload::Type*, std::uint32_t>> types_;  // payload types seen, with their kind ids
  std::vector<char> instant_end_asked_;   // per actor: on the list below
  std::vector<ActorId> instant_end_;      // actors that asked, in that order
  std::vector<Message> in_flight_;        // messages travelling (slot = event payload); free slots are reused
  std::vector<std::uint64_t> free_slots_;
  std::unordered_set<std::uint64_t> cancelled_;  // creation orders of timers withdrawn and not yet popped
  Queue events_;
  std::uint64_t next_seq_ = 0;
  KernelStats stats_;
  std::function<void(double, double)> progress_;
  double progress_every_ = 1.0;
  double now_ = 0;
  bool ran_ = false;
};

template <MessageType T>
std::uint32_t Context::kind() {
  return kernel_.kind<T>();
}

}  // namespace schedcheck::sim
