// MPI-4.1 §7.3: group accessors and constructors. Groups are values of
// world ranks (core/Group.hpp) behind per-process handles; errors are raised
// on MPI_COMM_WORLD (no communicator is involved).

#include "bindings/Binding.hpp"

#include <algorithm>
#include <vector>

using namespace progsim;
using namespace progsim::mpi;

namespace {

GroupTable& groups(const Binding& b)
{
  return b.model().process(b.world()).groups;
}

int resolve_group(const Binding& b, MPI_Group handle, GroupPtr& group)
{
  group = groups(b).find(handle);
  if (!group)
    return b.error(MPI_COMM_WORLD, MPI_ERR_GROUP, handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "unknown group handle");
  return MPI_SUCCESS;
}

int begin(const Binding& b, MPI_Group handle, GroupPtr& group)
{
  if (int err = b.check_initialized())
    return err;
  return resolve_group(b, handle, group);
}

int make(const Binding& b, std::vector<int> world_ranks, MPI_Group* newgroup)
{
  *newgroup = groups(b).insert(std::make_shared<const Group>(std::move(world_ranks)));
  return MPI_SUCCESS;
}

// Valid, distinct ranks of `group` (MPI-4.1 §7.3.2).
int check_ranks(const Binding& b, const Group& group, int n, const int ranks[])
{
  if (n < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative number of ranks " + std::to_string(n));
  if (n > 0 && !ranks)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null ranks array");
  std::vector<bool> seen(static_cast<size_t>(group.size()), false);
  for (int i = 0; i < n; ++i) {
    int r = ranks[i];
    if (r < 0 || r >= group.size())
      return b.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                     "ranks[" + std::to_string(i) + "] = " + std::to_string(r) + " is not a rank of the group (size " +
                         std::to_string(group.size()) + ")");
    if (seen[static_cast<size_t>(r)])
      return b.error(MPI_COMM_WORLD, MPI_ERR_RANK, "rank " + std::to_string(r) + " appears twice");
    seen[static_cast<size_t>(r)] = true;
  }
  return MPI_SUCCESS;
}

// Expands (first, last, stride) triplets into ranks, checking them.
int expand_ranges(const Binding& b, const Group& group, int n, int ranges[][3], std::vector<int>& ranks)
{
  if (n < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative number of ranges " + std::to_string(n));
  if (n > 0 && !ranges)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null ranges array");
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    std::string which = "range " + std::to_string(i) + " (" + std::to_string(first) + ", " + std::to_string(last) +
                        ", " + std::to_string(stride) + ")";
    if (stride == 0)
      return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, which + ": stride 0");
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
      return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, which + ": the stride does not lead from first to last");
    for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
      if (r < 0 || r >= group.size())
        return b.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                       which + ": rank " + std::to_string(r) + " is not in the group (size " +
                           std::to_string(group.size()) + ")");
      ranks.push_back(static_cast<int>(r));
    }
  }
  return check_ranks(b, group, static_cast<int>(ranks.size()), ranks.data());
}

}  // namespace

extern "C" {

int PMPI_Group_size(MPI_Group group, int* size)
{
  Binding b("MPI_Group_size");
  GroupPtr g;
  if (int err = begin(b, group, g))
    return err;
  *size = g->size();
  return MPI_SUCCESS;
}

int PMPI_Group_rank(MPI_Group group, int* rank)
{
  Binding b("MPI_Group_rank");
  GroupPtr g;
  if (int err = begin(b, group, g))
    return err;
  int r = g->local_rank(b.world());
  *rank = r < 0 ? MPI_UNDEFINED : r;
  return MPI_SUCCESS;
}

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
  Binding b("MPI_Group_translate_ranks");
  GroupPtr g1, g2;
  if (int err = begin(b, group1, g1))
    return err;
  if (int err = resolve_group(b, group2, g2))
    return err;
  if (n < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative number of ranks " + std::to_string(n));
  if (n > 0 && (!ranks1 || !ranks2))
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null ranks array");
  for (int i = 0; i < n; ++i) {
    int r = ranks1[i];
    if (r == MPI_PROC_NULL)
      continue;
    if (r < 0 || r >= g1->size())
      return b.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                     "ranks1[" + std::to_string(i) + "] = " + std::to_string(r) + " is not a rank of group1 (size " +
                         std::to_string(g1->size()) + ")");
  }
  for (int i = 0; i < n; ++i) {
    if (ranks1[i] == MPI_PROC_NULL) {
      ranks2[i] = MPI_PROC_NULL;
      continue;
    }
    int r = g2->local_rank(g1->world_rank(ranks1[i]));
    ranks2[i] = r < 0 ? MPI_UNDEFINED : r;
  }
  return MPI_SUCCESS;
}

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result)
{
  Binding b("MPI_Group_compare");
  GroupPtr g1, g2;
  if (int err = begin(b, group1, g1))
    return err;
  if (int err = resolve_group(b, group2, g2))
    return err;
  *result = compare_groups(*g1, *g2);
  return MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group)
{
  Binding b("MPI_Comm_group");
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  *group = groups(b).insert(c->group);
  return MPI_SUCCESS;
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup)
{
  Binding b("MPI_Group_union");
  GroupPtr g1, g2;
  if (int err = begin(b, group1, g1))
    return err;
  if (int err = resolve_group(b, group2, g2))
    return err;
  std::vector<int> ranks = g1->world_ranks();
  for (int w : g2->world_ranks())
    if (g1->local_rank(w) < 0)
      ranks.push_back(w);
  return make(b, std::move(ranks), newgroup);
}

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup)
{
  Binding b("MPI_Group_intersection");
  GroupPtr g1, g2;
  if (int err = begin(b, group1, g1))
    return err;
  if (int err = resolve_group(b, group2, g2))
    return err;
  std::vector<int> ranks;
  for (int w : g1->world_ranks())
    if (g2->local_rank(w) >= 0)
      ranks.push_back(w);
  return make(b, std::move(ranks), newgroup);
}

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup)
{
  Binding b("MPI_Group_difference");
  GroupPtr g1, g2;
  if (int err = begin(b, group1, g1))
    return err;
  if (int err = resolve_group(b, group2, g2))
    return err;
  std::vector<int> ranks;
  for (int w : g1->world_ranks())
    if (g2->local_rank(w) < 0)
      ranks.push_back(w);
  return make(b, std::move(ranks), newgroup);
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup)
{
  Binding b("MPI_Group_incl");
  GroupPtr g;
  if (int err = begin(b, group, g))
    return err;
  if (int err = check_ranks(b, *g, n, ranks))
    return err;
  std::vector<int> members;
  for (int i = 0; i < n; ++i)
    members.push_back(g->world_rank(ranks[i]));
  return make(b, std::move(members), newgroup);
}

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup)
{
  Binding b("MPI_Group_excl");
  GroupPtr g;
  if (int err = begin(b, group, g))
    return err;
  if (int err = check_ranks(b, *g, n, ranks))
    return err;
  std::vector<bool> excluded(static_cast<size_t>(g->size()), false);
  for (int i = 0; i < n; ++i)
    excluded[static_cast<size_t>(ranks[i])] = true;
  std::vector<int> members;
  for (int r = 0; r < g->size(); ++r)
    if (!excluded[static_cast<size_t>(r)])
      members.push_back(g->world_rank(r));
  return make(b, std::move(members), newgroup);
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup)
{
  Binding b("MPI_Group_range_incl");
  GroupPtr g;
  if (int err = begin(b, group, g))
    return err;
  std::vector<int> ranks;
  if (int err = expand_ranges(b, *g, n, ranges, ranks))
    return err;
  std::vector<int> members;
  for (int r : ranks)
    members.push_back(g->world_rank(r));
  return make(b, std::move(members), newgroup);
}

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup)
{
  Binding b("MPI_Group_range_excl");
  GroupPtr g;
  if (int err = begin(b, group, g))
    return err;
  std::vector<int> ranks;
  if (int err = expand_ranges(b, *g, n, ranges, ranks))
    return err;
  std::vector<bool> excluded(static_cast<size_t>(g->size()), false);
  for (int r : ranks)
    excluded[static_cast<size_t>(r)] = true;
  std::vector<int> members;
  for (int r = 0; r < g->size(); ++r)
    if (!excluded[static_cast<size_t>(r)])
      members.push_back(g->world_rank(r));
  return make(b, std::move(members), newgroup);
}

int PMPI_Group_free(MPI_Group* group)
{
  Binding b("MPI_Group_free");
  if (int err = b.check_initialized())
    return err;
  if (!group || !groups(b).erase(*group))
    return b.error(MPI_COMM_WORLD, MPI_ERR_GROUP,
                   !group || *group == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "unknown group handle");
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Group_size)
PROGSIM_MPI_ALIAS(MPI_Group_rank)
PROGSIM_MPI_ALIAS(MPI_Group_translate_ranks)
PROGSIM_MPI_ALIAS(MPI_Group_compare)
PROGSIM_MPI_ALIAS(MPI_Comm_group)
PROGSIM_MPI_ALIAS(MPI_Group_union)
PROGSIM_MPI_ALIAS(MPI_Group_intersection)
PROGSIM_MPI_ALIAS(MPI_Group_difference)
PROGSIM_MPI_ALIAS(MPI_Group_incl)
PROGSIM_MPI_ALIAS(MPI_Group_excl)
PROGSIM_MPI_ALIAS(MPI_Group_range_incl)
PROGSIM_MPI_ALIAS(MPI_Group_range_excl)
PROGSIM_MPI_ALIAS(MPI_Group_free)
