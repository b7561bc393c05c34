// Context id agreement for new communicators (see core/Communicator.hpp):
// the members OR their bitmaps of context ids in use (an internal
// allreduce over the parent) and take the lowest id no member uses. Every
// member computes the same id from the same reduced bitmap.

#include "coll/Collectives.hpp"

namespace progsim::mpi::coll {

int agree_context(const CollCall& c, int& context)
{
  const auto& mine = c.b.model().communicators().context_mask(c.b.world());
  std::vector<std::uint64_t> used(mine.size(), 0);
  if (int err = allreduce(c, mine.data(), used.data(), static_cast<std::int64_t>(mine.size()), MPI_UINT64_T, MPI_BOR))
    return err;
  for (std::size_t word = 0; word < used.size(); ++word) {
    if (used[word] == ~std::uint64_t{0})
      continue;
    for (int bit = 0; bit < 64; ++bit)
      if (!(used[word] & (std::uint64_t{1} << bit))) {
        context = 2 * (static_cast<int>(word) * 64 + bit);
        return MPI_SUCCESS;
      }
  }
  return MPI_ERR_INTERN;
}

}  // namespace progsim::mpi::coll
