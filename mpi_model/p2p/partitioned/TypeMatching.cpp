#include "p2p/partitioned/TypeMatching.hpp"

#include "MpiModel.hpp"
#include "datatype/TypeSignature.hpp"
#include "diagnosis/CallSites.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace progsim::mpi::partitioned {

void check_type_match(const Handshake& sent, const Request& recv, std::uintptr_t recv_site)
{
  dt::EnvelopeSignature signature{sent.signature_hash, sent.signature_elements};
  if (!recv.type || dt::receive_accepts(signature, *recv.type, recv.count))
    return;
  MpiModel& model = MpiModel::instance();
  StandardError e;
  e.rule = "type mismatch";
  e.section = "MPI-4.1 §4.2.2";
  e.requirement = "the type signature of a partitioned send (all its partitions) is a prefix of the matching "
                  "partitioned receive's, as for point-to-point messages (§3.3.1); only MPI_BYTE and MPI_PACKED match "
                  "other types";
  e.what = "type mismatch: rank " + std::to_string(recv.peer_world) + "'s MPI_Psend_init (tag " +
           std::to_string(recv.tag) + ") sends " + std::to_string(sent.signature_elements) +
           " basic elements whose types differ from those rank " + std::to_string(recv.owner) +
           "'s MPI_Precv_init receives (" + dt::items_text(*recv.type, recv.count) + ")";
  e.sites = {{recv.peer_world, "MPI_Psend_init", call_site_text(model, recv.peer_world, sent.send_site)},
             {recv.owner, recv.call, call_site_text(model, recv.owner, recv_site)}};
  e.time = simgrid::s4u::Engine::get_clock();
  e.context_id = recv.comm_context;
  model.standard_errors().add(std::move(e));
}

}  // namespace progsim::mpi::partitioned
