// One policy's run of a comparison, as the report and figures read it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace progsim::cli {

struct PolicyRun {
  std::string policy;
  nlohmann::json report;   // the run's --report JSON
  nlohmann::json summary;  // its timeline summary (--timeline-format summary), or null
  std::string output;      // the program's stdout
};

}  // namespace progsim::cli
