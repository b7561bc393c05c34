// MPI-4.1 §12.3-12.4: the RMA communication calls (put, get, the
// accumulates, fetch-and-op, compare-and-swap) and their request-based
// forms. The binding checks the arguments against the epoch and the target's
// window, builds the operation and hands it to the RMA engine, which sends it
// now or when its epoch allows.

#include "bindings/Rma.hpp"
#include "datatype/Pack.hpp"
#include "datatype/PrimitiveType.hpp"
#include "diagnosis/StandardErrors.hpp"
#include "diagnosis/CallSites.hpp"
#include "sim/memory/MemoryWatch.hpp"

using namespace progsim;
using namespace progsim::mpi;
using rma::OpKind;
using rma::Window;

namespace {

struct Buffer {
  const void* addr = nullptr;
  std::int64_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

struct OpArgs {
  OpKind kind = OpKind::Put;
  Buffer origin;  // put/accumulates: the data; get: where it goes
  Buffer result;  // fetching accumulates
  const void* compare = nullptr;
  int target = 0;
  MPI_Aint disp = 0;
  Buffer target_buffer;  // addr unused
  MPI_Op op = MPI_REPLACE;
  MPI_Request* request = nullptr;  // request-based forms
};

// `local`: the buffer is in this process (origin, result), not described at the target.
int check_type(const Binding& b, const Window& w, const Buffer& buf, const char* what, dt::DatatypePtr& type,
               bool local = true)
{
  if (buf.count < 0)
    return window_error(b, w, MPI_ERR_COUNT, std::string("negative ") + what + " count " + std::to_string(buf.count));
  type = b.model().datatypes().find_live(buf.type);
  if (!type)
    return window_error(b, w, MPI_ERR_TYPE,
                        std::string(what) + " datatype: " +
                            (buf.type == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "unknown datatype"));
  if (!b.model().datatypes().is_committed(buf.type))
    return window_error(b, w, MPI_ERR_TYPE, std::string(what) + " datatype is not committed (MPI_Type_commit)");
  if (local && null_buffer_accessed(buf.addr, buf.count, *type))
    return window_error(b, w, MPI_ERR_BUFFER, std::string(what) + " buffer: " + null_buffer_reason);
  return MPI_SUCCESS;
}

// Where the target data lies, checked against the target's window
// (MPI-4.1 §12.3: MPI_ERR_RMA_RANGE outside it).
int target_address(const Binding& b, const Window& w, const OpArgs& a, const dt::Datatype& type, char*& address)
{
  const rma::WindowPart& part = w.shared->parts[static_cast<size_t>(a.target)];
  auto [lo, hi] = rma::typed_span(a.target_buffer.count, type);
  if (w.shared->flavor == rma::Flavor::Dynamic) {
    address = reinterpret_cast<char*>(a.disp);
    if (hi <= lo)
      return MPI_SUCCESS;
    // The data may span adjacent attached regions (MPICH's
    // win_dynamic_rma_flush_get puts across two): walk from region to region.
    char* covered = address + lo;
    for (bool advanced = true; advanced && covered < address + hi;) {
      advanced = false;
      for (const rma::AttachedRegion& r : part.attached)
        if (covered >= r.base && covered < r.base + r.size) {
          covered = r.base + r.size;
          advanced = true;
        }
    }
    if (covered >= address + hi)
      return MPI_SUCCESS;
    return window_error(b, w, MPI_ERR_RMA_RANGE,
                        "the target data is not inside memory attached by rank " + std::to_string(a.target));
  }
  std::int64_t offset = static_cast<std::int64_t>(a.disp) * part.disp_unit;
  address = part.base + offset;
  if (hi > lo && (offset + lo < 0 || offset + hi > part.size))
    return window_error(b, w, MPI_ERR_RMA_RANGE,
                        "target bytes [" + std::to_string(offset + lo) + ", " + std::to_string(offset + hi) +
                            ") are outside rank " + std::to_string(a.target) + "'s window of " +
                            std::to_string(part.size) + " bytes");
  return MPI_SUCCESS;
}

// Accumulates: the operation applies to the single predefined element type
// of the target datatype, which the origin (and result) datatype must share
// (MPI-4.1 §12.3.4).
int accumulate_types(const Binding& b, const Window& w, const OpArgs& a, rma::Operation& op)
{
  int index = a.op - MPI_OP_NULL;
  if (index < 1 || index > ops::kNumPredefinedOps)
    return window_error(b, w, MPI_ERR_OP,
                        "RMA accumulates take predefined operations only (MPI-4.1 §12.3.4), not a user operation");
  op.op = static_cast<ops::OpId>(index);
  std::optional<dt::PrimitiveId> p = op.target_type->single_primitive();
  if (!p && op.target_type->size() > 0)
    return window_error(b, w, MPI_ERR_TYPE, "the target datatype mixes predefined types");
  if (!p)
    return MPI_SUCCESS;
  op.element_index = dt::primitive_index(*p);
  if (!ops::op_applies(op.op, op.element_index))
    return window_error(b, w, MPI_ERR_OP,
                        std::string(ops::op_name(op.op)) + " is not defined for " + dt::primitive_info(*p).name);
  op.element_type = b.model().datatypes().find(MPI_DATATYPE_NULL + op.element_index);
  std::int64_t element_size = dt::primitive_info(*p).size;
  op.elements = element_size > 0 ? op.target_count * op.target_type->size() / element_size : 0;
  auto same = [&](const dt::DatatypePtr& t, std::int64_t count, const char* what) {
    if (!t || t->size() * count == 0)
      return MPI_SUCCESS;
    if (t->single_primitive() != p)
      return window_error(b, w, MPI_ERR_TYPE,
                          std::string("the ") + what + " datatype's elements are not " + dt::primitive_info(*p).name +
                              " as the target's");
    if (t->size() * count != op.elements * element_size)
      return window_error(b, w, MPI_ERR_TYPE,
                          std::string("the ") + what + " data has " + std::to_string(t->size() * count) +
                              " bytes, the target data " + std::to_string(op.elements * element_size));
    return MPI_SUCCESS;
  };
  if (op.op != ops::OpId::NoOp)
    if (int err = same(op.origin_type, op.origin_count, "origin"))
      return err;
  return same(op.result_type, op.result_count, "result");
}

// --check buffers: an operation's origin buffer (read) and the buffer it
// fetches into (written) are the program's to leave alone until the
// operation completes at the origin (MPI-4.1 §12.3): at the synchronization
// that completes it, or for a request-based one also when its request
// completes (§12.3.5) (diagnosis/PendingBuffers, rma::completed_at_origin).
void guard_buffers(const Binding& b, Window& w, const rma::Operation& op, RequestPtr request)
{
  if (!b.model().pending_buffers().on())
    return;
  if (!request) {  // a guard holder of its own, never seen by the program
    request = std::make_shared<Request>();
    request->kind = RequestKind::Rma;
    request->owner = b.world();
    request->call = b.call();
    request->call_site = op.call_site;
  }
  bool get = op.kind == OpKind::Get;
  if (!get)
    request->writable_rare().program_buffers.push_back({op.origin_addr, true, "origin", {{0, op.origin_count, op.origin_type}}});
  if (op.result_addr)
    request->writable_rare().program_buffers.push_back(
        {op.result_addr, false, get ? "origin" : "result", {{0, op.result_count, op.result_type}}});
  b.model().pending_buffers().arm(*request);
  if (!request->rare().buffer_guards.empty())
    w.guarded_operations.emplace_back(op.target, std::move(request));
}

int start_operation(const Binding& b, MPI_Win win, OpArgs a)
{
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (int err = check_target(b, *w, a.target))
    return err;
  auto op = std::make_shared<rma::Operation>();
  op->kind = a.kind;
  op->call = b.call();
  op->call_site = call_site_mark(b.rank());
  if (a.kind != OpKind::Get)
    if (int err = check_type(b, *w, a.origin, "origin", op->origin_type))
      return err;
  if (a.kind == OpKind::Get || a.kind == OpKind::GetAccumulate || a.kind == OpKind::CompareAndSwap) {
    Buffer result = a.kind == OpKind::Get ? a.origin : a.result;
    if (int err = check_type(b, *w, result, a.kind == OpKind::Get ? "origin" : "result", op->result_type))
      return err;
    op->result_addr = const_cast<void*>(result.addr);
    op->result_count = result.count;
  }
  if (int err = check_type(b, *w, a.target_buffer, "target", op->target_type, false))
    return err;
  if (a.kind == OpKind::CompareAndSwap && !a.compare)
    return window_error(b, *w, MPI_ERR_BUFFER, "compare buffer: null");
  if (a.request)
    *a.request = MPI_REQUEST_NULL;
  // Before a request exists: a failed call leaves none behind.
  if (a.target != MPI_PROC_NULL && !w->in_epoch(a.target))
    return sync_error(b, *w,
                      "no access epoch to rank " + std::to_string(a.target) +
                          " is open (MPI-4.1 §12.5: MPI_Win_fence, MPI_Win_start or MPI_Win_lock first)");
  RequestPtr request;
  if (a.request) {
    request = std::make_shared<Request>();
    request->kind = RequestKind::Rma;
    request->owner = b.world();
    request->call = b.call();
    request->peer = a.target;
    request->peer_world = a.target == MPI_PROC_NULL ? -1 : w->shared->world_rank(a.target);
    request->post_time = b.rank()->clock().now();
    *a.request = hand_out(b, request);
  }
  if (a.target == MPI_PROC_NULL) {
    if (request)
      request->state = RequestState::Complete;
    return MPI_SUCCESS;
  }
  op->window = w->shared;
  op->origin = w->me;
  op->target = a.target;
  op->origin_addr = a.origin.addr;
  op->origin_count = a.origin.count;
  op->target_count = a.target_buffer.count;
  if (int err = target_address(b, *w, a, *op->target_type, op->target_addr))
    return err;
  switch (a.kind) {
    case OpKind::Put:
    case OpKind::Get: {
      const dt::DatatypePtr& local = a.kind == OpKind::Put ? op->origin_type : op->result_type;
      std::int64_t local_count = a.kind == OpKind::Put ? op->origin_count : op->result_count;
      std::int64_t local_bytes = dt::packed_size(*local, local_count);
      std::int64_t target_bytes = dt::packed_size(*op->target_type, op->target_count);
      if (local_bytes != target_bytes)
        return window_error(b, *w, MPI_ERR_TYPE,
                            "the origin data has " + std::to_string(local_bytes) + " bytes, the target data " +
                                std::to_string(target_bytes) + " (the type signatures must match)");
      break;
    }
    case OpKind::Accumulate:
    case OpKind::GetAccumulate:
      if (int err = accumulate_types(b, *w, a, *op))
        return err;
      break;
    case OpKind::CompareAndSwap: {
      op->op = ops::OpId::Replace;
      if (!op->target_type->single_primitive() || op->target_type->size() == 0)
        return window_error(b, *w, MPI_ERR_TYPE, "MPI_Compare_and_swap needs a predefined datatype");
      op->element_index = dt::primitive_index(*op->target_type->single_primitive());
      op->element_type = op->target_type;
      op->elements = 1;
      auto n = static_cast<std::size_t>(op->target_type->size());
      op->compare.assign(static_cast<const std::byte*>(a.compare), static_cast<const std::byte*>(a.compare) + n);
      break;
    }
  }
  if (request)
    request->bytes = static_cast<std::size_t>(dt::packed_size(*op->target_type, op->target_count));
  op->id = rma_engine(b).next_operation_id();
  op->request = request;
  op->cause = sim::memory::MemoryWatch::instance().issue_write(b.world());
  rma::LocalAccessConflicts& local = rma_engine(b).local_accesses();
  if (w->in_fence_epoch(a.target)) {
    w->fence_operations = true;
    rma::check_fence_conflicts(b, *w, *op);
    local.note_operation(b, *w, *op, rma::EpochKind::Fence, w->fences);
  } else if (w->lock_all || w->locks[static_cast<size_t>(a.target)] != 0) {
    rma::check_lock_conflicts(b, *w, *op);
    local.note_operation(b, *w, *op, rma::EpochKind::Lock, 0);
  } else if (w->access_group && w->access_group->local_rank(w->shared->world_rank(a.target)) >= 0) {
    rma::check_pscw_conflicts(b, *w, *op);
    if (std::uint64_t post = rma::matching_post(*w, a.target))
      local.note_operation(b, *w, *op, rma::EpochKind::Pscw, post);
  }
  if (w->access_group && !w->access_nocheck && w->access_group->local_rank(w->shared->world_rank(a.target)) >= 0)
    op->needs_posts = w->state().access_epochs[static_cast<size_t>(a.target)];
  rma_engine(b).submit(*w, op);
  guard_buffers(b, *w, *op, request);
  return MPI_SUCCESS;
}

OpArgs put_get(OpKind kind, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype)
{
  OpArgs a;
  a.kind = kind;
  a.origin = {origin_addr, origin_count, origin_datatype};
  a.target = target_rank;
  a.disp = target_disp;
  a.target_buffer = {nullptr, target_count, target_datatype};
  return a;
}

}  // namespace

extern "C" {

int PMPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  Binding b("MPI_Put");
  return start_operation(b, win, put_get(OpKind::Put, origin_addr, origin_count, origin_datatype, target_rank,
                                         target_disp, target_count, target_datatype));
}

int PMPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  Binding b("MPI_Get");
  return start_operation(b, win, put_get(OpKind::Get, origin_addr, origin_count, origin_datatype, target_rank,
                                         target_disp, target_count, target_datatype));
}

int PMPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
  Binding b("MPI_Accumulate");
  OpArgs a = put_get(OpKind::Accumulate, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype);
  a.op = op;
  return start_operation(b, win, a);
}

int PMPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
  Binding b("MPI_Get_accumulate");
  OpArgs a = put_get(OpKind::GetAccumulate, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype);
  a.result = {result_addr, result_count, result_datatype};
  a.op = op;
  if (op == MPI_NO_OP)
    a.origin = {nullptr, 0, result_datatype};  // the origin buffer is ignored (MPI-4.1 §12.3.4)
  return start_operation(b, win, a);
}

int PMPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
  Binding b("MPI_Fetch_and_op");
  OpArgs a = put_get(OpKind::GetAccumulate, origin_addr, 1, datatype, target_rank, target_disp, 1, datatype);
  a.result = {result_addr, 1, datatype};
  a.op = op;
  if (op == MPI_NO_OP)
    a.origin = {nullptr, 0, datatype};
  return start_operation(b, win, a);
}

int PMPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
  Binding b("MPI_Compare_and_swap");
  OpArgs a = put_get(OpKind::CompareAndSwap, origin_addr, 1, datatype, target_rank, target_disp, 1, datatype);
  a.result = {result_addr, 1, datatype};
  a.compare = compare_addr;
  return start_operation(b, win, a);
}

int PMPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request* request)
{
  Binding b("MPI_Rput");
  OpArgs a = put_get(OpKind::Put, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype);
  a.request = request;
  return start_operation(b, win, a);
}

int PMPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request* request)
{
  Binding b("MPI_Rget");
  OpArgs a = put_get(OpKind::Get, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype);
  a.request = request;
  return start_operation(b, win, a);
}

int PMPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request* request)
{
  Binding b("MPI_Raccumulate");
  OpArgs a = put_get(OpKind::Accumulate, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype);
  a.op = op;
  a.request = request;
  return start_operation(b, win, a);
}

int PMPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void* result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                         MPI_Win win, MPI_Request* request)
{
  Binding b("MPI_Rget_accumulate");
  OpArgs a = put_get(OpKind::GetAccumulate, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype);
  a.result = {result_addr, result_count, result_datatype};
  a.op = op;
  a.request = request;
  if (op == MPI_NO_OP)
    a.origin = {nullptr, 0, result_datatype};
  return start_operation(b, win, a);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Put)
PROGSIM_MPI_ALIAS(MPI_Get)
PROGSIM_MPI_ALIAS(MPI_Accumulate)
PROGSIM_MPI_ALIAS(MPI_Get_accumulate)
PROGSIM_MPI_ALIAS(MPI_Fetch_and_op)
PROGSIM_MPI_ALIAS(MPI_Compare_and_swap)
PROGSIM_MPI_ALIAS(MPI_Rput)
PROGSIM_MPI_ALIAS(MPI_Rget)
PROGSIM_MPI_ALIAS(MPI_Raccumulate)
PROGSIM_MPI_ALIAS(MPI_Rget_accumulate)
