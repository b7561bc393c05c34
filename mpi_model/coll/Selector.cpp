#include "coll/Selector.hpp"

#include "MpiModel.hpp"
#include "sim/Config.hpp"

namespace progsim::mpi::coll {

void register_collective_parameters(sim::Config& config, CollectiveParameters& p)
{
  config.add("coll-sync", p.sync, {"auto", "always", "never"},
             "whether collectives synchronize their members (MPI-4.1 §6.14 lets them or not): auto (as the "
             "protocols imply: eager messages do not wait), always (every internal message waits for its "
             "receiver, e.g. a synchronizing MPI_Bcast), never (the library buffers every internal message)");
  config.add("coll-barrier", p.barrier, {"auto", "dissemination", "tree"},
             "MPI_Barrier algorithm; auto: dissemination");
  config.add("coll-bcast", p.bcast, {"auto", "binomial", "scatter_allgather", "linear"},
             "MPI_Bcast algorithm; auto: binomial below 12 KiB or 8 processes, else scatter_allgather (binomial "
             "scatter, ring allgather) as MPICH");
  config.add("coll-reduce", p.reduce, {"auto", "binomial", "linear"},
             "MPI_Reduce algorithm; auto: binomial (non-commutative operations reduce in rank order)");
  config.add("coll-allreduce", p.allreduce, {"auto", "recursive_doubling", "rabenseifner", "ring", "reduce_bcast"},
             "MPI_Allreduce algorithm; auto: recursive_doubling up to 2 KiB, for non-commutative operations or "
             "fewer items than processes, else rabenseifner (recursive halving reduce-scatter + recursive "
             "doubling allgather) as MPICH; ring and rabenseifner need a commutative operation");
  config.add("coll-gather", p.gather, {"auto", "binomial", "linear"},
             "MPI_Gather algorithm; auto: binomial from 8 processes, else linear (MPI_Gatherv: linear)");
  config.add("coll-scatter", p.scatter, {"auto", "binomial", "linear"},
             "MPI_Scatter algorithm; auto: binomial from 8 processes, else linear (MPI_Scatterv: linear)");
  config.add("coll-allgather", p.allgather, {"auto", "recursive_doubling", "ring", "linear"},
             "MPI_Allgather algorithm; auto: recursive_doubling below 80 KiB in all on a power of two of "
             "processes, else linear below 8 processes and ring from 8 (MPI_Allgatherv: the same without "
             "recursive_doubling)");
  config.add("coll-alltoall", p.alltoall, {"auto", "linear", "pairwise"},
             "MPI_Alltoall(v,w) algorithm; auto: linear (every message at once) below 32 KiB per block, else "
             "pairwise exchange");
  config.add("coll-reduce-scatter", p.reduce_scatter, {"auto", "pairwise", "reduce_scatterv"},
             "MPI_Reduce_scatter(_block) algorithm; auto: pairwise for commutative operations, else "
             "reduce_scatterv (reduce in rank order, then scatter)");
  config.add("coll-scan", p.scan, {"auto", "recursive_doubling", "linear"},
             "MPI_Scan and MPI_Exscan algorithm; auto: recursive_doubling");
}

const CollectiveParameters& collective_parameters()
{
  return MpiModel::instance().parameters().coll;
}

}  // namespace progsim::mpi::coll
