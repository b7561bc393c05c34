#include "coll/ReduceWork.hpp"

#include "MpiModel.hpp"
#include "sim/CallScope.hpp"
#include "sim/Simulation.hpp"

#include "datatype/Pack.hpp"
#include "datatype/PrimitiveType.hpp"

#include <algorithm>
#include <cstring>

namespace progsim::mpi::coll {

int ReduceWork::init(const CallContext& caller, MPI_Datatype datatype, MPI_Op op, std::string& detail)
{
  return init(caller.world(), datatype, op, detail);
}

int ReduceWork::init(int world, MPI_Datatype datatype, MPI_Op op, std::string& detail)
{
  MpiModel& model = MpiModel::instance();
  rank_ = &model.simulation().rank(world);
  handle_ = datatype;
  type_ = model.datatypes().find(datatype);
  if (!type_) {
    detail = "unknown datatype";
    return MPI_ERR_TYPE;
  }
  if (op == MPI_OP_NULL) {
    detail = "MPI_OP_NULL";
    return MPI_ERR_OP;
  }
  int op_index = op - MPI_OP_NULL;
  if (op_index >= 1 && op_index <= ops::kNumPredefinedOps) {
    op_id_ = static_cast<ops::OpId>(op_index);
    if (op_id_ == ops::OpId::Replace || op_id_ == ops::OpId::NoOp) {
      detail = std::string(ops::op_name(op_id_)) + " is only for one-sided accumulate operations";
      return MPI_ERR_OP;
    }
    std::optional<dt::PrimitiveId> p = type_->single_primitive();
    if (!p && type_->size() > 0) {
      detail = std::string(ops::op_name(op_id_)) +
               " needs a datatype whose elements are all of one predefined type";
      return MPI_ERR_OP;
    }
    if (p) {
      element_index_ = dt::primitive_index(*p);
      if (!ops::op_applies(op_id_, element_index_)) {
        detail = std::string(ops::op_name(op_id_)) + " is not defined for " + dt::primitive_info(*p).name;
        return MPI_ERR_OP;
      }
      const dt::PrimitiveInfo& info = dt::primitive_info(*p);
      elements_ = info.size > 0 ? type_->size() / info.size : 0;
      item_stride_ = elements_ * info.extent;
      message_type_ = MPI_DATATYPE_NULL + element_index_;
      element_type_ = model.datatypes().find(message_type_);
    } else {
      // No data at all: nothing to combine.
      elements_ = 0;
      item_stride_ = 0;
      message_type_ = MPI_BYTE;
      element_type_ = model.datatypes().find(MPI_BYTE);
    }
    user_ = false;
    commutative_ = true;
    return MPI_SUCCESS;
  }
  const UserOpEntry* entry = model.process(world).user_op(op);
  if (!entry || entry->freed) {
    detail = "unknown operation handle";
    return MPI_ERR_OP;
  }
  user_ = true;
  user_op_ = entry->op;
  commutative_ = entry->op.commutative;
  item_stride_ = type_->extent();
  message_type_ = datatype;
  return MPI_SUCCESS;
}

WorkBuffer ReduceWork::allocate(std::int64_t items) const
{
  WorkBuffer w;
  if (items <= 0)
    return w;
  if (!user_) {
    w.memory.resize(static_cast<size_t>(items * item_stride_));
    w.base = w.memory.data();
    return w;
  }
  std::int64_t span = (items - 1) * type_->extent();
  std::int64_t lo = type_->true_lb() + std::min<std::int64_t>(0, span);
  std::int64_t hi = type_->true_ub() + std::max<std::int64_t>(0, span);
  w.memory.resize(static_cast<size_t>(std::max<std::int64_t>(hi - lo, 1)));
  w.base = reinterpret_cast<std::byte*>(reinterpret_cast<std::intptr_t>(w.memory.data()) - lo);
  return w;
}

void ReduceWork::load(const void* user, std::int64_t items, void* work) const
{
  if (items <= 0)
    return;
  if (user_)
    dt::copy_typed(user, items, *type_, work, items, *type_);
  else if (elements_ > 0)
    dt::copy_typed(user, items, *type_, work, items * elements_, *element_type_);
}

void ReduceWork::store(const void* work, std::int64_t items, void* user) const
{
  if (items <= 0)
    return;
  if (user_)
    dt::copy_typed(work, items, *type_, user, items, *type_);
  else if (elements_ > 0)
    dt::copy_typed(work, items * elements_, *element_type_, user, items, *type_);
}

void ReduceWork::combine(const void* in, void* inout, std::int64_t items) const
{
  if (items <= 0)
    return;
  if (user_) {
    call_user_code(sim::calling_rank() == rank_ ? rank_ : nullptr,
                   [&] { ops::apply_user(user_op_, in, inout, static_cast<int>(items), handle_); });
    return;
  }
  if (elements_ > 0)
    ops::apply(op_id_, element_index_, in, inout, items * elements_);
}

}  // namespace progsim::mpi::coll

namespace progsim::mpi::coll {

void ReduceWork::combine_after(void* acc, void* higher, std::int64_t items) const
{
  if (commutative_) {
    combine(higher, acc, items);
    return;
  }
  combine(acc, higher, items);  // higher = acc op higher
  copy(higher, acc, items);
}

void ReduceWork::copy(const void* from, void* to, std::int64_t items) const
{
  if (items <= 0)
    return;
  if (user_)
    dt::copy_typed(from, items, *type_, to, items, *type_);
  else
    std::memcpy(to, from, static_cast<size_t>(items * item_stride_));
}

}  // namespace progsim::mpi::coll
