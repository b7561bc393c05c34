// The HTML report's styles and scripts (tools/progsim/html/), built into
// progsim (html/embed.cmake) so that every page carries them inline.
#pragma once

#include <string_view>

namespace progsim::cli {

// The text of html/NAME ("report.css", "timeline.js", ...); empty if unknown.
std::string_view html_asset(std::string_view name);

}  // namespace progsim::cli
