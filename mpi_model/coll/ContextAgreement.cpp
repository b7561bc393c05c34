// Context id agreement for new communicators (see core/Communicator.hpp):
// the members reduce the next id each of them may use with MPI_MAX (an
// internal allreduce over the parent); every member gets the same result,
// which is above every id any of them holds or held.

#include "coll/Collectives.hpp"

#include "MpiModel.hpp"

#include <climits>

namespace progsim::mpi::coll {

int agree_context(const CollCall& c, int& context)
{
  int mine = c.caller.model().communicators().next_context(c.caller.world());
  int agreed = 0;
  if (int err = allreduce(c, &mine, &agreed, 1, MPI_INT, MPI_MAX))
    return err;
  if (agreed > INT_MAX - 8)
    return MPI_ERR_INTERN;
  context = agreed;
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
