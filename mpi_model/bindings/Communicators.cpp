// MPI-4.1 §7.4-7.8: accessors, constructors (dup, split, split_type,
// create, create_group), MPI_Comm_free, names and info hints, and the
// intercommunicators of §7.6 (MPI_Intercomm_create, MPI_Intercomm_merge,
// remote group; dup, split and create work on them; split_type and
// create_group do not).
//
// A new communicator gets its context id by a collective agreement over the
// parent (coll::agree_context, see core/Communicator.hpp), inherits the
// parent's error handler (MPI-4.1 §9.3), and on MPI_Comm_dup the parent's
// attributes through their copy callbacks and its info hints. Constructors
// count as collective calls on the parent for the mismatch check.

#include "bindings/Communicators.hpp"
#include "coll/Collectives.hpp"
#include "coll/Intercomm.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace progsim;
using namespace progsim::mpi;

namespace {

CommunicatorTable& table(const Binding& b)
{
  return b.model().communicators();
}

int begin(const Binding& b, MPI_Comm comm, const Communicator*& c, bool collective)
{
  if (int err = b.check_initialized())
    return err;
  if (int err = b.resolve_comm(comm, c))
    return err;
  if (collective)
    coll::note_collective(b, *c, b.call());
  return MPI_SUCCESS;
}

int finish(const Binding& b, MPI_Comm comm, int err)
{
  if (err == MPI_SUCCESS)
    return MPI_SUCCESS;
  return b.error(comm, err,
                 err == MPI_ERR_INTERN ? "no free context id: too many communicators exist at once"
                                       : "the communicator construction failed");
}

// This process's object of a new communicator (not registered yet).
std::unique_ptr<Communicator> make_comm(const Binding& b, const Communicator& parent, int context, GroupPtr group)
{
  auto c = make_communicator(b, parent.errhandler, context, std::move(group));
  c->session = parent.session;  // derived from a session's communicator: of that session (MPI-4.1 §11.3)
  return c;
}

int no_intercomm(const Binding& b, MPI_Comm comm, const Communicator& c)
{
  if (c.is_inter())
    return b.error(comm, MPI_ERR_COMM, std::string(b.call()) + " on an intercommunicator is not supported");
  return MPI_SUCCESS;
}

int check_subgroup(const Binding& b, MPI_Comm comm, const Communicator& parent, const Group& group)
{
  for (int w : group.world_ranks())
    if (parent.group->local_rank(w) < 0)
      return b.error(comm, MPI_ERR_GROUP,
                     "the group contains world rank " + std::to_string(w) + ", which is not in the communicator");
  return MPI_SUCCESS;
}

// MPI_Comm_dup & co. With `nonblocking` (MPI_Comm_idup) the context id is
// drawn without communication (CommunicatorTable::idup_context), so that
// the call completes at once without waiting for the other members.
int dup(const Binding& b, MPI_Comm comm, const MPI_Info* info, MPI_Comm* newcomm, bool nonblocking = false)
{
  const Communicator* parent = nullptr;
  if (int err = begin(b, comm, parent, true))
    return err;
  if (!newcomm)
    return b.error(comm, MPI_ERR_ARG, "null newcomm pointer");
  Info hints = parent->hints;
  if (info)
    if (int err = info_contents(b, *info, hints))
      return err;
  int context = 0;
  if (nonblocking) {
    int lowest = *std::min_element(parent->group->world_ranks().begin(), parent->group->world_ranks().end());
    int members = parent->group->size();
    if (parent->is_inter()) {
      lowest = std::min(lowest, *std::min_element(parent->remote_group->world_ranks().begin(),
                                                  parent->remote_group->world_ranks().end()));
      members += parent->remote_group->size();
    }
    auto& counter = const_cast<Communicator*>(parent)->idups;
    context = table(b).idup_context(parent->context_id, lowest, counter++, members);
  } else {
    int err = parent->is_inter() ? coll::agree_context_inter(b, *parent, context)
                                 : coll::agree_context({b, *parent, coll::kContextTag}, context);
    if (err)
      return finish(b, comm, err);
  }
  auto fresh = make_comm(b, *parent, context, parent->group);
  fresh->remote_group = parent->remote_group;
  fresh->topology = parent->topology;  // MPI-4.1 §8.4: duplicates keep the topology
  fresh->hints = std::move(hints);
  Communicator& added = table(b).add(b.world(), std::move(fresh));
  if (int err = copy_attributes(b, *parent, added)) {
    delete_attributes(b, added);
    table(b).remove(b.world(), added.handle);
    *newcomm = MPI_COMM_NULL;
    return b.error(comm, err, "an attribute copy callback failed with code " + std::to_string(err));
  }
  *newcomm = added.handle;
  return MPI_SUCCESS;
}

// MPI_Comm_idup: the duplication completes at once (no communication); the
// request is a completed one that MPI_Wait & co. retire. This is allowed:
// MPI-4.1 §7.4.2 only forbids using newcomm before the request completes,
// and a nonblocking operation may complete as soon as it starts (§3.7, as
// for nonblocking collectives in §6.12, which may complete locally). What
// MPI_Comm_idup must not do is synchronize (another member may call it
// later, after blocking on something this process does next): drawing the
// context id from the job-wide idup counter (core/Communicator.hpp) needs no
// partner. The attributes are copied in the call: §7.4.2 gives idup the
// semantics of a dup executed when idup is called (attributes changed
// afterwards are not copied).
MPI_Request completed_request(const Binding& b, const Communicator& comm)
{
  RequestPtr r = new_request(RequestKind::Recv, b.world(), comm, 0, b.call());
  r->state = RequestState::Complete;
  return hand_out(b, r);
}

// The members of `group` whose (color, key, next context) triple in
// `triples` has `color`, ordered by (key, rank in group), as world ranks.
std::vector<int> members_of_color(const Group& group, const std::vector<int>& triples, int color)
{
  std::vector<int> members;
  for (int i = 0; i < group.size(); ++i)
    if (triples[static_cast<size_t>(3 * i)] == color)
      members.push_back(i);
  std::stable_sort(members.begin(), members.end(), [&](int x, int y) {
    return triples[static_cast<size_t>(3 * x + 1)] < triples[static_cast<size_t>(3 * y + 1)];
  });
  std::vector<int> world_ranks;
  for (int m : members)
    world_ranks.push_back(group.world_rank(m));
  return world_ranks;
}

// The largest next context id in the triples (the agreement of
// coll::agree_context, done on the exchanged data).
int max_next_context(const std::vector<int>& triples)
{
  int context = 0;
  for (std::size_t i = 2; i < triples.size(); i += 3)
    context = std::max(context, triples[i]);
  return context;
}

// The split of `parent` by (color, key): one allgather of (color, key, next
// context id) tells every member all colors and keys and gives the agreed
// context id (the largest next id, as coll::agree_context computes it); all
// colors share it. Each color's members are ordered by (key, rank in
// parent). MPI_UNDEFINED gives MPI_COMM_NULL.
int split(const Binding& b, MPI_Comm comm, const Communicator& parent, int color, int key, MPI_Comm* newcomm)
{
  int n = parent.size();
  int mine[3] = {color, key, table(b).next_context(b.world())};
  std::vector<int> all(static_cast<size_t>(3 * n));
  if (int err = coll::allgather({b, parent, coll::kCommCreateTag}, mine, 3, MPI_INT, all.data(), 3, MPI_INT))
    return finish(b, comm, err);
  int context = max_next_context(all);
  if (color == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  auto fresh = make_comm(b, parent, context,
                         std::make_shared<const Group>(members_of_color(*parent.group, all, color)));
  *newcomm = table(b).add(b.world(), std::move(fresh)).handle;
  return MPI_SUCCESS;
}

// Intercommunicators: every process of the local group holds the same
// `mine`; on return every process holds the remote group's (the leaders swap
// them and tell their group).
int swap_with_remote(const Binding& b, const Communicator& inter, const std::vector<int>& mine,
                     std::vector<int>& theirs)
{
  coll::CollCall across{b, inter, coll::kCommCreateTag};
  coll::CollCall local = coll::local_call(across);
  int my_size = static_cast<int>(mine.size()), their_size = 0;
  if (inter.my_rank == 0) {
    RequestPtr r = coll::irecv(across, 0, &their_size, 1, MPI_INT);
    RequestPtr s = coll::isend(across, 0, &my_size, 1, MPI_INT);
    if (int err = coll::wait_all(across, {s, r}))
      return err;
  }
  if (int err = coll::bcast(local, &their_size, 1, MPI_INT, 0))
    return err;
  theirs.assign(static_cast<size_t>(their_size), 0);
  if (inter.my_rank == 0) {
    RequestPtr r = coll::irecv(across, 0, theirs.data(), their_size, MPI_INT);
    RequestPtr s = coll::isend(across, 0, mine.data(), my_size, MPI_INT);
    if (int err = coll::wait_all(across, {s, r}))
      return err;
  }
  return coll::bcast(local, theirs.data(), their_size, MPI_INT, 0);
}

// MPI_Comm_split of an intercommunicator (MPI-4.1 §7.4.2): per color, the
// local and the remote processes of that color form an intercommunicator;
// MPI_COMM_NULL when either side has none.
int split_inter(const Binding& b, MPI_Comm comm, const Communicator& parent, int color, int key, MPI_Comm* newcomm)
{
  coll::CollCall local{b, coll::local_view(parent), coll::kLocalTagBase + coll::kCommCreateTag};
  int mine[3] = {color, key, table(b).next_context(b.world())};
  std::vector<int> local_triples(static_cast<size_t>(3 * parent.group->size())), remote_triples;
  if (int err = coll::allgather(local, mine, 3, MPI_INT, local_triples.data(), 3, MPI_INT))
    return finish(b, comm, err);
  if (int err = swap_with_remote(b, parent, local_triples, remote_triples))
    return finish(b, comm, err);
  int context = std::max(max_next_context(local_triples), max_next_context(remote_triples));
  std::vector<int> remote;
  if (color != MPI_UNDEFINED)
    remote = members_of_color(*parent.remote_group, remote_triples, color);
  if (remote.empty()) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  auto fresh = make_comm(b, parent, context,
                         std::make_shared<const Group>(members_of_color(*parent.group, local_triples, color)));
  fresh->remote_group = std::make_shared<const Group>(std::move(remote));
  *newcomm = table(b).add(b.world(), std::move(fresh)).handle;
  return MPI_SUCCESS;
}

// The color MPI_COMM_TYPE_SHARED gives a process: the lowest world rank on
// its simulated host (all processes of a host compute the same).
int host_color(const Binding& b, int world_rank)
{
  sim::Simulation& s = b.model().simulation();
  simgrid::s4u::Host* host = s.rank(world_rank).host();
  for (int r = 0; r < s.size(); ++r)
    if (s.rank(r).host() == host)
      return r;
  return world_rank;
}

bool hw_type_is_shared_memory(const Binding& b, MPI_Info info)
{
  Info hints;
  if (info == MPI_INFO_NULL || info_contents(b, info, hints) != MPI_SUCCESS)
    return false;
  const std::string* v = hints.get("mpi_hw_resource_type");
  return v && *v == "mpi_shared_memory";
}

}  // namespace

std::unique_ptr<Communicator> progsim::mpi::make_communicator(const Binding& b, MPI_Errhandler errhandler, int context,
                                                             GroupPtr group)
{
  auto c = std::make_unique<Communicator>();
  c->context_id = context;
  c->group = std::move(group);
  c->owner = b.world();
  c->my_rank = c->group->local_rank(b.world());
  c->errhandler = errhandler;
  return c;
}

int progsim::mpi::split_communicator(const Binding& b, MPI_Comm comm, const Communicator& parent, int color, int key,
                                     MPI_Comm* newcomm)
{
  return split(b, comm, parent, color, key, newcomm);
}

extern "C" {

int PMPI_Comm_rank(MPI_Comm comm, int* rank)
{
  Binding b("MPI_Comm_rank", sim::CallKind::LocalQuery);
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  *rank = c->my_rank;
  return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int* size)
{
  Binding b("MPI_Comm_size", sim::CallKind::LocalQuery);
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  *size = c->group->size();
  return MPI_SUCCESS;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result)
{
  Binding b("MPI_Comm_compare");
  const Communicator *c1 = nullptr, *c2 = nullptr;
  if (int err = begin(b, comm1, c1, false))
    return err;
  if (int err = b.resolve_comm(comm2, c2))
    return err;
  if (c1 == c2) {
    *result = MPI_IDENT;
  } else if (c1->is_inter() != c2->is_inter()) {
    *result = MPI_UNEQUAL;
  } else {
    // Intercommunicators: both groups compared the same way (MPI-4.1 §7.4.1).
    int local = compare_groups(*c1->group, *c2->group);
    int remote = c1->is_inter() ? compare_groups(*c1->remote_group, *c2->remote_group) : MPI_IDENT;
    int worst = std::max(local, remote);
    *result = worst == MPI_IDENT ? MPI_CONGRUENT : worst;
  }
  return MPI_SUCCESS;
}

int PMPI_Comm_test_inter(MPI_Comm comm, int* flag)
{
  Binding b("MPI_Comm_test_inter");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  *flag = c->is_inter() ? 1 : 0;
  return MPI_SUCCESS;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int* size)
{
  Binding b("MPI_Comm_remote_size");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  if (!c->is_inter())
    return b.error(comm, MPI_ERR_COMM, "not an intercommunicator");
  *size = c->remote_group->size();
  return MPI_SUCCESS;
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group)
{
  Binding b("MPI_Comm_remote_group");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  if (!c->is_inter())
    return b.error(comm, MPI_ERR_COMM, "not an intercommunicator");
  *group = b.model().process(b.world()).groups.insert(c->remote_group);
  return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
  Binding b("MPI_Comm_dup");
  return dup(b, comm, nullptr, newcomm);
}

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm)
{
  Binding b("MPI_Comm_dup_with_info");
  return dup(b, comm, &info, newcomm);
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request)
{
  Binding b("MPI_Comm_idup");
  if (int err = dup(b, comm, nullptr, newcomm, true))
    return err;
  *request = completed_request(b, *b.model().communicators().find(*newcomm, b.world()));
  return MPI_SUCCESS;
}

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm, MPI_Request* request)
{
  Binding b("MPI_Comm_idup_with_info");
  if (int err = dup(b, comm, &info, newcomm, true))
    return err;
  *request = completed_request(b, *b.model().communicators().find(*newcomm, b.world()));
  return MPI_SUCCESS;
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  Binding b("MPI_Comm_split");
  const Communicator* parent = nullptr;
  if (int err = begin(b, comm, parent, true))
    return err;
  if (color < 0 && color != MPI_UNDEFINED)
    return b.error(comm, MPI_ERR_ARG, "invalid color " + std::to_string(color) + " (must be >= 0 or MPI_UNDEFINED)");
  if (parent->is_inter())
    return split_inter(b, comm, *parent, color, key, newcomm);
  return split(b, comm, *parent, color, key, newcomm);
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm)
{
  Binding b("MPI_Comm_split_type");
  const Communicator* parent = nullptr;
  if (int err = begin(b, comm, parent, true))
    return err;
  if (int err = no_intercomm(b, comm, *parent))
    return err;
  int color = MPI_UNDEFINED;
  switch (split_type) {
    case MPI_UNDEFINED: break;
    case MPI_COMM_TYPE_SHARED: color = host_color(b, b.world()); break;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
      if (hw_type_is_shared_memory(b, info))
        color = host_color(b, b.world());
      break;
    case MPI_COMM_TYPE_HW_UNGUIDED: {
      // A strict subset of the parent: the host's processes, unless the
      // whole parent is on this host.
      int mine = host_color(b, b.world());
      for (int w : parent->group->world_ranks())
        if (host_color(b, w) != mine) {
          color = mine;
          break;
        }
      break;
    }
    default:
      return b.error(comm, MPI_ERR_ARG, "invalid split_type " + std::to_string(split_type));
  }
  if (int err = split(b, comm, *parent, color, key, newcomm))
    return err;
  // MPI-4.1 §7.4.2: an unguided split reports the resource it used.
  if (split_type == MPI_COMM_TYPE_HW_UNGUIDED && *newcomm != MPI_COMM_NULL && info != MPI_INFO_NULL)
    if (Info* i = b.model().process(b.world()).infos.find(info); i && info != MPI_INFO_ENV)
      i->set("mpi_hw_resource_type", "mpi_shared_memory");
  return MPI_SUCCESS;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm)
{
  Binding b("MPI_Comm_create");
  const Communicator* parent = nullptr;
  if (int err = begin(b, comm, parent, true))
    return err;
  GroupPtr g = b.model().process(b.world()).groups.find(group);
  if (!g)
    return b.error(comm, MPI_ERR_GROUP, group == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "unknown group handle");
  if (int err = check_subgroup(b, comm, *parent, *g))
    return err;
  if (parent->is_inter()) {
    // MPI-4.1 §7.4.2: each side passes a subgroup of its own group; the
    // result joins the two subgroups.
    std::vector<int> remote;
    if (int err = swap_with_remote(b, *parent, g->world_ranks(), remote))
      return finish(b, comm, err);
    int context = 0;
    if (int err = coll::agree_context_inter(b, *parent, context))
      return finish(b, comm, err);
    if (g->local_rank(b.world()) < 0 || remote.empty()) {
      *newcomm = MPI_COMM_NULL;
      return MPI_SUCCESS;
    }
    auto fresh = make_comm(b, *parent, context, g);
    fresh->remote_group = std::make_shared<const Group>(std::move(remote));
    *newcomm = table(b).add(b.world(), std::move(fresh)).handle;
    return MPI_SUCCESS;
  }
  int context = 0;
  if (int err = coll::agree_context({b, *parent, coll::kContextTag}, context))
    return finish(b, comm, err);
  if (g->local_rank(b.world()) < 0) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  *newcomm = table(b).add(b.world(), make_comm(b, *parent, context, g)).handle;
  return MPI_SUCCESS;
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm)
{
  Binding b("MPI_Comm_create_group");
  const Communicator* parent = nullptr;
  if (int err = begin(b, comm, parent, false))
    return err;
  if (int err = no_intercomm(b, comm, *parent))
    return err;
  GroupPtr g = b.model().process(b.world()).groups.find(group);
  if (!g)
    return b.error(comm, MPI_ERR_GROUP, group == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "unknown group handle");
  if (int err = check_subgroup(b, comm, *parent, *g))
    return err;
  if (tag < 0 || tag > kTagUpperBound)
    return b.error(comm, MPI_ERR_TAG, "invalid tag " + std::to_string(tag));
  if (g->local_rank(b.world()) < 0) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  // The agreement runs among the group's members only, on the parent's
  // collective context with a tag of its own.
  int context = 0;
  if (int err = coll::agree_context_among(b, *parent, g->world_ranks(), coll::kCreateGroupAgreementTagBase + tag,
                                           context))
    return finish(b, comm, err);
  *newcomm = table(b).add(b.world(), make_comm(b, *parent, context, g)).handle;
  return MPI_SUCCESS;
}

int PMPI_Comm_free(MPI_Comm* comm)
{
  Binding b("MPI_Comm_free");
  if (int err = b.check_initialized())
    return err;
  if (!comm)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null comm pointer");
  Communicator* c = table(b).get(*comm, b.world());
  if (!c)
    return b.error(MPI_COMM_WORLD, MPI_ERR_COMM, *comm == MPI_COMM_NULL ? "MPI_COMM_NULL" : "unknown communicator handle");
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return b.error(*comm, MPI_ERR_COMM, "a predefined communicator cannot be freed");
  if (int err = delete_attributes(b, *c))
    return b.error(*comm, err, "an attribute delete callback failed with code " + std::to_string(err));
  table(b).remove(b.world(), *comm);
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_set_name(MPI_Comm comm, const char* comm_name)
{
  Binding b("MPI_Comm_set_name");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  if (!comm_name)
    return b.error(comm, MPI_ERR_ARG, "null name");
  std::string name = comm_name;
  name.resize(std::min<std::size_t>(name.size(), MPI_MAX_OBJECT_NAME - 1));
  const_cast<Communicator*>(c)->name = name;
  return MPI_SUCCESS;
}

int PMPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen)
{
  Binding b("MPI_Comm_get_name");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  if (!comm_name || !resultlen)
    return b.error(comm, MPI_ERR_ARG, "null name or resultlen");
  std::memcpy(comm_name, c->name.c_str(), c->name.size() + 1);
  *resultlen = static_cast<int>(c->name.size());
  return MPI_SUCCESS;
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
  Binding b("MPI_Comm_set_info");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  Info hints;
  if (int err = info_contents(b, info, hints))
    return err;
  const_cast<Communicator*>(c)->hints.merge(hints);
  return MPI_SUCCESS;
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used)
{
  Binding b("MPI_Comm_get_info");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  if (!info_used)
    return b.error(comm, MPI_ERR_ARG, "null info_used pointer");
  *info_used = new_info(b, c->hints);
  return MPI_SUCCESS;
}


int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm* newintercomm)
{
  Binding b("MPI_Intercomm_create");
  const Communicator* local = nullptr;
  if (int err = begin(b, local_comm, local, true))
    return err;
  if (int err = no_intercomm(b, local_comm, *local))
    return err;
  if (local_leader < 0 || local_leader >= local->size())
    return b.error(local_comm, MPI_ERR_RANK, "invalid local_leader " + std::to_string(local_leader));
  if (tag < 0 || tag > kTagUpperBound)
    return b.error(local_comm, MPI_ERR_TAG, "invalid tag " + std::to_string(tag));
  bool leader = local->my_rank == local_leader;
  const Communicator* peer = nullptr;
  if (leader) {
    if (int err = b.resolve_comm(peer_comm, peer))
      return err;
    if (remote_leader < 0 || remote_leader >= peer->size())
      return b.error(peer_comm, MPI_ERR_RANK, "invalid remote_leader " + std::to_string(remote_leader));
    if (peer->world_rank(remote_leader) == b.world())
      return b.error(peer_comm, MPI_ERR_RANK, "the remote leader is this process (the groups must be disjoint)");
  }
  // The largest next context id in the local group, then the leaders swap
  // their group's members and maximum over peer_comm (collective context, a
  // tag of their own) and tell their groups the id and the remote group.
  coll::CollCall in_local{b, *local, coll::kContextTag};
  int mine = table(b).next_context(b.world()), agreed = 0;
  if (int err = coll::allreduce(in_local, &mine, &agreed, 1, MPI_INT, MPI_MAX))
    return finish(b, local_comm, err);
  std::vector<int> header(2, 0);  // context id, remote size
  std::vector<int> remote_ranks;
  if (leader) {
    coll::CollCall leaders{b, *peer, -2 - tag};
    int my_size = local->size(), their_size = 0, their_next = 0;
    RequestPtr r = coll::irecv(leaders, remote_leader, &their_size, 1, MPI_INT);
    RequestPtr s = coll::isend(leaders, remote_leader, &my_size, 1, MPI_INT);
    if (int err = coll::wait_all(leaders, {s, r}))
      return finish(b, local_comm, err);
    remote_ranks.resize(static_cast<size_t>(their_size));
    std::vector<RequestPtr> rs;
    rs.push_back(coll::irecv(leaders, remote_leader, remote_ranks.data(), their_size, MPI_INT));
    rs.push_back(coll::irecv(leaders, remote_leader, &their_next, 1, MPI_INT));
    rs.push_back(coll::isend(leaders, remote_leader, local->group->world_ranks().data(), my_size, MPI_INT));
    rs.push_back(coll::isend(leaders, remote_leader, &agreed, 1, MPI_INT));
    if (int err = coll::wait_all(leaders, rs))
      return finish(b, local_comm, err);
    header[0] = std::max(agreed, their_next);
    header[1] = their_size;
  }
  coll::CollCall tell{b, *local, coll::kCommCreateTag};
  if (int err = coll::bcast(tell, header.data(), 2, MPI_INT, local_leader))
    return finish(b, local_comm, err);
  remote_ranks.resize(static_cast<size_t>(header[1]));
  if (int err = coll::bcast(tell, remote_ranks.data(), header[1], MPI_INT, local_leader))
    return finish(b, local_comm, err);
  auto fresh = make_comm(b, *local, header[0], local->group);
  fresh->remote_group = std::make_shared<const Group>(std::move(remote_ranks));
  *newintercomm = table(b).add(b.world(), std::move(fresh)).handle;
  return MPI_SUCCESS;
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm)
{
  Binding b("MPI_Intercomm_merge");
  const Communicator* inter = nullptr;
  if (int err = begin(b, intercomm, inter, true))
    return err;
  if (!inter->is_inter())
    return b.error(intercomm, MPI_ERR_COMM, "not an intercommunicator");
  // The leaders swap (high, leader's world rank); the group with high =
  // false comes first, or, when both said the same, the group whose leader
  // has the lower world rank.
  int mine[2] = {high ? 1 : 0, inter->group->world_rank(0)}, theirs[2] = {0, 0};
  coll::CollCall leaders{b, *inter, coll::kCommCreateTag};
  if (inter->my_rank == 0) {
    RequestPtr r = coll::irecv(leaders, 0, theirs, 2, MPI_INT);
    RequestPtr s = coll::isend(leaders, 0, mine, 2, MPI_INT);
    if (int err = coll::wait_all(leaders, {s, r}))
      return finish(b, intercomm, err);
  }
  if (int err = coll::bcast(coll::local_call(leaders), theirs, 2, MPI_INT, 0))
    return finish(b, intercomm, err);
  bool local_first = mine[0] != theirs[0] ? mine[0] == 0 : mine[1] < theirs[1];
  int context = 0;
  if (int err = coll::agree_context_inter(b, *inter, context))
    return finish(b, intercomm, err);
  const Group& first = local_first ? *inter->group : *inter->remote_group;
  const Group& second = local_first ? *inter->remote_group : *inter->group;
  std::vector<int> members = first.world_ranks();
  members.insert(members.end(), second.world_ranks().begin(), second.world_ranks().end());
  auto fresh = make_comm(b, *inter, context, std::make_shared<const Group>(std::move(members)));
  *newintracomm = table(b).add(b.world(), std::move(fresh)).handle;
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Comm_rank)
PROGSIM_MPI_ALIAS(MPI_Comm_size)
PROGSIM_MPI_ALIAS(MPI_Comm_compare)
PROGSIM_MPI_ALIAS(MPI_Comm_test_inter)
PROGSIM_MPI_ALIAS(MPI_Comm_remote_size)
PROGSIM_MPI_ALIAS(MPI_Comm_remote_group)
PROGSIM_MPI_ALIAS(MPI_Comm_dup)
PROGSIM_MPI_ALIAS(MPI_Comm_dup_with_info)
PROGSIM_MPI_ALIAS(MPI_Comm_idup)
PROGSIM_MPI_ALIAS(MPI_Comm_idup_with_info)
PROGSIM_MPI_ALIAS(MPI_Comm_split)
PROGSIM_MPI_ALIAS(MPI_Comm_split_type)
PROGSIM_MPI_ALIAS(MPI_Comm_create)
PROGSIM_MPI_ALIAS(MPI_Comm_create_group)
PROGSIM_MPI_ALIAS(MPI_Comm_free)
PROGSIM_MPI_ALIAS(MPI_Comm_set_name)
PROGSIM_MPI_ALIAS(MPI_Comm_get_name)
PROGSIM_MPI_ALIAS(MPI_Comm_set_info)
PROGSIM_MPI_ALIAS(MPI_Comm_get_info)
PROGSIM_MPI_ALIAS(MPI_Intercomm_create)
PROGSIM_MPI_ALIAS(MPI_Intercomm_merge)
