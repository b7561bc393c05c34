// MPI_Datatype handles <-> datatype engine objects (datatype/). Predefined
// handles map to the engine's shared predefined types; derived types get
// handles from index 256 up and must be committed before communication.
//
// Besides the type, each handle carries what MPI attaches to a datatype
// object: the commit flag, a name (MPI_Type_set_name) and cached attributes
// (MPI_Type_set_attr). The table is shared by all ranks (handles are unique
// across ranks), but the predefined handles are shared too, so their names
// and attributes are kept per rank: each simulated process sees its own.
//
// MPI_Type_free (erase) invalidates a handle for the program at once; an
// operation started before keeps the type itself (Request::type), so that
// it "will complete normally" (MPI-4.1 §5.1.9). The freed index is reused by
// the next constructor, last freed first, as in MPICH; until then find()
// still returns the type (for internal users) while find_live() does not.
#pragma once

#include "core/HandleTable.hpp"
#include "datatype/Datatype.hpp"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi {

// The attributes cached on one datatype, by keyval (ordered: deterministic
// copy and delete order).
using TypeAttributes = std::map<int, void*>;

class DatatypeTable {
public:

  DatatypeTable();
  // The type of a live or quarantined (freed) handle; nullptr for
  // MPI_DATATYPE_NULL and unknown handles. For the communication engines.
  dt::DatatypePtr find(MPI_Datatype handle) const;
  // The type of a handle the program may use: nullptr if freed as well.
  dt::DatatypePtr find_live(MPI_Datatype handle) const;
  // The same, borrowed: for a query that reads the type and returns (no
  // reference count changed; local queries are millions of calls in some
  // programs).
  const dt::Datatype* find_live_borrowed(MPI_Datatype handle) const;
  // The handle of a predefined type object, or MPI_DATATYPE_NULL.
  static MPI_Datatype predefined_handle(const dt::Datatype& type);
  // A new derived handle; `owner` is the world rank that created it.
  MPI_Datatype insert(dt::DatatypePtr type, int owner = 0, bool committed = false);
  // MPI_Type_free: the handle becomes invalid; its name and attributes go
  // (the caller runs the delete callbacks first).
  void erase(MPI_Datatype handle);
  bool is_predefined(MPI_Datatype handle) const;
  bool is_committed(MPI_Datatype handle) const;
  void commit(MPI_Datatype handle);
  // Whether some handle of this type object was committed (MPI_Type_get_contents
  // returns committed handles for committed constituents).
  bool object_committed(const dt::DatatypePtr& type) const;
  std::size_t live_derived() const { return derived_.live(); }
  // The derived handles `owner` created and did not free, ascending.
  std::vector<MPI_Datatype> live_derived_of(int owner) const;

  // Name (MPI_Type_get_name): the set name, else "MPI_INT"... for
  // predefined types and "" for derived ones.
  std::string name(MPI_Datatype handle, int rank) const;
  void set_name(MPI_Datatype handle, int rank, const std::string& name);

  // The attributes of a live handle as seen by `rank` (created empty).
  TypeAttributes& attributes(MPI_Datatype handle, int rank);


private:
  struct Extras {
    std::string name;
    bool named = false;
    TypeAttributes attributes;
  };
  struct Entry {
    dt::DatatypePtr type;
    bool live = false;
    bool committed = false;
    int owner = 0;
    Extras extras;
  };
  const Entry* derived_entry(MPI_Datatype handle) const;
  Entry* derived_entry(MPI_Datatype handle);
  Extras& extras(MPI_Datatype handle, int rank);

  std::vector<dt::DatatypePtr> predefined_;  // by index
  // Index: handle index - kFirstDerived. A freed entry keeps its type for
  // the operations still using it until the index is reused, the last
  // freed first (as MPICH).
  HandleTable<Entry, HandleReuse::LastFreedFirst> derived_{0};
  std::map<std::pair<int, std::uint32_t>, Extras> predefined_extras_;  // (rank, index)
  std::map<const dt::Datatype*, std::weak_ptr<const dt::Datatype>> committed_objects_;
};

}  // namespace progsim::mpi
