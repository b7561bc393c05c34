// The process sets the runtime offers to sessions (MPI-4.1 §11.3.2): names a
// process can turn into a group (MPI_Group_from_session_pset) and query
// (MPI_Session_get_num_psets, _get_nth_pset, _get_pset_info).
//
// Every process sees the same list, in this order:
//   mpi://WORLD              all processes of the job (the ranks of the run)
//   mpi://SELF               the calling process only
//   progsim://host/<host>    the processes on simulated host <host>, one set
//                            per host that runs ranks, in order of the
//                            host's lowest rank
// The two mpi:// names are matched without regard to case (as MPICH does:
// "mpi://self" names mpi://SELF); progsim:// names exactly.
#pragma once

#include <string>
#include <vector>

namespace progsim::mpi::sessions {

struct ProcessSet {
  std::string name;
  std::vector<int> members;  // world ranks, ascending
};

// The process sets as seen by `world_rank` (only mpi://SELF differs).
std::vector<ProcessSet> process_sets(int world_rank);
// The set of that name, or false when there is none.
bool find_process_set(const std::string& name, int world_rank, ProcessSet& out);

}  // namespace progsim::mpi::sessions
