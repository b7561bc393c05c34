// progsim compare --html: one self-contained HTML page (inline CSS and SVG,
// no script, no network) with the comparison table and, per policy, an SVG
// timeline on one shared time axis, next to the run's deadlock explanation.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::cli {

struct PolicyRun {
  std::string policy;
  nlohmann::json report;    // the run's --report JSON
  nlohmann::json timeline;  // the run's --timeline (Chrome trace-event JSON)
  std::string output;       // the program's stdout
};

std::string html_report(const std::string& program, const std::vector<PolicyRun>& runs,
                        const std::string& table_text);

}  // namespace progsim::cli
