// MPI_Datatype handles <-> datatype engine objects (datatype/). Predefined
// handles map to the engine's shared predefined types; derived types get
// handles from index 256 up and must be committed before communication.
#pragma once

#include "datatype/Datatype.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace progsim::mpi {

class DatatypeTable {
public:
  DatatypeTable();
  // nullptr for MPI_DATATYPE_NULL, freed or unknown handles.
  dt::DatatypePtr find(MPI_Datatype handle) const;
  MPI_Datatype insert(dt::DatatypePtr type);
  void erase(MPI_Datatype handle);
  bool is_predefined(MPI_Datatype handle) const;
  bool is_committed(MPI_Datatype handle) const;
  void commit(MPI_Datatype handle);

private:
  struct Entry {
    dt::DatatypePtr type;
    bool committed = false;
  };
  std::vector<dt::DatatypePtr> predefined_;  // by index
  std::vector<Entry> derived_;               // index - kFirstDerived
  std::vector<std::uint32_t> free_;
};

}  // namespace progsim::mpi
