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
// Intercommunicators (§6.2.2): the root arguments (MPI_ROOT at the root,
// MPI_PROC_NULL in the rest of its group, the root's rank in the other
// group), the operation, and the portions of pairs across the two groups
// (note_inter). One error per communicator: a member that meets a partner
// which took part in one stops checking too.

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
  if (log.calls <= k || log.calls - k > CollectiveLog::kDepth)
    return nullptr;
  const Args* a = log.recorded_slot(k);
  return a && a->shape != Shape::Unknown ? a : nullptr;
}

// The count and type `side` holds for `peer`; false when not known.
bool portion_of(const Args::Side& side, int peer, std::int64_t& count, const dt::Datatype*& type)
{
  if (!side.present)
    return false;
  std::size_t i = static_cast<std::size_t>(peer);
  static const Args::PerPeer kNone;
  const Args::PerPeer& per_peer = side.per_peer ? *side.per_peer : kNone;
  if ((!per_peer.counts.empty() && i >= per_peer.counts.size()) ||
      (!per_peer.types.empty() && i >= per_peer.types.size()))
    return false;
  count = per_peer.counts.empty() ? side.count : per_peer.counts[i];
  type = per_peer.types.empty() ? side.type.get() : per_peer.types[i].get();
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
std::optional<Disagreement> compare_portions(const char* name, const Args::Side& a, int a_peer,
                                             const std::string& who_a, const std::string& what_a,
                                             const Args::Side& b, int b_peer, const std::string& who_b,
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
                      std::string("type mismatch in ") + name + ": " + who_a + " " + what_a + " " +
                          dt::items_text(*ta, ca) + " but " + who_b + " " + what_b + " " +
                          dt::items_text(*tb, cb) + " (type signatures differ)"};
}

// Each member sends to and receives from the other (Allgather, Alltoall):
// a's send to b against b's receive from a, and the reverse. `ia`, `ib`
// index the peers' portions, `ta`, `tb` name them.
std::optional<Disagreement> compare_exchange(const char* name, const Args& a, int ia, const std::string& ta,
                                             const Args& b, int ib, const std::string& tb, const char* equal)
{
  if (auto d = compare_portions(name, a.send, ib, ta, "sends to " + tb, b.recv, ia, tb, "receives from " + ta, equal))
    return d;
  return compare_portions(name, a.recv, ib, ta, "receives from " + tb, b.send, ia, tb, "sends to " + ta, equal);
}

// Whether portion `a` of one member and portion `b` of another have known,
// different type signatures (compare_portions then says how).
bool portions_differ(const Args::Side& a, int a_peer, const Args::Side& b, int b_peer)
{
  std::int64_t ca = 0, cb = 0;
  const dt::Datatype* ta = nullptr;
  const dt::Datatype* tb = nullptr;
  if (!portion_of(a, a_peer, ca, ta) || !portion_of(b, b_peer, cb, tb))
    return false;
  dt::EnvelopeSignature sa = dt::envelope_signature(*ta, ca);
  dt::EnvelopeSignature sb = dt::envelope_signature(*tb, cb);
  return sa.checked() && sb.checked() && (sa.hash != sb.hash || sa.elements != sb.elements);
}

// False when describe_difference certainly finds nothing: the check every
// collective call makes, without building any text. Only a reduction's
// portions are looked at here; the other shapes are left to
// describe_difference.
bool may_differ(const Args& a, const Args& b)
{
  if (a.shape != b.shape || a.shape == Shape::Unknown)
    return false;
  if (a.root >= 0 && b.root >= 0 && a.root != b.root)
    return true;
  if (a.shape == Shape::Reduction && (a.predefined_op || b.predefined_op) && a.op != b.op)
    return true;
  if (a.in_place_everywhere && a.in_place != b.in_place)
    return true;
  if (a.shape == Shape::Reduction)
    return portions_differ(a.send, 0, b.send, 0);
  return true;
}

// The disagreement between the call of rank `ia` and that of rank `ib`
// (local ranks), if any. Out of line and cold: its texts took ~1.6 KB of
// stack below every MPI_Allreduce, the deepest path of a replayed rank's
// stack, whose depth decides how many pages each rank keeps resident
// (issue 19); compare() asks may_differ first.
[[gnu::noinline, gnu::cold]] std::optional<Disagreement> describe_difference(const char* name, const Args& a, int ia,
                                                                             const Args& b, int ib)
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
  const std::string ta = rank_text(ia), tb = rank_text(ib);
  switch (a.shape) {
    case Shape::Bcast:
      if (ia != a.root && ib != a.root)
        return std::nullopt;
      return compare_portions(name, a.send, 0, ta, ia == a.root ? "broadcasts" : "receives", b.send, 0, tb,
                              ib == a.root ? "broadcasts" : "receives",
                              "the type signature of count and datatype at every member equals the root's");
    case Shape::Reduction:
      return compare_portions(name, a.send, 0, ta, "passes", b.send, 0, tb, "passes",
                              "every member passes the same count and a datatype of the same type signature");
    case Shape::Gather:
      if (ib == a.root)
        return compare_portions(name, a.send, 0, ta, "sends", b.recv, ia, tb, "receives from " + ta, equal);
      if (ia == a.root)
        return compare_portions(name, a.recv, ib, ta, "receives from " + tb, b.send, 0, tb, "sends", equal);
      return std::nullopt;
    case Shape::Scatter:
      if (ia == a.root)
        return compare_portions(name, a.send, ib, ta, "sends to " + tb, b.recv, 0, tb, "receives", equal);
      if (ib == a.root)
        return compare_portions(name, a.recv, 0, ta, "receives", b.send, ia, tb, "sends to " + ta, equal);
      return std::nullopt;
    case Shape::AllToAll:
      return compare_exchange(name, a, ia, ta, b, ib, tb, equal);
    case Shape::Unknown:
      break;
  }
  return std::nullopt;
}

std::optional<Disagreement> compare(const char* name, const Args& a, int ia, const Args& b, int ib)
{
  if (!may_differ(a, b))
    return std::nullopt;
  return describe_difference(name, a, ia, b, ib);
}

}  // namespace

namespace {

// Intercommunicators (MPI-4.1 §6.2.2): a rooted collective's root group
// passes MPI_ROOT (the root) and MPI_PROC_NULL (the others); every member
// of the other group passes the root's rank. `x` and `y` are calls of the
// same group (`across` false) or of the two groups; ix, iy their ranks in
// their groups, tx, ty how the text names them.
std::optional<Disagreement> compare_inter(const char* name, const Args& x, int ix, const std::string& tx,
                                          const Args& y, int iy, const std::string& ty, bool across)
{
  if (x.shape != y.shape)
    return std::nullopt;
  auto root_text = [](int root) {
    return root == MPI_ROOT ? std::string("MPI_ROOT")
                            : root == MPI_PROC_NULL ? std::string("MPI_PROC_NULL") : "root " + std::to_string(root);
  };
  const char* roots = "the root group passes MPI_ROOT at the root and MPI_PROC_NULL elsewhere, and every member of "
                      "the other group passes the root's rank in the root group";
  bool x_leaf = x.root >= 0, y_leaf = y.root >= 0;
  if (x.rooted && y.rooted) {
    bool bad = across ? x_leaf == y_leaf || (x_leaf && x.root == iy && y.root != MPI_ROOT) ||
                            (y_leaf && y.root == ix && x.root != MPI_ROOT) ||
                            (x.root == MPI_ROOT && y.root != ix) || (y.root == MPI_ROOT && x.root != iy)
                      : x_leaf != y_leaf || (x_leaf && x.root != y.root) || (x.root == MPI_ROOT && y.root == MPI_ROOT);
    if (bad)
      return Disagreement{"collective argument mismatch", roots,
                          std::string(name) + " on an intercommunicator with " + root_text(x.root) + " at " + tx +
                              " but " + root_text(y.root) + " at " + ty +
                              (across ? " of the other group" : " of the same group")};
  }
  // The operation: the members that contribute data (not the root of MPI_Reduce).
  if (x.shape == Shape::Reduction && (!x.rooted || (x_leaf && y_leaf)) && (x.predefined_op || y.predefined_op) &&
      x.op != y.op)
    return Disagreement{"collective argument mismatch", "all members that contribute data pass the same operation",
                        std::string(name) + " with " + op_text(x) + " at " + tx + " but " + op_text(y) + " at " + ty};
  if (!across)
    return std::nullopt;  // portions pair across the groups
  const char* equal = "the type signatures of the portions a member sends and its partner receives are equal";
  // A rooted collective pairs the root with each member of the other group.
  const bool x_root = x.root == MPI_ROOT, y_root = y.root == MPI_ROOT;
  if (x.rooted && !((x_root && y_leaf) || (y_root && x_leaf)))
    return std::nullopt;
  switch (x.shape) {
    case Shape::Bcast:
      return compare_portions(name, x.send, 0, tx, x_root ? "broadcasts" : "receives", y.send, 0, ty,
                              y_root ? "broadcasts" : "receives",
                              "the type signature of count and datatype at every member of the other group equals "
                              "the root's");
    case Shape::Reduction:
      return compare_portions(name, x.send, 0, tx, "passes", y.send, 0, ty, "passes",
                              x.rooted ? "every member of the other group passes the root's count and a datatype of "
                                         "the same type signature"
                                       : "the members of both groups pass the same count and a datatype of the "
                                         "same type signature");
    case Shape::Gather:
      return y_root ? compare_portions(name, x.send, 0, tx, "sends", y.recv, ix, ty, "receives from " + tx, equal)
                    : compare_portions(name, x.recv, iy, tx, "receives from " + ty, y.send, 0, ty, "sends", equal);
    case Shape::Scatter:
      return x_root ? compare_portions(name, x.send, iy, tx, "sends to " + ty, y.recv, 0, ty, "receives", equal)
                    : compare_portions(name, x.recv, 0, tx, "receives", y.send, ix, ty, "sends to " + tx, equal);
    case Shape::AllToAll:
      return compare_exchange(name, x, ix, tx, y, iy, ty, equal);
    case Shape::Unknown:
      break;
  }
  return std::nullopt;
}

// The member of the remote group of intercommunicator `comm` with rank `peer` there.
const Communicator* remote_member(MpiModel& model, const Communicator& comm, int peer)
{
  const Communicator* other = model.communicators().find_by_context(comm.remote_group->world_rank(peer),
                                                                    comm.context_id);
  return other && other->is_inter() && other->group->size() == comm.remote_group->size() ? other : nullptr;
}

[[gnu::noinline, gnu::cold]] void report(const CallContext& caller, const Communicator& comm, std::uint64_t k, const char* name,
            const Communicator& other, int other_world, const char* their_name, const char* section,
            Disagreement d)
{
  const_cast<Communicator&>(comm).log.arguments_mismatch_reported = true;
  const_cast<Communicator&>(other).log.arguments_mismatch_reported = true;
  StandardError e;
  e.rule = std::move(d.rule);
  e.section = section;
  e.requirement = std::move(d.requirement);
  e.what = d.what + " (collective call #" + std::to_string(k + 1) + " on " + communicator_text(comm) + ")";
  e.sites = {{other_world, their_name, collective_site(other.log, k, other_world)},
             {caller.world(), name, collective_site(comm.log, k, caller.world())}};
  e.time = caller.rank() ? caller.rank()->clock().now() : simgrid::s4u::Engine::get_clock();
  e.context_id = comm.context_id;
  caller.model().standard_errors().add(std::move(e));
}

// Call #k of `other` (rank `peer` of its group), when it is the same collective and recorded.
const Args* partner_call(const Communicator& other, std::uint64_t k, const char* name, const char*& their_name)
{
  const Args* theirs = arguments_of(other.log, k);
  their_name = other.log.names[k % CollectiveLog::kDepth];
  if (!theirs || !their_name || !name || std::strcmp(their_name, name) != 0)
    return nullptr;
  return theirs;
}

// A mismatch of this collective was reported between `other` and another
// member already: `comm` takes it as reported too (one report per collective).
bool reported_among_others(const Communicator& comm, const Communicator& other)
{
  if (!other.log.arguments_mismatch_reported)
    return false;
  const_cast<Communicator&>(comm).log.arguments_mismatch_reported = true;
  return true;
}

// Call #k of `comm` (`mine`) against the same call of `other` (rank `peer`
// of its group; null when unknown), by `differ`: the first disagreement is
// reported. True when checking this call stops (reported now or before).
template <class Differ>
bool compared_with(const CallContext& caller, const Communicator& comm, std::uint64_t k, const char* name,
                   const Args& mine, const Communicator* other, int peer, Differ differ)
{
  if (!other)
    return false;
  const char* their_name = nullptr;
  const Args* theirs = partner_call(*other, k, name, their_name);
  if (!theirs)
    return false;
  if (reported_among_others(comm, *other))
    return true;
  std::optional<Disagreement> d = differ(*theirs);
  if (!d)
    return false;
  report(caller, comm, k, name, *other, other->group->world_rank(peer), their_name, mine.section, std::move(*d));
  return true;
}

// An intercommunicator's call #k: compared with members of the local group
// (the ring neighbours, member 0, all of them at the root) and of the
// remote group (the member of the same rank modulo its size, member 0, the
// root named, all of them at the root and at member 0).
void note_inter(const CallContext& caller, const Communicator& comm, std::uint64_t k, const Args& mine)
{
  const char* name = comm.log.names[k % CollectiveLog::kDepth];
  int n = comm.group->size(), rn = comm.remote_group->size(), me = comm.my_rank;
  auto text = [](const Communicator& c, int local) {
    return "rank " + std::to_string(local) + " (world rank " + std::to_string(c.group->world_rank(local)) + ")";
  };
  const std::string mine_text = text(comm, me);
  std::set<int> local = {(me + 1) % n, (me + n - 1) % n, 0};
  if (mine.root == MPI_ROOT)
    for (int p = 0; p < n; ++p)
      local.insert(p);
  local.erase(me);
  std::set<int> remote = {me % rn, 0};
  if (mine.root >= 0 && mine.root < rn)
    remote.insert(mine.root);
  if (mine.root == MPI_ROOT || me == 0)
    for (int p = 0; p < rn; ++p)
      remote.insert(p);
  for (bool across : {false, true})
    for (int peer : across ? remote : local) {
      const Communicator* other =
          across ? remote_member(caller.model(), comm, peer) : collective_member(caller.model(), comm, peer);
      if (compared_with(caller, comm, k, name, mine, other, peer, [&](const Args& theirs) {
            return compare_inter(name, theirs, peer, text(*other, peer), mine, me, mine_text, across);
          }))
        return;
    }
}

}  // namespace

void note_arguments(const CallContext& caller, const Communicator& comm, CollectiveArguments args)
{
  auto& self = const_cast<Communicator&>(comm);
  CollectiveLog& log = self.log;
  if (log.calls == 0)
    return;
  std::uint64_t k = log.calls - 1;  // note_collective counted this call
  Args& mine = log.argument_slot(k);
  mine = std::move(args);
  if (log.arguments_mismatch_reported || log.mismatch_reported)
    return;
  if (comm.is_inter()) {
    note_inter(caller, comm, k, mine);
    return;
  }
  int n = comm.group->size();
  if (n < 2)
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
  for (int peer : partners)
    if (compared_with(caller, comm, k, name, mine, collective_member(caller.model(), comm, peer), peer,
                      [&](const Args& theirs) { return compare(name, mine, me, theirs, peer); }))
      return;
}

}  // namespace progsim::mpi::coll
