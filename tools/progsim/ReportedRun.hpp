// One `progsim run` child process and what it leaves: its JSON report, its
// exit status, the program's output. compare (one run per policy) and check
// (one run per configuration) are made of these.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::cli {

struct ReportedRun {
  int exit_status = 0;
  nlohmann::json report;  // {"outcome": "error", "message": ...} when the run wrote none
  std::string report_file, log_file, output_file;
};

// Runs `progsim run OPTIONS --report DIR/NAME.json RUN_ARGS`, the program's
// stdout in DIR/NAME.out and progsim's messages in DIR/NAME.log.
ReportedRun run_with_report(const std::string& dir, const std::string& name, const std::vector<std::string>& options,
                            const std::vector<std::string>& run_args);

// The whole content of a file ("" when it cannot be read).
std::string file_text(const std::string& path);

}  // namespace progsim::cli
