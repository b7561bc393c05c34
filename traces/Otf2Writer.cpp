#include "traces/Otf2Writer.hpp"

#include "traces/TraceEvent.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace progsim::traces {

namespace {

// A flush in the middle of a run is stamped with the writer's last
// timestamp (not the host clock: reruns stay byte-identical).
OTF2_TimeStamp g_flush_time = 0;

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
  return OTF2_FLUSH;
}

OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef)
{
  return g_flush_time;
}

const OTF2_FlushCallbacks kFlushCallbacks = {pre_flush, post_flush};

void check(OTF2_ErrorCode code, const std::string& dir, const char* what)
{
  if (code != OTF2_SUCCESS)
    throw TraceError(dir, 0, std::string("OTF2 export: ") + what + ": " + OTF2_Error_GetName(code) + " (" +
                                 OTF2_Error_GetDescription(code) + ")");
}

bool exists(const std::string& path)
{
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

Otf2Writer::Otf2Writer(const std::string& dir, int nranks)
    : dir_(dir), nranks_(nranks), writers_(static_cast<std::size_t>(nranks), nullptr),
      last_(static_cast<std::size_t>(nranks), 0)
{
  if (exists(anchor(dir)) || exists(dir + "/" + kArchiveName))
    throw TraceError(dir, 0, "--otf2: this directory already holds an OTF2 archive (" + anchor(dir) +
                                 "); OTF2 archives are not overwritten: remove it or choose another directory");
  if (!exists(dir) && ::mkdir(dir.c_str(), 0777) != 0)
    throw TraceError(dir, 0, std::string("--otf2: cannot create the directory: ") + std::strerror(errno));
  g_flush_time = 0;
  // OTF2 keeps an event chunk in memory per location: the smallest it
  // allows (256 KiB), for runs of many ranks.
  archive_ = OTF2_Archive_Open(dir.c_str(), kArchiveName, OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN, 4 * 1024 * 1024,
                               OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive_)
    throw TraceError(dir, 0, "OTF2 export: the archive cannot be created");
  check(OTF2_Archive_SetFlushCallbacks(archive_, &kFlushCallbacks, nullptr), dir, "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), dir, "collective callbacks");
  check(OTF2_Archive_SetCreator(archive_, "progsim run --otf2"), dir, "creator");
  check(OTF2_Archive_SetMachineName(archive_, "progsim simulation"), dir, "machine name");
  check(OTF2_Archive_OpenEvtFiles(archive_), dir, "event files");
}

Otf2Writer::~Otf2Writer()
{
  if (archive_) {
    try {
      close(0);
    } catch (const TraceError&) {
      // Already failing: the caller reports its own error.
    }
  }
}

OTF2_EvtWriter* Otf2Writer::events(int rank)
{
  OTF2_EvtWriter*& writer = writers_.at(static_cast<std::size_t>(rank));
  if (!writer) {
    writer = OTF2_Archive_GetEvtWriter(archive_, static_cast<OTF2_LocationRef>(rank));
    if (!writer)
      throw TraceError(dir_, 0, "OTF2 export: no event writer for rank " + std::to_string(rank));
  }
  return writer;
}

OTF2_TimeStamp Otf2Writer::ticks(int rank, double time)
{
  auto t = static_cast<OTF2_TimeStamp>(std::llround(std::max(time, 0.0) * static_cast<double>(kTicksPerSecond)));
  OTF2_TimeStamp& last = last_.at(static_cast<std::size_t>(rank));
  last = std::max(last, t);
  g_flush_time = std::max(g_flush_time, last);
  return last;
}

OTF2_StringRef Otf2Writer::string(const std::string& text)
{
  auto found = strings_.find(text);
  if (found != strings_.end())
    return found->second;
  auto id = static_cast<OTF2_StringRef>(string_order_.size());
  strings_.emplace(text, id);
  string_order_.push_back(text);
  return id;
}

OTF2_RegionRef Otf2Writer::region(const std::string& name, OTF2_RegionRole role)
{
  auto found = region_ids_.find(name);
  if (found != region_ids_.end())
    return found->second;
  auto id = static_cast<OTF2_RegionRef>(regions_.size());
  region_ids_.emplace(name, id);
  regions_.push_back({name, role});
  return id;
}

OTF2_CommRef Otf2Writer::comm(const std::vector<int>& members, long long context)
{
  auto key = std::make_pair(context, members);
  auto found = comm_ids_.find(key);
  if (found != comm_ids_.end())
    return found->second;
  auto id = static_cast<OTF2_CommRef>(2 + comms_.size());
  comm_ids_.emplace(key, id);
  comms_.push_back(members);
  return id;
}

OTF2_RmaWinRef Otf2Writer::window(OTF2_CommRef comm, int nth)
{
  auto key = std::make_pair(comm, nth);
  auto found = window_ids_.find(key);
  if (found != window_ids_.end())
    return found->second;
  auto id = static_cast<OTF2_RmaWinRef>(windows_.size());
  window_ids_.emplace(key, id);
  windows_.push_back(comm);
  return id;
}

void Otf2Writer::write_definitions(double end)
{
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!defs)
    throw TraceError(dir_, 0, "OTF2 export: no definition writer");
  OTF2_TimeStamp length = 0;
  for (OTF2_TimeStamp t : last_)
    length = std::max(length, t);
  length = std::max(length, static_cast<OTF2_TimeStamp>(std::llround(end * static_cast<double>(kTicksPerSecond))));
  // No realtime stamp: the run happens in simulated time only.
  check(OTF2_GlobalDefWriter_WriteClockProperties(defs, kTicksPerSecond, 0, length + 1, OTF2_UNDEFINED_TIMESTAMP),
        dir_, "clock properties");

  // Names first (strings must be defined before they are referenced).
  OTF2_StringRef machine = string("progsim simulation");
  OTF2_StringRef node_class = string("machine");
  std::vector<OTF2_StringRef> rank_names;
  for (int r = 0; r < nranks_; ++r)
    rank_names.push_back(string("MPI Rank " + std::to_string(r)));
  OTF2_StringRef world_name = string("MPI_COMM_WORLD");
  OTF2_StringRef self_name = string("MPI_COMM_SELF");
  OTF2_StringRef locations_name = string("MPI ranks");
  std::vector<OTF2_StringRef> comm_names;
  for (std::size_t i = 0; i < comms_.size(); ++i)
    comm_names.push_back(string("communicator " + std::to_string(i + 2)));
  std::vector<OTF2_StringRef> region_names;
  for (const Region& r : regions_)
    region_names.push_back(string(r.name));
  std::vector<OTF2_StringRef> window_names;
  for (std::size_t i = 0; i < windows_.size(); ++i)
    window_names.push_back(string("window " + std::to_string(i)));
  OTF2_StringRef empty = string("");
  for (std::size_t i = 0; i < string_order_.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteString(defs, static_cast<OTF2_StringRef>(i), string_order_[i].c_str()), dir_,
          "string");

  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, machine, node_class, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        dir_, "system tree");
  for (int r = 0; r < nranks_; ++r) {
    auto rank = static_cast<std::size_t>(r);
    check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, static_cast<OTF2_LocationGroupRef>(r), rank_names[rank],
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          dir_, "location group");
    check(OTF2_GlobalDefWriter_WriteLocation(defs, static_cast<OTF2_LocationRef>(r), rank_names[rank],
                                             OTF2_LOCATION_TYPE_CPU_THREAD, counts_[rank],
                                             static_cast<OTF2_LocationGroupRef>(r)),
          dir_, "location");
  }
  for (std::size_t i = 0; i < regions_.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteRegion(defs, static_cast<OTF2_RegionRef>(i), region_names[i], region_names[i],
                                           empty, regions_[i].role, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE,
                                           empty, 0, 0),
          dir_, "region");

  // Groups: 0 the locations of the ranks (MPI_COMM_WORLD's ranks in order),
  // 1 all of them, 2 the self group, then one per derived communicator, whose
  // members are ranks of group 0 (that is, world ranks).
  std::vector<uint64_t> all(static_cast<std::size_t>(nranks_));
  for (int r = 0; r < nranks_; ++r)
    all[static_cast<std::size_t>(r)] = static_cast<uint64_t>(r);
  check(OTF2_GlobalDefWriter_WriteGroup(defs, 0, locations_name, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(all.size()), all.data()),
        dir_, "group");
  check(OTF2_GlobalDefWriter_WriteGroup(defs, 1, world_name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(all.size()), all.data()),
        dir_, "group");
  check(OTF2_GlobalDefWriter_WriteGroup(defs, 2, self_name, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, 0, nullptr),
        dir_, "group");
  for (std::size_t i = 0; i < comms_.size(); ++i) {
    std::vector<uint64_t> members(comms_[i].begin(), comms_[i].end());
    check(OTF2_GlobalDefWriter_WriteGroup(defs, static_cast<OTF2_GroupRef>(3 + i), comm_names[i],
                                          OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<uint32_t>(members.size()), members.data()),
          dir_, "group");
  }
  check(OTF2_GlobalDefWriter_WriteComm(defs, kWorld, world_name, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), dir_,
        "communicator");
  check(OTF2_GlobalDefWriter_WriteComm(defs, kSelf, self_name, 2, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), dir_,
        "communicator");
  for (std::size_t i = 0; i < comms_.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteComm(defs, static_cast<OTF2_CommRef>(2 + i), comm_names[i],
                                         static_cast<OTF2_GroupRef>(3 + i), OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE),
          dir_, "communicator");
  for (std::size_t i = 0; i < windows_.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteRmaWin(defs, static_cast<OTF2_RmaWinRef>(i), window_names[i], windows_[i],
                                           OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS),
          dir_, "RMA window");
}

void Otf2Writer::close(double end)
{
  if (!archive_ || closing_)
    return;
  closing_ = true;  // a failure below is not retried by the destructor
  OTF2_Archive* archive = archive_;
  // Every rank gets its event file (possibly empty) and an empty local
  // definition file: readers such as otf2-print expect both.
  counts_.assign(writers_.size(), 0);
  for (int r = 0; r < nranks_; ++r) {
    auto rank = static_cast<std::size_t>(r);
    OTF2_EvtWriter_GetNumberOfEvents(events(r), &counts_[rank]);
    check(OTF2_Archive_CloseEvtWriter(archive, writers_[rank]), dir_, "closing events");
    writers_[rank] = nullptr;
  }
  check(OTF2_Archive_CloseEvtFiles(archive), dir_, "closing event files");
  check(OTF2_Archive_OpenDefFiles(archive), dir_, "definition files");
  for (int r = 0; r < nranks_; ++r) {
    OTF2_DefWriter* local = OTF2_Archive_GetDefWriter(archive, static_cast<OTF2_LocationRef>(r));
    if (local)
      OTF2_Archive_CloseDefWriter(archive, local);
  }
  check(OTF2_Archive_CloseDefFiles(archive), dir_, "closing definition files");
  write_definitions(end);
  archive_ = nullptr;
  check(OTF2_Archive_Close(archive), dir_, "closing the archive");
  make_deterministic();
}

// OTF2 draws the archive's trace id from the host id, the process id and the
// host clock, and writes it in the anchor file only: replaced by a hash of
// the definitions, so that the same run gives the same bytes.
void Otf2Writer::make_deterministic()
{
  std::string path = anchor(dir_);
  OTF2_Reader* reader = OTF2_Reader_Open(path.c_str());
  uint64_t id = 0;
  bool known = reader && OTF2_Reader_GetTraceId(reader, &id) == OTF2_SUCCESS;
  if (reader)
    OTF2_Reader_Close(reader);
  std::ifstream defs(dir_ + "/" + kArchiveName + ".def", std::ios::binary);
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (std::istreambuf_iterator<char> it(defs), end; it != end; ++it)
    hash = (hash ^ static_cast<unsigned char>(*it)) * 1099511628211ull;
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::string needle(reinterpret_cast<const char*>(&id), sizeof id);
  std::size_t at = bytes.find(needle);
  if (!known || at == std::string::npos || bytes.find(needle, at + 1) != std::string::npos)
    throw TraceError(path, 0, "OTF2 export: the trace id was not found once in the anchor file");
  bytes.replace(at, sizeof hash, reinterpret_cast<const char*>(&hash), sizeof hash);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out)
    throw TraceError(path, 0, "OTF2 export: the anchor file cannot be written");
}

}  // namespace progsim::traces
