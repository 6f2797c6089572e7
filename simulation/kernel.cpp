// The discrete-event kernel (see kernel.hpp). Our own. The loop stays small: an event goes in, the actor it names
// reacts, and the actors that asked get their end-of-instant call once every event of the instant is done.
#include "simulation/kernel.hpp"

#include "support/stop.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace schedcheck::sim {

double Context::now() const { return kernel_.now_; }

void Context::send(ActorId to, Payload payload, double delay) { kernel_.send(self_, to, std::move(payload), delay); }

TimerHandle Context::wake_at(double time, std::uint64_t tag, Lane lane) {
  if (!(time >= kernel_.now_)) throw std::logic_error("actor " + kernel_.name(self_) + " set a timer in the past");
  if (lane == Lane::kMessage) throw std::logic_error("actor " + kernel_.name(self_) + " set a timer in the message lane");
  return TimerHandle{kernel_.push(time, lane, self_, tag)};
}

void Context::end_of_instant() { kernel_.end_of_instant(self_); }

void Context::cancel(TimerHandle timer) {
  if (timer.id > Kernel::kSeqMask || timer.id >= kernel_.next_seq_)
    throw std::logic_error("actor " + kernel_.name(self_) + " withdrew a timer it never set");
  kernel_.cancelled_.insert(timer.id);
}

namespace {
bool before(double time_a, std::uint64_t order_a, double time_b, std::uint64_t order_b) {
  if (time_a != time_b) return time_a < time_b;
  return order_a < order_b;  // lane first, then creation order
}
}  // namespace

// A 4-ary heap: half the depth of a binary heap, and the four children of a node share a cache line or two.
void Kernel::Queue::push(const Event& e) {
  std::size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(e.time, e.order, heap_[parent].time, heap_[parent].order)) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

Kernel::Event Kernel::Queue::pop() {
  const Event top = heap_.front();
  const Event last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n > 0) {
    std::size_t i = 0;
    while (true) {
      const std::size_t first = 4 * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < first + 4 && c < n; ++c)
        if (before(heap_[c].time, heap_[c].order, heap_[best].time, heap_[best].order)) best = c;
      if (!before(heap_[best].time, heap_[best].order, last.time, last.order)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = last;
  }
  return top;
}

Kernel::Kernel(RunLimits limits) : limits_(limits) {}
Kernel::~Kernel() = default;

ActorId Kernel::add(std::unique_ptr<Actor> actor, std::string name) {
  if (ran_) throw std::logic_error("an actor added to a kernel that has run");
  actors_.push_back(std::move(actor));
  names_.push_back(std::move(name));
  instant_end_asked_.push_back(0);
  return static_cast<ActorId>(actors_.size() - 1);
}

std::uint32_t Kernel::kind(std::string_view name) {
  for (std::size_t k = 0; k < kinds_.size(); ++k)
    if (kinds_[k] == name) return static_cast<std::uint32_t>(k);
  kinds_.emplace_back(name);
  kind_types_.push_back(nullptr);
  stats_.sent_by_kind.push_back(0);
  return static_cast<std::uint32_t>(kinds_.size() - 1);
}

std::uint32_t Kernel::kind_of(const Payload::Type* type) {
  for (const auto& [t, id] : types_)
    if (t == type) return id;
  const std::uint32_t id = kind(type->kind);
  if (kind_types_[id] && kind_types_[id] != type)
    throw std::logic_error("two payload types name the message kind '" + kinds_[id] + "'");
  kind_types_[id] = type;
  types_.emplace_back(type, id);
  return id;
}

void Kernel::on_progress(std::function<void(double, double)> callback, double every_seconds) {
  progress_ = std::move(callback);
  progress_every_ = every_seconds;
}

std::uint64_t Kernel::push(double time, Lane lane, ActorId actor, std::uint64_t payload) {
  const std::uint64_t seq = next_seq_++;
  events_.push(Event{time, (static_cast<std::uint64_t>(lane) << 56) | seq, actor, payload});
  return seq;
}

void Kernel::send(ActorId from, ActorId to, Payload payload, double delay) {
  if (to >= actors_.size()) throw std::logic_error("actor " + names_[from] + " sent a message to no actor");
  if (payload.empty()) throw std::logic_error("actor " + names_[from] + " sent a message with no payload");
  if (!(delay >= 0)) throw std::logic_error("actor " + names_[from] + " sent a message with a negative delay");
  const std::uint32_t kind = kind_of(payload.type());
  std::uint64_t slot = 0;
  if (free_slots_.empty()) {
    slot = in_flight_.size();
    in_flight_.push_back(Message{from, kind, std::move(payload)});
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    in_flight_[slot] = Message{from, kind, std::move(payload)};
  }
  ++stats_.sent_by_kind[kind];
  push(now_ + delay, Lane::kMessage, to, slot);
}

void Kernel::end_of_instant(ActorId actor) {
  if (instant_end_asked_[actor]) return;
  instant_end_asked_[actor] = 1;
  instant_end_.push_back(actor);
}

KernelStats Kernel::run() {
  if (ran_) throw std::logic_error("a kernel runs once");
  ran_ = true;
  const auto wall_start = std::chrono::steady_clock::now();
  auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(); };
  for (ActorId a = 0; a < actors_.size(); ++a) {
    Context context(*this, a);
    actors_[a]->on_start(context);
  }

  double last_report = 0;
  std::vector<ActorId> calling;
  while (true) {
    // The end of an instant: one call for each actor that asked, in the order they asked (after every event of the
    // instant; events such a call makes at now come back here).
    if (!instant_end_.empty() && (events_.empty() || events_.top().time > now_)) {
      calling.swap(instant_end_);
      try {
        for (const ActorId a : calling) {
          instant_end_asked_[a] = 0;
          Context context(*this, a);
          actors_[a]->on_instant_end(context);
        }
      } catch (const StopRequested&) {  // a policy process stopped waiting for its answer: the run ends here
        stats_.stopped = stats_.interrupted = true;
        break;
      }
      calling.clear();
      continue;
    }
    if (events_.empty()) break;
    if (events_.top().time > limits_.stop_time) {
      stats_.stopped = true;
      break;
    }
    if (limits_.stops_on_request && stop_requested()) {  // SIGINT/SIGTERM (support/stop.hpp): cut the run here
      stats_.stopped = stats_.interrupted = true;
      break;
    }
    const Event e = events_.pop();
    // A withdrawn timer: no call, the clock stays.
    if (!cancelled_.empty() && e.lane() != Lane::kMessage && cancelled_.erase(e.order & kSeqMask) > 0) continue;
    now_ = e.time;
    ++stats_.events;
    Context context(*this, e.actor);
    if (e.lane() == Lane::kMessage) {
      // Out of its slot first (the receiver's sends may reuse it); the payload is freed when the call returns.
      const Message message = std::move(in_flight_[e.payload]);
      free_slots_.push_back(e.payload);
      ++stats_.messages;
      actors_[e.actor]->on_message(context, message);
    } else {
      actors_[e.actor]->on_timer(context, e.payload);
    }
    if (progress_ && (stats_.events & 0xffff) == 0) {
      const double w = wall();
      if (w - last_report >= progress_every_) {
        last_report = w;
        progress_(now_, w);
      }
    }
  }
  stats_.end_time = now_;
  stats_.wall_seconds = wall();
  if (progress_) progress_(now_, stats_.wall_seconds);
  return stats_;
}

}  // namespace schedcheck::sim
