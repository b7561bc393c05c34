// The calls that make and free communicators: each new communicator gets a
// per-rank id ("newcomm") that later events name it by.
#include "traces/recorder/RecorderInternals.hpp"

#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"
#include "topology/CartesianTopology.hpp"

#include <algorithm>

namespace progsim::traces::recorder {

namespace {

// A call that makes a communicator: `make_event(rank)` gives its event,
// which gets the id of the communicator it makes ("newcomm") and, for a
// nonblocking constructor (`request` not null), the id of its request ("req").
template <class MakeEvent, class Call>
int record_new_comm(MakeEvent make_event, MPI_Comm* newcomm, Call call, MPI_Request* request = nullptr)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  int id = new_comm(rank);
  Event event = make_event(rank);
  event["newcomm"] = id;
  int request_id = request ? next_request(rank) : -1;
  if (request)
    event["req"] = request_id;
  g_recorder->write(rank, event);
  int err = call();
  if (err == MPI_SUCCESS && newcomm)
    bind_comm(rank, id, *newcomm);
  if (err == MPI_SUCCESS && request)
    bind_request(rank, request_id, *request);
  g_recorder->returned(rank);
  return err;
}

// A group as the MPI_COMM_WORLD ranks of its members, in group order
// (empty for MPI_GROUP_EMPTY and for a handle the model does not know).
std::vector<int> world_ranks(int rank, MPI_Group group)
{
  progsim::mpi::GroupPtr g = progsim::mpi::MpiModel::instance().process(rank).groups.find(group);
  return g ? g->world_ranks() : std::vector<int>{};
}

// A group's fields: its MPI_COMM_WORLD ranks under `key`, and under
// `session_key` the id of the session whose process set it came from
// (MPI_Group_from_session_pset), if any: the communicator made from it
// belongs to that session (MPI-4.1 §11.3), and MPI_Session_finalize waits
// for it.
void add_group(Event& event, int rank, MPI_Group group, const char* key, const char* session_key)
{
  progsim::mpi::GroupPtr g = progsim::mpi::MpiModel::instance().process(rank).groups.find(group);
  event[key] = g ? g->world_ranks() : std::vector<int>{};
  if (g && g->session != MPI_SESSION_NULL)
    event[session_key] = session_id(rank, g->session);
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm([&](int rank) { return Event({{"call", "comm_dup"}, {"comm", comm_id(rank, comm)}}); },
                         newcomm, [&] { return PMPI_Comm_dup(comm, newcomm); });
}

// The info is not recorded, here and in MPI_Comm_idup_with_info: the model
// keeps it only as the new communicator's hints, which MPI_Comm_get_info (a
// local call) returns; the context id, and so matching, do not depend on it.
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) { return Event({{"call", "comm_dup_with_info"}, {"comm", comm_id(rank, comm)}}); }, newcomm,
      [&] { return PMPI_Comm_dup_with_info(comm, info, newcomm); });
}

// The nonblocking duplications (MPI-4.1 §7.4.2): the request completes
// through the completion calls, whose events name its id. The replay's
// MPI_Comm_idup draws the same context id as the program's: the model
// derives it from the parent's count of idups (no communication), which
// the replay repeats in the same order.
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_new_comm([&](int rank) { return Event({{"call", "comm_idup"}, {"comm", comm_id(rank, comm)}}); },
                         newcomm, [&] { return PMPI_Comm_idup(comm, newcomm, request); }, request);
}

int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) { return Event({{"call", "comm_idup_with_info"}, {"comm", comm_id(rank, comm)}}); }, newcomm,
      [&] { return PMPI_Comm_idup_with_info(comm, info, newcomm, request); }, request);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        return Event({{"call", "comm_split"}, {"comm", comm_id(rank, comm)}, {"color", color}, {"key", key}});
      },
      newcomm, [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

// The info argument is not recorded: the model reads it only for the guided
// types, which are refused.
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  if (int rank = recording_rank();
      rank >= 0 && (split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_RESOURCE_GUIDED)) {
    write_unsupported(rank, "MPI_Comm_split_type",
                      "a guided split type depends on its info argument, which the trace format does not hold");
    return PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  }
  return record_new_comm(
      [&](int rank) {
        const char* type_name = split_type_name(split_type);  // an invalid type fails in the call, and in its replay
        return Event({{"call", "comm_split_type"}, {"comm", comm_id(rank, comm)},
                      {"split_type", type_name ? type_name : "invalid"}, {"key", key}});
      },
      newcomm, [&] { return PMPI_Comm_split_type(comm, split_type, key, info, newcomm); });
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        std::vector<int> d(dims, dims + std::max(ndims, 0)), p(periods, periods + std::max(ndims, 0));
        return Event({{"call", "cart_create"}, {"comm", comm_id(rank, comm)}, {"dims", d}, {"periods", p},
                      {"reorder", reorder}});
      },
      newcomm, [&] { return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm); });
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        int ndims = 0;
        // The model's topology, not PMPI_Cartdim_get: a call would cost time the program did not spend.
        const progsim::mpi::Communicator* c = progsim::mpi::MpiModel::instance().communicators().find(comm, rank);
        auto cart = c ? dynamic_cast<const progsim::mpi::topology::CartesianTopology*>(c->topology.get()) : nullptr;
        if (cart)
          ndims = cart->ndims();
        std::vector<int> remain(remain_dims, remain_dims + (remain_dims ? ndims : 0));
        return Event({{"call", "cart_sub"}, {"comm", comm_id(rank, comm)}, {"remain", remain}});
      },
      newcomm, [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

// Graph topologies (MPI-4.1 §8.5.3, §8.5.4): the lists as given. Weights
// only answer the topology queries (local calls), so they are not recorded:
// the replay's graphs are unweighted.
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        int n = index ? std::max(nnodes, 0) : 0;
        std::vector<int> i(index, index + n), e(edges, edges + (n > 0 && edges ? std::max(index[n - 1], 0) : 0));
        return Event({{"call", "graph_create"}, {"comm", comm_id(rank, comm)}, {"index", i}, {"edges", e},
                      {"reorder", reorder}});
      },
      newcomm, [&] { return PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm); });
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        std::vector<int> in(sources, sources + (sources ? std::max(indegree, 0) : 0));
        std::vector<int> out(destinations, destinations + (destinations ? std::max(outdegree, 0) : 0));
        return Event({{"call", "dist_graph_create_adjacent"}, {"comm", comm_id(rank, comm)}, {"sources", in},
                      {"destinations", out}, {"reorder", reorder}});
      },
      newcomm, [&] {
        return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                               destweights, info, reorder, newcomm);
      });
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        std::vector<int> src(sources, sources + (sources ? std::max(n, 0) : 0));
        std::vector<int> deg(degrees, degrees + (degrees ? std::max(n, 0) : 0)), dst;
        long long edges = 0;
        for (int d : deg)
          edges += std::max(d, 0);
        if (destinations)
          dst.assign(destinations, destinations + edges);
        return Event({{"call", "dist_graph_create"}, {"comm", comm_id(rank, comm)}, {"sources", src},
                      {"degrees", deg}, {"destinations", dst}, {"reorder", reorder}});
      },
      newcomm, [&] {
        return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
      });
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        return Event({{"call", "comm_create"}, {"comm", comm_id(rank, comm)}, {"group", world_ranks(rank, group)}});
      },
      newcomm, [&] { return PMPI_Comm_create(comm, group, newcomm); });
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        return Event({{"call", "comm_create_group"}, {"comm", comm_id(rank, comm)},
                      {"group", world_ranks(rank, group)}, {"tag", tag}});
      },
      newcomm, [&] { return PMPI_Comm_create_group(comm, group, tag, newcomm); });
}

// The info and the error handler are not recorded (a replay's calls report
// their errors themselves), here and in MPI_Intercomm_create_from_groups.
int MPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info info, MPI_Errhandler errhandler,
                               MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        Event event = {{"call", "comm_create_from_group"}};
        add_group(event, rank, group, "group", "session");
        event["stringtag"] = stringtag ? stringtag : "";
        return event;
      },
      newcomm, [&] { return PMPI_Comm_create_from_group(group, stringtag, info, errhandler, newcomm); });
}

// peer_comm is significant at the local leader only (MPI-4.1 §7.6.2):
// elsewhere it may be any handle, recorded as -1 when unknown.
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm* newintercomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        return Event({{"call", "intercomm_create"}, {"comm", comm_id(rank, local_comm)},
                      {"local_leader", local_leader}, {"peer_comm", comm_id(rank, peer_comm)},
                      {"remote_leader", remote_leader}, {"tag", tag}});
      },
      newintercomm,
      [&] { return PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, newintercomm); });
}

int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                     int remote_leader, const char* stringtag, MPI_Info info,
                                     MPI_Errhandler errhandler, MPI_Comm* newintercomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        Event event = {{"call", "intercomm_create_from_groups"}};
        add_group(event, rank, local_group, "local_group", "local_session");
        event["local_leader"] = local_leader;
        add_group(event, rank, remote_group, "remote_group", "remote_session");
        event["remote_leader"] = remote_leader;
        event["stringtag"] = stringtag ? stringtag : "";
        return event;
      },
      newintercomm, [&] {
        return PMPI_Intercomm_create_from_groups(local_group, local_leader, remote_group, remote_leader, stringtag,
                                                 info, errhandler, newintercomm);
      });
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        return Event({{"call", "intercomm_merge"}, {"comm", comm_id(rank, intercomm)}, {"high", high}});
      },
      newintracomm, [&] { return PMPI_Intercomm_merge(intercomm, high, newintracomm); });
}

int MPI_Comm_free(MPI_Comm* comm)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !comm)
    return PMPI_Comm_free(comm);
  MPI_Comm before = *comm;
  g_recorder->write(rank, Event({{"call", "comm_free"}, {"comm", comm_id(rank, before)}}));
  int err = PMPI_Comm_free(comm);
  if (err == MPI_SUCCESS) {
    RankRecord& r = g_recorder->rank(rank);
    if (auto found = r.comms.find(before); found != r.comms.end()) {
      r.comm_handles.erase(found->second);
      r.comms.erase(found);
    }
  }
  g_recorder->returned(rank);
  return err;
}

}  // extern "C"
