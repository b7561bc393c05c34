// MPI-4.1 chapter 6 (collective communication): every collective as a
// blocking (§6.4-6.11), nonblocking (§6.12) and persistent (§6.13)
// procedure. A procedure checks its arguments and prepares how to build its
// schedule (coll/Algorithms.hpp, coll/Intercomm.hpp); the three forms then
// differ only in when the schedule runs and who waits for it:
//   blocking    started and waited for inside the call;
//   nonblocking started, returned as a request (MPI_Wait & co.);
//   persistent  an inactive request; each MPI_Start builds a new schedule.
// MPI_Reduce_local and the user operations are in Ops.cpp.

#include "bindings/Binding.hpp"
#include "coll/Collectives.hpp"
#include "coll/Intercomm.hpp"
#include "coll/ReduceWork.hpp"
#include "coll/ScheduleRunner.hpp"
#include "ops/ReductionOp.hpp"

#include <algorithm>
#include <functional>
#include <vector>

using namespace progsim;
using namespace progsim::mpi;

namespace {

using coll::Channel;
using coll::Counts;
using coll::Schedule;

// A checked collective call: how to build the calling process's schedule
// on a channel (the tag depends on the form of the call).
struct Prepared {
  const Communicator* comm = nullptr;
  int kind_tag = 0;
  std::function<int(Schedule&, const Channel&)> build;
  // --check buffers: the program's buffers, guarded while a nonblocking or
  // persistent form is pending (diagnosis/PendingBuffers).
  std::vector<ProgramBuffer> buffers;
};

// --check buffers: `buf` is a send buffer (`send`) or a receive buffer of the
// call, blocks of counts[i] items of types[i] (one type for all when there
// is one) at byte offsets displs[i]. Nothing is recorded when the check is off.
void guard(const Binding& b, Prepared& p, const void* buf, bool send, const std::vector<MPI_Datatype>& types,
           const Counts& counts, const Counts& displs)
{
  if (!b.model().pending_buffers().on() || types.empty())
    return;
  ProgramBuffer buffer{buf, send, send ? "send" : "receive", {}};
  for (std::size_t i = 0; i < counts.size() && i < displs.size(); ++i)
    buffer.blocks.push_back(
        {displs[i], counts[i], b.model().datatypes().find(types.size() == 1 ? types[0] : types[i])});
  p.buffers.push_back(std::move(buffer));
}

void guard(const Binding& b, Prepared& p, const void* buf, bool send, MPI_Datatype type, std::int64_t count)
{
  guard(b, p, buf, send, std::vector<MPI_Datatype>{type}, Counts{count}, Counts{0});
}

int begin(const Binding& b, MPI_Comm comm, Prepared& p, int kind_tag)
{
  if (int err = b.check_initialized())
    return err;
  if (int err = b.resolve_comm(comm, p.comm))
    return err;
  coll::note_collective(b, *p.comm, b.call());
  p.kind_tag = kind_tag;
  return MPI_SUCCESS;
}

// Intercommunicators: MPI_ROOT, MPI_PROC_NULL or a rank of the remote group.
int check_root(const Binding& b, MPI_Comm comm, const Communicator* c, int root)
{
  if (c->is_inter() && (root == MPI_ROOT || root == MPI_PROC_NULL))
    return MPI_SUCCESS;
  if (root < 0 || root >= c->size())
    return b.error(comm, MPI_ERR_ROOT,
                   "invalid root " + std::to_string(root) + " (communicator size " + std::to_string(c->size()) + ")");
  return MPI_SUCCESS;
}

// Count: int or MPI_Count (the large-count "_c" procedures, MPI-4.1 §19.2);
// Displ below: int or MPI_Aint.
template <class Count>
int check_counts(const Binding& b, MPI_Comm comm, const Count* counts, int n, const char* what)
{
  if (!counts && n > 0)
    return b.error(comm, MPI_ERR_ARG, std::string("null ") + what + " array");
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0)
      return b.error(comm, MPI_ERR_COUNT, std::string("negative ") + what + "[" + std::to_string(i) +
                                              "] = " + std::to_string(counts[i]));
  return MPI_SUCCESS;
}

// The buffer of a vector collective (counts per member, validated by
// check_counts) and its datatype: a null buffer is an error when any member's
// data would lie at it (see null_buffer_accessed).
template <class Count>
int check_vector_buffer(const Binding& b, MPI_Comm comm, const void* buf, const Count* counts, int n,
                        MPI_Datatype type)
{
  std::int64_t largest = 0;
  for (int i = 0; i < n; ++i)
    largest = std::max<std::int64_t>(largest, counts[i]);
  return b.check_buffer(buf, largest, type, comm);
}

int check_op(const Binding& b, MPI_Comm comm, MPI_Datatype type, MPI_Op op)
{
  coll::ReduceWork w;
  std::string detail;
  if (int err = w.init(b, type, op, detail))
    return b.error(comm, err, detail);
  return MPI_SUCCESS;
}

int no_intercomm(const Binding& b, MPI_Comm comm, const Communicator* c)
{
  if (c->is_inter())
    return b.error(comm, MPI_ERR_COMM, std::string(b.call()) + " is not defined on intercommunicators");
  return MPI_SUCCESS;
}

int check_in_place_recv(const Binding& b, MPI_Comm comm, const void* recvbuf)
{
  if (recvbuf == MPI_IN_PLACE)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as the receive buffer");
  return MPI_SUCCESS;
}

std::int64_t extent_of(const Binding& b, MPI_Datatype type)
{
  dt::DatatypePtr t = b.model().datatypes().find(type);
  return t ? t->extent() : 0;
}

template <class Count>
std::vector<std::int64_t> counts_of(const Count* counts, int n)
{
  std::vector<std::int64_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = counts[i];
  return v;
}

std::vector<std::int64_t> uniform(std::int64_t value, int n)
{
  return std::vector<std::int64_t>(static_cast<size_t>(n), value);
}

// Block displacements in bytes: displs[i] * extent (or i * count * extent).
template <class Displ>
std::vector<std::int64_t> byte_displs(const Displ* displs, int n, std::int64_t extent)
{
  std::vector<std::int64_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = static_cast<std::int64_t>(displs[i]) * extent;
  return v;
}

std::vector<std::int64_t> block_displs(std::int64_t count, int n, std::int64_t extent)
{
  std::vector<std::int64_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = i * count * extent;
  return v;
}


// --- what the members' calls must agree on (coll/CollectiveArguments.cpp) ---

using Args = CollectiveArguments;
using Shape = CollectiveArguments::Shape;

Args arguments(Shape shape, const char* section)
{
  Args a;
  a.shape = shape;
  a.section = section;
  return a;
}

Args::Side side_of(const Binding& b, MPI_Datatype type, std::int64_t count)
{
  Args::Side s;
  s.present = true;
  s.type = b.model().datatypes().find(type);
  s.count = count;
  return s;
}

// Per peer: counts[peer] items of types[peer] (one type when all are the same).
Args::Side side_of(const Binding& b, const std::vector<MPI_Datatype>& types, const Counts& counts)
{
  Args::Side s;
  s.present = !types.empty();
  auto per_peer = std::make_shared<Args::PerPeer>();
  per_peer->counts = counts;
  if (types.empty() || std::all_of(types.begin(), types.end(), [&](MPI_Datatype t) { return t == types[0]; })) {
    s.type = types.empty() ? nullptr : b.model().datatypes().find(types[0]);
  } else {
    for (MPI_Datatype t : types)
      per_peer->types.push_back(b.model().datatypes().find(t));
  }
  s.per_peer = std::move(per_peer);
  return s;
}

Args::Side side_of(const Binding& b, MPI_Datatype type, const Counts& counts)
{
  return side_of(b, std::vector<MPI_Datatype>{type}, counts);
}

Args reduction(const char* section, MPI_Op op, const void* sendbuf, MPI_Datatype type, std::int64_t count,
               const Binding& b)
{
  Args a = arguments(Shape::Reduction, section);
  a.op = op;
  int index = static_cast<int>(op) & 0xffffff;
  a.predefined_op = (static_cast<unsigned>(op) & 0xff000000u) == (static_cast<unsigned>(MPI_OP_NULL) & 0xff000000u) &&
                    index >= 1 && index <= ops::kNumPredefinedOps;
  a.in_place = sendbuf == MPI_IN_PLACE;
  a.send = side_of(b, type, count);
  return a;
}

// Raises an error of the schedule (the same on every kind of collective).
int finish(const Binding& b, MPI_Comm comm, int err)
{
  if (err == MPI_SUCCESS)
    return MPI_SUCCESS;
  std::string detail;
  if (err == MPI_ERR_TRUNCATE)
    detail = "data of the collective does not fit the receive buffer (the processes passed different counts or "
             "datatypes)";
  return b.error(comm, err, detail);
}

int run_now(const Binding& b, MPI_Comm comm, Prepared& p)
{
  Channel channel{p.comm, p.kind_tag};
  return finish(b, comm, coll::run_blocking(b, *p.comm, [&](Schedule& s) { return p.build(s, channel); }));
}

int make_request(const Binding& b, MPI_Comm comm, Prepared& p, MPI_Request* request, bool persistent)
{
  if (!request)
    return b.error(comm, MPI_ERR_ARG, "null request pointer");
  Channel channel{p.comm, coll::schedule_tag(*p.comm)};
  RequestPtr r = coll::make_collective_request(
      b, *p.comm, [build = std::move(p.build), channel](Schedule& s) { return build(s, channel); }, persistent);
  if (!p.buffers.empty())
    r->writable_rare().program_buffers = std::move(p.buffers);
  if (!persistent)
    r->collective->start();
  *request = hand_out(b, r);  // marks the call site
  if (!persistent)
    b.model().pending_buffers().arm(*r);  // a persistent one's buffers from each MPI_Start
  return MPI_SUCCESS;
}

}  // namespace

// The three forms of a collective Name (nonblocking IName); `params` are its
// parameters before the communicator, `args` their names. `suffix` is empty
// or _c: the large-count procedures (MPI-4.1 §19.2) share the preparation,
// whose count and displacement parameters are wide enough for both.
#define PROGSIM_UNPACK(...) __VA_ARGS__
#define PROGSIM_COLLECTIVE_FORMS(Name, IName, suffix, params, args)                                            \
  extern "C" int PMPI_##Name##suffix(PROGSIM_UNPACK params, MPI_Comm comm)                                     \
  {                                                                                                            \
    Binding b("MPI_" #Name #suffix, sim::CallKind::Stamped);                                                   \
    Prepared p;                                                                                                \
    if (int err = prepare_##Name(b, comm, PROGSIM_UNPACK args, p))                                             \
      return err;                                                                                              \
    return run_now(b, comm, p);                                                                                \
  }                                                                                                            \
  extern "C" int PMPI_##IName##suffix(PROGSIM_UNPACK params, MPI_Comm comm, MPI_Request* request)              \
  {                                                                                                            \
    Binding b("MPI_" #IName #suffix, sim::CallKind::Stamped);                                                  \
    Prepared p;                                                                                                \
    if (int err = prepare_##Name(b, comm, PROGSIM_UNPACK args, p))                                             \
      return err;                                                                                              \
    return make_request(b, comm, p, request, false);                                                           \
  }                                                                                                            \
  extern "C" int PMPI_##Name##_init##suffix(PROGSIM_UNPACK params, MPI_Comm comm, MPI_Info,                    \
                                            MPI_Request* request)                                              \
  {                                                                                                            \
    Binding b("MPI_" #Name "_init" #suffix, sim::CallKind::Stamped);                                           \
    Prepared p;                                                                                                \
    if (int err = prepare_##Name(b, comm, PROGSIM_UNPACK args, p))                                             \
      return err;                                                                                              \
    return make_request(b, comm, p, request, true);                                                            \
  }                                                                                                            \
  PROGSIM_MPI_ALIAS(MPI_##Name##suffix)                                                                        \
  PROGSIM_MPI_ALIAS(MPI_##IName##suffix)                                                                       \
  PROGSIM_MPI_ALIAS(MPI_##Name##_init##suffix)
#define PROGSIM_COLLECTIVE(Name, IName, params, args) PROGSIM_COLLECTIVE_FORMS(Name, IName, , params, args)
#define PROGSIM_COLLECTIVE_C(Name, IName, params, args) PROGSIM_COLLECTIVE_FORMS(Name, IName, _c, params, args)

namespace {

// --- the prepared collectives ------------------------------------------------

int prepare_Barrier(const Binding& b, MPI_Comm comm, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kBarrierTag))
    return err;
  bool inter = p.comm->is_inter();
  p.build = [inter](Schedule& s, const Channel& ch) {
    return inter ? coll::build_inter_barrier(s, ch) : coll::build_barrier(s, ch);
  };
  return MPI_SUCCESS;
}

int prepare_Bcast(const Binding& b, MPI_Comm comm, void* buffer, MPI_Count count, MPI_Datatype datatype, int root,
                  Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kBcastTag))
    return err;
  if (int err = check_root(b, comm, p.comm, root))
    return err;
  if (root != MPI_PROC_NULL)
    if (int err = b.check_buffer(buffer, count, datatype, comm))
      return err;
  bool inter = p.comm->is_inter();
  Args a = arguments(Shape::Bcast, "MPI-4.1 §6.4");
  a.rooted = true;
  a.root = root;
  if (!inter || root != MPI_PROC_NULL)
    a.send = side_of(b, datatype, count);
  coll::note_arguments(b, *p.comm, std::move(a));
  // The root's buffer is sent, the others' received into (MPI_PROC_NULL: none).
  if (!inter || root != MPI_PROC_NULL)
    guard(b, p, buffer, inter ? root == MPI_ROOT : p.comm->my_rank == root, datatype, count);
  p.build = [=](Schedule& s, const Channel& ch) {
    return inter ? coll::build_inter_bcast(s, ch, buffer, count, datatype, root)
                 : coll::build_bcast(s, ch, buffer, count, datatype, root);
  };
  return MPI_SUCCESS;
}

// Gather(v): counts and byte displacements at the root (or MPI_ROOT).
int prepare_gather_common(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void* recvbuf, Counts counts, Counts displs, MPI_Datatype recvtype,
                          int root, bool regular, Prepared& p)
{
  const Communicator* c = p.comm;
  if (c->is_inter()) {
    if (root != MPI_ROOT && root != MPI_PROC_NULL)
      if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
        return err;
    // MPI-4.1 §6.2.2: the root receives from each member of the other group.
    Args a = arguments(Shape::Gather, "MPI-4.1 §6.5");
    a.rooted = true;
    a.root = root;
    if (root == MPI_ROOT)
      a.recv = side_of(b, recvtype, counts);
    else if (root != MPI_PROC_NULL)
      a.send = side_of(b, sendtype, sendcount);
    coll::note_arguments(b, *p.comm, std::move(a));
    if (root == MPI_ROOT)
      guard(b, p, recvbuf, false, {recvtype}, counts, displs);
    else if (root != MPI_PROC_NULL)
      guard(b, p, sendbuf, true, sendtype, sendcount);
    p.build = [=](Schedule& s, const Channel& ch) {
      return coll::build_inter_gatherv(s, ch, sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype,
                                       root);
    };
    return MPI_SUCCESS;
  }
  bool is_root = c->my_rank == root;
  if (sendbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  if (is_root)
    if (int err = check_in_place_recv(b, comm, recvbuf))
      return err;
  Args a = arguments(Shape::Gather, "MPI-4.1 §6.5");
  a.rooted = true;
  a.root = root;
  a.in_place = sendbuf == MPI_IN_PLACE;
  if (!a.in_place)
    a.send = side_of(b, sendtype, sendcount);
  if (is_root)
    a.recv = side_of(b, recvtype, counts);
  coll::note_arguments(b, *p.comm, std::move(a));
  if (sendbuf != MPI_IN_PLACE)
    guard(b, p, sendbuf, true, sendtype, sendcount);
  if (is_root)  // with MPI_IN_PLACE its own block is read from recvbuf: received into all the same
    guard(b, p, recvbuf, false, {recvtype}, counts, displs);
  p.build = [=](Schedule& s, const Channel& ch) {
    return coll::build_gatherv(s, ch, sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype, root,
                               regular);
  };
  return MPI_SUCCESS;
}

bool receives_at_root(const Communicator* c, int root)
{
  return c->is_inter() ? root == MPI_ROOT : c->my_rank == root;
}

int prepare_Gather(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kGatherTag))
    return err;
  if (int err = check_root(b, comm, p.comm, root))
    return err;
  Counts counts, displs;
  if (receives_at_root(p.comm, root)) {
    if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
      return err;
    counts = uniform(recvcount, p.comm->size());
    displs = block_displs(recvcount, p.comm->size(), extent_of(b, recvtype));
  }
  return prepare_gather_common(b, comm, sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype, root, true,
                               p);
}

template <class Count, class Displ>
int prepare_Gatherv(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void* recvbuf, const Count recvcounts[], const Displ displs[], MPI_Datatype recvtype, int root,
                    Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kGatherTag))
    return err;
  if (int err = check_root(b, comm, p.comm, root))
    return err;
  Counts counts, bytes;
  if (receives_at_root(p.comm, root)) {
    if (int err = check_counts(b, comm, recvcounts, p.comm->size(), "recvcounts"))
      return err;
    if (!displs)
      return b.error(comm, MPI_ERR_ARG, "null displs array");
    if (int err = check_vector_buffer(b, comm, recvbuf, recvcounts, p.comm->size(), recvtype))
      return err;
    counts = counts_of(recvcounts, p.comm->size());
    bytes = byte_displs(displs, p.comm->size(), extent_of(b, recvtype));
  }
  return prepare_gather_common(b, comm, sendbuf, sendcount, sendtype, recvbuf, counts, bytes, recvtype, root, false,
                               p);
}

int prepare_scatter_common(const Binding& b, MPI_Comm comm, const void* sendbuf, Counts counts, Counts displs,
                           MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                           bool regular, Prepared& p)
{
  const Communicator* c = p.comm;
  if (c->is_inter()) {
    if (root != MPI_ROOT && root != MPI_PROC_NULL)
      if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
        return err;
    // MPI-4.1 §6.2.2: the root sends to each member of the other group.
    Args a = arguments(Shape::Scatter, "MPI-4.1 §6.6");
    a.rooted = true;
    a.root = root;
    if (root == MPI_ROOT)
      a.send = side_of(b, sendtype, counts);
    else if (root != MPI_PROC_NULL)
      a.recv = side_of(b, recvtype, recvcount);
    coll::note_arguments(b, *p.comm, std::move(a));
    if (root == MPI_ROOT)
      guard(b, p, sendbuf, true, {sendtype}, counts, displs);
    else if (root != MPI_PROC_NULL)
      guard(b, p, recvbuf, false, recvtype, recvcount);
    p.build = [=](Schedule& s, const Channel& ch) {
      return coll::build_inter_scatterv(s, ch, sendbuf, counts, displs, sendtype, recvbuf, recvcount, recvtype,
                                        root);
    };
    return MPI_SUCCESS;
  }
  bool is_root = c->my_rank == root;
  if (recvbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (recvbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
      return err;
  if (is_root && sendbuf == MPI_IN_PLACE)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as the send buffer");
  Args a = arguments(Shape::Scatter, "MPI-4.1 §6.6");
  a.rooted = true;
  a.root = root;
  a.in_place = recvbuf == MPI_IN_PLACE;
  if (is_root)
    a.send = side_of(b, sendtype, counts);
  if (!a.in_place)
    a.recv = side_of(b, recvtype, recvcount);
  coll::note_arguments(b, *p.comm, std::move(a));
  if (is_root)
    guard(b, p, sendbuf, true, {sendtype}, counts, displs);
  if (recvbuf != MPI_IN_PLACE)
    guard(b, p, recvbuf, false, recvtype, recvcount);
  p.build = [=](Schedule& s, const Channel& ch) {
    return coll::build_scatterv(s, ch, sendbuf, counts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                regular);
  };
  return MPI_SUCCESS;
}

int prepare_Scatter(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kScatterTag))
    return err;
  if (int err = check_root(b, comm, p.comm, root))
    return err;
  Counts counts, displs;
  if (receives_at_root(p.comm, root)) {
    if (sendbuf != MPI_IN_PLACE)
      if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
        return err;
    counts = uniform(sendcount, p.comm->size());
    displs = block_displs(sendcount, p.comm->size(), extent_of(b, sendtype));
  }
  return prepare_scatter_common(b, comm, sendbuf, counts, displs, sendtype, recvbuf, recvcount, recvtype, root, true,
                                p);
}

template <class Count, class Displ>
int prepare_Scatterv(const Binding& b, MPI_Comm comm, const void* sendbuf, const Count sendcounts[],
                     const Displ displs[], MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kScatterTag))
    return err;
  if (int err = check_root(b, comm, p.comm, root))
    return err;
  Counts counts, bytes;
  if (receives_at_root(p.comm, root)) {
    if (int err = check_counts(b, comm, sendcounts, p.comm->size(), "sendcounts"))
      return err;
    if (!displs)
      return b.error(comm, MPI_ERR_ARG, "null displs array");
    if (int err = check_vector_buffer(b, comm, sendbuf, sendcounts, p.comm->size(), sendtype))
      return err;
    counts = counts_of(sendcounts, p.comm->size());
    bytes = byte_displs(displs, p.comm->size(), extent_of(b, sendtype));
  }
  return prepare_scatter_common(b, comm, sendbuf, counts, bytes, sendtype, recvbuf, recvcount, recvtype, root,
                                false, p);
}

int prepare_allgather_common(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void* recvbuf, Counts counts, Counts displs, MPI_Datatype recvtype,
                             bool regular, Prepared& p)
{
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  bool inter = p.comm->is_inter();
  // MPI-4.1 §6.7: MPI_IN_PLACE at all processes; a member's own block of
  // recvbuf is then what it sends.
  Args a = arguments(Shape::AllToAll, "MPI-4.1 §6.7");
  a.in_place_everywhere = true;
  a.in_place = sendbuf == MPI_IN_PLACE;
  a.recv = side_of(b, recvtype, counts);
  std::size_t me = static_cast<std::size_t>(p.comm->my_rank);
  if (!a.in_place)
    a.send = side_of(b, sendtype, sendcount);
  else if (me < counts.size())
    a.send = side_of(b, recvtype, counts[me]);
  coll::note_arguments(b, *p.comm, std::move(a));
  if (sendbuf != MPI_IN_PLACE)
    guard(b, p, sendbuf, true, sendtype, sendcount);
  guard(b, p, recvbuf, false, {recvtype}, counts, displs);
  p.build = [=](Schedule& s, const Channel& ch) {
    return inter ? coll::build_inter_allgatherv(s, ch, sendbuf, sendcount, sendtype, recvbuf, counts, displs,
                                                recvtype)
                 : coll::build_allgatherv(s, ch, sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype,
                                          regular);
  };
  return MPI_SUCCESS;
}

int prepare_Allgather(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kAllgatherTag))
    return err;
  if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
    return err;
  int n = p.comm->size();
  return prepare_allgather_common(b, comm, sendbuf, sendcount, sendtype, recvbuf, uniform(recvcount, n),
                                  block_displs(recvcount, n, extent_of(b, recvtype)), recvtype, true, p);
}

template <class Count, class Displ>
int prepare_Allgatherv(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void* recvbuf, const Count recvcounts[], const Displ displs[], MPI_Datatype recvtype,
                       Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kAllgatherTag))
    return err;
  int n = p.comm->size();
  if (int err = check_counts(b, comm, recvcounts, n, "recvcounts"))
    return err;
  if (!displs)
    return b.error(comm, MPI_ERR_ARG, "null displs array");
  if (int err = check_vector_buffer(b, comm, recvbuf, recvcounts, n, recvtype))
    return err;
  return prepare_allgather_common(b, comm, sendbuf, sendcount, sendtype, recvbuf, counts_of(recvcounts, n),
                                  byte_displs(displs, n, extent_of(b, recvtype)), recvtype, false, p);
}

int prepare_alltoall_common(const Binding& b, MPI_Comm comm, const void* sendbuf, Counts scounts, Counts sdispls,
                            std::vector<MPI_Datatype> stypes, void* recvbuf, Counts rcounts, Counts rdispls,
                            std::vector<MPI_Datatype> rtypes, bool regular, Prepared& p)
{
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  bool inter = p.comm->is_inter();
  if (inter && sendbuf == MPI_IN_PLACE)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on intercommunicators");
  // MPI-4.1 §6.8: MPI_IN_PLACE at all processes; the data sent is then
  // described by the receive arguments.
  Args a = arguments(Shape::AllToAll, "MPI-4.1 §6.8");
  a.in_place_everywhere = true;
  a.in_place = sendbuf == MPI_IN_PLACE;
  a.recv = side_of(b, rtypes, rcounts);
  a.send = a.in_place ? a.recv : side_of(b, stypes, scounts);
  coll::note_arguments(b, *p.comm, std::move(a));
  if (sendbuf != MPI_IN_PLACE)
    guard(b, p, sendbuf, true, stypes, scounts, sdispls);
  guard(b, p, recvbuf, false, rtypes, rcounts, rdispls);
  p.build = [=](Schedule& s, const Channel& ch) {
    return inter ? coll::build_inter_alltoallw(s, ch, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls,
                                               rtypes)
                 : coll::build_alltoallw(s, ch, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes,
                                         regular);
  };
  return MPI_SUCCESS;
}

int prepare_Alltoall(const Binding& b, MPI_Comm comm, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kAlltoallTag))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
    return err;
  int n = p.comm->size();
  auto types = [n](MPI_Datatype t) { return std::vector<MPI_Datatype>(static_cast<size_t>(n), t); };
  return prepare_alltoall_common(b, comm, sendbuf, uniform(sendcount, n),
                                 block_displs(sendcount, n, extent_of(b, sendtype)), types(sendtype), recvbuf,
                                 uniform(recvcount, n), block_displs(recvcount, n, extent_of(b, recvtype)),
                                 types(recvtype), true, p);
}

template <class Count, class Displ>
int prepare_Alltoallv(const Binding& b, MPI_Comm comm, const void* sendbuf, const Count sendcounts[],
                      const Displ sdispls[], MPI_Datatype sendtype, void* recvbuf, const Count recvcounts[],
                      const Displ rdispls[], MPI_Datatype recvtype, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kAlltoallTag))
    return err;
  int n = p.comm->size();
  bool in_place = sendbuf == MPI_IN_PLACE;
  Counts scounts, sbytes;
  if (!in_place) {
    if (int err = check_counts(b, comm, sendcounts, n, "sendcounts"))
      return err;
    if (!sdispls)
      return b.error(comm, MPI_ERR_ARG, "null sdispls array");
    if (int err = check_vector_buffer(b, comm, sendbuf, sendcounts, n, sendtype))
      return err;
    scounts = counts_of(sendcounts, n);
    sbytes = byte_displs(sdispls, n, extent_of(b, sendtype));
  }
  if (int err = check_counts(b, comm, recvcounts, n, "recvcounts"))
    return err;
  if (!rdispls)
    return b.error(comm, MPI_ERR_ARG, "null rdispls array");
  if (int err = check_vector_buffer(b, comm, recvbuf, recvcounts, n, recvtype))
    return err;
  auto types = [n](MPI_Datatype t) { return std::vector<MPI_Datatype>(static_cast<size_t>(n), t); };
  return prepare_alltoall_common(b, comm, sendbuf, scounts, sbytes, types(sendtype), recvbuf,
                                 counts_of(recvcounts, n), byte_displs(rdispls, n, extent_of(b, recvtype)),
                                 types(recvtype), false, p);
}

template <class Count, class Displ>
int prepare_Alltoallw(const Binding& b, MPI_Comm comm, const void* sendbuf, const Count sendcounts[],
                      const Displ sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const Count recvcounts[],
                      const Displ rdispls[], const MPI_Datatype recvtypes[], Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kAlltoallTag))
    return err;
  int n = p.comm->size();
  bool in_place = sendbuf == MPI_IN_PLACE;
  Counts scounts, sbytes;
  std::vector<MPI_Datatype> stypes;
  if (!in_place) {
    if (int err = check_counts(b, comm, sendcounts, n, "sendcounts"))
      return err;
    if (!sdispls || !sendtypes)
      return b.error(comm, MPI_ERR_ARG, "null sdispls or sendtypes array");
    for (int i = 0; i < n; ++i)
      if (int err = b.check_buffer(sendbuf, sendcounts[i], sendtypes[i], comm))
        return err;
    scounts = counts_of(sendcounts, n);
    sbytes = counts_of(sdispls, n);
    stypes.assign(sendtypes, sendtypes + n);
  }
  if (int err = check_counts(b, comm, recvcounts, n, "recvcounts"))
    return err;
  if (!rdispls || !recvtypes)
    return b.error(comm, MPI_ERR_ARG, "null rdispls or recvtypes array");
  for (int i = 0; i < n; ++i)
    if (int err = b.check_buffer(recvbuf, recvcounts[i], recvtypes[i], comm))
      return err;
  return prepare_alltoall_common(b, comm, sendbuf, scounts, sbytes, stypes, recvbuf, counts_of(recvcounts, n),
                                 counts_of(rdispls, n), std::vector<MPI_Datatype>(recvtypes, recvtypes + n), false,
                                 p);
}

int prepare_Reduce(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, int root, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kReduceTag))
    return err;
  const Communicator* c = p.comm;
  if (int err = check_root(b, comm, c, root))
    return err;
  if (c->is_inter()) {
    if (root != MPI_PROC_NULL) {
      if (int err = b.check_buffer(root == MPI_ROOT ? recvbuf : sendbuf, count, datatype, comm))
        return err;
      if (int err = check_op(b, comm, datatype, op))
        return err;
      guard(b, p, root == MPI_ROOT ? recvbuf : sendbuf, root != MPI_ROOT, datatype, count);
    }
    // MPI-4.1 §6.2.2: the root receives the reduction of the other group's data.
    Args a = reduction("MPI-4.1 §6.9.1", op, sendbuf, datatype, count, b);
    a.rooted = true;
    a.root = root;
    if (root == MPI_PROC_NULL)
      a.send = {};
    coll::note_arguments(b, *p.comm, std::move(a));
    p.build = [=](Schedule& s, const Channel& ch) {
      return coll::build_inter_reduce(s, ch, sendbuf, recvbuf, count, datatype, op, root);
    };
    return MPI_SUCCESS;
  }
  bool is_root = c->my_rank == root;
  if (sendbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (int err = b.check_buffer(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, datatype, comm))
    return err;
  if (is_root) {
    if (int err = check_in_place_recv(b, comm, recvbuf))
      return err;
    if (int err = b.check_buffer(recvbuf, count, datatype, comm))
      return err;
  }
  if (int err = check_op(b, comm, datatype, op))
    return err;
  Args a = reduction("MPI-4.1 §6.9.1", op, sendbuf, datatype, count, b);
  a.rooted = true;
  a.root = root;
  coll::note_arguments(b, *p.comm, std::move(a));
  if (sendbuf != MPI_IN_PLACE)
    guard(b, p, sendbuf, true, datatype, count);
  if (is_root)
    guard(b, p, recvbuf, false, datatype, count);
  p.build = [=](Schedule& s, const Channel& ch) {
    return coll::build_reduce(s, ch, sendbuf, recvbuf, count, datatype, op, root);
  };
  return MPI_SUCCESS;
}

int prepare_Allreduce(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kAllreduceTag))
    return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, count, datatype, comm))
      return err;
  if (int err = b.check_buffer(recvbuf, count, datatype, comm))
    return err;
  if (int err = check_op(b, comm, datatype, op))
    return err;
  bool inter = p.comm->is_inter();
  // MPI-4.1 §6.9.6: MPI_IN_PLACE at all processes.
  Args a = reduction("MPI-4.1 §6.9.6", op, sendbuf, datatype, count, b);
  a.in_place_everywhere = true;
  coll::note_arguments(b, *p.comm, std::move(a));
  if (sendbuf != MPI_IN_PLACE)
    guard(b, p, sendbuf, true, datatype, count);
  guard(b, p, recvbuf, false, datatype, count);
  p.build = [=](Schedule& s, const Channel& ch) {
    return inter ? coll::build_inter_allreduce(s, ch, sendbuf, recvbuf, count, datatype, op)
                 : coll::build_allreduce(s, ch, sendbuf, recvbuf, count, datatype, op);
  };
  return MPI_SUCCESS;
}

int prepare_reduce_scatter_common(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf, Counts counts,
                                  MPI_Datatype datatype, MPI_Op op, Prepared& p)
{
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (int err = b.check_buffer(recvbuf, counts[static_cast<size_t>(p.comm->my_rank)], datatype, comm))
    return err;
  if (sendbuf != MPI_IN_PLACE) {
    std::int64_t total = 0;
    for (std::int64_t c : counts)
      total += c;
    if (int err = b.check_buffer(sendbuf, total, datatype, comm))
      return err;
  }
  if (int err = check_op(b, comm, datatype, op))
    return err;
  bool inter = p.comm->is_inter();
  if (inter && sendbuf == MPI_IN_PLACE)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on intercommunicators");
  std::int64_t total = 0;
  for (std::int64_t c : counts)
    total += c;
  // On an intercommunicator a member's input, the sum of its group's
  // counts, is reduced and scattered over the other group: the groups'
  // inputs are equal as the members' inputs of one group are (§6.10.1).
  coll::note_arguments(b, *p.comm, reduction("MPI-4.1 §6.10", op, sendbuf, datatype, total, b));
  // With MPI_IN_PLACE the input, all of it, is in recvbuf (MPI-4.1 §6.10.1).
  if (sendbuf != MPI_IN_PLACE)
    guard(b, p, sendbuf, true, datatype, total);
  guard(b, p, recvbuf, false, datatype,
        sendbuf == MPI_IN_PLACE ? total : counts[static_cast<size_t>(p.comm->my_rank)]);
  p.build = [=](Schedule& s, const Channel& ch) {
    return inter ? coll::build_inter_reduce_scatter(s, ch, sendbuf, recvbuf, counts, datatype, op)
                 : coll::build_reduce_scatter(s, ch, sendbuf, recvbuf, counts, datatype, op);
  };
  return MPI_SUCCESS;
}

int prepare_Reduce_scatter_block(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf,
                                 MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kReduceScatterTag))
    return err;
  if (recvcount < 0)
    return b.error(comm, MPI_ERR_COUNT, "negative count " + std::to_string(recvcount));
  return prepare_reduce_scatter_common(b, comm, sendbuf, recvbuf, uniform(recvcount, p.comm->group->size()),
                                       datatype, op, p);
}

template <class Count>
int prepare_Reduce_scatter(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf,
                           const Count recvcounts[], MPI_Datatype datatype, MPI_Op op, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kReduceScatterTag))
    return err;
  if (int err = check_counts(b, comm, recvcounts, p.comm->group->size(), "recvcounts"))
    return err;
  return prepare_reduce_scatter_common(b, comm, sendbuf, recvbuf, counts_of(recvcounts, p.comm->group->size()),
                                       datatype, op, p);
}

int prepare_scan_common(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, bool exclusive, Prepared& p)
{
  if (int err = no_intercomm(b, comm, p.comm))
    return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, count, datatype, comm))
      return err;
  if (!exclusive || p.comm->my_rank > 0)
    if (int err = b.check_buffer(recvbuf, count, datatype, comm))
      return err;
  if (int err = check_op(b, comm, datatype, op))
    return err;
  coll::note_arguments(b, *p.comm, reduction(exclusive ? "MPI-4.1 §6.11.2" : "MPI-4.1 §6.11.1", op, sendbuf, datatype,
                                             count, b));
  if (sendbuf != MPI_IN_PLACE)
    guard(b, p, sendbuf, true, datatype, count);
  // MPI_Exscan leaves process 0's recvbuf undefined: not guarded there.
  if (!exclusive || p.comm->my_rank > 0)
    guard(b, p, recvbuf, false, datatype, count);
  p.build = [=](Schedule& s, const Channel& ch) {
    return coll::build_scan(s, ch, sendbuf, recvbuf, count, datatype, op, exclusive);
  };
  return MPI_SUCCESS;
}

int prepare_Scan(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kScanTag))
    return err;
  return prepare_scan_common(b, comm, sendbuf, recvbuf, count, datatype, op, false, p);
}

int prepare_Exscan(const Binding& b, MPI_Comm comm, const void* sendbuf, void* recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, Prepared& p)
{
  if (int err = begin(b, comm, p, coll::kExscanTag))
    return err;
  return prepare_scan_common(b, comm, sendbuf, recvbuf, count, datatype, op, true, p);
}

}  // namespace

// --- the procedures ----------------------------------------------------------

extern "C" int PMPI_Barrier(MPI_Comm comm)
{
  Binding b("MPI_Barrier", sim::CallKind::Stamped);
  Prepared p;
  if (int err = prepare_Barrier(b, comm, p))
    return err;
  return run_now(b, comm, p);
}

extern "C" int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request)
{
  Binding b("MPI_Ibarrier", sim::CallKind::Stamped);
  Prepared p;
  if (int err = prepare_Barrier(b, comm, p))
    return err;
  return make_request(b, comm, p, request, false);
}

extern "C" int PMPI_Barrier_init(MPI_Comm comm, MPI_Info, MPI_Request* request)
{
  Binding b("MPI_Barrier_init", sim::CallKind::Stamped);
  Prepared p;
  if (int err = prepare_Barrier(b, comm, p))
    return err;
  return make_request(b, comm, p, request, true);
}

PROGSIM_MPI_ALIAS(MPI_Barrier)
PROGSIM_MPI_ALIAS(MPI_Ibarrier)
PROGSIM_MPI_ALIAS(MPI_Barrier_init)

PROGSIM_COLLECTIVE(Bcast, Ibcast, (void* buffer, int count, MPI_Datatype datatype, int root),
                   (buffer, count, datatype, root))
PROGSIM_COLLECTIVE(Gather, Igather,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root))
PROGSIM_COLLECTIVE(Gatherv, Igatherv,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root))
PROGSIM_COLLECTIVE(Scatter, Iscatter,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root))
PROGSIM_COLLECTIVE(Scatterv, Iscatterv,
                   (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, int root),
                   (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root))
PROGSIM_COLLECTIVE(Allgather, Iallgather,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_COLLECTIVE(Allgatherv, Iallgatherv,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype))
PROGSIM_COLLECTIVE(Alltoall, Ialltoall,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_COLLECTIVE(Alltoallv, Ialltoallv,
                   (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype),
                   (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype))
PROGSIM_COLLECTIVE(Alltoallw, Ialltoallw,
                   (const void* sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                    const MPI_Datatype recvtypes[]),
                   (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes))
PROGSIM_COLLECTIVE(Reduce, Ireduce,
                   (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root),
                   (sendbuf, recvbuf, count, datatype, op, root))
PROGSIM_COLLECTIVE(Allreduce, Iallreduce,
                   (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op),
                   (sendbuf, recvbuf, count, datatype, op))
PROGSIM_COLLECTIVE(Reduce_scatter_block, Ireduce_scatter_block,
                   (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op),
                   (sendbuf, recvbuf, recvcount, datatype, op))
PROGSIM_COLLECTIVE(Reduce_scatter, Ireduce_scatter,
                   (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op),
                   (sendbuf, recvbuf, recvcounts, datatype, op))
PROGSIM_COLLECTIVE(Scan, Iscan, (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op),
                   (sendbuf, recvbuf, count, datatype, op))
PROGSIM_COLLECTIVE(Exscan, Iexscan,
                   (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op),
                   (sendbuf, recvbuf, count, datatype, op))

// The large-count procedures (MPI-4.1 §19.2).
PROGSIM_COLLECTIVE_C(Bcast, Ibcast, (void* buffer, MPI_Count count, MPI_Datatype datatype, int root),
                     (buffer, count, datatype, root))
PROGSIM_COLLECTIVE_C(Gather, Igather,
                     (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root),
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root))
PROGSIM_COLLECTIVE_C(Gatherv, Igatherv,
                     (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root),
                     (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root))
PROGSIM_COLLECTIVE_C(Scatter, Iscatter,
                     (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root),
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root))
PROGSIM_COLLECTIVE_C(Scatterv, Iscatterv,
                     (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                      MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root),
                     (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root))
PROGSIM_COLLECTIVE_C(Allgather, Iallgather,
                     (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype),
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_COLLECTIVE_C(Allgatherv, Iallgatherv,
                     (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype),
                     (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype))
PROGSIM_COLLECTIVE_C(Alltoall, Ialltoall,
                     (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype),
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_COLLECTIVE_C(Alltoallv, Ialltoallv,
                     (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype),
                     (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype))
PROGSIM_COLLECTIVE_C(Alltoallw, Ialltoallw,
                     (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]),
                     (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes))
PROGSIM_COLLECTIVE_C(Reduce, Ireduce,
                     (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      int root),
                     (sendbuf, recvbuf, count, datatype, op, root))
PROGSIM_COLLECTIVE_C(Allreduce, Iallreduce,
                     (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op),
                     (sendbuf, recvbuf, count, datatype, op))
PROGSIM_COLLECTIVE_C(Reduce_scatter_block, Ireduce_scatter_block,
                     (const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op),
                     (sendbuf, recvbuf, recvcount, datatype, op))
PROGSIM_COLLECTIVE_C(Reduce_scatter, Ireduce_scatter,
                     (const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                      MPI_Op op),
                     (sendbuf, recvbuf, recvcounts, datatype, op))
PROGSIM_COLLECTIVE_C(Scan, Iscan,
                     (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op),
                     (sendbuf, recvbuf, count, datatype, op))
PROGSIM_COLLECTIVE_C(Exscan, Iexscan,
                     (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op),
                     (sendbuf, recvbuf, count, datatype, op))
