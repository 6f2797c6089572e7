// Executors (see executor.hpp). Our own.
#include "support/executor.hpp"

#include "support/memory.hpp"
#include "support/stop.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace schedcheck {

std::size_t SerialExecutor::run(std::size_t n, const std::function<void(std::size_t)>& work,
                                const std::function<void(std::size_t)>& finished) {
  std::size_t ran = 0;
  for (std::size_t i = 0; i < n && !stop_requested(); ++i) {
    work(i);
    ++ran;
    if (finished) finished(i);
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

std::size_t ThreadExecutor::run(std::size_t n, const std::function<void(std::size_t)>& work,
                                const std::function<void(std::size_t)>& finished) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::size_t ran = 0;
  std::exception_ptr error;
  std::mutex lock;  // guards ran, error and the calls of `finished`
  auto worker = [&] {
    while (!failed.load() && !stop_requested()) {
      const std::size_t i = next.fetch_add(1);
      if (i >= n) return;
      try {
        work(i);
        const std::lock_guard<std::mutex> hold(lock);
        ++ran;
        if (finished) finished(i);
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
  return ran;
}

std::size_t jobs_from_option(std::size_t jobs) {
  return jobs > 0 ? jobs : std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

std::unique_ptr<Executor> make_executor(std::size_t jobs) {
  if (jobs <= 1) return std::make_unique<SerialExecutor>();
  return std::make_unique<ThreadExecutor>(jobs);
}

}  // namespace schedcheck
