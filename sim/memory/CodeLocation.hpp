// Names a code address for diagnostics: "spin (watchdog.c:14)" when the
// object has debug information (asks addr2line), else the symbol and offset,
// else the raw address.
#pragma once

#include <cstdint>
#include <string>

namespace progsim::sim::memory {

std::string describe_code_location(std::uintptr_t pc);

// The same for an address in the user's program, whose per-rank copies
// (privatization) are unlinked after loading: the debug information is read
// from `program`, the file the user gave, at the same offset.
// "main (head_to_head.c:17)".
std::string describe_program_location(std::uintptr_t pc, const std::string& program);

// The return address of the innermost call from the program's code into
// progsim on the calling rank's stack (the MPI call the program made), or 0.
// `return_address` (where the current MPI procedure returns) is the answer
// when it is in the program, which saves unwinding the stack.
std::uintptr_t program_call_site(std::uintptr_t return_address = 0);

// Where a rank is when it crashes or the watchdog stops it: the innermost
// frame of the program, "main (segfault.c:14)". `pc` is the interrupted
// instruction; when it is not the program's (abort() in the C library, a
// fault inside an MPI call), the stack is unwound from the caller (a signal
// handler: through the signal frame) to the first frame of the program, so
// that neither SimGrid, the model nor the C library is named. Without a
// program frame: the code at `pc` (function and library), or "".
std::string describe_rank_location(std::uintptr_t pc, const std::string& program);

}  // namespace progsim::sim::memory
