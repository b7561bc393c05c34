#include "progsim/ReportedRun.hpp"

#include "progsim/Subprocess.hpp"

#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"

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

namespace {

std::vector<std::string> comma_list(const std::string& text)
{
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      items.push_back(item);
  return items;
}

}  // namespace

std::vector<std::string> catalogue_policy_names()
{
  std::vector<std::string> names;
  for (const mpi::PolicyDescription* p : mpi::policy_catalog())
    names.push_back(p->name);
  return names;
}

bool policy_run_option(int argc, char** argv, int& i, std::vector<std::string>& policies, const char* command)
{
  std::string arg = argv[i];
  if (arg == "--policies" && i + 1 < argc) {
    policies = comma_list(argv[++i]);
    return true;
  }
  if (arg.rfind("--policies=", 0) == 0) {
    policies = comma_list(arg.substr(11));
    return true;
  }
  if (arg == "--progress" || arg.rfind("--progress=", 0) == 0 || arg == "--report" || arg.rfind("--report=", 0) == 0)
    throw sim::InputError{arg + " is chosen by " + command + " itself (use --policies / --reports)"};
  return false;
}

void check_policy_run(const std::vector<std::string>& policies, const std::vector<std::string>& run_args,
                      const char* command)
{
  if (policies.empty())
    throw sim::InputError{"--policies: empty list"};
  for (const std::string& p : policies)
    mpi::check_policy_name(p);
  if (run_args.empty())
    throw sim::InputError{std::string("no program to ") + command + " (usage: progsim " + command +
                          " [options] PROGRAM [ARGS...])"};
}

std::string file_text(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace progsim::cli
