// Collectives on intercommunicators (MPI-4.1 §6.2.2), built on the
// intracommunicator algorithms run among one group (local_view) and
// messages between the two groups' leaders (local rank 0) or directly
// between the members, all on the intercommunicator's collective context.

#include "coll/Intercomm.hpp"

#include "coll/Reduce.hpp"

#include <algorithm>
#include <climits>

namespace progsim::mpi::coll {

const Communicator& local_view(const Communicator& inter)
{
  auto& self = const_cast<Communicator&>(inter);
  if (!self.local_view) {
    auto view = std::make_shared<Communicator>();
    view->handle = inter.handle;
    view->context_id = inter.context_id;
    view->group = inter.group;
    view->owner = inter.owner;
    view->my_rank = inter.my_rank;
    view->name = inter.name;
    view->errhandler = inter.errhandler;
    self.local_view = std::move(view);
  }
  return *self.local_view;
}

int agree_context_inter(const Binding& b, const Communicator& inter, int& context)
{
  // MPI_MAX of the next ids within each group, the leaders swap their
  // group's maximum, and tell their group the larger.
  CollCall local{b, local_view(inter), kLocalTagBase + kContextTag};
  int mine = b.model().communicators().next_context(b.world());
  int agreed = 0, remote = 0;
  if (int err = allreduce(local, &mine, &agreed, 1, MPI_INT, MPI_MAX))
    return err;
  if (inter.my_rank == 0) {
    CollCall leaders{b, inter, kContextTag};
    RequestPtr r = irecv(leaders, 0, &remote, 1, MPI_INT);
    RequestPtr s = isend(leaders, 0, &agreed, 1, MPI_INT);
    if (int err = wait_all(leaders, {s, r}))
      return err;
    agreed = std::max(agreed, remote);
  }
  if (int err = bcast(local, &agreed, 1, MPI_INT, 0))
    return err;
  if (agreed > INT_MAX - 8)
    return MPI_ERR_INTERN;
  context = agreed;
  return MPI_SUCCESS;
}

int inter_barrier(const CollCall& c)
{
  CollCall local = local_call(c);
  if (int err = barrier(local))
    return err;
  if (c.me() == 0) {
    RequestPtr r = irecv(c, 0, nullptr, 0, MPI_BYTE);
    RequestPtr s = isend(c, 0, nullptr, 0, MPI_BYTE);
    if (int err = wait_all(c, {s, r}))
      return err;
  }
  return bcast(local, nullptr, 0, MPI_BYTE, 0);
}

int inter_bcast(const CollCall& c, void* buf, std::int64_t count, MPI_Datatype type, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (root == MPI_ROOT)
    return send(c, 0, buf, count, type);
  if (c.me() == 0)
    if (int err = recv(c, root, buf, count, type))
      return err;
  return bcast(local_call(c), buf, count, type, 0);
}

int inter_reduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
                 MPI_Op op, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  WorkBuffer acc = w.allocate(count);
  if (root == MPI_ROOT) {
    if (int err = recv(c, 0, acc.base, w.message_count(count), w.message_type()))
      return err;
    w.store(acc.base, count, recvbuf);
    return MPI_SUCCESS;
  }
  w.load(sendbuf, count, acc.base);
  if (int err = reduce_to_root(local_call(c), w, count, acc, 0))
    return err;
  if (c.me() == 0)
    return send(c, root, acc.base, w.message_count(count), w.message_type());
  return MPI_SUCCESS;
}

namespace {

// Reduces the group's `items` items to its leader, swaps the result with
// the other group's leader, and leaves the OTHER group's result in `out` at
// the leader (work format).
int reduce_and_swap(const CollCall& c, const ReduceWork& w, const void* input, std::int64_t items, WorkBuffer& out)
{
  WorkBuffer acc = w.allocate(items);
  w.load(input, items, acc.base);
  if (int err = reduce_to_root(local_call(c), w, items, acc, 0))
    return err;
  out = w.allocate(items);
  if (c.me() == 0) {
    RequestPtr r = irecv(c, 0, out.base, w.message_count(items), w.message_type());
    RequestPtr s = isend(c, 0, acc.base, w.message_count(items), w.message_type());
    if (int err = wait_all(c, {s, r}))
      return err;
  }
  return MPI_SUCCESS;
}

}  // namespace

int inter_allreduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
                    MPI_Op op)
{
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  WorkBuffer other;
  if (int err = reduce_and_swap(c, w, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, other))
    return err;
  if (int err = bcast(local_call(c), other.base, w.message_count(count), w.message_type(), 0))
    return err;
  w.store(other.base, count, recvbuf);
  return MPI_SUCCESS;
}

int inter_reduce_scatter(const CollCall& c, const void* sendbuf, void* recvbuf,
                         const std::vector<std::int64_t>& rcounts, MPI_Datatype type, MPI_Op op)
{
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  int n = c.comm.group->size();
  std::vector<std::int64_t> first(static_cast<size_t>(n) + 1, 0);
  for (int i = 0; i < n; ++i)
    first[static_cast<size_t>(i) + 1] = first[static_cast<size_t>(i)] + rcounts[static_cast<size_t>(i)];
  WorkBuffer other;
  if (int err = reduce_and_swap(c, w, sendbuf, first.back(), other))
    return err;
  CollCall local = local_call(c);
  std::int64_t mine = rcounts[static_cast<size_t>(c.me())];
  if (c.me() != 0) {
    WorkBuffer block = w.allocate(mine);
    if (int err = recv(local, 0, block.base, w.message_count(mine), w.message_type()))
      return err;
    w.store(block.base, mine, recvbuf);
    return MPI_SUCCESS;
  }
  std::vector<RequestPtr> sends;
  for (int i = 1; i < n; ++i) {
    auto u = static_cast<size_t>(i);
    sends.push_back(
        isend(local, i, other.base + w.item_offset(first[u]), w.message_count(rcounts[u]), w.message_type()));
  }
  w.store(other.base, mine, recvbuf);
  return wait_all(local, sends);
}

int inter_gatherv(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
                  const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
                  MPI_Datatype rtype, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (root != MPI_ROOT)
    return send(c, root, sendbuf, scount, stype);
  auto* base = static_cast<std::byte*>(recvbuf);
  std::vector<RequestPtr> recvs;
  for (int i = 0; i < c.size(); ++i)
    recvs.push_back(irecv(c, i, base + rdispls[static_cast<size_t>(i)], rcounts[static_cast<size_t>(i)], rtype));
  return wait_all(c, recvs);
}

int inter_scatterv(const CollCall& c, const void* sendbuf, const std::vector<std::int64_t>& scounts,
                   const std::vector<std::int64_t>& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount,
                   MPI_Datatype rtype, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (root != MPI_ROOT)
    return recv(c, root, recvbuf, rcount, rtype);
  const auto* base = static_cast<const std::byte*>(sendbuf);
  std::vector<RequestPtr> sends;
  for (int i = 0; i < c.size(); ++i)
    sends.push_back(isend(c, i, base + sdispls[static_cast<size_t>(i)], scounts[static_cast<size_t>(i)], stype));
  return wait_all(c, sends);
}

int inter_allgatherv(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
                     const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
                     MPI_Datatype rtype)
{
  auto* base = static_cast<std::byte*>(recvbuf);
  std::vector<RequestPtr> requests;
  for (int i = 0; i < c.size(); ++i)
    requests.push_back(irecv(c, i, base + rdispls[static_cast<size_t>(i)], rcounts[static_cast<size_t>(i)], rtype));
  for (int i = 0; i < c.size(); ++i)
    requests.push_back(isend(c, i, sendbuf, scount, stype));
  return wait_all(c, requests);
}

int inter_alltoallw(const CollCall& c, const void* sendbuf, const std::vector<std::int64_t>& scounts,
                    const std::vector<std::int64_t>& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
                    const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
                    const std::vector<MPI_Datatype>& rtypes)
{
  auto* rbase = static_cast<std::byte*>(recvbuf);
  const auto* sbase = static_cast<const std::byte*>(sendbuf);
  std::vector<RequestPtr> requests;
  for (int i = 0; i < c.size(); ++i) {
    auto u = static_cast<size_t>(i);
    requests.push_back(irecv(c, i, rbase + rdispls[u], rcounts[u], rtypes[u]));
  }
  for (int i = 0; i < c.size(); ++i) {
    auto u = static_cast<size_t>(i);
    requests.push_back(isend(c, i, sbase + sdispls[u], scounts[u], stypes[u]));
  }
  return wait_all(c, requests);
}

}  // namespace progsim::mpi::coll
