// MPI_Allreduce algorithms (on the work format, see ReduceWork.hpp):
//  recursive_doubling  log2(n) exchanges of the whole vector; partners'
//                      results are combined with the lower ranks on the left,
//                      so it serves non-commutative operations too.
//  rabenseifner        reduce-scatter by recursive halving, then allgather by
//                      recursive doubling: about 2x the vector per process
//                      (commutative operations, large vectors).
//  ring                reduce-scatter around a ring, then allgather around it
//                      (commutative operations, bandwidth-bound cases).
//  reduce_bcast        binomial reduce to rank 0, binomial broadcast.
// Recursive doubling and Rabenseifner fold a non-power-of-two count first:
// among the first 2 * rem processes each even one hands its vector to the
// odd one above it (which then stands for both, still in rank order) and
// gets the result back at the end.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

namespace progsim::mpi::coll {

namespace {

struct Fold {
  int rem = 0;
  int newrank = -1;  // -1: folded out
  int real(int nr) const { return nr < rem ? nr * 2 + 1 : nr + rem; }
};

Fold fold_in(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::byte* tmp, std::int64_t items)
{
  int me = c.me();
  Fold f;
  f.rem = c.size() - largest_power_of_two(c.size());
  if (me < 2 * f.rem) {
    if (me % 2 == 0) {
      s.send(c, me + 1, acc, w.message_count(items), w.message_type());
      s.next_round();
      return f;
    }
    s.recv(c, me - 1, tmp, w.message_count(items), w.message_type());
    s.local([&w, acc, tmp, items] {
      w.combine(tmp, acc, items);  // acc = even (lower) op odd
      return MPI_SUCCESS;
    });
    f.newrank = me / 2;
  } else {
    f.newrank = me - f.rem;
  }
  return f;
}

void fold_out(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items, const Fold& f)
{
  int me = c.me();
  if (me >= 2 * f.rem)
    return;
  s.next_round();
  if (me % 2 == 1)
    s.send(c, me - 1, acc, w.message_count(items), w.message_type());
  else
    s.recv(c, me + 1, acc, w.message_count(items), w.message_type());
  s.next_round();
}

void recursive_doubling(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items)
{
  std::byte* tmp = work_buffer(s, w, items);
  Fold f = fold_in(s, c, w, acc, tmp, items);
  if (f.newrank >= 0) {
    int pof2 = c.size() - f.rem;
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int newdst = f.newrank ^ mask;
      int dst = f.real(newdst);
      s.send(c, dst, acc, w.message_count(items), w.message_type());
      s.recv(c, dst, tmp, w.message_count(items), w.message_type());
      bool lower = newdst < f.newrank;
      s.local([&w, acc, tmp, items, lower] {
        if (lower)
          w.combine(tmp, acc, items);  // acc = theirs op mine
        else
          w.combine_after(acc, tmp, items);  // acc = mine op theirs
        return MPI_SUCCESS;
      });
    }
  }
  fold_out(s, c, w, acc, items, f);
}

void rabenseifner(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items)
{
  std::byte* tmp = work_buffer(s, w, items);
  Fold f = fold_in(s, c, w, acc, tmp, items);
  if (f.newrank >= 0) {
    int pof2 = c.size() - f.rem;
    Counts cnts = split(items, pof2);
    Counts first = prefix(cnts);
    auto range = [&](int from, int to) { return first[static_cast<size_t>(to)] - first[static_cast<size_t>(from)]; };
    auto off = [&](int block) { return w.item_offset(first[static_cast<size_t>(block)]); };
    int send_idx = 0, recv_idx = 0, last_idx = pof2;
    int mask = 1;
    // Reduce-scatter by recursive halving: keep the half of the current
    // range that holds our block, send the other half to the partner.
    while (mask < pof2) {
      int newdst = f.newrank ^ mask;
      int dst = f.real(newdst);
      std::int64_t send_cnt, recv_cnt;
      if (f.newrank < newdst) {
        send_idx = recv_idx + pof2 / (mask * 2);
        send_cnt = range(send_idx, last_idx);
        recv_cnt = range(recv_idx, send_idx);
      } else {
        recv_idx = send_idx + pof2 / (mask * 2);
        send_cnt = range(send_idx, recv_idx);
        recv_cnt = range(recv_idx, last_idx);
      }
      s.send(c, dst, acc + off(send_idx), w.message_count(send_cnt), w.message_type());
      s.recv(c, dst, tmp + off(recv_idx), w.message_count(recv_cnt), w.message_type());
      std::byte* in = tmp + off(recv_idx);
      std::byte* inout = acc + off(recv_idx);
      s.local([&w, in, inout, recv_cnt] {
        w.combine(in, inout, recv_cnt);  // commutative
        return MPI_SUCCESS;
      });
      send_idx = recv_idx;
      mask <<= 1;
      if (mask < pof2)
        last_idx = recv_idx + pof2 / mask;
    }
    // Allgather by recursive doubling, in the reverse order.
    mask >>= 1;
    while (mask > 0) {
      int newdst = f.newrank ^ mask;
      int dst = f.real(newdst);
      std::int64_t send_cnt, recv_cnt;
      if (f.newrank < newdst) {
        if (mask != pof2 / 2)
          last_idx = last_idx + pof2 / (mask * 2);
        recv_idx = send_idx + pof2 / (mask * 2);
        send_cnt = range(send_idx, recv_idx);
        recv_cnt = range(recv_idx, last_idx);
      } else {
        recv_idx = send_idx - pof2 / (mask * 2);
        send_cnt = range(send_idx, last_idx);
        recv_cnt = range(recv_idx, send_idx);
      }
      s.send(c, dst, acc + off(send_idx), w.message_count(send_cnt), w.message_type());
      s.recv(c, dst, acc + off(recv_idx), w.message_count(recv_cnt), w.message_type());
      s.next_round();
      if (f.newrank > newdst)
        send_idx = recv_idx;
      mask >>= 1;
    }
  }
  fold_out(s, c, w, acc, items, f);
}

void ring(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items)
{
  int n = c.size();
  int me = c.me();
  std::byte* tmp = work_buffer(s, w, items);
  Counts cnts = split(items, n);
  Counts first = prefix(cnts);
  auto block = [&](int k) { return ((k % n) + n) % n; };
  auto off = [&](int b) { return w.item_offset(first[static_cast<size_t>(b)]); };
  auto cnt = [&](int b) { return cnts[static_cast<size_t>(b)]; };
  int right = (me + 1) % n, left = (me - 1 + n) % n;
  for (int k = 0; k < n - 1; ++k) {
    int out = block(me - k), in = block(me - k - 1);
    s.send(c, right, acc + off(out), w.message_count(cnt(out)), w.message_type());
    s.recv(c, left, tmp + off(in), w.message_count(cnt(in)), w.message_type());
    std::byte* src = tmp + off(in);
    std::byte* dst = acc + off(in);
    std::int64_t m = cnt(in);
    s.local([&w, src, dst, m] {
      w.combine(src, dst, m);  // commutative
      return MPI_SUCCESS;
    });
  }
  for (int k = 0; k < n - 1; ++k) {
    int out = block(me + 1 - k), in = block(me - k);
    s.send(c, right, acc + off(out), w.message_count(cnt(out)), w.message_type());
    s.recv(c, left, acc + off(in), w.message_count(cnt(in)), w.message_type());
    s.next_round();
  }
}

void reduce_bcast(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items)
{
  reduce_binomial(s, c, w, acc, items, 0);
  bcast_binomial(s, c, acc, w.message_count(items), w.message_type(), 0);
}

std::string ring_unusable(const CallFacts& f)
{
  if (!f.commutative)
    return "it combines blocks out of rank order, and the operation is not commutative";
  return f.processes > 1 ? "" : "it needs at least 2 processes";
}

std::string rabenseifner_unusable(const CallFacts& f)
{
  if (std::string why = ring_unusable(f); !why.empty())
    return why;
  int pof2 = largest_power_of_two(f.processes);
  if (f.items < pof2)
    return "it splits the vector into " + std::to_string(pof2) + " blocks (the largest power of two <= " +
           std::to_string(f.processes) + " processes), and the call has " + std::to_string(f.items) + " item(s)";
  return "";
}

using AllreduceBuild = void(Schedule&, const Channel&, const ReduceWork&, std::byte* acc, std::int64_t items);

const Algorithm<AllreduceBuild> kAlgorithms[] = {
    {{"recursive_doubling", "log2(n) exchanges of the whole vector; any operation", nullptr}, recursive_doubling},
    {{"rabenseifner",
      "reduce-scatter by recursive halving, then allgather by recursive doubling: about 2x the vector per "
      "process; commutative operations, at least as many items as the largest power of two <= processes",
      rabenseifner_unusable},
     rabenseifner},
    {{"ring", "reduce-scatter, then allgather, around a ring; commutative operations, 2 or more processes",
      ring_unusable},
     ring},
    {{"reduce_bcast", "binomial reduce to rank 0, then binomial broadcast", nullptr}, reduce_bcast},
};

// facts.bytes: the whole vector.
const char* preferred(const CallFacts& f)
{
  return f.bytes > 2048 && rabenseifner_unusable(f).empty() ? "rabenseifner" : "recursive_doubling";
}

}  // namespace

const CollectiveAlgorithms& allreduce_algorithms()
{
  static const CollectiveAlgorithms coll(
      "coll-allreduce", "MPI_Allreduce", &CollectiveParameters::allreduce, preferred,
      "rabenseifner above 2 KiB where it applies, else recursive_doubling, as MPICH", kAlgorithms);
  return coll;
}

int build_allreduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                    std::int64_t count, MPI_Datatype type, MPI_Op op)
{
  const ReduceWork& w = reduction(s, type, op);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  std::byte* acc = load_step(s, w, input, count);
  CallFacts facts{c.size(), count, count * type_size(type), w.commutative()};
  kAlgorithms[choose(allreduce_algorithms(), facts, c)].build(s, c, w, acc, count);
  store_step(s, w, acc, count, recvbuf);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
