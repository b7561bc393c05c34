#include "progsim/ReportedRun.hpp"

#include "progsim/Subprocess.hpp"

#include <fstream>
#include <sstream>

namespace progsim::cli {

ReportedRun run_with_report(const std::string& dir, const std::string& name, const std::vector<std::string>& options,
                            const std::vector<std::string>& run_args)
{
  ReportedRun run;
  run.report_file = dir + "/" + name + ".json";
  run.log_file = dir + "/" + name + ".log";
  run.output_file = dir + "/" + name + ".out";
  std::vector<std::string> argv = {self_path(), "run"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--report");
  argv.push_back(run.report_file);
  argv.insert(argv.end(), run_args.begin(), run_args.end());
  run.exit_status = run_subprocess(argv, run.log_file, run.output_file);
  std::ifstream in(run.report_file);
  if (in)
    run.report = nlohmann::json::parse(in, nullptr, false);
  if (run.report.is_discarded() || !run.report.is_object())
    run.report = nlohmann::json::object({{"outcome", "error"}, {"message", "no report (see " + run.log_file + ")"}});
  return run;
}

std::string file_text(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace progsim::cli
