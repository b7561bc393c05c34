// Collectives on intercommunicators (MPI-4.1 §6.2.2) as schedules: the
// intracommunicator algorithms run among one group (local_view) and
// messages go between the two groups' leaders (local rank 0) or directly
// between the members, all on the intercommunicator's collective context.

#include "coll/Intercomm.hpp"

#include "coll/ScheduleRunner.hpp"

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

Channel local_channel(const Channel& c)
{
  return Channel{&local_view(*c.comm), kLocalTagBase + c.tag, c.for_library};
}

int build_inter_barrier(Schedule& s, const Channel& c)
{
  Channel local = local_channel(c);
  build_barrier(s, local);
  s.next_round();
  if (c.me() == 0) {
    s.recv(c, 0, nullptr, 0, MPI_BYTE);
    s.send(c, 0, nullptr, 0, MPI_BYTE);
  }
  s.next_round();
  bcast_binomial(s, local, nullptr, 0, MPI_BYTE, 0);
  return MPI_SUCCESS;
}

int build_inter_bcast(Schedule& s, const Channel& c, void* buf, std::int64_t count,
                      MPI_Datatype type, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (root == MPI_ROOT) {
    s.send(c, 0, buf, count, type);
    return MPI_SUCCESS;
  }
  if (c.me() == 0)
    s.recv(c, root, buf, count, type);
  s.next_round();
  return build_bcast(s, local_channel(c), buf, count, type, 0);
}

int build_inter_reduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                       std::int64_t count, MPI_Datatype type, MPI_Op op, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  const ReduceWork& w = reduction(s, type, op);
  if (root == MPI_ROOT) {
    std::byte* result = work_buffer(s, w, count);
    s.recv(c, 0, result, w.message_count(count), w.message_type());
    store_step(s, w, result, count, recvbuf);
    return MPI_SUCCESS;
  }
  std::byte* acc = load_step(s, w, sendbuf, count);
  reduce_binomial(s, local_channel(c), w, acc, count, 0);
  s.next_round();
  if (c.me() == 0)
    s.send(c, root, acc, w.message_count(count), w.message_type());
  return MPI_SUCCESS;
}

namespace {

// Reduces the group's `items` items to its leader and swaps the result with
// the other group's leader: returns where the leader holds the OTHER
// group's result (work format).
std::byte* reduce_and_swap(Schedule& s, const Channel& c, const ReduceWork& w, const void* input,
                           std::int64_t items)
{
  std::byte* acc = load_step(s, w, input, items);
  std::byte* other = work_buffer(s, w, items);
  reduce_binomial(s, local_channel(c), w, acc, items, 0);
  s.next_round();
  if (c.me() == 0) {
    s.recv(c, 0, other, w.message_count(items), w.message_type());
    s.send(c, 0, acc, w.message_count(items), w.message_type());
  }
  s.next_round();
  return other;
}

}  // namespace

int build_inter_allreduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                          std::int64_t count, MPI_Datatype type, MPI_Op op)
{
  const ReduceWork& w = reduction(s, type, op);
  std::byte* other = reduce_and_swap(s, c, w, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count);
  bcast_binomial(s, local_channel(c), other, w.message_count(count), w.message_type(), 0);
  store_step(s, w, other, count, recvbuf);
  return MPI_SUCCESS;
}

int build_inter_reduce_scatter(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                               const Counts& rcounts, MPI_Datatype type, MPI_Op op)
{
  const ReduceWork& w = reduction(s, type, op);
  Counts first = prefix(rcounts);
  std::byte* other = reduce_and_swap(s, c, w, sendbuf, first.back());
  Channel local = local_channel(c);
  int me = c.me();
  auto u = static_cast<size_t>(me);
  std::byte* mine = other + w.item_offset(first[u]);
  std::int64_t items = rcounts[u];
  if (me != 0) {
    s.recv(local, 0, mine, w.message_count(items), w.message_type());
  } else {
    for (std::size_t i = 1; i < rcounts.size(); ++i)
      s.send(local, static_cast<int>(i), other + w.item_offset(first[i]), w.message_count(rcounts[i]),
             w.message_type());
  }
  store_step(s, w, mine, items, recvbuf);
  return MPI_SUCCESS;
}

int build_inter_gatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype,
                        void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (root != MPI_ROOT) {
    s.send(c, root, sendbuf, scount, stype);
    return MPI_SUCCESS;
  }
  for (int i = 0; i < c.size(); ++i)
    s.recv(c, i, at(recvbuf, rdispls[static_cast<size_t>(i)]), rcounts[static_cast<size_t>(i)], rtype);
  return MPI_SUCCESS;
}

int build_inter_scatterv(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                         const Counts& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount,
                         MPI_Datatype rtype, int root)
{
  if (root == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (root != MPI_ROOT) {
    s.recv(c, root, recvbuf, rcount, rtype);
    return MPI_SUCCESS;
  }
  for (int i = 0; i < c.size(); ++i)
    s.send(c, i, at(sendbuf, sdispls[static_cast<size_t>(i)]), scounts[static_cast<size_t>(i)], stype);
  return MPI_SUCCESS;
}

int build_inter_allgatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                           MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls,
                           MPI_Datatype rtype)
{
  for (int i = 0; i < c.size(); ++i)
    s.recv(c, i, at(recvbuf, rdispls[static_cast<size_t>(i)]), rcounts[static_cast<size_t>(i)], rtype);
  for (int i = 0; i < c.size(); ++i)
    s.send(c, i, sendbuf, scount, stype);
  return MPI_SUCCESS;
}

int build_inter_alltoallw(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                          const Counts& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
                          const Counts& rcounts, const Counts& rdispls, const std::vector<MPI_Datatype>& rtypes)
{
  for (int i = 0; i < c.size(); ++i) {
    auto u = static_cast<size_t>(i);
    s.recv(c, i, at(recvbuf, rdispls[u]), rcounts[u], rtypes[u]);
  }
  for (int i = 0; i < c.size(); ++i) {
    auto u = static_cast<size_t>(i);
    s.send(c, i, at(sendbuf, sdispls[u]), scounts[u], stypes[u]);
  }
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
