#include "transport/HostTransfer.hpp"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/version.h>

#include <cstdlib>
#include <dlfcn.h>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

namespace {

// Set while start_host_transfer creates its communication: the kernel
// object's detach is then skipped (below).
bool creating_host_transfer = false;
// Whether the interposed detach skipped the list at least once (never if the
// interposition is not in effect: another SimGrid, or a link order that puts
// libsimgrid first; the fabric then works as well, only slower).
bool detach_skipped = false;

}  // namespace

#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32
#define PROGSIM_COMM_IMPL_DETACH "_ZN7simgrid6kernel8activity8CommImpl6detachEv"
// simgrid::kernel::activity::CommImpl& CommImpl::detach() of SimGrid 3.32:
// sets the object's detached flag and appends it to the maestro's activity
// list. Comm::sendto_init() calls it through libsimgrid's PLT, so this
// definition (libprogsim is loaded before libsimgrid) takes its place. For
// the fabric's transfers it does nothing: the flag only matters for a
// communication that actors wait on or that fails, and the fabric holds the
// reference the list would have held. Every other caller gets SimGrid's.
extern "C" void* progsim_comm_impl_detach(void* comm) __asm__(PROGSIM_COMM_IMPL_DETACH);
extern "C" void* progsim_comm_impl_detach(void* comm)
{
  // PROGSIM_SIMGRID_LISTED_TRANSFERS (set, any value): SimGrid's own detach
  // for every transfer, the unoptimized path that tests compare reports with
  // (tests/transport).
  static const bool listed = std::getenv("PROGSIM_SIMGRID_LISTED_TRANSFERS") != nullptr;
  if (creating_host_transfer && !listed) {
    detach_skipped = true;
    return comm;
  }
  using Detach = void* (*)(void*);
  static const auto simgrid_detach =
      reinterpret_cast<Detach>(::dlsym(RTLD_NEXT, PROGSIM_COMM_IMPL_DETACH));
  return simgrid_detach(comm);
}
#endif

HostTransferRef start_host_transfer(sg4::Host* from, sg4::Host* to, std::uint64_t bytes)
{
  creating_host_transfer = true;
  sg4::CommPtr comm = sg4::Comm::sendto_init(from, to);
  creating_host_transfer = false;
  comm->set_payload_size(bytes);
  // Starts it; the s4u object is only the handle that created it.
  comm->detach();
  return HostTransferRef(comm->get_impl());
}

bool host_transfers_unlisted()
{
  return detach_skipped;
}

}  // namespace progsim::mpi
