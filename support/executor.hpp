// Executors run independent work items: item i is a function of i alone and shares nothing mutable with the others
// (an experiment's points; later, search trials), so any thread may run it. Our own. Serial runs them in order on
// the calling thread; Threads runs them on N threads, taking the next item as one finishes (items vary in length).
// Either way, once a stop is requested (support/stop.hpp) no further item starts, and the first exception an item
// throws stops the dispatch and is rethrown to the caller once the running items are done.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace schedcheck {

class Executor {
public:
  virtual ~Executor() = default;
  // Runs work(i) for i in [0, n) until done or stopped; after each item that ran, finished(i) is called, one call at
  // a time (never two at once), in the order items finish. Returns how many items ran.
  virtual std::size_t run(std::size_t n, const std::function<void(std::size_t)>& work,
                          const std::function<void(std::size_t)>& finished) = 0;
  virtual std::size_t workers() const = 0;
};

class SerialExecutor final : public Executor {
public:
  std::size_t run(std::size_t n, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& finished) override;
  std::size_t workers() const override { return 1; }
};

class ThreadExecutor final : public Executor {
public:
  explicit ThreadExecutor(std::size_t threads);
  std::size_t run(std::size_t n, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& finished) override;
  // The threads asked for; after a run, those it started (fewer when the stacks would not fit under --memory-mb, or a
  // thread could not be had).
  std::size_t workers() const override { return started_; }
  std::size_t requested() const { return threads_; }

private:
  std::size_t threads_;
  std::size_t started_;
};

// 1 (or 0): serial; N: N threads.
std::unique_ptr<Executor> make_executor(std::size_t jobs);
// What `--jobs N` means: N workers, and 0 every core this machine has (std::thread::hardware_concurrency, at least 1).
std::size_t jobs_from_option(std::size_t jobs);

}  // namespace schedcheck
