// MPI_Barrier algorithms:
//  dissemination  (Hensgen, Finkel & Manber) zero-byte messages: in round i
//                 every process sends to me + 2^i and receives from me - 2^i;
//                 ceil(log2 n) rounds.
//  tree           binomial fan-in to rank 0, then binomial fan-out.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

namespace progsim::mpi::coll {

namespace {

void dissemination(Schedule& s, const Channel& c)
{
  int n = c.size();
  int me = c.me();
  for (int distance = 1; distance < n; distance <<= 1) {
    s.recv(c, (me - distance + n) % n, nullptr, 0, MPI_BYTE);
    s.send(c, (me + distance) % n, nullptr, 0, MPI_BYTE);
    s.next_round();
  }
}

void tree(Schedule& s, const Channel& c)
{
  int n = c.size();
  int me = c.me();
  for (int mask = 1; mask < n; mask <<= 1) {
    if (me & mask) {
      s.send(c, me - mask, nullptr, 0, MPI_BYTE);
      break;
    }
    if ((me | mask) < n)
      s.recv(c, me | mask, nullptr, 0, MPI_BYTE);
    s.next_round();
  }
  s.next_round();
  bcast_binomial(s, c, nullptr, 0, MPI_BYTE, 0);
}

}  // namespace

int build_barrier(Schedule& s, const Channel& c)
{
  if (collective_parameters().barrier == "tree")
    tree(s, c);
  else
    dissemination(s, c);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
