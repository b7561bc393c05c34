// Attribute caching (MPI-4.1 §7.7): keyvals with their copy and delete
// callbacks, and the attributes cached on one object.
//
// Keyvals are per process, one table for communicator, window and datatype
// keyvals (each keyval has its kind: one of another kind is rejected).
// Values 0..63 are reserved (the predefined keyvals of mpi.h); keyvals
// created at run time get the lowest free value from 64.
//
// A freed keyval (MPI_Comm_free_keyval) cannot be used by the program to
// set or get attributes any more, but stays until the last attribute using
// it is deleted, so that its delete callback still runs, and the program
// may still delete those attributes with it (MPI-4.1 §7.7.2: "the actual
// free does not transpire until after all references ... have been freed.
// These references need to be explicitly freed by the program, either via
// calls to MPI_COMM_DELETE_ATTR ... or by calls to MPI_COMM_FREE").
#pragma once

#include "core/HandleTable.hpp"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace progsim::mpi {

enum class KeyvalKind { Comm, Win, Type };

struct Keyval {
  KeyvalKind kind = KeyvalKind::Comm;
  // MPI_Comm_copy_attr_function and MPI_Copy_function have the same C type
  // (handles are ints); window and datatype callbacks are stored cast to it
  // too.
  MPI_Comm_copy_attr_function* copy = nullptr;
  MPI_Comm_delete_attr_function* del = nullptr;
  void* extra_state = nullptr;
  bool freed = false;
  int uses = 0;  // attributes currently set with this keyval
};

class KeyvalTable {
public:
  static constexpr int kFirstKeyval = 64;

  int create(const Keyval& keyval);
  // A keyval the program may use (created, not freed), of that kind.
  Keyval* find_usable(int keyval, KeyvalKind kind);
  // A keyval of that kind that attributes may still name: usable, or freed
  // with attributes left (the program may delete them with it).
  Keyval* find_referenced(int keyval, KeyvalKind kind);
  // Any keyval still present (freed ones with attributes left included).
  Keyval* find(int keyval);
  // MPI_Comm_free_keyval: false if `keyval` is no keyval of that kind still
  // present. Freeing a freed keyval that attributes still use changes
  // nothing, as in MPICH (its test attr/keyval_double_free frees the keyval
  // in the delete callback of every attribute); the standard does not say.
  bool free_keyval(int keyval, KeyvalKind kind);
  // Why `keyval` is not usable as a keyval of that kind: "keyval 70 was
  // freed", "keyval 70 is not a window keyval", "unknown keyval 70".
  std::string why_unusable(int keyval, KeyvalKind kind);
  void add_use(int keyval);
  void drop_use(int keyval);  // releases a freed keyval at its last use
  // The keyvals created and not freed, ascending.
  std::vector<int> live_keyvals() const;

private:
  void release_if_done(int keyval);
  HandleTable<std::optional<Keyval>> table_{0};  // index = keyval - kFirstKeyval
};

// Attributes cached on one object. Entries remember the order in which they
// were set: copies run in that order, deletions in the reverse order (as
// MPI-4.1 §11.2.2 requires for MPI_COMM_SELF at finalization).
class AttributeSet {
public:
  std::optional<void*> get(int keyval) const;
  // Sets or replaces (the caller runs the old value's delete callback first).
  void set(int keyval, void* value);
  bool erase(int keyval);
  bool empty() const { return values_.empty(); }
  // (keyval, value) in set order.
  std::vector<std::pair<int, void*>> in_set_order() const;

private:
  std::map<int, std::pair<std::uint64_t, void*>> values_;  // keyval -> (order, value)
  std::uint64_t next_order_ = 0;
};

}  // namespace progsim::mpi
