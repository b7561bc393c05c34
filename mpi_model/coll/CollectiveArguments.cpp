// Argument agreement of the collectives (MPI-4.1 chapter 6): the members of
// one collective call pass the same root (§6.4-§6.6, §6.9.1), the same
// reduction operation (§6.9), MPI_IN_PLACE at all members or none where the
// standard asks for it (Allreduce, Allgather, Alltoall), and portions whose
// type signatures are equal pairwise: a member's send against its partner's
// receive (Gather, Scatter, Allgather, Alltoall and their v/w forms), every
// buffer against the root's (Bcast), every buffer against every other
// (Reduce, Allreduce, Reduce_scatter_block, Scan, Exscan). Unlike a
// point-to-point message, a shorter portion is an error too ("must be
// equal").
//
// Each member records its arguments in its communicator's collective log
// (beside the call's name, CollectiveOrder.cpp) when it enters the call; the
// later of two members compares. Whom it compares with: the root (the root
// with every member that arrived), or for collectives without one member 0
// (member 0 with every other), and the ring neighbours. For the regular
// forms this sees every disagreement; for the v and w forms the pairs not
// compared are the others (a pair of non-neighbours neither of them member
// 0 or the root). Signatures are hashes (dt::EnvelopeSignature), O(log
// count) each; a portion holding MPI_BYTE or MPI_PACKED is not compared.
// Intercommunicators are not checked. One error per communicator: a member
// that meets a partner which took part in one stops checking too.

#include "coll/Collectives.hpp"

#include "MpiModel.hpp"
#include "datatype/TypeSignature.hpp"
#include "diagnosis/StandardErrors.hpp"
#include "ops/ReductionOp.hpp"
#include "sim/Rank.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <cstring>
#include <optional>
#include <set>

namespace progsim::mpi::coll {

namespace {

using Args = CollectiveArguments;
using Shape = CollectiveArguments::Shape;

const Args* arguments_of(const CollectiveLog& log, std::uint64_t k)
{
  if (!log.arguments || log.calls <= k || log.calls - k > CollectiveLog::kDepth)
    return nullptr;
  const Args& a = (*log.arguments)[k % CollectiveLog::kDepth];
  return a.shape == Shape::Unknown ? nullptr : &a;
}

// The count and type `side` holds for `peer`; false when not known.
bool portion_of(const Args::Side& side, int peer, std::int64_t& count, const dt::Datatype*& type)
{
  if (!side.present)
    return false;
  std::size_t i = static_cast<std::size_t>(peer);
  if ((!side.counts.empty() && i >= side.counts.size()) || (!side.types.empty() && i >= side.types.size()))
    return false;
  count = side.counts.empty() ? side.count : side.counts[i];
  type = side.types.empty() ? side.type.get() : side.types[i].get();
  return type != nullptr;
}

std::string op_text(const Args& a)
{
  if (!a.predefined_op)
    return "a user-defined operation";
  return ops::op_name(static_cast<ops::OpId>(static_cast<int>(a.op) & 0xffffff));
}

struct Disagreement {
  std::string rule;
  std::string requirement;
  std::string what;
};

std::string rank_text(int local)
{
  return "rank " + std::to_string(local);
}

// Portion `a` of rank `ia` against portion `b` of rank `ib`: the signatures
// must be equal. `what_a`, `what_b`: "sends to rank 2" and the like.
std::optional<Disagreement> compare_portions(const char* name, const Args::Side& a, int a_peer, int ia,
                                             const std::string& what_a, const Args::Side& b, int b_peer, int ib,
                                             const std::string& what_b, const char* requirement)
{
  std::int64_t ca = 0, cb = 0;
  const dt::Datatype* ta = nullptr;
  const dt::Datatype* tb = nullptr;
  if (!portion_of(a, a_peer, ca, ta) || !portion_of(b, b_peer, cb, tb))
    return std::nullopt;
  dt::EnvelopeSignature sa = dt::envelope_signature(*ta, ca);
  dt::EnvelopeSignature sb = dt::envelope_signature(*tb, cb);
  if (!sa.checked() || !sb.checked() || (sa.hash == sb.hash && sa.elements == sb.elements))
    return std::nullopt;
  return Disagreement{"type mismatch", requirement,
                      std::string("type mismatch in ") + name + ": " + rank_text(ia) + " " + what_a + " " +
                          dt::items_text(*ta, ca) + " but " + rank_text(ib) + " " + what_b + " " +
                          dt::items_text(*tb, cb) + " (type signatures differ)"};
}

// The disagreement between the call of rank `ia` and that of rank `ib` (local ranks), if any.
std::optional<Disagreement> compare(const char* name, const Args& a, int ia, const Args& b, int ib)
{
  if (a.shape != b.shape)
    return std::nullopt;
  const std::string at_a = " at " + rank_text(ia), at_b = " at " + rank_text(ib);
  if (a.root >= 0 && b.root >= 0 && a.root != b.root)
    return Disagreement{"collective argument mismatch", "all members of the communicator pass the same root",
                        std::string(name) + " with root " + std::to_string(a.root) + at_a + " but root " +
                            std::to_string(b.root) + at_b};
  if (a.shape == Shape::Reduction && (a.predefined_op || b.predefined_op) && a.op != b.op)
    return Disagreement{"collective argument mismatch", "all members of the communicator pass the same operation",
                        std::string(name) + " with " + op_text(a) + at_a + " but " + op_text(b) + at_b};
  if (a.in_place_everywhere && a.in_place != b.in_place) {
    const std::string& in = a.in_place ? at_a : at_b;
    const std::string& out = a.in_place ? at_b : at_a;
    return Disagreement{"collective argument mismatch",
                        "MPI_IN_PLACE is passed as the send buffer by all members of the communicator or by none",
                        std::string(name) + " with MPI_IN_PLACE" + in + " but not" + out};
  }
  const char* equal = "the type signatures of the portions a member sends and its partner receives are equal";
  switch (a.shape) {
    case Shape::Bcast:
      if (ia != a.root && ib != a.root)
        return std::nullopt;
      return compare_portions(name, a.send, 0, ia, ia == a.root ? "broadcasts" : "receives", b.send, 0, ib,
                              ib == a.root ? "broadcasts" : "receives",
                              "the type signature of count and datatype at every member equals the root's");
    case Shape::Reduction:
      return compare_portions(name, a.send, 0, ia, "passes", b.send, 0, ib, "passes",
                              "every member passes the same count and a datatype of the same type signature");
    case Shape::Gather:
      if (ib == a.root)
        return compare_portions(name, a.send, 0, ia, "sends", b.recv, ia, ib,
                                "receives from " + rank_text(ia), equal);
      if (ia == a.root)
        return compare_portions(name, a.recv, ib, ia, "receives from " + rank_text(ib), b.send, 0, ib, "sends",
                                equal);
      return std::nullopt;
    case Shape::Scatter:
      if (ia == a.root)
        return compare_portions(name, a.send, ib, ia, "sends to " + rank_text(ib), b.recv, 0, ib, "receives",
                                equal);
      if (ib == a.root)
        return compare_portions(name, a.recv, 0, ia, "receives", b.send, ia, ib, "sends to " + rank_text(ia),
                                equal);
      return std::nullopt;
    case Shape::AllToAll:
      if (auto d = compare_portions(name, a.send, ib, ia, "sends to " + rank_text(ib), b.recv, ia, ib,
                                    "receives from " + rank_text(ia), equal))
        return d;
      return compare_portions(name, a.recv, ib, ia, "receives from " + rank_text(ib), b.send, ia, ib,
                              "sends to " + rank_text(ia), equal);
    case Shape::Unknown:
      break;
  }
  return std::nullopt;
}

}  // namespace

void note_arguments(const CallContext& caller, const Communicator& comm, CollectiveArguments args)
{
  auto& self = const_cast<Communicator&>(comm);
  CollectiveLog& log = self.log;
  if (comm.is_inter() || log.calls == 0)
    return;
  if (!log.arguments)
    log.arguments = std::make_unique<std::array<CollectiveArguments, CollectiveLog::kDepth>>();
  std::uint64_t k = log.calls - 1;  // note_collective counted this call
  Args& mine = (*log.arguments)[k % CollectiveLog::kDepth];
  mine = std::move(args);
  int n = comm.group->size();
  if (n < 2 || log.arguments_mismatch_reported || log.mismatch_reported)
    return;
  const char* name = log.names[k % CollectiveLog::kDepth];
  int me = comm.my_rank;
  // Whom to compare with (see the top of the file).
  int hub = mine.root >= 0 && mine.root < n ? mine.root : 0;
  std::set<int> partners = {(me + 1) % n, (me + n - 1) % n, hub};
  if (me == hub)
    for (int p = 0; p < n; ++p)
      partners.insert(p);
  partners.erase(me);
  for (int peer : partners) {
    Communicator* other = const_cast<Communicator*>(collective_member(caller.model(), comm, peer));
    if (!other)
      continue;
    const Args* theirs = arguments_of(other->log, k);
    const char* their_name = other->log.names[k % CollectiveLog::kDepth];
    if (!theirs || !their_name || !name || std::strcmp(their_name, name) != 0)
      continue;
    if (other->log.arguments_mismatch_reported) {  // reported between other members already
      log.arguments_mismatch_reported = true;
      return;
    }
    std::optional<Disagreement> d = compare(name, mine, me, *theirs, peer);
    if (!d)
      continue;
    log.arguments_mismatch_reported = other->log.arguments_mismatch_reported = true;
    StandardError e;
    e.rule = d->rule;
    e.section = mine.section;
    e.requirement = d->requirement;
    e.what = d->what + " (collective call #" + std::to_string(k + 1) + " on " + communicator_text(comm) + ")";
    int peer_world = comm.group->world_rank(peer);
    e.sites = {{peer_world, their_name, collective_site(other->log, k, peer_world)},
               {caller.world(), name, collective_site(log, k, caller.world())}};
    e.time = caller.rank() ? caller.rank()->clock().now() : simgrid::s4u::Engine::get_clock();
    e.context_id = comm.context_id;
    caller.model().standard_errors().add(std::move(e));
    return;
  }
}

}  // namespace progsim::mpi::coll
