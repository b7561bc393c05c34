// Helpers shared by the communicator, attribute and info bindings.
#pragma once

#include "bindings/Binding.hpp"
#include "core/Communicator.hpp"
#include "core/Info.hpp"

namespace progsim::mpi {

// InfoCalls.cpp: the contents of an info handle (MPI_INFO_NULL: empty); raises
// MPI_ERR_INFO for invalid handles. new_info makes a handle for the process.
int info_contents(const Binding& b, MPI_Info handle, Info& out);
MPI_Info new_info(const Binding& b, Info contents);

// Communicators.cpp: MPI_Comm_split's construction of an intracommunicator
// for the other constructors (topologies): collective over `parent`;
// members ordered by (key, rank in parent); MPI_COMM_NULL for color
// MPI_UNDEFINED. Raises its errors on `comm`.
int split_communicator(const Binding& b, MPI_Comm comm, const Communicator& parent, int color, int key,
                       MPI_Comm* newcomm);

// Communicators.cpp: this process's object of a new communicator (not
// registered yet): context id, group, owner, rank and error handler set.
std::unique_ptr<Communicator> make_communicator(const Binding& b, MPI_Errhandler errhandler, int context,
                                                GroupPtr group);

// AttributeCalls.cpp: attribute caching on communicators.
// Runs the copy callbacks of `from`'s attributes (in set order) for the new
// communicator `to` (MPI_Comm_dup & co.). Returns MPI_SUCCESS or the first
// callback's error code (the caller frees `to`).
int copy_attributes(const Binding& b, const Communicator& from, Communicator& to);
// Runs the delete callbacks of all of comm's attributes, in the reverse order
// of setting, removing each. Returns the first callback's error (the
// attributes not deleted yet stay).
int delete_attributes(const Binding& b, Communicator& comm);

// MPI_Finalize (MPI-4.1 §11.2.4) must delete MPI_COMM_SELF's attributes
// first, in the reverse order of setting, as if MPI_Comm_free(MPI_COMM_SELF)
// had been called. PMPI_Finalize calls it first (it takes a Binding, which
// PMPI_Finalize did not open, so it had never been called).
int finalize_communicators(const Binding& b);

}  // namespace progsim::mpi
