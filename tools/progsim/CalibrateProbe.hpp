// progsim calibrate's probe program (tools/progsim/calibrate/calibrate_probe.c),
// built into progsim by tools/progsim/html/embed.cmake.
#pragma once

#include <string_view>

namespace progsim::cli {

// The content of the embedded file NAME ("calibrate_probe.c"); empty if unknown.
std::string_view calibrate_file(std::string_view name);

}  // namespace progsim::cli
