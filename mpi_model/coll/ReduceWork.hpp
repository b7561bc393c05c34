// How a reduction holds and combines its data (MPI-4.1 §6.9).
//
// Predefined operations work on a flat array of the datatype's single
// predefined element type P (pair types included): element i at i * extent(P),
// as the reduction engine (ops::apply) expects. Derived datatypes are
// converted on the way in and out (load/store), and messages carry
// (n, P). User operations work in the user's own layout: the function gets
// the user's datatype handle and a count of its items, as MPI specifies.
#pragma once

#include "core/CallContext.hpp"
#include "datatype/Datatype.hpp"
#include "ops/ReductionOp.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace progsim::mpi::coll {

// A work buffer for some items.
struct WorkBuffer {
  std::vector<std::byte> memory;
  std::byte* base = nullptr;  // where item 0 starts (may lie before memory.data() + 0 for lb < 0)
};

class ReduceWork {
public:
  // Checks op and datatype. MPI_SUCCESS, or MPI_ERR_OP / MPI_ERR_TYPE with
  // `detail` explaining.
  int init(const CallContext& caller, MPI_Datatype datatype, MPI_Op op, std::string& detail);
  // The same for the process of world rank `world` (a schedule built at
  // MPI_Start of a persistent collective).
  int init(int world, MPI_Datatype datatype, MPI_Op op, std::string& detail);

  bool commutative() const { return commutative_; }
  // The messages that carry `items` items in work format.
  MPI_Datatype message_type() const { return message_type_; }
  std::int64_t message_count(std::int64_t items) const { return user_ ? items : items * elements_; }
  // Byte distance from item 0 to item k in a work buffer.
  std::int64_t item_offset(std::int64_t k) const { return k * item_stride_; }

  WorkBuffer allocate(std::int64_t items) const;
  // user layout (items of the datatype) -> work format, and back.
  void load(const void* user, std::int64_t items, void* work) const;
  void store(const void* work, std::int64_t items, void* user) const;
  // inout = in op inout, item by item (in holds the lower ranks' data).
  void combine(const void* in, void* inout, std::int64_t items) const;
  // acc = acc op higher (acc holds the lower ranks' data); `higher` is
  // clobbered.
  void combine_after(void* acc, void* higher, std::int64_t items) const;
  // Copies items in work format.
  void copy(const void* from, void* to, std::int64_t items) const;

private:
  sim::Rank* rank_ = nullptr;  // whose user operation runs (a crash there is in user code)
  dt::DatatypePtr type_;
  MPI_Datatype handle_ = MPI_DATATYPE_NULL;
  bool user_ = false;
  bool commutative_ = true;
  ops::OpId op_id_ = ops::OpId::Sum;
  ops::UserOp user_op_;
  dt::DatatypePtr element_type_;  // P (predefined ops)
  int element_index_ = 0;
  std::int64_t elements_ = 0;     // P elements per item
  std::int64_t item_stride_ = 0;  // bytes per item in work format
  MPI_Datatype message_type_ = MPI_DATATYPE_NULL;
};

}  // namespace progsim::mpi::coll
