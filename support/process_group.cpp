// The process group without MPI: one process (see process_group.hpp). Our own.
#include "support/process_group.hpp"

namespace schedcheck {

void start_process_group(int&, char**&) {}
int end_process_group(int code) { return code; }
const ProcessGroup& process_group() {
  static const ProcessGroup one;
  return one;
}
bool built_with_mpi() { return false; }
std::unique_ptr<Executor> make_group_executor() { return nullptr; }

}  // namespace schedcheck
