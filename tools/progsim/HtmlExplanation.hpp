// A run's outcome for the HTML report, as prose: how it ended, for a
// deadlock each blocked rank's call, source line (with the line's text when
// the source file is found beside the program or in the working directory)
// and what it waits for; the longest progress delays and why.
#pragma once

#include "progsim/PolicyRun.hpp"

#include <string>

namespace progsim::cli {

std::string html_explanation(const PolicyRun& run, const std::string& program);

}  // namespace progsim::cli
