// The replay of partitioned communication (MPI-4.1 chapter 4): the
// requests over scratch memory of the recorded partitions (MPI_BYTE, the
// recorded bytes per partition), started and completed by the `start` and
// completion events as persistent requests, and every MPI_Pready* where the
// rank's events have it, so partitions become ready at the same points of
// the rank's sequence as in the program.
#include "traces/replay/RankReplay.hpp"
#include "traces/replay/Scratch.hpp"

namespace progsim::traces {

// MPI_Psend_init (`receive` false) or MPI_Precv_init. The info is not
// recorded: the model does not read it.
void RankReplay::partitioned_init(const TraceEvent& e, bool receive)
{
  long long partitions = e.integer("partitions");
  long long bytes = e.integer("bytes");
  long long total = 0;
  if (partitions > 0 && __builtin_mul_overflow(partitions, bytes, &total))
    fail(std::to_string(partitions) + " partitions of " + std::to_string(bytes) + " bytes overflow 64 bits");
  void* buf = (receive ? recv_scratch : send_scratch).get(count(total));
  MPI_Comm c = comm(e);
  int peer = rank_field(e, "peer", c, receive);
  int parts = e.small("partitions");
  MPI_Request handle = MPI_REQUEST_NULL;
  check(receive ? PMPI_Precv_init(buf, parts, bytes, MPI_BYTE, peer, e.small("tag"), c, MPI_INFO_NULL, &handle)
                : PMPI_Psend_init(buf, parts, bytes, MPI_BYTE, peer, e.small("tag"), c, MPI_INFO_NULL, &handle));
  keep_request(e, handle);
}

void RankReplay::replay_psend_init(const TraceEvent& e)
{
  partitioned_init(e, false);
}

void RankReplay::replay_precv_init(const TraceEvent& e)
{
  partitioned_init(e, true);
}

void RankReplay::replay_pready(const TraceEvent& e)
{
  check(PMPI_Pready(e.small("partition"), request_or_null(e)));
}

void RankReplay::replay_pready_range(const TraceEvent& e)
{
  check(PMPI_Pready_range(e.small("low"), e.small("high"), request_or_null(e)));
}

void RankReplay::replay_pready_list(const TraceEvent& e)
{
  std::vector<int> list = e.fields().at("list").get<std::vector<int>>();
  check(PMPI_Pready_list(static_cast<int>(list.size()), list.data(), request_or_null(e)));
}

// One MPI_Parrived per recorded one, as for MPI_Iprobe (docs/traces.md,
// Replay): the replay keeps the program's control flow, so under the
// recording's policy it sees the same flags; under another one a partition
// may arrive after fewer or more polls, and the flag is not used: nothing
// the program did next depended on it through MPI (a partition that arrived
// changes no request's state; MPI_Wait completes the request).
void RankReplay::replay_parrived(const TraceEvent& e)
{
  int flag = 0;
  do
    check(PMPI_Parrived(request_or_null(e), e.small("partition"), &flag));
  while (!flag && e.has("unreturned"));
}

}  // namespace progsim::traces
