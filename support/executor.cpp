// Executors (see executor.hpp). Our own.
#include "support/executor.hpp"

#include "support/errors.hpp"
#include "support/memory.hpp"
#include "support/process_group.hpp"
#include "support/stop.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <exception>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace schedcheck {

std::size_t SerialExecutor::run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished) {
  std::size_t ran = 0;
  for (std::size_t i = 0; i < n && !stop_requested(); ++i) {
    std::string result = work(i);
    ++ran;
    if (finished) finished(i);
    deliver(i, std::move(result));
  }
  return ran;
}

namespace {
std::uint64_t default_stack_bytes() {  // what std::thread gives a new thread: the default attributes' stack size
  pthread_attr_t attributes;
  std::size_t bytes = 0;
  if (pthread_attr_init(&attributes) != 0) return 0;
  pthread_attr_getstacksize(&attributes, &bytes);
  pthread_attr_destroy(&attributes);
  return bytes;
}
}  // namespace

ThreadExecutor::ThreadExecutor(std::size_t threads) : threads_(threads < 1 ? 1 : threads), started_(threads_) {}

std::size_t ThreadExecutor::run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::size_t ran = 0;
  std::exception_ptr error;
  std::mutex lock;                             // guards ran, error, pending, next_delivery and the calls of `finished`
  std::mutex delivering;                       // held by the one thread that delivers
  std::map<std::size_t, std::string> pending;  // finished, not delivered yet
  std::size_t next_delivery = 0;
  // Delivers the results that are next in index order; one thread at a time, the others go back to work.
  const auto deliver_ready = [&] {
    for (;;) {
      std::unique_lock<std::mutex> turn(delivering, std::try_to_lock);
      if (!turn.owns_lock()) return;
      for (;;) {
        std::size_t k = 0;
        std::string result;
        {
          const std::lock_guard<std::mutex> hold(lock);
          const auto it = pending.find(next_delivery);
          if (it == pending.end()) break;
          k = it->first;
          result = std::move(it->second);
          pending.erase(it);
          ++next_delivery;
        }
        deliver(k, std::move(result));
      }
      turn.unlock();
      const std::lock_guard<std::mutex> hold(lock);  // a result that came while this thread let go: deliver it too
      if (pending.find(next_delivery) == pending.end()) return;
    }
  };
  auto worker = [&] {
    while (!failed.load() && !stop_requested()) {
      const std::size_t i = next.fetch_add(1);
      if (i >= n) return;
      try {
        std::string result = work(i);
        {
          const std::lock_guard<std::mutex> hold(lock);
          ++ran;
          if (finished) finished(i);
          pending.emplace(i, std::move(result));
        }
        deliver_ready();
      } catch (...) {
        const std::lock_guard<std::mutex> hold(lock);
        if (!error) error = std::current_exception();
        failed.store(true);
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  // Under --memory-mb each thread's stack counts against the ceiling: only the threads that fit are started (the
  // calling thread is one of them and has its stack already).
  const std::size_t count = std::min(threads_that_fit(std::min(threads_, n), default_stack_bytes()), n);
  for (std::size_t t = 1; t < count; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {  // no thread to be had (e.g. its stack is over --memory-mb): fewer workers
      break;
    }
  }
  if (count > 0) worker();  // the calling thread is one of them
  for (auto& thread : pool) thread.join();
  started_ = std::max<std::size_t>(1, std::min(count, pool.size() + 1));
  if (error) std::rethrow_exception(error);
  // After a stop, items that did not run leave gaps: what finished beyond them is delivered, still in order.
  for (auto& [k, result] : pending) deliver(k, std::move(result));
  return ran;
}

ShardExecutor::ShardExecutor(std::unique_ptr<Executor> inner, std::size_t index, std::size_t count)
    : inner_(std::move(inner)), index_(index), count_(count) {}

std::size_t ShardExecutor::run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished) {
  std::vector<std::size_t> mine;
  for (std::size_t i = index_ - 1; i < n; i += count_) mine.push_back(i);
  const Finished each = finished ? Finished([&](std::size_t j) { finished(mine[j]); }) : Finished();
  return inner_->run(
      mine.size(), [&](std::size_t j) { return work(mine[j]); },
      [&](std::size_t j, std::string&& result) { deliver(mine[j], std::move(result)); }, each);
}

Shard parse_shard(const std::string& text, const std::string& option) {
  const auto slash = text.find('/');
  Shard shard;
  const auto number = [&](std::string_view digits, std::size_t& into) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), into);
    return ec == std::errc() && end == digits.data() + digits.size() && !digits.empty();
  };
  const std::string_view all(text);
  if (slash == std::string::npos || !number(all.substr(0, slash), shard.index) ||
      !number(all.substr(slash + 1), shard.count) || shard.count < 1 || shard.count > 100'000 || shard.index < 1 ||
      shard.index > shard.count)
    throw InputError(option + ": expected I/N with 1 <= I <= N <= 100000 (shard I of N), got '" + text + "'");
  return shard;
}

void ShardSet::add(const Shard& shard, const std::string& dir) {
  const std::string what = std::to_string(shard.index) + "/" + std::to_string(shard.count);
  if (dirs_.empty()) {
    count_ = shard.count;
    first_ = dir;
  } else if (shard.count != count_) {
    throw InputError("merge: " + dir + " is shard " + what + ", " + first_ + " is of " + std::to_string(count_) + " shards");
  }
  if (!dirs_.emplace(shard.index, dir).second)
    throw InputError("merge: shard " + what + " is given twice (" + dirs_.at(shard.index) + " and " + dir + ")");
}

void ShardSet::require_all() const {
  for (std::size_t index = 1; index <= count_; ++index)
    if (!dirs_.count(index))
      throw InputError("merge: shard " + std::to_string(index) + "/" + std::to_string(count_) + " is missing (given: " +
                       std::to_string(dirs_.size()) + " of " + std::to_string(count_) + ")");
}

std::size_t jobs_from_option(std::size_t jobs) {
  return jobs > 0 ? jobs : std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

std::unique_ptr<Executor> make_executor(std::size_t jobs) {
  if (jobs <= 1) return std::make_unique<SerialExecutor>();
  return std::make_unique<ThreadExecutor>(jobs);
}

std::unique_ptr<Executor> make_executor(std::size_t jobs, const Shard& shard) {
  if (std::unique_ptr<Executor> ranks = make_group_executor()) {  // started by mpirun or srun: the ranks share it
    if (shard.given()) throw InputError("--shard: not under mpirun or srun (the ranks split the work already)");
    if (jobs_from_option(jobs) > 1 && jobs != 0)
      throw InputError("--jobs: under mpirun or srun each rank runs one item at a time; start more ranks instead");
    return ranks;
  }
  std::unique_ptr<Executor> local = make_executor(jobs_from_option(jobs));
  if (!shard.given()) return local;
  return std::make_unique<ShardExecutor>(std::move(local), shard.index, shard.count);
}

}  // namespace schedcheck
