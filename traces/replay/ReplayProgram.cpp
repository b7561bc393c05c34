// The program `progsim replay` runs in every rank: it reads the rank's
// events from the trace (incrementally) and performs each with the regular
// MPI C API (the PMPI_ names, so that nothing here is recorded again) on
// scratch buffers of the recorded sizes. Compute events run on the rank's
// host CPU (progsim_compute), where they compete with progress threads.
// So the trace drives the same MPI model as the program did: protocols,
// progress chunks and collective algorithms of the chosen policy.
//
// Built as a progsim program (marker, no privatization: the scratch
// buffers are shared by all ranks, whose data does not matter).
#include "traces/MpiNames.hpp"
#include "traces/TraceSource.hpp"

#include "MpiModel.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Simulation.hpp"

#include <mpi.h>

#include <climits>
#include <map>
#include <memory>
#include <vector>

namespace progsim::traces {

namespace {

// Memory for message data. A block is never freed while the run lasts:
// pending nonblocking operations may still point into older blocks.
class Scratch {
public:
  void* get(long long bytes)
  {
    auto size = static_cast<std::size_t>(std::max(bytes, 1LL));
    if (blocks_.empty() || size > size_) {
      size_ = std::max(size, 2 * size_);
      blocks_.emplace_back(new char[size_]());
    }
    return blocks_.back().get();
  }

private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t size_ = 0;
};

Scratch send_scratch;
Scratch recv_scratch;

class RankReplay {
public:
  RankReplay(sim::Rank& rank, const std::string& path, const TraceInfo& info)
      : rank_(rank), events_(open_rank_events(path, info, rank.id()))
  {
    comms_[0] = MPI_COMM_WORLD;
    comms_[1] = MPI_COMM_SELF;
  }

  void run()
  {
    TraceEvent event;
    while (events_->next(event)) {
      event_ = &event;
      perform(event);
    }
    if (rank_.mpi_initialized && !rank_.mpi_finalized)
      sim::diag(events_->file() + ": the events of rank " + std::to_string(rank_.id()) +
                " end before MPI_Finalize (a trace of a run that did not complete?)");
  }

private:
  [[noreturn]] void fail(const std::string& reason) const
  {
    throw TraceError(events_->file(), event_ ? event_->line : 0, reason);
  }

  MPI_Comm comm(const TraceEvent& e) const
  {
    int id = e.small("comm");
    auto found = comms_.find(id);
    if (found == comms_.end())
      fail("communicator id " + std::to_string(id) + " was not created earlier in rank " +
           std::to_string(rank_.id()) + "'s events");
    return found->second;
  }
  int comm_size(MPI_Comm handle) const
  {
    const mpi::Communicator* c = mpi::MpiModel::instance().communicators().find(handle, rank_.id());
    return c ? c->size() : 0;
  }
  // A peer or root of the event, checked against its communicator: a rank
  // outside it is an error of the trace (file:line), not a fatal MPI error
  // of the replay program.
  int rank_field(const TraceEvent& e, const char* key, MPI_Comm c, bool receive = false) const
  {
    int r = e.small(key);
    if (r == MPI_PROC_NULL || (receive && r == MPI_ANY_SOURCE))
      return r;
    int size = comm_size(c);
    if (r < 0 || r >= size)
      fail(std::string(key) + " " + std::to_string(r) + " is not a rank of communicator id " +
           std::to_string(e.small("comm")) + " (" + std::to_string(size) + " ranks)");
    return r;
  }
  int count(long long bytes) const
  {
    if (bytes > INT_MAX)
      fail("a size of " + std::to_string(bytes) + " bytes is beyond what replay supports (2^31-1)");
    return static_cast<int>(bytes);
  }
  std::vector<int> counts(const nlohmann::json& list, int n, long long& total) const
  {
    std::vector<int> out(static_cast<std::size_t>(n), 0);
    total = 0;
    if (!list.empty() && static_cast<int>(list.size()) != n)
      fail("a list of " + std::to_string(list.size()) + " sizes for a communicator of " + std::to_string(n) +
           " ranks");
    for (std::size_t i = 0; i < list.size(); ++i) {
      out[i] = count(list[i].get<long long>());
      total += out[i];
    }
    return out;
  }
  static std::vector<int> displacements(const std::vector<int>& counts)
  {
    std::vector<int> displs(counts.size(), 0);
    for (std::size_t i = 1; i < counts.size(); ++i)
      displs[i] = displs[i - 1] + counts[i - 1];
    return displs;
  }
  MPI_Datatype datatype(const TraceEvent& e) const
  {
    MPI_Datatype type = predefined_datatype(e.fields.at("dt").get<std::string>());
    if (type == MPI_DATATYPE_NULL)
      fail("unknown datatype \"" + e.fields.at("dt").get<std::string>() + "\"");
    return type;
  }
  MPI_Op op(const TraceEvent& e) const
  {
    MPI_Op op = predefined_op(e.fields.at("op").get<std::string>());
    if (op == MPI_OP_NULL)
      fail("unknown reduction operation \"" + e.fields.at("op").get<std::string>() + "\"");
    return op;
  }
  long long type_size(MPI_Datatype type) const
  {
    auto t = mpi::MpiModel::instance().datatypes().find_live(type);
    return t ? t->size() : 1;
  }
  MPI_Request& request(int id)
  {
    auto found = requests_.find(id);
    if (found == requests_.end())
      fail("request id " + std::to_string(id) + " was not started earlier in rank " + std::to_string(rank_.id()) +
           "'s events");
    return found->second;
  }
  void ensure_initialized()
  {
    if (!rank_.mpi_initialized)
      PMPI_Init(nullptr, nullptr);
  }
  void check(int err) const
  {
    if (err != MPI_SUCCESS)  // only reached with MPI_ERRORS_RETURN; the model raised the error already
      fail("the MPI call failed (error " + std::to_string(err) + ")");
  }
  void sleep(double seconds)
  {
    sim::RankState before = rank_.state();
    rank_.set_state(sim::RankState::Sleeping);
    rank_.clock().sleep(seconds);
    rank_.set_state(before);
  }

  void perform(const TraceEvent& e)
  {
    const std::string& call = e.call;
    if (call == "compute") {
      progsim_compute(e.has("s") ? e.number("s") : e.number("flops") / rank_.host()->get_speed());
      return;
    }
    if (call == "sleep") {
      sleep(e.number("s"));
      return;
    }
    if (call == "init") {
      check(PMPI_Init(nullptr, nullptr));
      return;
    }
    if (call == "unsupported")
      fail("the recorded program called " + e.fields.at("name").get<std::string>() +
           ", which traces cannot replay yet");
    ensure_initialized();
    if (call == "finalize") {
      check(PMPI_Finalize());
    } else if (call == "local") {
      bool wtime = e.fields.at("name") == "MPI_Wtime";
      long long repeat = e.has("repeat") ? e.integer("repeat") : 1;
      for (long long i = 0; i < repeat; ++i) {
        int ignored = 0;
        if (wtime)
          PMPI_Wtime();
        else
          PMPI_Comm_size(MPI_COMM_WORLD, &ignored);
      }
    } else if (call == "send" || call == "ssend") {
      int n = count(e.integer("bytes"));
      auto fn = call == "send" ? PMPI_Send : PMPI_Ssend;
      MPI_Comm c = comm(e);
      check(fn(send_scratch.get(n), n, MPI_BYTE, rank_field(e, "peer", c), e.small("tag"), c));
    } else if (call == "recv") {
      int n = count(e.integer("bytes"));
      MPI_Comm c = comm(e);
      check(PMPI_Recv(recv_scratch.get(n), n, MPI_BYTE, rank_field(e, "peer", c, true), e.small("tag"), c,
                      MPI_STATUS_IGNORE));
    } else if (call == "isend" || call == "issend" || call == "irecv") {
      int n = count(e.integer("bytes"));
      MPI_Request handle = MPI_REQUEST_NULL;
      MPI_Comm c = comm(e);
      int peer = rank_field(e, "peer", c, call == "irecv");
      if (call == "irecv")
        check(PMPI_Irecv(recv_scratch.get(n), n, MPI_BYTE, peer, e.small("tag"), c, &handle));
      else
        check((call == "isend" ? PMPI_Isend : PMPI_Issend)(send_scratch.get(n), n, MPI_BYTE, peer, e.small("tag"),
                                                          c, &handle));
      requests_[e.small("req")] = handle;
    } else if (call == "sendrecv") {
      int n = count(e.integer("bytes"));
      int rn = count(e.integer("rbytes"));
      MPI_Comm c = comm(e);
      check(PMPI_Sendrecv(send_scratch.get(n), n, MPI_BYTE, rank_field(e, "peer", c), e.small("tag"),
                          recv_scratch.get(rn), rn, MPI_BYTE, rank_field(e, "source", c, true), e.small("rtag"), c,
                          MPI_STATUS_IGNORE));
    } else if (call == "wait" || call == "test") {
      int id = e.small("req");
      MPI_Request null_request = MPI_REQUEST_NULL;
      MPI_Request& handle = id < 0 ? null_request : request(id);
      if (call == "wait") {
        check(PMPI_Wait(&handle, MPI_STATUS_IGNORE));
        requests_.erase(id);
      } else {
        int flag = 0;
        check(PMPI_Test(&handle, &flag, MPI_STATUS_IGNORE));
      }
    } else if (call == "waitall") {
      std::vector<int> ids = e.fields.at("reqs").get<std::vector<int>>();
      std::vector<MPI_Request> handles;
      for (int id : ids)
        handles.push_back(id < 0 ? MPI_REQUEST_NULL : request(id));
      check(PMPI_Waitall(static_cast<int>(handles.size()), handles.data(), MPI_STATUSES_IGNORE));
      for (int id : ids)
        requests_.erase(id);
    } else if (call == "barrier") {
      check(PMPI_Barrier(comm(e)));
    } else if (call == "bcast") {
      int n = count(e.integer("bytes"));
      MPI_Comm c = comm(e);
      check(PMPI_Bcast(recv_scratch.get(n), n, MPI_BYTE, rank_field(e, "root", c), c));
    } else if (call == "reduce" || call == "allreduce" || call == "reduce_scatter_block") {
      MPI_Datatype type = datatype(e);
      int n = count(e.integer("count"));
      long long bytes = n * type_size(type);
      MPI_Comm c = comm(e);
      void* in = send_scratch.get(call == "reduce_scatter_block" ? bytes * comm_size(c) : bytes);
      if (call == "reduce")
        check(PMPI_Reduce(in, recv_scratch.get(bytes), n, type, op(e), rank_field(e, "root", c), c));
      else if (call == "allreduce")
        check(PMPI_Allreduce(in, recv_scratch.get(bytes), n, type, op(e), c));
      else
        check(PMPI_Reduce_scatter_block(in, recv_scratch.get(bytes), n, type, op(e), c));
    } else if (call == "reduce_scatter") {
      MPI_Datatype type = datatype(e);
      MPI_Comm c = comm(e);
      long long total = 0;
      std::vector<int> list = counts(e.fields.at("counts"), comm_size(c), total);
      check(PMPI_Reduce_scatter(send_scratch.get(total * type_size(type)), recv_scratch.get(total * type_size(type)),
                                list.data(), type, op(e), c));
    } else if (call == "alltoall" || call == "allgather" || call == "gather" || call == "scatter") {
      int n = count(e.integer("bytes"));
      int rn = count(e.integer("rbytes"));
      MPI_Comm c = comm(e);
      long long size = comm_size(c);
      if (call == "alltoall")
        check(PMPI_Alltoall(send_scratch.get(n * size), n, MPI_BYTE, recv_scratch.get(rn * size), rn, MPI_BYTE, c));
      else if (call == "allgather")
        check(PMPI_Allgather(send_scratch.get(n), n, MPI_BYTE, recv_scratch.get(rn * size), rn, MPI_BYTE, c));
      else if (call == "gather")
        check(PMPI_Gather(send_scratch.get(n), n, MPI_BYTE, recv_scratch.get(rn * size), rn, MPI_BYTE,
                          rank_field(e, "root", c), c));
      else
        check(PMPI_Scatter(send_scratch.get(n * size), n, MPI_BYTE, recv_scratch.get(rn), rn, MPI_BYTE,
                           rank_field(e, "root", c), c));
    } else if (call == "alltoallv") {
      MPI_Comm c = comm(e);
      int size = comm_size(c);
      long long stotal = 0, rtotal = 0;
      std::vector<int> scounts = counts(e.fields.at("sbytes"), size, stotal);
      std::vector<int> rcounts = counts(e.fields.at("rbytes"), size, rtotal);
      std::vector<int> sdispls = displacements(scounts), rdispls = displacements(rcounts);
      check(PMPI_Alltoallv(send_scratch.get(stotal), scounts.data(), sdispls.data(), MPI_BYTE,
                           recv_scratch.get(rtotal), rcounts.data(), rdispls.data(), MPI_BYTE, c));
    } else if (call == "gatherv" || call == "allgatherv") {
      MPI_Comm c = comm(e);
      int n = count(e.integer("bytes"));
      long long rtotal = 0;
      std::vector<int> rcounts = counts(e.fields.at("rbytes"), comm_size(c), rtotal);
      std::vector<int> rdispls = displacements(rcounts);
      if (call == "gatherv")
        check(PMPI_Gatherv(send_scratch.get(n), n, MPI_BYTE, recv_scratch.get(rtotal), rcounts.data(),
                           rdispls.data(), MPI_BYTE, rank_field(e, "root", c), c));
      else
        check(PMPI_Allgatherv(send_scratch.get(n), n, MPI_BYTE, recv_scratch.get(rtotal), rcounts.data(),
                              rdispls.data(), MPI_BYTE, c));
    } else if (call == "comm_dup" || call == "comm_split") {
      MPI_Comm created = MPI_COMM_NULL;
      if (call == "comm_dup")
        check(PMPI_Comm_dup(comm(e), &created));
      else
        check(PMPI_Comm_split(comm(e), e.small("color"), e.small("key"), &created));
      if (created != MPI_COMM_NULL)
        comms_[e.small("newcomm")] = created;
    } else if (call == "comm_free") {
      MPI_Comm handle = comm(e);
      check(PMPI_Comm_free(&handle));
      comms_.erase(e.small("comm"));
    } else {
      fail("event \"" + call + "\" cannot be replayed");
    }
  }

  sim::Rank& rank_;
  std::unique_ptr<RankEventSource> events_;
  const TraceEvent* event_ = nullptr;
  std::map<int, MPI_Request> requests_;
  std::map<int, MPI_Comm> comms_;
};

// Probed once, by the first rank to start (all ranks share this program).
const TraceInfo& trace_info(const std::string& path)
{
  static const TraceInfo info = probe_trace(path);
  return info;
}

}  // namespace

}  // namespace progsim::traces

int main(int argc, char** argv)
{
  using namespace progsim;
  sim::Rank* rank = sim::calling_rank();
  if (!rank || argc != 2) {
    sim::diag("the replay program runs inside 'progsim replay TRACE'");
    return 2;
  }
  try {
    traces::RankReplay replay(*rank, argv[1], traces::trace_info(argv[1]));
    replay.run();
  } catch (const traces::TraceError& e) {
    sim::Simulation::current()->end_run(sim::Outcome::Aborted, std::string("replay: ") + e.what(),
                                        sim::kExitUsageError);
  }
  return 0;
}
