// The datatypes and operations a replayed reduction needs beyond the
// predefined ones (docs/traces.md): the model splits and combines a
// reduction by items (coll/ReduceWork), so a recorded reduction over a
// derived datatype is replayed over items of as many predefined elements,
// and one with a user operation over items of as many bytes, combined by an
// operation of the same commutativity that does nothing. They are made
// without an MPI call (the program's own type and op calls are recorded as
// local calls already), kept for the rank's later reductions (a persistent
// one builds its schedule at each MPI_Start), and freed before MPI_Finalize,
// so that they are no leaks of the replay.
#pragma once

#include <mpi.h>

#include <map>
#include <utility>

namespace progsim::traces {

class ReductionItems {
public:
  explicit ReductionItems(int rank) : rank_(rank) {}
  ReductionItems(const ReductionItems&) = delete;
  ReductionItems& operator=(const ReductionItems&) = delete;

  // A committed contiguous datatype of `elements` elements of `element`.
  MPI_Datatype item_type(MPI_Datatype element, long long elements);
  // A user operation of that commutativity.
  MPI_Op user_op(bool commutative);
  // Frees what was made (before MPI_Finalize).
  void release();

private:
  int rank_;
  std::map<std::pair<MPI_Datatype, long long>, MPI_Datatype> types_;
  std::map<bool, MPI_Op> ops_;
};

}  // namespace progsim::traces
