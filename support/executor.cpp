// Executors (see executor.hpp). Our own.
#include "support/executor.hpp"

#include "support/stop.hpp"

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

ThreadExecutor::ThreadExecutor(std::size_t threads) : threads_(threads < 1 ? 1 : threads) {}

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
  const std::size_t count = std::min(threads_, n);
  for (std::size_t t = 1; t < count; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {  // no thread to be had (e.g. its stack is over --memory-mb): fewer workers
      break;
    }
  }
  if (count > 0) worker();  // the calling thread is one of them
  for (auto& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
  return ran;
}

std::unique_ptr<Executor> make_executor(std::size_t jobs) {
  if (jobs <= 1) return std::make_unique<SerialExecutor>();
  return std::make_unique<ThreadExecutor>(jobs);
}

}  // namespace schedcheck
