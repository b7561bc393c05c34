// Intercommunicator support for the collectives and the constructors
// (MPI-4.1 §7.6): the local group as an intracommunicator view, context id
// agreement over both groups, and the blocking collectives on
// intercommunicators (MPI-4.1 §6.2.2: in a rooted operation the root passes
// MPI_ROOT, the other processes of its group MPI_PROC_NULL and the processes
// of the other group the root's rank in that group).
//
// Both groups' internal messages use the intercommunicator's collective
// context. Messages between the groups use the collective tags (Tag); the
// messages among one group (through local_view) use kLocalTagBase + tag, so
// that a message from remote rank i never matches a receive from local
// rank i.
#pragma once

#include "coll/Collectives.hpp"

namespace progsim::mpi::coll {

constexpr int kLocalTagBase = 0x10000000;

// The local group of an intercommunicator as an intracommunicator (cached
// in the communicator object).
const Communicator& local_view(const Communicator& inter);
// A CollCall among the local group of `c` (an intercommunicator) with the
// local variant of `tag`.
inline CollCall local_call(const CollCall& c)
{
  return CollCall{c.b, local_view(c.comm), kLocalTagBase + c.tag};
}

// The lowest context id that no member of either group uses.
int agree_context_inter(const Binding& b, const Communicator& inter, int& context);

// Collectives on intercommunicators. `root` is MPI_ROOT, MPI_PROC_NULL or
// a rank of the remote group.
int inter_barrier(const CollCall& c);
int inter_bcast(const CollCall& c, void* buf, std::int64_t count, MPI_Datatype type, int root);
int inter_reduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
                 MPI_Op op, int root);
int inter_allreduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
                    MPI_Op op);
int inter_gatherv(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
                  const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
                  MPI_Datatype rtype, int root);
int inter_scatterv(const CollCall& c, const void* sendbuf, const std::vector<std::int64_t>& scounts,
                   const std::vector<std::int64_t>& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount,
                   MPI_Datatype rtype, int root);
int inter_allgatherv(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
                     const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
                     MPI_Datatype rtype);
int inter_alltoallw(const CollCall& c, const void* sendbuf, const std::vector<std::int64_t>& scounts,
                    const std::vector<std::int64_t>& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
                    const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
                    const std::vector<MPI_Datatype>& rtypes);
int inter_reduce_scatter(const CollCall& c, const void* sendbuf, void* recvbuf,
                         const std::vector<std::int64_t>& rcounts, MPI_Datatype type, MPI_Op op);

}  // namespace progsim::mpi::coll
