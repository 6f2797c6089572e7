// The one contract of every parallel command (search, search --exhaustive, suite, experiments): item i's work is a
// function of i alone that returns its result as text (serialised, so that a thread, an MPI rank or a shard may run
// it), and the results are delivered in index order, so that what a command prints and writes does not depend on who
// ran what. Our own. Serial runs the items in order; Threads on N threads, the next item to whichever thread is free
// (items vary in length by orders of magnitude); a shard runs every count-th item of the range (batch job arrays).
// Once a stop is requested (support/stop.hpp) no further item starts; what finished is still delivered, in order.
// The first exception an item (or a delivery) throws stops the dispatch and is rethrown once running items are done.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace schedcheck {

class Executor {
public:
  using Work = std::function<std::string(std::size_t)>;
  // Called in increasing index order, one call at a time, for every item that ran (after a stop: those that
  // finished, still in order, skipping those that did not).
  using Deliver = std::function<void(std::size_t, std::string&&)>;
  // Called as each item finishes, in the order they finish, one call at a time (progress lines); may be empty.
  using Finished = std::function<void(std::size_t)>;

  virtual ~Executor() = default;
  // Runs work(i) for the items of [0, n) this executor owns (all of them, or a shard's) until done or stopped.
  // Returns how many ran.
  virtual std::size_t run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished = {}) = 0;
  virtual std::size_t workers() const = 0;
  // The processes the workers are spread over, each with its own memory (MPI ranks; 1 otherwise).
  virtual std::size_t processes() const { return 1; }
  // Whether item i of n is this executor's to run (a shard's share; every item otherwise).
  virtual bool owns(std::size_t /*i*/) const { return true; }
};

class SerialExecutor final : public Executor {
public:
  std::size_t run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished = {}) override;
  std::size_t workers() const override { return 1; }
};

class ThreadExecutor final : public Executor {
public:
  explicit ThreadExecutor(std::size_t threads);
  std::size_t run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished = {}) override;
  // The threads asked for; after a run, those it started (fewer when the stacks would not fit under --memory-mb, or a
  // thread could not be had).
  std::size_t workers() const override { return started_; }
  std::size_t requested() const { return threads_; }

private:
  std::size_t threads_;
  std::size_t started_;
};

// Shard `index` of `count` (1-based, as `--shard I/N` says it): the items i with i % count == index - 1, run by
// `inner` and delivered under their own indices. Round robin, so that each shard gets items of every kind (a sweep's
// points are ordered by policy, and policies differ in cost).
class ShardExecutor final : public Executor {
public:
  ShardExecutor(std::unique_ptr<Executor> inner, std::size_t index, std::size_t count);
  std::size_t run(std::size_t n, const Work& work, const Deliver& deliver, const Finished& finished = {}) override;
  std::size_t workers() const override { return inner_->workers(); }
  bool owns(std::size_t i) const override { return i % count_ == index_ - 1; }
  std::size_t index() const { return index_; }
  std::size_t count() const { return count_; }

private:
  std::unique_ptr<Executor> inner_;
  std::size_t index_, count_;
};

// `--shard I/N`: 1 <= I <= N <= 100000. Throws InputError naming the option otherwise.
struct Shard {
  std::size_t index = 1, count = 1;
  bool given() const { return count > 1 || index > 1; }
};
Shard parse_shard(const std::string& text, const std::string& option = "--shard");

// The shards a merge is given, each by the folder it wrote: every one of 1..N once, all of the same N. add() and
// require_all() throw InputError naming the shard or folder at fault.
class ShardSet {
public:
  void add(const Shard& shard, const std::string& dir);
  void require_all() const;                      // every shard 1..N given
  std::size_t count() const { return count_; }   // N
  const std::string& dir(std::size_t index) const { return dirs_.at(index); }

private:
  std::size_t count_ = 0;
  std::string first_;
  std::map<std::size_t, std::string> dirs_;      // shard index -> folder
};

// 1 (or 0): serial; N: N threads.
std::unique_ptr<Executor> make_executor(std::size_t jobs);
// `jobs` workers (see jobs_from_option), and only shard's items when a shard is given; under mpirun or srun the
// ranks of the job (support/process_group.hpp: --shard and --jobs > 1 are refused there).
std::unique_ptr<Executor> make_executor(std::size_t jobs, const Shard& shard);
// What `--jobs N` means: N workers, and 0 every core this machine has (std::thread::hardware_concurrency, at least 1).
std::size_t jobs_from_option(std::size_t jobs);

}  // namespace schedcheck
