// The process's memory ceiling (`--memory-mb`): RLIMIT_DATA, which on Linux 4.7 and later counts the heap and every
// private writable mapping (whatever allocator made it, thread stacks included) but not the mapped libraries, so an
// allocation past it fails (std::bad_alloc) instead of the machine's OOM killer ending the run. Our own. Memory that
// a library maps outside malloc and writes shared is not counted; Z3 gets the same ceiling of its own (solver/).
// Child processes start without it (OriginalMemoryLimit).
#pragma once

#include <cstddef>
#include <cstdint>

namespace schedcheck {

// Sets the ceiling (megabytes, > 0); throws InputError when the system refuses it (e.g. above the hard limit).
void limit_memory_mb(std::uint64_t megabytes);
// The ceiling set by limit_memory_mb, 0 when none.
std::uint64_t memory_limit_mb();
// What counts against the ceiling now (VmData of /proc/self/status), in bytes; 0 when it cannot be read.
std::uint64_t memory_in_use_bytes();
// Under a ceiling, how many of `wanted` threads of `stack_bytes` each to start: each stack counts against the ceiling,
// so they may take at most half of what is left of it (the rest is for the work). At least 1; `wanted` without one.
std::size_t threads_that_fit(std::size_t wanted, std::uint64_t stack_bytes);

// While alive, the process runs under the limit it started with: hold one around starting a child process (a policy
// in another language, gnuplot), which would inherit the ceiling otherwise. Not for long: other threads' allocations
// are not held to the ceiling meanwhile.
class OriginalMemoryLimit {
public:
  OriginalMemoryLimit();
  ~OriginalMemoryLimit();
  OriginalMemoryLimit(const OriginalMemoryLimit&) = delete;
  OriginalMemoryLimit& operator=(const OriginalMemoryLimit&) = delete;
};

}  // namespace schedcheck
