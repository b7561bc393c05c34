// What MPI-4.1 §11.2.2 requires of a process before it finalizes, checked
// when every rank has finished (docs/design/lifecycle-checks.md):
//  - every message sent to it was received (p2p/UnreceivedMessages);
//  - every operation it started was completed: no request it holds is
//    active or complete-but-never-waited (MPI_Wait, MPI_Test..., or freed);
// each violation is a StandardError. Objects it created and never freed
// (communicators, groups, derived datatypes, ops, windows, infos, error
// handlers, keyvals, inactive persistent requests) are leaks: warnings,
// errors too with --strict (ModelParameters::strict).
#pragma once

namespace progsim::mpi {

class Leaks;
class MpiModel;

void check_finalize_requirements(MpiModel& model, Leaks& leaks);

}  // namespace progsim::mpi
