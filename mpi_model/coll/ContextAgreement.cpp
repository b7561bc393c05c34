// Context id agreement for new communicators (see core/Communicator.hpp):
// every member brings the next id it may use, the members reduce them with
// MPI_MAX, and every member gets the same result, which is above every id
// any of them holds or held. Three shapes of the same agreement, by who
// takes part: all members of an intracommunicator (an internal allreduce),
// both groups of an intercommunicator (each group's maximum, swapped by
// the leaders), or only the members of a group (a binomial tree among them).

#include "coll/Collectives.hpp"
#include "coll/Intercomm.hpp"

#include "MpiModel.hpp"

#include <algorithm>
#include <climits>

namespace progsim::mpi::coll {

namespace {

// What this member brings to the agreement.
int next_context(const CallContext& caller)
{
  return caller.model().communicators().next_context(caller.world());
}

// The agreed maximum is the new context id, unless the ids are exhausted
// (the id + a few offsets must stay an int).
int adopt(int agreed, int& context)
{
  if (agreed > INT_MAX - 8)
    return MPI_ERR_INTERN;
  context = agreed;
  return MPI_SUCCESS;
}

}  // namespace

int agree_context(const CollCall& c, int& context)
{
  int mine = next_context(c.caller);
  int agreed = 0;
  if (int err = allreduce(c, &mine, &agreed, 1, MPI_INT, MPI_MAX))
    return err;
  return adopt(agreed, context);
}

int agree_context_inter(const CallContext& caller, const Communicator& inter, int& context)
{
  // MPI_MAX of the next ids within each group, the leaders swap their
  // group's maximum, and tell their group the larger.
  CollCall local{caller, local_view(inter), kLocalTagBase + kContextTag};
  int mine = next_context(caller);
  int agreed = 0, remote = 0;
  if (int err = allreduce(local, &mine, &agreed, 1, MPI_INT, MPI_MAX))
    return err;
  if (inter.my_rank == 0) {
    CollCall leaders{caller, inter, kContextTag};
    RequestPtr r = irecv(leaders, 0, &remote, 1, MPI_INT);
    RequestPtr s = isend(leaders, 0, &agreed, 1, MPI_INT);
    if (int err = wait_all(leaders, {s, r}))
      return err;
    agreed = std::max(agreed, remote);
  }
  if (int err = bcast(local, &agreed, 1, MPI_INT, 0))
    return err;
  return adopt(agreed, context);
}

int agree_context_among(const CallContext& caller, const Communicator& address, std::vector<int> members, int tag,
                        int& context)
{
  std::sort(members.begin(), members.end());
  int m = static_cast<int>(members.size());
  int me = static_cast<int>(std::lower_bound(members.begin(), members.end(), caller.world()) - members.begin());
  CollCall call{caller, address, tag};
  auto peer = [&](int index) { return address.local_rank(members[static_cast<size_t>(index)]); };
  int value = next_context(caller);
  // Binomial reduction to index 0: a process receives from me + mask for
  // every mask below its lowest set bit, then sends to me - lowest bit.
  int mask = 1;
  for (; mask < m; mask <<= 1) {
    if (me & mask) {
      if (int err = send(call, peer(me - mask), &value, 1, MPI_INT))
        return err;
      break;
    }
    if (me + mask < m) {
      int theirs = 0;
      if (int err = recv(call, peer(me + mask), &theirs, 1, MPI_INT))
        return err;
      value = std::max(value, theirs);
    }
  }
  // Broadcast back along the same tree.
  if (me != 0)
    if (int err = recv(call, peer(me - mask), &value, 1, MPI_INT))
      return err;
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (me + mask < m)
      if (int err = send(call, peer(me + mask), &value, 1, MPI_INT))
        return err;
  return adopt(value, context);
}

}  // namespace progsim::mpi::coll
