// The process group over MPI and its executor (see process_group.hpp). Our own, on MPI point-to-point messages only:
// workers send RESULT (8-byte index, then the item's bytes) or ERROR (kind byte, message) and DONE once told to stop;
// rank 0 sends ITEM (8-byte index) and STOP. Both sides poll (MPI_Iprobe, then a short sleep) rather than block, so
// that an idle rank does not spin on a core its neighbours need.
#include "support/process_group.hpp"

#include "support/errors.hpp"
#include "support/stop.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace schedcheck {

namespace {
ProcessGroup group;
bool joined = false;

enum Tag : int { kResult = 1, kError = 2, kDone = 3, kItem = 4, kStop = 5 };
constexpr std::size_t kAhead = 2;  // items a worker holds beyond the one it runs

// The wait between two polls that found nothing to do: 50 us, twice as long after each such poll up to 1 ms, and
// 50 us again once there is work. A rank waiting long (rank 0 while every rank runs a long item) then wakes seldom,
// which leaves the cores to the items, and one that has just had work answers at once.
class IdleWait {
public:
  void worked() { wait_ = kShortest; }
  void idle() {
    std::this_thread::sleep_for(wait_);
    wait_ = std::min(wait_ * 2, kLongest);
  }

private:
  static constexpr std::chrono::microseconds kShortest{50}, kLongest{1000};
  std::chrono::microseconds wait_ = kShortest;
};

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

void send(int to, int tag, const std::string& bytes) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

std::string index_bytes(std::uint64_t i) { return std::string(reinterpret_cast<const char*>(&i), sizeof i); }
std::uint64_t bytes_index(const std::string& b) {
  std::uint64_t i = 0;
  std::memcpy(&i, b.data(), sizeof i);
  return i;
}

// A message waiting for this rank, received whole: nullopt when none is waiting.
struct Message {
  int from = 0, tag = 0;
  std::string bytes;
};
std::optional<Message> poll() {
  int waiting = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, &status);
  if (!waiting) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Message m{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<std::size_t>(count), '\0')};
  MPI_Recv(m.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

// An exception as an ERROR message: its kind (i: bad input, p: a policy's failure, s: a stop, x: anything else) and
// its text; and back, on rank 0.
std::string error_bytes(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const PolicyFailure& e) {
    return std::string("p") + e.what();
  } catch (const InputError& e) {
    return std::string("i") + e.what();
  } catch (const StopRequested& e) {
    return std::string("s") + e.what();
  } catch (const std::exception& e) {
    return std::string("x") + e.what();
  } catch (...) {
    return "xan exception that is not a std::exception";
  }
}
[[noreturn]] void raise_error(const std::string& bytes, int rank) {
  const std::string text = bytes.substr(1);
  switch (bytes.empty() ? 'x' : bytes[0]) {
    case 'p': throw PolicyFailure(text);
    case 'i': throw InputError(text);
    case 's': throw StopRequested();
    default: throw InternalError("rank " + std::to_string(rank) + ": " + text);
  }
}

class MpiExecutor final : public Executor {
public:
  std::size_t run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished) override {
    return group.root() ? coordinate(n, work, deliver, finished) : serve(work);
  }
  std::size_t workers() const override { return group.size; }
  std::size_t processes() const override { return group.size; }

private:
  // Rank 0: hands out items, runs some itself on a thread of its own (only this thread calls MPI), and delivers in
  // order on a third, so that a long delivery (a search shrinking a counterexample) never keeps items from the ranks.
  // STOP tells a rank that no further item will come: it finishes those it holds (at once after a stop request, as
  // every item does), then answers DONE.
  std::size_t coordinate(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished) {
    const std::size_t ranks = group.size;
    std::size_t ran = 0;
    std::exception_ptr error;
    std::vector<bool> told(ranks, false), done(ranks, false);

    std::mutex lock;  // guards what the local worker shares with this thread
    std::size_t next = 0;
    bool stopping = false, local_finished = false;
    std::deque<std::pair<std::size_t, std::string>> local_results;
    std::exception_ptr local_error;
    const auto take = [&]() -> std::optional<std::size_t> {  // under the lock
      if (stopping || stop_requested() || next >= n) return std::nullopt;
      return next++;
    };
    std::thread local([&] {
      for (;;) {
        std::optional<std::size_t> i;
        {
          const std::lock_guard<std::mutex> hold(lock);
          i = take();
        }
        if (!i) break;
        try {
          std::string result = work(*i);
          const std::lock_guard<std::mutex> hold(lock);
          local_results.emplace_back(*i, std::move(result));
        } catch (...) {
          const std::lock_guard<std::mutex> hold(lock);
          local_error = std::current_exception();
          break;
        }
      }
      const std::lock_guard<std::mutex> hold(lock);
      local_finished = true;
    });
    const auto hand_out = [&](std::size_t to) {
      std::optional<std::size_t> i;
      {
        const std::lock_guard<std::mutex> hold(lock);
        i = take();
      }
      if (i) send(static_cast<int>(to), kItem, index_bytes(*i));
    };
    // The results waiting for their turn, and the delivering thread: it delivers them in index order until closed.
    std::mutex delivery_lock;
    std::condition_variable delivery_wake;
    std::map<std::size_t, std::string> pending;
    std::size_t next_delivery = 0;
    bool closed = false;
    std::exception_ptr delivery_error;
    std::thread delivering([&] {
      std::unique_lock<std::mutex> hold(delivery_lock);
      for (;;) {
        delivery_wake.wait(hold, [&] {
          return closed || (!pending.empty() && pending.begin()->first == next_delivery);
        });
        if (pending.empty() || pending.begin()->first != next_delivery) break;  // closed, nothing in turn
        auto node = pending.extract(pending.begin());
        ++next_delivery;
        hold.unlock();
        try {
          deliver(node.key(), std::move(node.mapped()));
        } catch (...) {
          hold.lock();
          delivery_error = std::current_exception();
          break;
        }
        hold.lock();
      }
    });
    const auto arrived = [&](std::size_t i, std::string&& bytes) {
      ++ran;
      if (finished) finished(i);
      const std::lock_guard<std::mutex> hold(delivery_lock);
      if (delivery_error) return;
      pending.emplace(i, std::move(bytes));
      delivery_wake.notify_one();
    };

    for (std::size_t r = 1; r < ranks; ++r)
      for (std::size_t k = 0; k <= kAhead; ++k) hand_out(r);
    IdleWait wait;
    for (;;) {
      bool busy = false;
      if (std::optional<Message> m = poll()) {
        busy = true;
        const auto from = static_cast<std::size_t>(m->from);
        if (m->tag == kResult) {
          arrived(bytes_index(m->bytes), m->bytes.substr(sizeof(std::uint64_t)));
          hand_out(from);
        } else if (m->tag == kError && !error) {
          try {
            raise_error(m->bytes, m->from);
          } catch (...) {
            error = std::current_exception();
          }
        } else if (m->tag == kDone) {
          done[from] = true;
        }
      }
      bool local_over = false;
      {
        std::deque<std::pair<std::size_t, std::string>> mine;
        {
          const std::lock_guard<std::mutex> hold(lock);
          mine.swap(local_results);
          if (local_error && !error) error = local_error;
        }
        {
          const std::lock_guard<std::mutex> hold(delivery_lock);
          if (delivery_error && !error) error = delivery_error;
        }
        {
          const std::lock_guard<std::mutex> hold(lock);
          if (error || stop_requested() || next >= n) stopping = true;
          local_over = local_finished;
        }
        for (auto& [i, bytes] : mine) {
          busy = true;
          arrived(i, std::move(bytes));
        }
      }
      bool all_done = local_over;
      for (std::size_t r = 1; r < ranks; ++r) {
        if (stopping && !told[r]) {
          send(static_cast<int>(r), kStop, "");
          told[r] = true;
        }
        all_done = all_done && done[r];
      }
      if (all_done) break;
      if (busy) wait.worked();
      else wait.idle();
    }
    local.join();
    {
      const std::lock_guard<std::mutex> hold(lock);  // a result the local worker added after its last look
      for (auto& [i, bytes] : local_results) arrived(i, std::move(bytes));
      local_results.clear();
    }
    {
      const std::lock_guard<std::mutex> hold(delivery_lock);
      closed = true;
      delivery_wake.notify_one();
    }
    delivering.join();  // every result in turn is delivered
    if (delivery_error && !error) error = delivery_error;
    if (error) std::rethrow_exception(error);
    for (auto& [i, bytes] : pending) deliver(i, std::move(bytes));  // after a stop: what finished beyond a gap
    return ran;
  }

  // Any other rank: runs the items it is given, in the order given, until told to stop; then says it is done.
  std::size_t serve(const Work& work) {
    std::deque<std::size_t> items;
    bool stop = false, failed = false;
    std::size_t ran = 0;
    IdleWait wait;
    for (;;) {
      while (std::optional<Message> m = poll()) {
        if (m->tag == kItem) items.push_back(bytes_index(m->bytes));
        else if (m->tag == kStop) stop = true;
      }
      if (!items.empty() && !failed) {
        const std::size_t i = items.front();
        items.pop_front();
        try {
          std::string result = work(i);
          send(0, kResult, index_bytes(i) + result);
          ++ran;
        } catch (...) {
          send(0, kError, error_bytes(std::current_exception()));
          failed = true;
        }
        wait.worked();
        continue;
      }
      if (stop && (items.empty() || failed)) break;
      wait.idle();
    }
    send(0, kDone, "");
    return ran;
  }
};
}  // namespace

void start_process_group(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  joined = true;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  group.rank = static_cast<std::size_t>(rank);
  group.size = static_cast<std::size_t>(size);
  if (!group.root() && !std::freopen("/dev/null", "w", stdout)) return;  // rank 0 speaks for the run
}

int end_process_group(int code) {
  if (!joined) return code;
  // A rank that failed (bad input, a policy's failure, a bug: its message is on stderr) may leave others waiting for
  // it: the whole job ends now, with its code.
  if (code == 2 || code == 4) {
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  int shared = code;
  MPI_Bcast(&shared, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  joined = false;
  return shared;
}

const ProcessGroup& process_group() { return group; }
bool built_with_mpi() { return true; }

std::unique_ptr<Executor> make_group_executor() {
  if (group.size <= 1) return nullptr;
  return std::make_unique<MpiExecutor>();
}

}  // namespace schedcheck
