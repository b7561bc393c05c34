// The context id agreement among the members of a group only (see
// Communicators.hpp). The same MAX rule as coll::agree_context: the result is
// above every id any member holds or held.

#include "bindings/Communicators.hpp"
#include "coll/Collectives.hpp"

#include <algorithm>
#include <climits>

namespace progsim::mpi {

int agree_context_among(const Binding& b, const Communicator& address, std::vector<int> members, int tag,
                        int& context)
{
  std::sort(members.begin(), members.end());
  int m = static_cast<int>(members.size());
  int me = static_cast<int>(std::lower_bound(members.begin(), members.end(), b.world()) - members.begin());
  coll::CollCall call{b, address, tag};
  auto peer = [&](int index) { return address.local_rank(members[static_cast<size_t>(index)]); };
  int value = b.model().communicators().next_context(b.world());
  // Binomial reduction to index 0: a process receives from me + mask for
  // every mask below its lowest set bit, then sends to me - lowest bit.
  int mask = 1;
  for (; mask < m; mask <<= 1) {
    if (me & mask) {
      if (int err = coll::send(call, peer(me - mask), &value, 1, MPI_INT))
        return err;
      break;
    }
    if (me + mask < m) {
      int theirs = 0;
      if (int err = coll::recv(call, peer(me + mask), &theirs, 1, MPI_INT))
        return err;
      value = std::max(value, theirs);
    }
  }
  // Broadcast back along the same tree.
  if (me != 0)
    if (int err = coll::recv(call, peer(me - mask), &value, 1, MPI_INT))
      return err;
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (me + mask < m)
      if (int err = coll::send(call, peer(me + mask), &value, 1, MPI_INT))
        return err;
  if (value > INT_MAX - 8)
    return MPI_ERR_INTERN;
  context = value;
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi
