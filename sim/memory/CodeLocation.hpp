// Names a code address for diagnostics: "spin (watchdog.c:14)" when the
// object has debug information (asks addr2line), else the symbol and offset,
// else the raw address.
#pragma once

#include <cstdint>
#include <string>

namespace progsim::sim::memory {

std::string describe_code_location(std::uintptr_t pc);

}  // namespace progsim::sim::memory
