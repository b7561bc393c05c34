// Text for HTML and SVG: escaped, and numbers printed the same way every
// time (the report and figures are compared byte for byte).
#pragma once

#include <string>

namespace progsim::cli {

// & < > " as entities.
std::string escape_markup(const std::string& text);
// printf-style, e.g. fixed(1.5, "%.2f") == "1.50".
std::string fixed(double value, const char* format = "%.2f");

}  // namespace progsim::cli
