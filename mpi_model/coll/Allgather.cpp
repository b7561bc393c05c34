// MPI_Allgather(v) algorithms (each process first copies its own block
// into place, unless MPI_IN_PLACE; then only the receive buffer is used):
//  recursive_doubling  (MPI_Allgather, power-of-two process counts) log2(n)
//                      exchanges of the blocks gathered so far.
//  ring                n - 1 steps; in step k a process passes on the block
//                      it received in step k - 1.
//  linear              every process sends its block to every other at once.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

#include "MpiModel.hpp"

namespace progsim::mpi::coll {

int build_allgatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                     MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls,
                     MPI_Datatype rtype, bool regular)
{
  int n = c.size();
  int me = c.me();
  auto slot = [&](int i) { return at(recvbuf, rdispls[static_cast<size_t>(i)]); };
  auto cnt = [&](int i) { return rcounts[static_cast<size_t>(i)]; };
  if (sendbuf != MPI_IN_PLACE)
    copy_step(s, sendbuf, scount, stype, slot(me), cnt(me), rtype);
  dt::DatatypePtr t = MpiModel::instance().datatypes().find(rtype);
  std::int64_t total = regular && t ? n * cnt(0) * t->size() : 0;
  bool power_of_two = (n & (n - 1)) == 0;
  const std::string& choice = collective_parameters().allgather;
  if (choice == "linear" || (choice == "auto" && n < 8 && !(regular && power_of_two && total < 81920))) {
    for (int k = 1; k < n; ++k)
      s.recv(c, (me - k + n) % n, slot((me - k + n) % n), cnt((me - k + n) % n), rtype);
    for (int k = 1; k < n; ++k)
      s.send(c, (me + k) % n, slot(me), cnt(me), rtype);
  } else if (regular && power_of_two &&
             (choice == "recursive_doubling" || (choice == "auto" && total < 81920))) {
    for (int mask = 1; mask < n; mask <<= 1) {
      int partner = me ^ mask;
      int mine = me / mask * mask, theirs = partner / mask * mask;
      s.send(c, partner, slot(mine), mask * cnt(0), rtype);
      s.recv(c, partner, slot(theirs), mask * cnt(0), rtype);
      s.next_round();
    }
  } else {
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    for (int k = 0; k < n - 1; ++k) {
      int out = (me - k + n) % n, in = (me - k - 1 + n) % n;
      s.send(c, right, slot(out), cnt(out), rtype);
      s.recv(c, left, slot(in), cnt(in), rtype);
      s.next_round();
    }
  }
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
