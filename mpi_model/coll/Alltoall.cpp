// MPI_Alltoall(v,w) algorithms:
//  linear    every receive and every send posted at once.
//  pairwise  n - 1 rounds; in round k a process sends to me + k and
//            receives from me - k (one exchange in flight: for large blocks).
// The own block is copied locally. With MPI_IN_PLACE the outgoing blocks
// are first packed out of recvbuf (sent as MPI_PACKED), since the receives
// overwrite them.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

#include "MpiModel.hpp"
#include "datatype/Pack.hpp"

namespace progsim::mpi::coll {

int build_alltoallw(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                    const Counts& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
                    const Counts& rcounts, const Counts& rdispls, const std::vector<MPI_Datatype>& rtypes,
                    bool regular)
{
  int n = c.size();
  int me = c.me();
  bool in_place = sendbuf == MPI_IN_PLACE;
  DatatypeTable& types = MpiModel::instance().datatypes();
  // The outgoing data of each peer: (buffer, count, type).
  std::vector<const void*> out(static_cast<size_t>(n));
  std::vector<std::int64_t> out_count(static_cast<size_t>(n));
  std::vector<MPI_Datatype> out_type(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto u = static_cast<size_t>(i);
    if (!in_place) {
      out[u] = at(sendbuf, sdispls[u]);
      out_count[u] = scounts[u];
      out_type[u] = stypes[u];
      continue;
    }
    dt::DatatypePtr t = types.find(rtypes[u]);
    if (!t)
      return MPI_ERR_TYPE;
    std::int64_t bytes = i == me ? 0 : dt::packed_size(*t, rcounts[u]);
    std::byte* packed = s.scratch(static_cast<size_t>(bytes));
    if (bytes > 0)
      copy_step(s, at(recvbuf, rdispls[u]), rcounts[u], rtypes[u], packed, bytes, MPI_PACKED);
    out[u] = packed;
    out_count[u] = bytes;
    out_type[u] = MPI_PACKED;
  }
  dt::DatatypePtr t0 = types.find(rtypes[0]);
  std::int64_t block = regular && t0 ? rcounts[0] * t0->size() : 0;
  const std::string& choice = collective_parameters().alltoall;
  bool pairwise = choice == "pairwise" || (choice == "auto" && block >= 32768);
  for (int k = 1; k < n; ++k) {
    auto src = static_cast<size_t>((me - k + n) % n);
    auto dst = static_cast<size_t>((me + k) % n);
    s.recv(c, static_cast<int>(src), at(recvbuf, rdispls[src]), rcounts[src], rtypes[src]);
    s.send(c, static_cast<int>(dst), out[dst], out_count[dst], out_type[dst]);
    if (pairwise)
      s.next_round();
  }
  if (!in_place) {
    auto u = static_cast<size_t>(me);
    copy_step(s, out[u], out_count[u], out_type[u], at(recvbuf, rdispls[u]), rcounts[u], rtypes[u]);
  }
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
