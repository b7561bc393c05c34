// The reduction tree shared by MPI_Reduce, MPI_Allreduce and
// MPI_Reduce_scatter(_block).
#pragma once

#include "coll/Collectives.hpp"
#include "coll/ReduceWork.hpp"

namespace progsim::mpi::coll {

// `acc` holds this process's input in work format (`items` items); on
// return the root's `acc` holds the result. Other processes' acc is
// clobbered.
int reduce_to_root(const CollCall& c, const ReduceWork& w, std::int64_t items, WorkBuffer& acc, int root);

}  // namespace progsim::mpi::coll
