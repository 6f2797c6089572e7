// The process's memory ceiling (see memory.hpp). Our own.
#include "support/memory.hpp"

#include "support/errors.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

namespace schedcheck {

namespace {
std::uint64_t ceiling_mb = 0;
rlimit original{};  // the limit before limit_memory_mb
rlimit applied{};   // the ceiling while an OriginalMemoryLimit is alive
// The first failed allocation: std::bad_alloc, with headroom for the unwinding that follows (destructors that
// allocate, as nlohmann::json does to free a large document, would otherwise end the process in std::terminate):
// the ceiling is raised once, to twice itself plus 64 MB, and the run then ends (exit 3).
void out_of_memory() {
  static std::atomic_flag raised;  // threads of an executor may fail at once: one of them raises the ceiling
  if (!raised.test_and_set()) {
    rlimit limit{};
    if (getrlimit(RLIMIT_DATA, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
      const rlim_t headroom = limit.rlim_cur + (rlim_t{64} << 20);
      limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? limit.rlim_cur + headroom
                                                       : std::min(limit.rlim_max, limit.rlim_cur + headroom);
      setrlimit(RLIMIT_DATA, &limit);
    }
  }
  throw std::bad_alloc();
}
}  // namespace

void limit_memory_mb(std::uint64_t megabytes) {
  rlimit limit{};
  if (getrlimit(RLIMIT_DATA, &limit) != 0)
    throw InputError(fmt::format("--memory-mb: the data limit cannot be read: {}", std::strerror(errno)));
  const rlim_t bytes = static_cast<rlim_t>(megabytes) * 1024 * 1024;
  if (limit.rlim_max != RLIM_INFINITY && bytes > limit.rlim_max)
    throw InputError(fmt::format("--memory-mb: expected at most {} (the hard limit of this process), got {}",
                                 limit.rlim_max / (1024 * 1024), megabytes));
  original = limit;
  limit.rlim_cur = bytes;
  if (setrlimit(RLIMIT_DATA, &limit) != 0)
    throw InputError(fmt::format("--memory-mb {}: the limit cannot be set: {}", megabytes, std::strerror(errno)));
  ceiling_mb = megabytes;
  std::set_new_handler(out_of_memory);
}

std::uint64_t memory_limit_mb() { return ceiling_mb; }

std::uint64_t memory_in_use_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmData:", 0) == 0) return std::strtoull(line.c_str() + 7, nullptr, 10) * 1024;  // "VmData: N kB"
  return 0;
}

std::size_t threads_that_fit(std::size_t wanted, std::uint64_t stack_bytes) {
  if (ceiling_mb == 0 || wanted <= 1 || stack_bytes == 0) return wanted;
  const std::uint64_t ceiling = ceiling_mb * 1024 * 1024, used = memory_in_use_bytes();
  const std::uint64_t left = used < ceiling ? ceiling - used : 0;
  return std::clamp<std::uint64_t>(left / 2 / stack_bytes, 1, wanted);
}

OriginalMemoryLimit::OriginalMemoryLimit() {
  if (ceiling_mb > 0) {
    getrlimit(RLIMIT_DATA, &applied);  // the ceiling as it is now (raised once after a failed allocation)
    setrlimit(RLIMIT_DATA, &original);
  }
}

OriginalMemoryLimit::~OriginalMemoryLimit() {
  if (ceiling_mb > 0) setrlimit(RLIMIT_DATA, &applied);
}

}  // namespace schedcheck
