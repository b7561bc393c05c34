// Type matching of put and get (MPI-4.1 §12.3.1, §12.3.2): the transfer is
// as if the origin sent and the target received (put), or the reverse
// (get), with equal type signatures on both sides. The origin's call
// already refuses different byte counts (MPI_ERR_TYPE); this finds equal
// sizes of different types (MPI_FLOAT put into MPI_INT), when the target
// applies the operation. Accumulates need one predefined type on both
// sides, which the origin's call checks (bindings/RmaOperations.cpp).
// Hashes (dt::EnvelopeSignature): O(log count); MPI_BYTE and MPI_PACKED are
// not compared. One error per window.

#include "rma/Operation.hpp"

#include "MpiModel.hpp"
#include "datatype/TypeSignature.hpp"
#include "diagnosis/StandardErrors.hpp"
#include "rma/Window.hpp"
#include "sim/ActingTime.hpp"
#include "diagnosis/CallSites.hpp"

namespace progsim::mpi::rma {

void check_operation_types(Operation& op)
{
  if (op.kind != OpKind::Put && op.kind != OpKind::Get)
    return;
  WindowShared& w = *op.window;
  const dt::DatatypePtr& local = op.kind == OpKind::Put ? op.origin_type : op.result_type;
  std::int64_t local_count = op.kind == OpKind::Put ? op.origin_count : op.result_count;
  if (w.type_mismatch_reported || !local || !op.target_type)
    return;
  dt::EnvelopeSignature a = dt::envelope_signature(*local, local_count);
  dt::EnvelopeSignature b = dt::envelope_signature(*op.target_type, op.target_count);
  if (!a.checked() || !b.checked() || (a.hash == b.hash && a.elements == b.elements))
    return;
  w.type_mismatch_reported = true;
  int origin_world = w.world_rank(op.origin);
  int target_world = w.world_rank(op.target);
  StandardError e;
  e.rule = "type mismatch";
  e.section = op.kind == OpKind::Put ? "MPI-4.1 §12.3.1" : "MPI-4.1 §12.3.2";
  e.requirement = "the type signature of the origin's count and datatype equals that of the target's count and "
                  "datatype (as for a send and its receive)";
  e.what = std::string("type mismatch: ") + op.call + " of rank " + std::to_string(origin_world) + " on " + w.name() +
           " names " + dt::items_text(*local, local_count) + " at the origin but " +
           dt::items_text(*op.target_type, op.target_count) + " at target rank " + std::to_string(target_world);
  e.sites = {{origin_world, op.call, call_site_text(MpiModel::instance(), origin_world, op.call_site)}};
  e.time = sim::acting_time();
  MpiModel::instance().standard_errors().add(std::move(e));
}

}  // namespace progsim::mpi::rma
