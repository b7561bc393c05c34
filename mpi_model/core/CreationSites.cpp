#include "core/CreationSites.hpp"

#include "MpiModel.hpp"
#include "diagnosis/CallSites.hpp"
#include "sim/CallScope.hpp"
#include "sim/Rank.hpp"

namespace progsim::mpi {

void note_created(std::uint32_t handle)
{
  sim::Rank* rank = sim::calling_rank();
  if (!rank || !rank->current_call())
    return;
  MpiModel::instance().process(rank->id()).creations.note(handle, {rank->current_call(), call_site_mark(rank)});
}

}  // namespace progsim::mpi
