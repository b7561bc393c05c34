#include "progsim/LaunchOptions.hpp"

#include "progsim/LaunchEnvironment.hpp"
#include "progsim/ParamsFile.hpp"

#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/timeline/TimelineFormats.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace progsim::cli {

namespace {

// The spellings of each option (progsim's first, then mpirun's, Hydra's
// and smpirun's).
using Names = std::vector<const char*>;
const Names kRanks = {"-n", "-np", "--np", "--n"};
const Names kPlatform = {"--platform", "-platform"};
const Names kHostfile = {"--hostfile", "-hostfile", "-f", "--machinefile", "-machinefile"};
const Names kHost = {"--host", "-H", "-host", "-hosts"};
const Names kRanksPerNode = {"--ranks-per-node", "-N", "--npernode", "-npernode", "-ppn", "--ppn"};
const Names kMapBy = {"--map-by", "-map-by"};
const Names kBindTo = {"--bind-to", "-bind-to"};
const Names kExport = {"-x"};
const Names kProgress = {"--progress"}, kCfg = {"--cfg"}, kParams = {"--params"}, kReport = {"--report"},
            kTimeline = {"--timeline"}, kTimelineFormat = {"--timeline-format"}, kPrivatize = {"--privatize"},
            kRecord = {"--record"}, kOtf2 = {"--otf2"}, kTimeLimit = {"--time-limit"},
            kHostTimeLimit = {"--host-time-limit", "--timeout", "-timeout"}, kTimelineRanks = {"--timeline-ranks"},
            kTimelineWindow = {"--timeline-window"}, kTimelineMaxEvents = {"--timeline-max-events"},
            kCheck = {"--check"};
// Followed by one value ("NAME VALUE" or "NAME=VALUE").
const Names* const kWithValue[] = {&kRanks,     &kPlatform,       &kHostfile,  &kHost,   &kRanksPerNode, &kMapBy,
                                   &kBindTo,    &kExport,         &kProgress,  &kCfg,    &kParams,       &kReport,
                                   &kTimeline,  &kTimelineFormat, &kPrivatize, &kRecord, &kOtf2,         &kTimeLimit,
                                   &kHostTimeLimit,
                                   &kTimelineRanks,      &kTimelineWindow,       &kTimelineMaxEvents, &kCheck};
// Followed by two: "-genv VAR VALUE".
const Names kSetVariable = {"-genv", "-env"};

bool named(const Names& names, const std::string& arg)
{
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return arg == n; });
}

// Options of other launchers that progsim cannot honour, with the reason.
struct Refused {
  Names names;
  const char* reason;
};
const Refused kRefused[] = {
    {{"--mca", "-mca", "--gmca", "-gmca"},
     "MCA parameters belong to Open MPI; progsim's model parameters are --cfg KEY=VALUE (--cfg help)"},
    {{"--rankfile", "-rf", "--rf"},
     "rank files are not supported; place ranks with --host, --hostfile, -N and --map-by"},
    {{"-wdir", "--wdir", "-cwd", "--cwd"},
     "progsim runs the ranks in its own working directory: start it from that directory"},
    {{"--cpus-per-proc", "--cpus-per-rank", "-cpus-per-proc"},
     "ranks are not bound to cores: the ranks on a host share its cores"},
    {{"--prefix", "-prefix", "--launch-agent", "-launcher", "-bootstrap", "-rmk"},
     "progsim starts no remote processes: every rank runs inside this simulation"},
};

const char* refusal(const std::string& arg)
{
  std::string name = arg.substr(0, arg.find('='));
  for (const Refused& r : kRefused)
    if (named(r.names, name))
      return r.reason;
  return nullptr;
}

class Arguments {
public:
  Arguments(int argc, char** argv) : argc_(argc), argv_(argv) {}
  bool more() const { return i_ < argc_; }
  std::string current() const { return argv_[i_]; }
  void next() { ++i_; }

  // Any of `names` as "NAME VALUE" or "NAME=VALUE": true and `value` set.
  bool take(const Names& names, std::string& value)
  {
    std::string arg = current();
    for (const char* n : names) {
      std::string name = n;
      if (arg == name) {
        if (i_ + 1 >= argc_)
          throw sim::InputError{name + " needs a value"};
        value = argv_[++i_];
        return true;
      }
      if (arg.rfind(name + "=", 0) == 0) {
        value = arg.substr(name.size() + 1);
        return true;
      }
    }
    return false;
  }

  bool flag(const Names& names) const { return named(names, current()); }

  // "-genv VAR VALUE": the two words after the option.
  std::pair<std::string, std::string> take_pair(const std::string& name)
  {
    if (i_ + 2 >= argc_)
      throw sim::InputError{name + " needs a variable and a value (" + name + " VAR VALUE)"};
    std::string var = argv_[i_ + 1], value = argv_[i_ + 2];
    i_ += 2;
    return {var, value};
  }

private:
  int argc_;
  char** argv_;
  int i_ = 1;
};

int parse_count(const std::string& option, const std::string& text)
{
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 0 || value > 100000000)
    throw sim::InputError{option + ": '" + text + "' is not a valid number"};
  return static_cast<int>(value);
}

double parse_seconds(const std::string& option, const std::string& text)
{
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  // NaN passed a plain `value <= 0` and ran without a limit; the bound is
  // MPIEXEC_TIMEOUT's (the host timer's whole seconds must not overflow).
  if (text.empty() || *end != '\0' || !(value > 0) || value > 1e15)
    throw sim::InputError{option + ": '" + text + "' is not a positive number of seconds (at most 1e15)"};
  return value;
}

// "-n4" and "-np4" (Hydra and smpirun accept the count attached).
bool attached_count(const std::string& arg, std::string& count)
{
  for (const char* prefix : {"-np", "-n"}) {
    std::string p = prefix;
    if (arg.size() > p.size() && arg.rfind(p, 0) == 0 &&
        std::all_of(arg.begin() + static_cast<long>(p.size()), arg.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      count = arg.substr(p.size());
      return true;
    }
  }
  return false;
}

void check_variable_name(const std::string& option, const std::string& name)
{
  bool valid = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
               std::all_of(name.begin(), name.end(),
                           [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!valid)
    throw sim::InputError{option + " " + name + ": not an environment variable name"};
}

}  // namespace

std::pair<std::string, std::string> parse_cfg_setting(const std::string& where, const std::string& text)
{
  auto eq = text.find_first_of("=:");
  if (eq == std::string::npos || eq == 0)
    throw sim::InputError{where + " " + text + ": expected KEY=VALUE (see --cfg help)"};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

int option_value_words(const std::string& arg)
{
  if (named(kSetVariable, arg))
    return 2;
  for (const Names* names : kWithValue)
    if (named(*names, arg))
      return 1;
  return 0;
}

LaunchRequest parse_launch_options(int argc, char** argv, LaunchForm form)
{
  LaunchRequest request;
  sim::RunOptions& options = request.options;
  apply_environment_defaults(options, form);
  // --params files come after PROGSIM_CFG and before every --cfg of the
  // command line, wherever they are given: the command line's --cfg wins.
  std::size_t params_end = options.cfg.size();
  bool ranks_per_node_given = false;
  std::string map_by_name;

  Arguments args(argc, argv);
  for (; args.more(); args.next()) {
    std::string arg = args.current();
    std::string value;
    if (args.flag({"-h", "--help", "-help"})) {
      request.help = true;
      return request;
    }
    if (args.take(kRanks, value) || attached_count(arg, value))
      options.nranks = parse_count("-n", value);
    else if (args.take(kPlatform, value))
      options.platform_file = value;
    else if (args.take(kHostfile, value))
      options.hostfile = value;
    else if (args.take(kHost, value))
      options.host_list += (options.host_list.empty() ? "" : ",") + value;
    else if (args.take(kRanksPerNode, value)) {
      options.ranks_per_node = parse_count("--ranks-per-node", value);
      if (options.ranks_per_node < 1)
        throw sim::InputError{"--ranks-per-node must be at least 1"};
      ranks_per_node_given = true;
    } else if (args.take(kMapBy, value)) {
      map_by_name = value;
      std::transform(map_by_name.begin(), map_by_name.end(), map_by_name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      options.map_by = sim::map_by_from_name(map_by_name);
    } else if (args.flag({"--oversubscribe", "-oversubscribe"}))
      options.oversubscribe = true;
    else if (args.take(kBindTo, value)) {
      if (value != "none")
        request.notes.push_back("--bind-to " + value + " has no effect: progsim does not bind ranks; " +
                                "the ranks on a simulated host share its cores");
    } else if (args.flag({"--display-map", "-display-map"}))
      request.display_map = true;
    else if (args.take(kExport, value)) {
      auto eq = value.find('=');
      std::string name = value.substr(0, eq);
      check_variable_name("-x", name);
      // Without a value the ranks get progsim's own VAR, which they see anyway.
      if (eq != std::string::npos)
        options.environment.emplace_back(name, value.substr(eq + 1));
    } else if (args.flag(kSetVariable)) {
      auto setting = args.take_pair(arg);
      check_variable_name(arg, setting.first);
      options.environment.push_back(setting);
    } else if (args.take(kProgress, value)) {
      mpi::check_policy_name(value);
      options.policy = value;
    } else if (args.take(kCfg, value)) {
      if (value == "help")
        request.cfg_help = true;
      else
        options.cfg.push_back(parse_cfg_setting("--cfg", value));
    } else if (args.take(kParams, value)) {
      auto settings = read_params_file(value);
      options.cfg.insert(options.cfg.begin() + static_cast<long>(params_end), settings.begin(), settings.end());
      params_end += settings.size();
    } else if (args.take(kReport, value))
      options.report_file = value;
    else if (args.take(kTimeline, value))
      options.timeline_file = value;
    else if (args.take(kTimelineFormat, value))
      options.timeline_format = sim::timeline_format("", value);
    else if (args.take(kTimelineRanks, value))
      options.timeline_selection.ranks = sim::parse_rank_list("--timeline-ranks", value);
    else if (args.take(kTimelineWindow, value))
      sim::parse_time_window("--timeline-window", value, options.timeline_selection);
    else if (args.take(kTimelineMaxEvents, value))
      options.timeline_selection.max_events = sim::parse_event_cap("--timeline-max-events", value);
    else if (args.take(kPrivatize, value)) {
      if (value != "on" && value != "off")
        throw sim::InputError{"--privatize: expected on or off, not '" + value + "'"};
      options.privatize = value == "on";
    } else if (args.flag({"--tag-output", "-tag-output"}))
      options.tag_output = true;
    else if (args.flag({"--strict"}))
      options.cfg.emplace_back("strict", "yes");  // leaks and undefined outcomes are errors (diagnosis/Leaks.hpp, StandardErrors.hpp)
    else if (args.take(kCheck, value)) {
      if (value != "buffers")
        throw sim::InputError{"--check: expected buffers, not '" + value + "'"};
      options.cfg.emplace_back("check-buffers", "yes");  // mpi_model/diagnosis/PendingBuffers.hpp
    }
    else if (args.take(kRecord, value))
      request.record_path = value;
    else if (args.take(kOtf2, value))
      request.otf2_dir = value;
    else if (args.take(kTimeLimit, value)) {
      options.time_limit = parse_seconds("--time-limit", value);
      options.time_limit_source.clear();
    } else if (args.take(kHostTimeLimit, value)) {
      // Open MPI's mpirun --timeout: the job's wall-clock limit.
      std::string name = arg.substr(0, arg.find('='));
      options.host_time_limit = parse_seconds(name, value);
      options.host_time_limit_source = name;
    } else if (arg == "--") {
      args.next();
      break;
    } else if (const char* reason = refusal(arg))
      throw sim::InputError{arg + ": " + reason};
    else if (!arg.empty() && arg[0] == '-')
      throw sim::InputError{"unknown option '" + arg + "' (see " + std::string(argv[0]) + " --help)"};
    else
      break;
  }
  if (ranks_per_node_given && options.map_by == sim::MapBy::Core)
    throw sim::InputError{
        "--map-by core gives each host one rank per core; -N/--ranks-per-node gives it K: choose one"};
  if (request.cfg_help || !args.more())
    return request;

  options.program = args.current();
  for (args.next(); args.more(); args.next()) {
    if (form == LaunchForm::Mpiexec && args.current() == ":")
      throw sim::InputError{"':' starts another program (MPMD); progsim runs one program on every rank"};
    options.args.push_back(args.current());
  }
  return request;
}

}  // namespace progsim::cli
