// progsim compare --html: one self-contained HTML page (styles, scripts and
// data inline, nothing fetched) that stays small and fast at any scale:
// the comparison as a sortable table; per policy, a zoomable timeline on one
// shared time axis, drawn from the run's bounded timeline summary; a "zoom
// to" list of instants worth seeing; each run's explanation as prose with
// its source lines; the figures (exportable as SVG); the program's output.
#pragma once

#include "progsim/CompareTable.hpp"
#include "progsim/Figures.hpp"
#include "progsim/PolicyRun.hpp"

#include <string>
#include <vector>

namespace progsim::cli {

// The table as a sortable HTML table (tables.js sorts it).
std::string table_html(const CompareTable& table);

std::string html_report(const std::string& program, const std::vector<PolicyRun>& runs, const CompareTable& table,
                        const std::vector<Figure>& figures);

}  // namespace progsim::cli
