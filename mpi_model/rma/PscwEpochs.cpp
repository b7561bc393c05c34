// General active-target synchronization (MPI-4.1 §12.5.2): the exposure
// epoch of a target (MPI_Win_post .. MPI_Win_wait/test) and the access epoch
// of an origin (MPI_Win_start .. MPI_Win_complete).

#include "rma/Epochs.hpp"

#include "MpiModel.hpp"
#include "progress/RankProgress.hpp"
#include "rma/EpochCompletion.hpp"
#include "rma/RmaEngine.hpp"
#include "sim/Rank.hpp"

#include <algorithm>

namespace progsim::mpi::rma {

void post(const CallContext& caller, Window& w, const GroupPtr& origins, int assert)
{
  w.exposure_group = origins;
  note_post(w, origins->world_ranks());  // AccessConflicts: which access epochs are concurrent
  caller.model().rma().post(w, *origins, assert & MPI_MODE_NOCHECK);
}

void start(const CallContext& caller, Window& w, const GroupPtr& targets, int assert)
{
  RmaEngine& engine = caller.model().rma();
  w.access_group = targets;
  w.access_nocheck = assert & MPI_MODE_NOCHECK;
  engine.start(w, *targets);
  // MPI_Win_start may block until the targets posted (an implementation freedom).
  if (caller.model().parameters().win_start_blocks && !w.access_nocheck) {
    std::vector<int> locals = local_ranks(w, *targets);
    engine.block(
        caller.world(), {BlockedRma::Posts, w.shared, w.me, locals, true},
        [&] { return std::all_of(locals.begin(), locals.end(), [&](int t) { return engine.posted(w, t); }); },
        describe_call(caller, w) + ", waiting for MPI_Win_post of rank(s) " + rank_list(w, locals));
  }
}

void complete(const CallContext& caller, Window& w)
{
  RmaEngine& engine = caller.model().rma();
  std::vector<int> targets = local_ranks(w, *w.access_group);
  // The operations can only go once their targets posted.
  engine.block(
      caller.world(), {BlockedRma::Posts, w.shared, w.me, targets, false},
      [&] { return std::all_of(targets.begin(), targets.end(), [&](int t) { return engine.posted(w, t); }); },
      describe_call(caller, w) + ", waiting for MPI_Win_post of rank(s) " + rank_list(w, targets));
  engine.release_deferred(w.shared, w.me, true);
  if (caller.model().parameters().win_complete_remote) {
    complete_operations(caller, w, targets);
  } else {
    // Local completion (MPI-4.1 §12.5.2): the data of gets must be here.
    engine.block(
        caller.world(), {BlockedRma::Acks, w.shared, w.me, targets, false},
        [&] { return std::all_of(targets.begin(), targets.end(), [&](int t) { return engine.fetched(w, t); }); },
        describe_call(caller, w) + ", waiting for the data of its gets from rank(s) " + rank_list(w, targets));
    completed_at_origin(caller, w, targets);
  }
  engine.complete(w);
  w.access_group.reset();
  w.access_nocheck = false;
}

namespace {

// Blocks until every origin of the exposure epoch completed (or `woken`).
void block_for_completes(const CallContext& caller, Window& w, const std::function<bool()>& woken)
{
  std::vector<int> origins = local_ranks(w, *w.exposure_group);
  caller.model().rma().block(caller.world(), {BlockedRma::Completes, w.shared, w.me, origins, false}, woken,
                             describe_call(caller, w) + ", waiting for MPI_Win_complete of rank(s) " +
                                 rank_list(w, origins));
}

}  // namespace

void wait_exposure(const CallContext& caller, Window& w)
{
  RmaEngine& engine = caller.model().rma();
  block_for_completes(caller, w, [&] { return engine.exposure_done(w); });
  engine.end_exposure(w);
}

void test_exposure(const CallContext& caller, Window& w, int* flag)
{
  // A test procedure (MPI-4.1 §2.9): every call progresses.
  RmaEngine& engine = caller.model().rma();
  RankProgress& p = caller.progress();
  ++engine.win_tests(caller.world());
  ++p.counters.tests;
  caller.rank()->clock().charge_cpu(caller.model().parameters().poll_cost);
  p.progress_point();
  *flag = engine.exposure_done(w);
  if (!*flag && p.test_found_nothing()) {
    // A livelock: held like MPI_Win_wait until something happens for this rank.
    p.hold_test([&](const std::function<bool()>& woken) { block_for_completes(caller, w, woken); });
    *flag = engine.exposure_done(w);
  }
  if (*flag)
    engine.end_exposure(w);
  else
    ++p.counters.false_tests;
}

}  // namespace progsim::mpi::rma
