// MPI-4.1 §7.4.2 MPI_Comm_create_from_group and §7.6.2
// MPI_Intercomm_create_from_groups: constructors without a parent
// communicator, collective over the group(s) only. In the World Model the
// groups come from communicators (every member is a process of
// MPI_COMM_WORLD), so the members agree on the context id over
// MPI_COMM_WORLD's collective context (agree_context_among), with a tag
// derived from the string tag that MPI requires to tell concurrent calls
// apart. The new communicator gets the given error handler (§9.3) and no
// attributes. In the Sessions Model the groups come from process sets
// (MPI_Group_from_session_pset): the agreement is the same, and the new
// communicator belongs to the local group's session.

#include "bindings/Communicators.hpp"
#include "coll/Collectives.hpp"

#include <algorithm>
#include <cstdint>

using namespace progsim;
using namespace progsim::mpi;

namespace {

// FNV-1a of the string tag, folded below 2^27.
int tag_of(const char* stringtag)
{
  std::uint32_t h = 2166136261u;
  for (const char* p = stringtag; *p; ++p)
    h = (h ^ static_cast<unsigned char>(*p)) * 16777619u;
  return coll::kFromGroupAgreementTagBase + static_cast<int>(h & 0x07ffffffu);
}

int resolve(const Binding& b, MPI_Group handle, GroupPtr& group)
{
  group = b.model().process(b.world()).groups.find(handle);
  if (!group)
    return b.error(MPI_COMM_SELF, MPI_ERR_GROUP, handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "unknown group handle");
  return MPI_SUCCESS;
}

int check_common(const Binding& b, const char* stringtag, MPI_Info info, MPI_Comm* newcomm)
{
  if (!stringtag || !newcomm)
    return b.error(MPI_COMM_SELF, MPI_ERR_ARG, "null stringtag or newcomm pointer");
  Info hints;
  return info_contents(b, info, hints);
}

int agree(const Binding& b, std::vector<int> members, const char* stringtag, int& context)
{
  const Communicator& world = *b.model().communicators().find(MPI_COMM_WORLD, b.world());
  if (int err = coll::agree_context_among(b, world, std::move(members), tag_of(stringtag), context))
    return b.error(MPI_COMM_SELF, err, "the context id agreement failed");
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm* newcomm)
{
  Binding b("MPI_Comm_create_from_group");
  if (int err = b.check_initialized())
    return err;
  GroupPtr g;
  if (int err = resolve(b, group, g))
    return err;
  if (int err = check_common(b, stringtag, info, newcomm))
    return err;
  if (g->local_rank(b.world()) < 0) {
    // MPI-4.1 §7.4.2: only members call it; a non-member gets nothing to join.
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  int context = 0;
  if (int err = agree(b, g->world_ranks(), stringtag, context))
    return err;
  auto fresh = make_communicator(b, errhandler, context, g);
  fresh->session = g->session;  // a session's group makes a communicator of that session (MPI-4.1 §11.3)
  *newcomm = b.model().communicators().add(b.world(), std::move(fresh)).handle;
  return MPI_SUCCESS;
}

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char* stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm* newintercomm)
{
  Binding b("MPI_Intercomm_create_from_groups");
  if (int err = b.check_initialized())
    return err;
  GroupPtr local, remote;
  if (int err = resolve(b, local_group, local))
    return err;
  if (int err = resolve(b, remote_group, remote))
    return err;
  if (int err = check_common(b, stringtag, info, newintercomm))
    return err;
  if (local->local_rank(b.world()) < 0)
    return b.error(MPI_COMM_SELF, MPI_ERR_GROUP, "the calling process is not in local_group");
  if (local_leader < 0 || local_leader >= local->size() || remote_leader < 0 || remote_leader >= remote->size())
    return b.error(MPI_COMM_SELF, MPI_ERR_RANK,
                   "invalid leader (local " + std::to_string(local_leader) + ", remote " +
                       std::to_string(remote_leader) + ")");
  std::vector<int> members = local->world_ranks();
  for (int w : remote->world_ranks()) {
    if (local->local_rank(w) >= 0)
      return b.error(MPI_COMM_SELF, MPI_ERR_GROUP,
                     "world rank " + std::to_string(w) + " is in both groups (they must be disjoint)");
    members.push_back(w);
  }
  // Every process knows both groups already: the leaders have nothing to
  // exchange but the context id, which the agreement over both groups gives.
  int context = 0;
  if (int err = agree(b, std::move(members), stringtag, context))
    return err;
  auto fresh = make_communicator(b, errhandler, context, local);
  fresh->remote_group = remote;
  fresh->session = local->session;
  *newintercomm = b.model().communicators().add(b.world(), std::move(fresh)).handle;
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Comm_create_from_group)
PROGSIM_MPI_ALIAS(MPI_Intercomm_create_from_groups)
