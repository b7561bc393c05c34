// `progsim run --otf2 DIR`: the recorder's view of the run (traces/recorder/,
// the same calls and fields as a progsim trace) written as OTF2 events, the
// way Score-P's MPI adapter writes them: Enter/Leave per MPI call,
// MpiSend/MpiRecv and MpiIsend/MpiIsendComplete/MpiIrecvRequest/MpiIrecv for
// point-to-point, MpiCollectiveBegin/End with Score-P's byte counts for
// collectives, NonBlockingCollectiveRequest/Complete (with the request's
// id) for nonblocking ones. The time between calls (computation, sleeps) is the gap
// between a Leave and the next Enter. Calls made of local work only
// (MPI_Wtime, MPI_Comm_rank, ...) and calls replay does not support are not
// written.
#pragma once

#include "traces/Otf2RmaExport.hpp"
#include "traces/Otf2Writer.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace progsim::traces {

// What a call received or completed, known when it returns: a message of
// MPI_Recv or MPI_Sendrecv (request -1), or a request a wait or test completed.
struct Completion {
  int request = -1;
  int source = -1;  // in the communicator; MPI_PROC_NULL: nothing was received
  int tag = 0;
  long long bytes = 0;
};

// Bytes of `count` items of an event's datatype ("dt": predefined, the
// recorder writes others as bytes): reductions, accumulates.
long long element_bytes(const nlohmann::ordered_json& event, long long count);

class Otf2Export {
public:
  // A communicator as the rank knows it: its members (world ranks, in rank
  // order; null when unknown), a number telling apart communicators with
  // the same members, and the rank's place in it.
  struct CommView {
    const std::vector<int>* members = nullptr;
    long long context = 0;
    int me = -1;
  };
  // The communicator the rank knows by that trace id (the recorder's ids).
  using CommMembers = std::function<CommView(int rank, int comm)>;

  Otf2Export(const std::string& dir, int nranks, CommMembers members);

  // The rank starts the call `event` (a progsim trace event) at `time`.
  void call(int rank, double time, const nlohmann::ordered_json& event);
  // The call returned at `time`; `failed`: with an error, so it sent and
  // started nothing (its MPI records are not written).
  void returned(int rank, double time, const std::vector<Completion>& completions, bool failed = false);
  // Ends calls still open (ranks blocked at the end) at `end` and closes the archive.
  void close(double end);

private:
  // What a collective's end record says (MpiCollectiveEnd,
  // NonBlockingCollectiveComplete); `op` is kNotCollective (-1) for a
  // point-to-point request.
  struct CollectiveRecord {
    int op = -1;
    OTF2_CommRef comm = OTF2_UNDEFINED_COMM;
    uint32_t root = OTF2_UNDEFINED_UINT32;
    uint64_t sent = 0;
    uint64_t received = 0;
  };
  struct PendingRequest {
    bool receive = false;
    OTF2_CommRef comm = OTF2_UNDEFINED_COMM;
    CollectiveRecord collective;  // a nonblocking collective's, known when it starts
  };
  struct RankState {
    nlohmann::ordered_json open;  // the call in progress (null: none)
    OTF2_RegionRef region = 0;
    OTF2_TimeStamp entered = 0;
    std::map<int, PendingRequest> requests;
    std::map<int, OTF2_CommRef> comms;  // the rank's trace ids of communicators -> OTF2's
  };

  OTF2_CommRef comm(int rank, const nlohmann::ordered_json& event);
  CollectiveRecord collective_record(int rank, const nlohmann::ordered_json& event);
  // The point-to-point records of the open call, at its Enter's time.
  void started(int rank, RankState& state);

  Otf2Writer writer_;
  Otf2RmaExport rma_;
  CommMembers members_;
  std::vector<RankState> ranks_;
};

}  // namespace progsim::traces
