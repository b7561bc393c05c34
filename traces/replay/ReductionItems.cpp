#include "traces/replay/ReductionItems.hpp"

#include "MpiModel.hpp"
#include "datatype/TypeConstructors.hpp"

namespace progsim::traces {

namespace {

// The replay's data are scratch: its user operation combines nothing.
void combine_nothing(void*, void*, int*, MPI_Datatype*) {}

}  // namespace

MPI_Datatype ReductionItems::item_type(MPI_Datatype element, long long elements)
{
  auto found = types_.find({element, elements});
  if (found != types_.end())
    return found->second;
  mpi::DatatypeTable& table = mpi::MpiModel::instance().datatypes();
  MPI_Datatype handle = table.insert(dt::make_contiguous(elements, table.find(element)), rank_);
  table.commit(handle);
  types_[{element, elements}] = handle;
  return handle;
}

MPI_Op ReductionItems::user_op(bool commutative)
{
  auto found = ops_.find(commutative);
  if (found != ops_.end())
    return found->second;
  mpi::UserOpEntry entry;
  entry.op.c_fn = combine_nothing;
  entry.op.commutative = commutative;
  MPI_Op handle = MPI_OP_NULL + mpi::Process::kFirstUserOp +
                  static_cast<int>(mpi::MpiModel::instance().process(rank_).ops.insert(entry));
  ops_[commutative] = handle;
  return handle;
}

void ReductionItems::release()
{
  mpi::MpiModel& model = mpi::MpiModel::instance();
  for (auto& [key, handle] : types_)
    model.datatypes().erase(handle);
  for (auto& [commutative, handle] : ops_)
    model.process(rank_).ops.take(static_cast<std::uint32_t>(handle - MPI_OP_NULL - mpi::Process::kFirstUserOp));
  types_.clear();
  ops_.clear();
}

}  // namespace progsim::traces
