// Writes an OTF2 archive (the trace format of Score-P, read by Vampir,
// otf2-print and most HPC tools) with Debian's libotf2: DIR/traces.otf2 (the
// anchor), DIR/traces.def (global definitions), DIR/traces/R.evt (events of
// rank R). This class owns the archive and its definitions (strings,
// regions, communicators, RMA windows, one location per rank); what goes into the events
// is decided by its user (Otf2Export). Timestamps are simulated time in
// ticks of 1 ns.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace progsim::traces {

class Otf2Writer {
public:
  static constexpr std::uint64_t kTicksPerSecond = 1000000000;  // 1 ns resolution
  static constexpr const char* kArchiveName = "traces";

  // Creates the archive in `dir` (made if missing). Throws TraceError when
  // it cannot, or when `dir` already holds an archive (OTF2 never overwrites).
  Otf2Writer(const std::string& dir, int nranks);
  ~Otf2Writer();
  Otf2Writer(const Otf2Writer&) = delete;
  Otf2Writer& operator=(const Otf2Writer&) = delete;

  // The anchor file the archive will have (what `progsim replay` reads).
  static std::string anchor(const std::string& dir) { return dir + "/" + kArchiveName + ".otf2"; }

  OTF2_EvtWriter* events(int rank);
  // `time` (simulated seconds) in ticks, never before the rank's previous
  // event (OTF2 requires non-decreasing timestamps per location).
  OTF2_TimeStamp ticks(int rank, double time);
  OTF2_TimeStamp last_ticks(int rank) const { return last_[static_cast<std::size_t>(rank)]; }
  OTF2_RegionRef region(const std::string& name, OTF2_RegionRole role);
  // A communicator other than MPI_COMM_WORLD (kWorld) and MPI_COMM_SELF
  // (kSelf), by its members (world ranks, in rank order); `context` tells
  // apart communicators with the same members.
  OTF2_CommRef comm(const std::vector<int>& members, long long context);
  static constexpr OTF2_CommRef kWorld = 0;
  static constexpr OTF2_CommRef kSelf = 1;
  // An RMA window, by the communicator it was created over and how many
  // windows were created over that communicator before it: the same at
  // every member, since window creation is collective (MPI-4.1 §12.2).
  OTF2_RmaWinRef window(OTF2_CommRef comm, int nth);

  // Writes the definitions and closes the archive (`end`: the run's end, s).
  void close(double end);

private:
  OTF2_StringRef string(const std::string& text);
  void write_definitions(double end);
  void make_deterministic();

  std::string dir_;
  int nranks_;
  OTF2_Archive* archive_ = nullptr;
  bool closing_ = false;
  std::vector<OTF2_EvtWriter*> writers_;
  std::vector<OTF2_TimeStamp> last_;
  std::vector<uint64_t> counts_;  // events per rank, taken as their writers close
  std::map<std::string, OTF2_StringRef> strings_;
  std::vector<std::string> string_order_;
  struct Region {
    std::string name;
    OTF2_RegionRole role;
  };
  std::map<std::string, OTF2_RegionRef> region_ids_;
  std::vector<Region> regions_;
  std::map<std::pair<long long, std::vector<int>>, OTF2_CommRef> comm_ids_;
  std::vector<std::vector<int>> comms_;  // members of derived communicators (id 2, 3, ...)
  std::map<std::pair<OTF2_CommRef, int>, OTF2_RmaWinRef> window_ids_;
  std::vector<OTF2_CommRef> windows_;  // the communicator of each window, by id
};

}  // namespace progsim::traces
