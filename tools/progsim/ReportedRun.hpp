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

// Every policy of the catalogue, in its order: their default --policies.
std::vector<std::string> catalogue_policy_names();

// The options of the commands made of runs under several policies (compare,
// check): `--policies LIST` into `policies`; --progress and --report are
// refused (the command chooses them). Returns whether argv[i] was one of
// them (then i is past its value). `command`: "compare", "check".
bool policy_run_option(int argc, char** argv, int& i, std::vector<std::string>& policies, const char* command);
// The policies exist and a program is given, or sim::InputError.
void check_policy_run(const std::vector<std::string>& policies, const std::vector<std::string>& run_args,
                      const char* command);

// The whole content of a file ("" when it cannot be read).
std::string file_text(const std::string& path);

}  // namespace progsim::cli
