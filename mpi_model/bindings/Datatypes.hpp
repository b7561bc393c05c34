// Helpers shared by the datatype bindings (MPI-4.1 chapter 5):
// DatatypeConstructors.cpp, DatatypeQueries.cpp and DatatypePack.cpp.
#pragma once

#include "bindings/Binding.hpp"

#include "datatype/DatatypeError.hpp"

#include <limits>
#include <new>
#include <string>

namespace progsim::mpi {

// Runs an engine call (returning an MPI error class); a DatatypeError
// becomes its error class raised on `comm`.
template <class F>
int engine_call(const Binding& b, MPI_Comm comm, F&& f)
{
  try {
    return f();
  } catch (const dt::DatatypeError& e) {
    return b.error(comm, static_cast<int>(e.error_class()), e.what());
  } catch (const std::bad_alloc&) {
    return b.error(comm, MPI_ERR_NO_MEM, "out of memory");
  }
}

// The type of a live handle, else MPI_ERR_TYPE raised on `comm`.
// Raises MPI_ERR_TYPE for a handle that names no live datatype.
int invalid_type(const Binding& b, MPI_Datatype handle, const char* what, MPI_Comm comm);

inline int resolve_type(const Binding& b, MPI_Datatype handle, dt::DatatypePtr& type, const char* what = "datatype",
                        MPI_Comm comm = MPI_COMM_WORLD)
{
  type = b.model().datatypes().find_live(handle);
  return type ? MPI_SUCCESS : invalid_type(b, handle, what, comm);
}

// The same, borrowed, for the queries that only read the type.
inline int resolve_type(const Binding& b, MPI_Datatype handle, const dt::Datatype*& type,
                        const char* what = "datatype", MPI_Comm comm = MPI_COMM_WORLD)
{
  type = b.model().datatypes().find_live_borrowed(handle);
  return type ? MPI_SUCCESS : invalid_type(b, handle, what, comm);
}

// Stores a value into an int output, or MPI_UNDEFINED if it does not fit
// (MPI-4.1 §5.1.11, §3.2.5).
inline int int_or_undefined(long long value)
{
  return value > std::numeric_limits<int>::max() || value < std::numeric_limits<int>::min()
             ? MPI_UNDEFINED
             : static_cast<int>(value);
}

// Attribute caching on datatypes (DatatypeQueries.cpp, MPI-4.1 §7.7.4).
// MPI_Type_dup: runs the copy callback of each attribute of `oldtype` and
// caches the copies the callbacks ask for on `newtype`; returns the error of
// a failing callback (raised).
int copy_type_attributes(const Binding& b, MPI_Datatype oldtype, MPI_Datatype newtype);
// MPI_Type_free: runs the delete callbacks and removes the attributes;
// stops at a failing callback and returns its error (raised).
int delete_type_attributes(const Binding& b, MPI_Datatype datatype);

inline int null_arg(const Binding& b, const char* what, MPI_Comm comm = MPI_COMM_WORLD)
{
  return b.error(comm, MPI_ERR_ARG, std::string(what) + " is NULL");
}

}  // namespace progsim::mpi
