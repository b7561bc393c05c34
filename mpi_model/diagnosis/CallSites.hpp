// Where the program made a call, kept cheaply when the call is made (a
// return address, or under progsim replay the trace line) and turned into
// "main (file.c:12)" only when an error or a leak names it.
#pragma once

#include "diagnosis/StandardErrors.hpp"

#include <cstdint>
#include <string>

namespace progsim::sim {
class Rank;
}

namespace progsim::mpi {

class CallContext;
class MpiModel;

using CallSiteMark = std::uintptr_t;
// A trace line is marked with the bit above every user-space address.
inline constexpr CallSiteMark kTraceLine = CallSiteMark(1) << 63;

// The mark of the outermost MPI call `rank` is making now (0 without a
// rank). `rank` must be the calling rank (its stack may be searched).
CallSiteMark call_site_mark(const sim::Rank* rank);
// The source line of a mark made on world rank `world` ("" when unknown).
// Valid on any rank (no stack unwinding).
std::string call_site_text(MpiModel& model, int world, CallSiteMark mark);
// The calling rank's current call as an error site; the stack is searched
// when a library sits between the program and MPI.
ErrorSite current_site(const CallContext& caller);
// Records an error of the calling rank's current call, its only site.
void report_call_error(const CallContext& caller, const char* rule, const char* section, const char* requirement,
                       std::string what);

}  // namespace progsim::mpi
