#include "traces/Otf2TraceSource.hpp"

#include <otf2/otf2.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <map>
#include <mpi.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <vector>

namespace progsim::traces {

namespace {

// The archive's global definitions that replay needs, and its reader (one
// per archive: OTF2's reader state is per archive; each rank reads the
// events of its own location with its own event reader, a batch at a time).
class Archive {
public:
  explicit Archive(const std::string& path) : path_(path)
  {
    reader_ = OTF2_Reader_Open(path.c_str());
    if (!reader_)
      throw TraceError(path, 0, "not an OTF2 archive (its anchor file cannot be read)");
    try {
      read_definitions();
      open_events();
    } catch (...) {
      OTF2_Reader_Close(reader_);
      throw;
    }
  }
  ~Archive() { OTF2_Reader_Close(reader_); }
  Archive(const Archive&) = delete;
  Archive& operator=(const Archive&) = delete;

  const std::string& path() const { return path_; }
  int nranks() const { return static_cast<int>(rank_locations_.size()); }
  OTF2_LocationRef location(int rank) const { return rank_locations_.at(static_cast<std::size_t>(rank)); }
  OTF2_Reader* reader() const { return reader_; }
  OTF2_EvtReader* events(int rank) const { return evt_readers_.at(static_cast<std::size_t>(rank)); }
  uint64_t resolution() const { return resolution_; }

  // The region's name, and whether it is an MPI call.
  const std::string* region(OTF2_RegionRef ref, bool& mpi) const
  {
    auto found = regions_.find(ref);
    if (found == regions_.end())
      return nullptr;
    mpi = found->second.mpi;
    return &found->second.name;
  }
  // The progsim trace id of an OTF2 communicator (0 world, 1 self, 2... the
  // ones replay makes), or -1.
  int comm_id(OTF2_CommRef ref) const
  {
    auto found = comm_ids_.find(ref);
    return found == comm_ids_.end() ? -1 : found->second;
  }
  // Members (world ranks) of the communicators replay makes, in the order it makes them.
  const std::vector<std::vector<int>>& made_comms() const { return made_; }
  // Size of a communicator id and the rank's place in it (-1: not a member).
  int comm_size(int id, int rank, int& me) const
  {
    if (id == 0) {
      me = rank;
      return nranks();
    }
    if (id == 1) {
      me = 0;
      return 1;
    }
    const std::vector<int>& members = made_.at(static_cast<std::size_t>(id - 2));
    me = -1;
    for (std::size_t i = 0; i < members.size(); ++i)
      if (members[i] == rank)
        me = static_cast<int>(i);
    return static_cast<int>(members.size());
  }

private:
  struct Region {
    std::string name;
    bool mpi = false;
  };
  struct Group {
    OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
    std::vector<uint64_t> members;
  };
  struct Comm {
    OTF2_CommRef self = 0;
    OTF2_GroupRef group = 0;
  };
  // What the definition callbacks fill in.
  struct Raw {
    uint64_t resolution = 0;
    std::map<OTF2_StringRef, std::string> strings;
    std::map<OTF2_RegionRef, std::pair<OTF2_StringRef, OTF2_Paradigm>> regions;
    std::map<OTF2_LocationGroupRef, OTF2_LocationGroupType> location_groups;
    std::map<OTF2_LocationRef, OTF2_LocationGroupRef> locations;  // ordered by id
    std::map<OTF2_GroupRef, Group> groups;
    std::vector<Comm> comms;  // definition order
  };

  static OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t, uint64_t, uint64_t)
  {
    static_cast<Raw*>(data)->resolution = resolution;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text)
  {
    static_cast<Raw*>(data)->strings[self] = text ? text : "";
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef,
                                     OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag,
                                     OTF2_StringRef, uint32_t, uint32_t)
  {
    static_cast<Raw*>(data)->regions[self] = {name, paradigm};
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode on_location_group(void* data, OTF2_LocationGroupRef self, OTF2_StringRef,
                                             OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef,
                                             OTF2_LocationGroupRef)
  {
    static_cast<Raw*>(data)->location_groups[self] = type;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType,
                                       uint64_t, OTF2_LocationGroupRef group)
  {
    static_cast<Raw*>(data)->locations[self] = group;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                                    OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t count, const uint64_t* members)
  {
    static_cast<Raw*>(data)->groups[self] = {type, paradigm, std::vector<uint64_t>(members, members + count)};
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef,
                                   OTF2_CommFlag)
  {
    static_cast<Raw*>(data)->comms.push_back({self, group});
    return OTF2_CALLBACK_SUCCESS;
  }

  void check(OTF2_ErrorCode code, const char* what) const
  {
    if (code != OTF2_SUCCESS)
      throw TraceError(path_, 0, std::string("OTF2: ") + what + ": " + OTF2_Error_GetDescription(code));
  }

  void read_definitions()
  {
    check(OTF2_Reader_SetSerialCollectiveCallbacks(reader_), "collective callbacks");
    OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader_);
    if (!defs)
      throw TraceError(path_, 0, "OTF2: the global definitions (.def) cannot be read");
    OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, on_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(callbacks, on_location_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, on_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, on_comm);
    Raw raw;
    OTF2_Reader_RegisterGlobalDefCallbacks(reader_, defs, callbacks, &raw);
    uint64_t count = 0;
    OTF2_ErrorCode code = OTF2_Reader_ReadAllGlobalDefinitions(reader_, defs, &count);
    OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
    OTF2_Reader_CloseGlobalDefReader(reader_, defs);
    check(code, "reading the global definitions");
    if (raw.resolution == 0)
      throw TraceError(path_, 0, "OTF2: no clock properties (timer resolution) in the definitions");
    resolution_ = raw.resolution;

    for (const auto& [ref, region] : raw.regions) {
      auto name = raw.strings.find(region.first);
      std::string text = name == raw.strings.end() ? "region " + std::to_string(ref) : name->second;
      // Score-P marks MPI regions with the MPI paradigm; other writers may only name them.
      regions_[ref] = {text, region.second == OTF2_PARADIGM_MPI || text.rfind("MPI_", 0) == 0};
    }

    // Ranks: the process location groups in id order (Score-P: the id is
    // the MPI rank), each by its first location (the master thread).
    std::map<OTF2_LocationGroupRef, OTF2_LocationRef> first;
    for (const auto& [location, group] : raw.locations) {
      auto type = raw.location_groups.find(group);
      if (type != raw.location_groups.end() && type->second == OTF2_LOCATION_GROUP_TYPE_PROCESS &&
          !first.count(group))
        first[group] = location;
    }
    for (const auto& [group, location] : first) {
      location_ranks_[location] = static_cast<int>(rank_locations_.size());
      rank_locations_.push_back(location);
    }
    if (rank_locations_.empty())
      throw TraceError(path_, 0, "OTF2: no process (location group of type process) with a location");

    // The MPI locations group (Score-P: MPI_COMM_WORLD's ranks in order):
    // members of communicator groups are indices into it.
    std::vector<int> world_of_index;
    for (const auto& [ref, group] : raw.groups)
      if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && world_of_index.empty()) {
        for (uint64_t location : group.members) {
          auto rank = location_ranks_.find(location);
          if (rank == location_ranks_.end())
            throw TraceError(path_, 0, "OTF2: group " + std::to_string(ref) + " lists location " +
                                           std::to_string(location) + ", which is not an MPI process's");
          world_of_index.push_back(rank->second);
        }
      }
    bool have_world = false;
    for (const Comm& comm : raw.comms) {
      auto group = raw.groups.find(comm.group);
      if (group == raw.groups.end())
        continue;
      if (group->second.type == OTF2_GROUP_TYPE_COMM_SELF) {
        comm_ids_[comm.self] = 1;
        continue;
      }
      if (group->second.type != OTF2_GROUP_TYPE_COMM_GROUP)
        continue;  // unknown kinds: an event naming one is an error
      std::vector<int> members;
      for (uint64_t index : group->second.members) {
        if (!world_of_index.empty() && index >= world_of_index.size())
          throw TraceError(path_, 0, "OTF2: communicator " + std::to_string(comm.self) + " has member " +
                                         std::to_string(index) + ", beyond the MPI locations group");
        members.push_back(world_of_index.empty() ? static_cast<int>(index) : world_of_index[index]);
      }
      bool world = static_cast<int>(members.size()) == nranks();
      for (std::size_t i = 0; world && i < members.size(); ++i)
        world = members[i] == static_cast<int>(i);
      if (world && !have_world) {
        have_world = true;
        comm_ids_[comm.self] = 0;
      } else {
        comm_ids_[comm.self] = static_cast<int>(2 + made_.size());
        made_.push_back(members);
      }
    }
  }

  // OTF2 keeps each location's event file open while it is read, and every
  // rank reads from the start: one open file per rank. The soft limit
  // (often 1,024) is raised up to the hard one when the archive needs it.
  void ensure_open_files() const
  {
    rlim_t needed = static_cast<rlim_t>(rank_locations_.size()) + 64;  // and the simulation's own files
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= needed)
      return;
    struct rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max == RLIM_INFINITY ? needed : std::min(limit.rlim_max, needed);
    if (raised.rlim_cur < needed || ::setrlimit(RLIMIT_NOFILE, &raised) != 0)
      throw TraceError(path_, 0, "OTF2: replay reads the event files of all " +
                                     std::to_string(rank_locations_.size()) + " ranks at once and needs " +
                                     std::to_string(needed) + " open files; the limit is " +
                                     std::to_string(limit.rlim_max) + " (ulimit -Hn)");
  }

  void open_events()
  {
    ensure_open_files();
    for (OTF2_LocationRef location : rank_locations_)
      check(OTF2_Reader_SelectLocation(reader_, location), "selecting a location");
    // Local definitions carry the mappings of Score-P's local ids to the global ones.
    bool local_defs = OTF2_Reader_OpenDefFiles(reader_) == OTF2_SUCCESS;
    check(OTF2_Reader_OpenEvtFiles(reader_), "opening the event files");
    for (OTF2_LocationRef location : rank_locations_) {
      if (local_defs) {
        if (OTF2_DefReader* defs = OTF2_Reader_GetDefReader(reader_, location)) {
          uint64_t count = 0;
          OTF2_Reader_ReadAllLocalDefinitions(reader_, defs, &count);
          OTF2_Reader_CloseDefReader(reader_, defs);
        }
      }
      OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader_, location);
      if (!events)
        throw TraceError(path_, 0, "OTF2: the events of location " + std::to_string(location) + " cannot be read");
      evt_readers_.push_back(events);
    }
    if (local_defs)
      OTF2_Reader_CloseDefFiles(reader_);
  }

  std::string path_;
  OTF2_Reader* reader_ = nullptr;
  uint64_t resolution_ = 1;
  std::map<OTF2_RegionRef, Region> regions_;
  std::vector<OTF2_LocationRef> rank_locations_;
  std::map<OTF2_LocationRef, int> location_ranks_;
  std::map<OTF2_CommRef, int> comm_ids_;
  std::vector<std::vector<int>> made_;
  std::vector<OTF2_EvtReader*> evt_readers_;
};

// One archive per path, shared by the ranks replaying it.
std::shared_ptr<Archive> open_archive(const std::string& path)
{
  static std::map<std::string, std::weak_ptr<Archive>> open;
  std::shared_ptr<Archive> archive = open[path].lock();
  if (!archive) {
    archive = std::make_shared<Archive>(path);
    open[path] = archive;
  }
  return archive;
}

const char* collective_name(OTF2_CollectiveOp op)
{
  static const std::map<int, const char*> names = {
      {OTF2_COLLECTIVE_OP_BARRIER, "MPI_Barrier"},
      {OTF2_COLLECTIVE_OP_BCAST, "MPI_Bcast"},
      {OTF2_COLLECTIVE_OP_GATHER, "MPI_Gather"},
      {OTF2_COLLECTIVE_OP_GATHERV, "MPI_Gatherv"},
      {OTF2_COLLECTIVE_OP_SCATTER, "MPI_Scatter"},
      {OTF2_COLLECTIVE_OP_SCATTERV, "MPI_Scatterv"},
      {OTF2_COLLECTIVE_OP_ALLGATHER, "MPI_Allgather"},
      {OTF2_COLLECTIVE_OP_ALLGATHERV, "MPI_Allgatherv"},
      {OTF2_COLLECTIVE_OP_ALLTOALL, "MPI_Alltoall"},
      {OTF2_COLLECTIVE_OP_ALLTOALLV, "MPI_Alltoallv"},
      {OTF2_COLLECTIVE_OP_ALLTOALLW, "MPI_Alltoallw"},
      {OTF2_COLLECTIVE_OP_ALLREDUCE, "MPI_Allreduce"},
      {OTF2_COLLECTIVE_OP_REDUCE, "MPI_Reduce"},
      {OTF2_COLLECTIVE_OP_REDUCE_SCATTER, "MPI_Reduce_scatter"},
      {OTF2_COLLECTIVE_OP_SCAN, "MPI_Scan"},
      {OTF2_COLLECTIVE_OP_EXSCAN, "MPI_Exscan"},
      {OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block"},
  };
  auto found = names.find(op);
  return found == names.end() ? "an unknown collective" : found->second;
}

// The events of one rank: its location's events, read a batch at a time
// through OTF2's callbacks, each MPI call converted when its Leave is read.
class Otf2RankSource final : public RankEventSource {
public:
  Otf2RankSource(std::shared_ptr<Archive> archive, int rank, double scale)
      : archive_(std::move(archive)), rank_(rank), scale_(scale),
        name_(archive_->path() + ": location " + std::to_string(archive_->location(rank)) + " (rank " +
              std::to_string(rank) + ")")
  {
    OTF2_EvtReaderCallbacks* callbacks = OTF2_EvtReaderCallbacks_New();
    OTF2_EvtReaderCallbacks_SetEnterCallback(callbacks, on_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(callbacks, on_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(callbacks, on_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(callbacks, on_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(callbacks, on_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(callbacks, on_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(callbacks, on_irecv);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(callbacks, on_recv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(callbacks, on_collective_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(callbacks, on_collective_end);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(callbacks, on_cancelled);
    OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(callbacks, on_rma);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(callbacks, on_rma_put);
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(callbacks, on_rma_put);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(callbacks, on_nonblocking_collective);
    OTF2_Reader_RegisterEvtCallbacks(archive_->reader(), archive_->events(rank), callbacks, this);
    OTF2_EvtReaderCallbacks_Delete(callbacks);
  }

  bool next(TraceEvent& event) override
  {
    while ((pending_.empty() || !pending_.front().complete) && !ended_ && error_.empty())
      read_batch();
    if (!pending_.empty() && pending_.front().complete) {
      event = std::move(pending_.front().event);
      pending_.pop_front();
      return true;
    }
    // The events before a bad one are replayed first: the run stops where it would.
    if (!error_.empty())
      throw TraceError(position(static_cast<long>(error_position_)), 0, error_);
    if (pending_.empty())
      return false;
    throw TraceError(position(pending_.front().event.line), 0,
                     "this MPI_Irecv's request (OTF2 request id " + std::to_string(pending_.front().otf2_request) +
                         ") is never completed by an MpiIrecv event: its sender, tag and size are unknown");
  }

  const std::string& file() const override { return name_; }
  const char* position_separator() const override { return ", event "; }

private:
  struct Record {
    enum Kind { Send, Isend, IsendComplete, IrecvRequest, Irecv, Recv, CollectiveEnd } kind;
    uint64_t position = 0;
    uint32_t peer = 0;
    OTF2_CommRef comm = OTF2_UNDEFINED_COMM;
    uint32_t tag = 0;
    uint64_t bytes = 0;
    uint64_t request = 0;
    OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
    uint32_t root = OTF2_UNDEFINED_UINT32;
    uint64_t sent = 0;
    uint64_t received = 0;
  };
  struct Pending {
    TraceEvent event;
    bool complete = true;
    uint64_t otf2_request = 0;
  };

  static constexpr uint64_t kBatch = 256;

  void read_batch()
  {
    uint64_t read = 0;
    OTF2_ErrorCode code = OTF2_EvtReader_ReadEvents(archive_->events(rank_), kBatch, &read);
    if (!error_.empty())
      return;  // a callback refused an event (next() says which, once what precedes it is replayed)
    if (code != OTF2_SUCCESS)
      throw TraceError(name_, 0, std::string("OTF2: reading the events: ") + OTF2_Error_GetDescription(code));
    if (read < kBatch)
      ended_ = true;
  }

  // Callbacks must not throw through libotf2 (C): they note the error and stop the reading.
  OTF2_CallbackCode refuse(uint64_t position, const std::string& reason)
  {
    if (error_.empty()) {
      error_ = reason;
      error_position_ = position;
    }
    return OTF2_CALLBACK_INTERRUPT;
  }

  static Otf2RankSource& self(void* data) { return *static_cast<Otf2RankSource*>(data); }

  static OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                                    OTF2_AttributeList*, OTF2_RegionRef region)
  {
    return self(data).enter(time, position, region);
  }
  static OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                                    OTF2_AttributeList*, OTF2_RegionRef region)
  {
    return self(data).leave(time, position, region);
  }
  static OTF2_CallbackCode on_send(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                   OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                   uint64_t length)
  {
    Record r{Record::Send, position, receiver, comm, tag, length};
    return self(data).add(r, "MpiSend");
  }
  static OTF2_CallbackCode on_isend(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                    OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                    uint64_t length, uint64_t request)
  {
    Record r{Record::Isend, position, receiver, comm, tag, length};
    r.request = request;
    return self(data).add(r, "MpiIsend");
  }
  static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                             OTF2_AttributeList*, uint64_t request)
  {
    Record r{Record::IsendComplete, position};
    r.request = request;
    return self(data).add(r, "MpiIsendComplete");
  }
  static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                            OTF2_AttributeList*, uint64_t request)
  {
    Record r{Record::IrecvRequest, position};
    r.request = request;
    return self(data).add(r, "MpiIrecvRequest");
  }
  static OTF2_CallbackCode on_irecv(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                    OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                    uint64_t length, uint64_t request)
  {
    Record r{Record::Irecv, position, sender, comm, tag, length};
    r.request = request;
    return self(data).add(r, "MpiIrecv");
  }
  static OTF2_CallbackCode on_recv(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                   OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                   uint64_t length)
  {
    Record r{Record::Recv, position, sender, comm, tag, length};
    return self(data).add(r, "MpiRecv");
  }
  static OTF2_CallbackCode on_collective_begin(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                               OTF2_AttributeList*)
  {
    Otf2RankSource& s = self(data);
    return s.depth_ > 0 ? OTF2_CALLBACK_SUCCESS : s.refuse(position, "MpiCollectiveBegin outside an MPI call");
  }
  static OTF2_CallbackCode on_collective_end(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                             OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                             uint32_t root, uint64_t sent, uint64_t received)
  {
    Record r{Record::CollectiveEnd, position, 0, comm};
    r.op = op;
    r.root = root;
    r.sent = sent;
    r.received = received;
    return self(data).add(r, "MpiCollectiveEnd");
  }
  static OTF2_CallbackCode on_cancelled(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                        OTF2_AttributeList*, uint64_t)
  {
    return self(data).refuse(position, "MpiRequestCancelled: cancelled requests cannot be replayed");
  }
  static OTF2_CallbackCode on_rma(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                  OTF2_AttributeList*, OTF2_RmaWinRef)
  {
    return self(data).refuse(position, "RmaWinCreate: one-sided communication (RMA) cannot be replayed from OTF2");
  }
  static OTF2_CallbackCode on_rma_put(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position, void* data,
                                      OTF2_AttributeList*, OTF2_RmaWinRef, uint32_t, uint64_t, uint64_t)
  {
    return self(data).refuse(position, "RmaPut/RmaGet: one-sided communication (RMA) cannot be replayed from OTF2");
  }
  static OTF2_CallbackCode on_nonblocking_collective(OTF2_LocationRef, OTF2_TimeStamp, uint64_t position,
                                                     void* data, OTF2_AttributeList*, uint64_t)
  {
    return self(data).refuse(position, "NonBlockingCollectiveRequest: nonblocking collectives cannot be replayed "
                                       "from OTF2 yet");
  }

  OTF2_CallbackCode enter(OTF2_TimeStamp time, uint64_t position, OTF2_RegionRef region)
  {
    bool mpi = false;
    const std::string* name = archive_->region(region, mpi);
    if (!name)
      return refuse(position, "Enter of region " + std::to_string(region) + ", which is not defined");
    if (!mpi)
      return OTF2_CALLBACK_SUCCESS;  // user code: part of the computation between MPI calls
    if (depth_++ > 0)
      return OTF2_CALLBACK_SUCCESS;  // an MPI call inside an MPI call (Score-P: none); the outer one counts
    if (have_leave_ && time > last_leave_ && scale_ > 0) {
      double seconds = static_cast<double>(time - last_leave_) / static_cast<double>(archive_->resolution());
      emit({{"call", "compute"}, {"s", seconds * scale_}}, position);
    }
    call_ = *name;
    call_position_ = position;
    records_.clear();
    return OTF2_CALLBACK_SUCCESS;
  }

  OTF2_CallbackCode leave(OTF2_TimeStamp time, uint64_t position, OTF2_RegionRef region)
  {
    bool mpi = false;
    if (!archive_->region(region, mpi))
      return refuse(position, "Leave of region " + std::to_string(region) + ", which is not defined");
    if (!mpi)
      return OTF2_CALLBACK_SUCCESS;
    if (depth_ == 0)
      return refuse(position, "Leave of an MPI call that was not entered");
    if (--depth_ > 0)
      return OTF2_CALLBACK_SUCCESS;
    last_leave_ = time;
    have_leave_ = true;
    std::string reason = convert();
    return reason.empty() ? OTF2_CALLBACK_SUCCESS : refuse(call_position_, reason);
  }

  OTF2_CallbackCode add(const Record& record, const char* kind)
  {
    if (depth_ == 0)
      return refuse(record.position, std::string(kind) + " outside an MPI call (no Enter of an MPI region before it)");
    records_.push_back(record);
    return OTF2_CALLBACK_SUCCESS;
  }

  void emit(nlohmann::json fields, uint64_t position, bool complete = true, uint64_t request = 0)
  {
    Pending p;
    p.event.assign(std::move(fields));
    p.event.line = static_cast<long>(position);
    p.complete = complete;
    p.otf2_request = request;
    pending_.push_back(std::move(p));
  }

  // The progsim communicator id of a record, or "" and the reason.
  bool comm_of(const Record& r, int& id, std::string& reason) const
  {
    id = archive_->comm_id(r.comm);
    if (id < 0)
      reason = call_ + ": communicator " + std::to_string(r.comm) +
               " is not an intracommunicator of the definitions (or not one replay can make)";
    return id >= 0;
  }

  // Converts the MPI call just left (call_, records_) into progsim events;
  // returns why it cannot, or "".
  // The communicators of the definitions, made by every rank in the same
  // order right after MPI_Init (or before the first MPI call of a trace
  // without MPI_Init: replay initializes MPI there).
  void make_communicators()
  {
    if (comms_made_)
      return;
    comms_made_ = true;
    const auto& made = archive_->made_comms();
    for (std::size_t k = 0; k < made.size(); ++k) {
      int me = -1;
      archive_->comm_size(static_cast<int>(2 + k), rank_, me);
      emit({{"call", "comm_split"}, {"comm", 0}, {"color", me >= 0 ? 0 : MPI_UNDEFINED}, {"key", std::max(me, 0)},
            {"newcomm", 2 + k}},
           call_position_);
    }
  }

  std::string convert()
  {
    std::string reason;
    if (call_ == "MPI_Init" || call_ == "MPI_Init_thread") {
      emit({{"call", "init"}}, call_position_);
      make_communicators();
      return "";
    }
    // MPI_Initialized, MPI_Query_thread... before MPI_Init: replaying them
    // would initialize MPI before the trace's MPI_Init.
    if (!comms_made_ && records_.empty() && call_ != "MPI_Finalize")
      return "";
    make_communicators();
    if (call_ == "MPI_Finalize") {
      emit({{"call", "finalize"}}, call_position_);
      return "";
    }
    const Record* send = nullptr;
    const Record* recv = nullptr;
    std::vector<int> completed;
    for (const Record& r : records_) {
      switch (r.kind) {
      case Record::CollectiveEnd:
        return collective(r);
      case Record::Send:
      case Record::Recv: {
        const Record*& slot = r.kind == Record::Send ? send : recv;
        if (slot)
          return call_ + " has more than one " + (r.kind == Record::Send ? "MpiSend" : "MpiRecv") +
                 " record: not a call replay knows";
        slot = &r;
        break;
      }
      case Record::Isend:
      case Record::IrecvRequest: {
        int id = next_request_++;
        if (requests_.count(r.request))
          return call_ + ": OTF2 request id " + std::to_string(r.request) + " is started again before it completed";
        requests_[r.request] = id;
        if (r.kind == Record::Isend) {
          int comm = 0;
          if (!comm_of(r, comm, reason))
            return reason;
          emit({{"call", call_ == "MPI_Issend" ? "issend" : "isend"}, {"peer", r.peer}, {"tag", r.tag},
                {"comm", comm}, {"bytes", r.bytes}, {"req", id}},
               call_position_);
        } else {
          // Sender, tag and size come with the MpiIrecv that completes it.
          emit({{"call", "irecv"}, {"peer", MPI_ANY_SOURCE}, {"tag", MPI_ANY_TAG}, {"comm", 0}, {"bytes", 0},
                {"req", id}},
               call_position_, false, r.request);
        }
        break;
      }
      case Record::IsendComplete:
      case Record::Irecv: {
        auto found = requests_.find(r.request);
        if (found == requests_.end())
          return call_ + ": OTF2 request id " + std::to_string(r.request) + " completes but was never started";
        completed.push_back(found->second);
        if (r.kind == Record::Irecv && !complete_irecv(r, found->first, reason))
          return reason;
        requests_.erase(found);
        break;
      }
      }
    }
    if (send || recv) {
      int comm = 0;
      const Record& any = send ? *send : *recv;
      if (!comm_of(any, comm, reason))
        return reason;
      if (send && recv)
        emit({{"call", "sendrecv"}, {"peer", send->peer}, {"tag", send->tag}, {"bytes", send->bytes},
              {"source", recv->peer}, {"rtag", recv->tag}, {"rbytes", recv->bytes}, {"comm", comm}},
             call_position_);
      else if (send)
        emit({{"call", call_ == "MPI_Ssend" ? "ssend" : "send"}, {"peer", send->peer}, {"tag", send->tag},
              {"comm", comm}, {"bytes", send->bytes}},
             call_position_);
      else
        emit({{"call", "recv"}, {"peer", recv->peer}, {"tag", recv->tag}, {"comm", comm}, {"bytes", recv->bytes}},
             call_position_);
    }
    if (completed.size() == 1 && call_ == "MPI_Wait")
      emit({{"call", "wait"}, {"req", completed[0]}}, call_position_);
    else if (!completed.empty())  // MPI_Waitall, and what tests, waitany, waitsome completed
      emit({{"call", "waitall"}, {"reqs", completed}}, call_position_);
    if (records_.empty())  // MPI_Comm_rank, MPI_Wtime, a test that completed nothing...: the cost of a call
      emit({{"call", "local"}, {"name", call_}}, call_position_);
    return "";
  }

  bool complete_irecv(const Record& r, uint64_t request, std::string& reason)
  {
    int comm = 0;
    if (!comm_of(r, comm, reason))
      return false;
    for (Pending& p : pending_)
      if (!p.complete && p.otf2_request == request) {
        p.event.mutable_fields()["peer"] = r.peer;
        p.event.mutable_fields()["tag"] = r.tag;
        p.event.mutable_fields()["comm"] = comm;
        p.event.mutable_fields()["bytes"] = r.bytes;
        p.complete = true;
        return true;
      }
    // Its MPI_Irecv was already replayed: impossible, it waits until completed here.
    reason = call_ + ": MpiIrecv of request " + std::to_string(request) + " without its MpiIrecvRequest";
    return false;
  }

  // A collective from its MpiCollectiveEnd: sizes are Score-P's totals
  // (scorep_mpi_coll.c), divided back into per-peer sizes where MPI's
  // signature makes them equal.
  std::string collective(const Record& r)
  {
    if (r.op >= OTF2_COLLECTIVE_OP_CREATE_HANDLE && r.op <= OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE) {
      // Score-P's communicator (and window) creations and frees: replay made
      // the communicators after MPI_Init; the call costs a call.
      emit({{"call", "local"}, {"name", call_}}, call_position_);
      return "";
    }
    int comm = 0;
    std::string reason;
    if (!comm_of(r, comm, reason))
      return reason;
    int me = -1;
    auto n = static_cast<uint64_t>(archive_->comm_size(comm, rank_, me));
    if (me < 0)
      return call_ + ": rank " + std::to_string(rank_) + " is not a member of communicator " + std::to_string(r.comm);
    bool rooted = r.op == OTF2_COLLECTIVE_OP_BCAST || r.op == OTF2_COLLECTIVE_OP_REDUCE ||
                  r.op == OTF2_COLLECTIVE_OP_GATHER || r.op == OTF2_COLLECTIVE_OP_SCATTER;
    if (rooted && r.root >= n)
      return call_ + ": root " + std::to_string(r.root) + " is not a rank of the communicator";
    bool root = rooted && r.root == static_cast<uint32_t>(me);
    nlohmann::json e = {{"comm", comm}};
    if (rooted)
      e["root"] = r.root;
    switch (r.op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      e["call"] = "barrier";
      break;
    case OTF2_COLLECTIVE_OP_BCAST:
      e["call"] = "bcast";
      e["bytes"] = r.received;
      break;
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
      e["call"] = r.op == OTF2_COLLECTIVE_OP_REDUCE ? "reduce" : "allreduce";
      e["count"] = r.op == OTF2_COLLECTIVE_OP_REDUCE ? r.sent : r.sent / n;
      e["dt"] = "MPI_BYTE";
      e["op"] = "MPI_BOR";
      break;
    case OTF2_COLLECTIVE_OP_GATHER:
      e["call"] = "gather";
      e["bytes"] = r.sent;
      e["rbytes"] = root ? r.received / n : r.sent;
      break;
    case OTF2_COLLECTIVE_OP_SCATTER:
      e["call"] = "scatter";
      e["rbytes"] = r.received;
      e["bytes"] = root ? r.sent / n : r.received;
      break;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
      e["call"] = r.op == OTF2_COLLECTIVE_OP_ALLGATHER ? "allgather" : "alltoall";
      e["bytes"] = r.sent / n;
      e["rbytes"] = r.received / n;
      break;
    default:
      return std::string(collective_name(r.op)) + (call_ == collective_name(r.op) ? "" : " (in " + call_ + ")") +
             " cannot be replayed from OTF2: the archive has only this rank's total of bytes, not what it "
             "exchanges with each peer";
    }
    emit(std::move(e), call_position_);
    return "";
  }

  std::shared_ptr<Archive> archive_;
  int rank_;
  double scale_;
  std::string name_;
  std::deque<Pending> pending_;
  bool ended_ = false;
  std::string error_;
  uint64_t error_position_ = 0;
  // The MPI call being read.
  int depth_ = 0;
  std::string call_;
  uint64_t call_position_ = 0;
  std::vector<Record> records_;
  OTF2_TimeStamp last_leave_ = 0;
  bool have_leave_ = false;
  // OTF2 request ids of the rank's pending requests -> progsim request ids.
  std::map<uint64_t, int> requests_;
  int next_request_ = 0;
  bool comms_made_ = false;
};

}  // namespace

bool is_otf2_archive(const std::string& path)
{
  static const std::string suffix = ".otf2";
  struct stat st {};
  return path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0 &&
         ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

TraceInfo probe_otf2_trace(const std::string& path)
{
  TraceInfo info;
  info.kind = TraceKind::Otf2;
  info.nranks = open_archive(path)->nranks();
  return info;
}

std::unique_ptr<RankEventSource> open_otf2_rank_events(const std::string& path, const TraceInfo& info, int rank)
{
  return std::make_unique<Otf2RankSource>(open_archive(path), rank, info.compute_scale);
}

}  // namespace progsim::traces
