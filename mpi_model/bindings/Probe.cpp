// MPI-4.1 §3.8: probe and matched probe (MPI_Mprobe takes the message out of
// the matching queues so that only MPI_Mrecv can receive it). MPI_Mrecv and
// MPI_Imrecv have large-count variants (_c, §19.2).

#include "bindings/Binding.hpp"
#include "diagnosis/CallSites.hpp"
#include "p2p/MessageRaces.hpp"
#include "sim/ActingTime.hpp"

using namespace progsim;
using namespace progsim::mpi;

namespace {

void fill_probe_status(MPI_Status* status, const Packet& message)
{
  if (status == MPI_STATUS_IGNORE)
    return;
  Request view;
  view.status_source = message.src_local;
  view.status_tag = message.tag;
  view.status_bytes = message.data_bytes;
  fill_status(status, view);
}

void fill_proc_null_status(MPI_Status* status)
{
  if (status == MPI_STATUS_IGNORE)
    return;
  // A probe's status is a single-completion one: MPI_ERROR stays unchanged.
  int error = status->MPI_ERROR;
  empty_status(status);
  status->MPI_SOURCE = MPI_PROC_NULL;
  status->MPI_ERROR = error;
}

int probe_args(const Binding& b, int source, int tag, MPI_Comm comm, const Communicator*& c)
{
  if (int err = b.check_initialized())
    return err;
  if (int err = b.resolve_comm(comm, c))
    return err;
  if (!(source == MPI_ANY_SOURCE || source == MPI_PROC_NULL || (source >= 0 && source < c->size())))
    return b.error(comm, MPI_ERR_RANK, "invalid source rank " + std::to_string(source));
  if (!(tag == MPI_ANY_TAG || (tag >= 0 && tag <= kTagUpperBound)))
    return b.error(comm, MPI_ERR_TAG, "invalid tag " + std::to_string(tag));
  return MPI_SUCCESS;
}

std::string probe_text(const char* call, int source, int tag, const Communicator& c)
{
  return std::string(call) + "(source=" + (source == MPI_ANY_SOURCE ? "MPI_ANY_SOURCE" : std::to_string(source)) +
         ", tag=" + (tag == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(tag)) + ", comm=" + c.name + ")";
}

// Which message a wildcard probe sees is a decision of the run, recorded or
// forced (p2p/MessageRaces.hpp): the source it must see, `source` unless
// match-schedule forces one.
int probed_source(const Binding& b, int source, int tag)
{
  MessageRaces* races = b.p2p().races();
  return races ? races->probe_source(b.world(), source, tag) : source;
}

// The probe for the program's (source, tag) saw `seen`.
void probed(const Binding& b, int source, int tag, const Communicator& c, const Packet& seen)
{
  if (MessageRaces* races = b.p2p().races())
    races->end_probe(b.world(), b.call(), call_site_mark(b.rank()), c.context_id, source, tag, seen,
                     sim::acting_time());
}

// Waits until done(), recording the message waited for (deadlock explanations).
void wait_probing(const Binding& b, int source, int tag, const Communicator& c, const std::function<bool()>& done)
{
  PointToPoint::ProbeWait probe{source == MPI_ANY_SOURCE ? -1 : c.world_rank(source), tag};
  b.p2p().set_probing(b.world(), probe);
  b.progress().wait_until(done, [&] { return probe_text(b.call(), source, tag, c); });
  b.p2p().set_probing(b.world(), std::nullopt);
}

// Blocking (M)probe: waits until a matching message has arrived.
const Packet* wait_for_message(const Binding& b, int source, int tag, const Communicator& c)
{
  int me = b.world();
  const Packet* found = nullptr;
  auto arrived = [&] { return (found = b.p2p().probe(me, c.context_id, source, tag)) != nullptr; };
  if (!arrived())
    wait_probing(b, source, tag, c, arrived);
  return found;
}

const Packet* poll_for_message(const Binding& b, int source, int tag, const Communicator& c)
{
  RankProgress& p = b.progress();
  ++p.counters.tests;
  b.rank()->clock().charge_cpu(b.model().parameters().poll_cost);
  p.progress_point();
  const Packet* found = b.p2p().probe(b.world(), c.context_id, source, tag);
  if (!found && p.test_found_nothing()) {
    // A livelock: held until something arrives for this rank, then probes again.
    p.hold_test([&](const std::function<bool()>& done) { wait_probing(b, source, tag, c, done); });
    found = b.p2p().probe(b.world(), c.context_id, source, tag);
  }
  if (!found)
    ++p.counters.false_tests;
  return found;
}

int receive_message(const Binding& b, void* buf, std::int64_t count, MPI_Datatype datatype, MPI_Message* message,
                    RequestPtr& out)
{
  if (int err = b.check_initialized())
    return err;
  if (*message == MPI_MESSAGE_NO_PROC) {
    out = nullptr;
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
  }
  std::optional<Packet> m = b.model().take_matched_message(*message);
  if (!m)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid message handle");
  const Communicator* c = b.model().communicators().find(MPI_COMM_WORLD, b.world());
  if (int err = b.check_buffer(buf, count, datatype, c->handle))
    return err;
  OperationArgs args;
  args.buf = buf;
  args.count = count;
  args.datatype = datatype;
  args.peer = m->src_local;
  args.tag = m->tag;
  args.comm = c;
  args.call = b.call();
  out = b.p2p().make_recv(b.world(), args);
  out->context_id = m->context_id;
  out->post_time = -1;  // not started yet: start_matched_recv stamps this call's time (the overlap measure starts there)
  b.p2p().start_matched_recv(out, std::move(*m));
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

int matched_recv(const char* call, void* buf, std::int64_t count, MPI_Datatype datatype, MPI_Message* message,
                 MPI_Status* status)
{
  Binding b(call);
  RequestPtr r;
  if (int err = receive_message(b, buf, count, datatype, message, r))
    return err;
  if (!r) {
    fill_proc_null_status(status);
    return MPI_SUCCESS;
  }
  b.wait(r);
  fill_status(status, *r);
  if (r->status_error == MPI_ERR_TRUNCATE)
    return b.error(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, "the message is larger than the receive buffer");
  return MPI_SUCCESS;
}

int matched_irecv(const char* call, void* buf, std::int64_t count, MPI_Datatype datatype, MPI_Message* message,
                  MPI_Request* request)
{
  Binding b(call);
  RequestPtr r;
  if (int err = receive_message(b, buf, count, datatype, message, r))
    return err;
  if (!r) {
    // A receive from MPI_PROC_NULL: complete at once.
    OperationArgs args;
    args.comm = b.model().communicators().find(MPI_COMM_WORLD, b.world());
    args.peer = MPI_PROC_NULL;
    args.datatype = MPI_BYTE;
    args.call = b.call();
    r = b.p2p().make_recv(b.world(), args);
    b.p2p().start(r);
  }
  *request = hand_out(b, r);
  b.model().pending_buffers().arm(*r);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  Binding b("MPI_Probe");
  const Communicator* c = nullptr;
  if (int err = probe_args(b, source, tag, comm, c))
    return err;
  if (source == MPI_PROC_NULL) {
    fill_proc_null_status(status);
    return MPI_SUCCESS;
  }
  const Packet* seen = wait_for_message(b, probed_source(b, source, tag), tag, *c);
  probed(b, source, tag, *c, *seen);
  fill_probe_status(status, *seen);
  return MPI_SUCCESS;
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status)
{
  Binding b("MPI_Iprobe");
  const Communicator* c = nullptr;
  if (int err = probe_args(b, source, tag, comm, c))
    return err;
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    fill_proc_null_status(status);
    return MPI_SUCCESS;
  }
  const Packet* found = poll_for_message(b, probed_source(b, source, tag), tag, *c);
  *flag = found != nullptr;
  if (found) {
    probed(b, source, tag, *c, *found);
    fill_probe_status(status, *found);
  }
  return MPI_SUCCESS;
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status)
{
  Binding b("MPI_Mprobe");
  const Communicator* c = nullptr;
  if (int err = probe_args(b, source, tag, comm, c))
    return err;
  if (source == MPI_PROC_NULL) {
    *message = MPI_MESSAGE_NO_PROC;
    fill_proc_null_status(status);
    return MPI_SUCCESS;
  }
  int seen_source = probed_source(b, source, tag);
  wait_for_message(b, seen_source, tag, *c);
  std::optional<Packet> m = b.p2p().take_message(b.world(), c->context_id, seen_source, tag);
  probed(b, source, tag, *c, *m);
  fill_probe_status(status, *m);
  *message = b.model().add_matched_message(std::move(*m));
  return MPI_SUCCESS;
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status)
{
  Binding b("MPI_Improbe");
  const Communicator* c = nullptr;
  if (int err = probe_args(b, source, tag, comm, c))
    return err;
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    fill_proc_null_status(status);
    return MPI_SUCCESS;
  }
  int seen_source = probed_source(b, source, tag);
  *flag = poll_for_message(b, seen_source, tag, *c) != nullptr;
  if (*flag) {
    std::optional<Packet> m = b.p2p().take_message(b.world(), c->context_id, seen_source, tag);
    probed(b, source, tag, *c, *m);
    fill_probe_status(status, *m);
    *message = b.model().add_matched_message(std::move(*m));
  }
  return MPI_SUCCESS;
}

int PMPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status)
{
  return matched_recv("MPI_Mrecv", buf, count, datatype, message, status);
}

int PMPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status)
{
  return matched_recv("MPI_Mrecv_c", buf, count, datatype, message, status);
}

int PMPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request)
{
  return matched_irecv("MPI_Imrecv", buf, count, datatype, message, request);
}

int PMPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request)
{
  return matched_irecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Probe)
PROGSIM_MPI_ALIAS(MPI_Iprobe)
PROGSIM_MPI_ALIAS(MPI_Mprobe)
PROGSIM_MPI_ALIAS(MPI_Improbe)
PROGSIM_MPI_ALIAS(MPI_Mrecv)
PROGSIM_MPI_ALIAS(MPI_Mrecv_c)
PROGSIM_MPI_ALIAS(MPI_Imrecv)
PROGSIM_MPI_ALIAS(MPI_Imrecv_c)
