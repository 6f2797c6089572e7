// The processes of one run: one, or the ranks of an MPI job (mpirun, srun) when schedcheck is built with MPI and
// started by such a launcher. Our own. Rank 0 prints and writes; the other ranks only work (their stdout goes to
// /dev/null; a failure of an item reaches rank 0 as a message, one outside the items is printed by the rank and ends
// the job: MPI_Abort). What rank 0 prints is what one process prints.
// Limits: Open MPI's launch environment (OMPI_COMM_WORLD_SIZE) or a PMI one (PMI_SIZE, PMIX_RANK) tells a rank apart
// from a process started alone; one worker thread a rank.
#pragma once

#include "support/executor.hpp"

#include <cstddef>
#include <memory>

namespace schedcheck {

struct ProcessGroup {
  std::size_t rank = 0, size = 1;
  bool root() const { return rank == 0; }
};

// Joins the MPI job this process was started in (MPI_Init), or does nothing. Call once, first thing in main.
void start_process_group(int& argc, char**& argv);
// Leaves it (MPI_Finalize); every rank returns rank 0's exit code. A rank ending with 2 (bad input) or 4 (a bug)
// ends the whole job instead (MPI_Abort), so that no rank waits for it. Returns `code` when there is no group.
int end_process_group(int code);
const ProcessGroup& process_group();
// Whether this build can join an MPI job at all.
bool built_with_mpi();

// The executor across every rank of the group (see executor.hpp): rank 0 hands out the items in index order, a few
// ahead to each rank so that none waits, runs items itself on a thread of its own, gathers the results and delivers
// them in index order; the other ranks run the items they are given and send their results back. A rank whose item
// throws stops the run with its message (InputError or InternalError on rank 0). A stop request stops every rank
// within an item. Null when the group is one process.
std::unique_ptr<Executor> make_group_executor();

}  // namespace schedcheck
