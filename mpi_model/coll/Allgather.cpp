// MPI_Allgather(v) algorithms (each process first copies its own block
// into place, unless MPI_IN_PLACE; then only the receive buffer is used):
//  recursive_doubling  (MPI_Allgather, power-of-two process counts) log2(n)
//                      exchanges of the blocks gathered so far.
//  ring                n - 1 steps; in step k a process passes on the block
//                      it received in step k - 1.
//  linear              every process sends its block to every other at once.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

namespace progsim::mpi::coll {

namespace {

// The receive buffer's blocks.
struct Blocks {
  void* recvbuf;
  const Counts& rcounts;
  const Counts& rdispls;
  MPI_Datatype rtype;

  std::byte* slot(int i) const { return at(recvbuf, rdispls[static_cast<size_t>(i)]); }
  std::int64_t count(int i) const { return rcounts[static_cast<size_t>(i)]; }
};

void linear(Schedule& s, const Channel& c, const Blocks& b)
{
  int n = c.size();
  int me = c.me();
  for (int k = 1; k < n; ++k)
    s.recv(c, (me - k + n) % n, b.slot((me - k + n) % n), b.count((me - k + n) % n), b.rtype);
  for (int k = 1; k < n; ++k)
    s.send(c, (me + k) % n, b.slot(me), b.count(me), b.rtype);
}

void recursive_doubling(Schedule& s, const Channel& c, const Blocks& b)
{
  int n = c.size();
  int me = c.me();
  for (int mask = 1; mask < n; mask <<= 1) {
    int partner = me ^ mask;
    int mine = me / mask * mask, theirs = partner / mask * mask;
    s.send(c, partner, b.slot(mine), mask * b.count(0), b.rtype);
    s.recv(c, partner, b.slot(theirs), mask * b.count(0), b.rtype);
    s.next_round();
  }
}

void ring(Schedule& s, const Channel& c, const Blocks& b)
{
  int n = c.size();
  int me = c.me();
  int right = (me + 1) % n, left = (me - 1 + n) % n;
  for (int k = 0; k < n - 1; ++k) {
    int out = (me - k + n) % n, in = (me - k - 1 + n) % n;
    s.send(c, right, b.slot(out), b.count(out), b.rtype);
    s.recv(c, left, b.slot(in), b.count(in), b.rtype);
    s.next_round();
  }
}

std::string recursive_doubling_unusable(const CallFacts& f)
{
  if (!f.regular)
    return "it exchanges runs of equal blocks, and the v variant's blocks may differ";
  if (!is_power_of_two(f.processes))
    return "it pairs processes by bits, and " + std::to_string(f.processes) + " is not a power of two";
  return "";
}

using AllgatherBuild = void(Schedule&, const Channel&, const Blocks&);

const Algorithm<AllgatherBuild> kAlgorithms[] = {
    {{"recursive_doubling",
      "log2(n) exchanges of the blocks gathered so far; MPI_Allgather on a power of two of processes",
      recursive_doubling_unusable},
     recursive_doubling},
    {{"ring", "n - 1 steps passing on the block received in the step before", nullptr}, ring},
    {{"linear", "every process sends its block to every other at once", nullptr}, linear},
};

// facts.bytes: every block together (MPI_Allgather; 0 for MPI_Allgatherv).
const char* preferred(const CallFacts& f)
{
  if (f.bytes < 81920 && recursive_doubling_unusable(f).empty())
    return "recursive_doubling";
  return f.processes < 8 ? "linear" : "ring";
}

}  // namespace

const CollectiveAlgorithms& allgather_algorithms()
{
  static const CollectiveAlgorithms coll(
      "coll-allgather", "MPI_Allgather(v)", &CollectiveParameters::allgather, preferred,
      "recursive_doubling below 80 KiB in all where it applies, else linear below 8 processes and ring from 8",
      kAlgorithms);
  return coll;
}

int build_allgatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                     MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls,
                     MPI_Datatype rtype, bool regular)
{
  int n = c.size();
  Blocks b{recvbuf, rcounts, rdispls, rtype};
  if (sendbuf != MPI_IN_PLACE)
    copy_step(s, sendbuf, scount, stype, b.slot(c.me()), b.count(c.me()), rtype);
  CallFacts facts{c.size()};
  facts.bytes = regular ? n * b.count(0) * type_size(rtype) : 0;
  facts.regular = regular;
  kAlgorithms[choose(allgather_algorithms(), facts, c)].build(s, c, b);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
