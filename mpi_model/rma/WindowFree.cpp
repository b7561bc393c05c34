#include "rma/WindowLifetime.hpp"

#include "MpiModel.hpp"
#include "coll/Collectives.hpp"
#include "rma/Epochs.hpp"
#include "rma/RmaEngine.hpp"
#include "sim/memory/MemoryWatch.hpp"

namespace progsim::mpi::rma {

int quiesce_for_free(const CallContext& caller, Window& w)
{
  RmaEngine& engine = caller.model().rma();
  engine.release_deferred(w.shared, w.me, true);
  engine.block(caller.world(), {BlockedRma::Acks, w.shared, w.me, all_targets(w), false},
               [&engine, &w] { return engine.all_acked(w); }, describe_call(caller, w) + ", completing its operations");
  completed_at_origin(caller, w, all_targets(w));
  const Communicator* ic = caller.model().communicators().find(w.comm, caller.world());
  return coll::barrier({caller, *ic, coll::kBarrierTag});
}

void release_window(const CallContext& caller, Window& w)
{
  sim::memory::MemoryWatch& memory = sim::memory::MemoryWatch::instance();
  WindowShared& shared = *w.shared;
  WindowPart& part = shared.parts[static_cast<size_t>(w.me)];
  caller.model().rma().local_accesses().release(w);
  if (part.watch >= 0)
    memory.unwatch(part.watch);
  part.watch = -1;
  for (const AttachedRegion& r : part.attached)  // still attached: freeing ends the exposure
    memory.unwatch(r.watch);
  part.attached.clear();
  part.moved.clear();
  if (part.memory.user)
    memory.free_shared(part.memory);
  if (++shared.released == shared.size() && shared.segment.user)
    memory.free_shared(shared.segment);
  caller.model().communicators().remove(caller.world(), w.comm);
  caller.model().rma().windows(caller.world()).remove(w.handle);  // destroys w
}

}  // namespace progsim::mpi::rma
