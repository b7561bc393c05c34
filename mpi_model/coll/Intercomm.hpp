// Intercommunicator support for the collectives and the constructors
// (MPI-4.1 §7.6): the local group as an intracommunicator view (the
// context id agreement over both groups is in ContextAgreement.cpp), and the collectives on intercommunicators as
// schedule builders (MPI-4.1 §6.2.2: in a rooted operation the root passes
// MPI_ROOT, the other processes of its group MPI_PROC_NULL and the
// processes of the other group the root's rank in that group).
//
// Both groups' internal messages use the intercommunicator's collective
// context. Messages between the groups use the collective tags; the
// messages among one group (through local_view) use kLocalTagBase + tag, so
// that a message from remote rank i never matches a receive from local
// rank i.
#pragma once

#include "coll/Algorithms.hpp"
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
  return CollCall{c.caller, local_view(c.comm), kLocalTagBase + c.tag};
}
Channel local_channel(const Channel& c);

int build_inter_barrier(Schedule& s, const Channel& c);
int build_inter_bcast(Schedule& s, const Channel& c, void* buf, std::int64_t count,
                      MPI_Datatype type, int root);
int build_inter_reduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                       std::int64_t count, MPI_Datatype type, MPI_Op op, int root);
int build_inter_allreduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                          std::int64_t count, MPI_Datatype type, MPI_Op op);
int build_inter_reduce_scatter(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                               const Counts& rcounts, MPI_Datatype type, MPI_Op op);
int build_inter_gatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype,
                        void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype, int root);
int build_inter_scatterv(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                         const Counts& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount,
                         MPI_Datatype rtype, int root);
int build_inter_allgatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                           MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls,
                           MPI_Datatype rtype);
int build_inter_alltoallw(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                          const Counts& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
                          const Counts& rcounts, const Counts& rdispls, const std::vector<MPI_Datatype>& rtypes);

}  // namespace progsim::mpi::coll
