// MPI-4.1 §6.9.5-6.9.7: user-defined reduction operations and
// MPI_Reduce_local. User operations are per process (Process::ops); the
// reduction engine (ops/ReductionOp.hpp) calls them.

#include "bindings/Binding.hpp"
#include "core/CreationSites.hpp"
#include "coll/ReduceWork.hpp"

using namespace progsim;
using namespace progsim::mpi;

extern "C" {

int PMPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op)
{
  Binding b("MPI_Op_create");
  if (int err = b.check_initialized())
    return err;
  if (!user_fn || !op)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null function or result pointer");
  Process& p = b.model().process(b.world());
  UserOpEntry entry;
  entry.op.c_fn = user_fn;
  entry.op.commutative = commute != 0;
  *op = MPI_OP_NULL + Process::kFirstUserOp + static_cast<int>(p.ops.insert(entry));
  note_created(static_cast<std::uint32_t>(*op));
  return MPI_SUCCESS;
}

int PMPI_Op_free(MPI_Op* op)
{
  Binding b("MPI_Op_free");
  if (int err = b.check_initialized())
    return err;
  if (!op)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null op pointer");
  Process& p = b.model().process(b.world());
  if (!p.user_op(*op))
    return b.error(MPI_COMM_WORLD, MPI_ERR_OP,
                   *op == MPI_OP_NULL                                          ? "MPI_OP_NULL"
                   : *op > MPI_OP_NULL && *op <= MPI_OP_NULL + ops::kNumPredefinedOps ? "a predefined operation cannot be freed"
                                                                               : "unknown operation handle");
  // Operations in progress hold a copy of the entry, so the slot can go now.
  p.ops.take(static_cast<std::uint32_t>(*op - MPI_OP_NULL - Process::kFirstUserOp));
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

int PMPI_Op_commutative(MPI_Op op, int* commute)
{
  Binding b("MPI_Op_commutative");
  if (int err = b.check_initialized())
    return err;
  if (op > MPI_OP_NULL && op <= MPI_OP_NULL + ops::kNumPredefinedOps) {
    *commute = 1;
    return MPI_SUCCESS;
  }
  const UserOpEntry* entry = b.model().process(b.world()).user_op(op);
  if (!entry)
    return b.error(MPI_COMM_WORLD, MPI_ERR_OP, op == MPI_OP_NULL ? "MPI_OP_NULL" : "unknown operation handle");
  *commute = entry->op.commutative ? 1 : 0;
  return MPI_SUCCESS;
}

}  // extern "C"

namespace {

// MPI_Reduce_local and its large-count form MPI_Reduce_local_c (§19.2).
int reduce_local(const char* name, const void* inbuf, void* inoutbuf, std::int64_t count, MPI_Datatype datatype,
                 MPI_Op op)
{
  Binding b(name);
  if (int err = b.check_initialized())
    return err;
  if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
    return b.error(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed");
  if (int err = b.check_buffer(inbuf, count, datatype, MPI_COMM_WORLD))
    return err;
  if (int err = b.check_buffer(inoutbuf, count, datatype, MPI_COMM_WORLD))
    return err;
  coll::ReduceWork w;
  std::string detail;
  if (int err = w.init(b, datatype, op, detail))
    return b.error(MPI_COMM_WORLD, err, detail);
  coll::WorkBuffer in = w.allocate(count);
  coll::WorkBuffer inout = w.allocate(count);
  w.load(inbuf, count, in.base);
  w.load(inoutbuf, count, inout.base);
  w.combine(in.base, inout.base, count);
  w.store(inout.base, count, inoutbuf);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
  return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}

int PMPI_Reduce_local_c(const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
  return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Op_create)
PROGSIM_MPI_ALIAS(MPI_Op_free)
PROGSIM_MPI_ALIAS(MPI_Op_commutative)
PROGSIM_MPI_ALIAS(MPI_Reduce_local)
PROGSIM_MPI_ALIAS(MPI_Reduce_local_c)
