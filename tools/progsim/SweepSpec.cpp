#include "progsim/SweepSpec.hpp"
#include "progsim/TomlJson.hpp"

#include "MpiModel.hpp"
#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/InputFile.hpp"
#include "sim/Simulation.hpp"

#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace progsim::cli {

namespace {

const std::vector<std::string> kFields = {"output", "programs", "ranks", "policies", "platforms", "cfg", "options"};
const std::vector<std::string> kProgramFields = {"name", "source", "executable", "flags", "args"};

// Options that are axes of the sweep or that sweep chooses itself.
const std::map<std::string, std::string> kAxisOptions = {
    {"-n", "\"ranks\""},          {"-np", "\"ranks\""},        {"--progress", "\"policies\""},
    {"--platform", "\"platforms\""}, {"--cfg", "\"cfg\""},        {"--report", "sweep itself"},
    {"--timeline", "sweep itself"},  {"--timeline-format", "sweep itself"}};

class Checker {
public:
  explicit Checker(std::string file) : file_(std::move(file)) {}
  // A TOML spec's errors name the line of the value at fault (or of the
  // nearest enclosing one) before the field.
  std::map<std::string, std::string> toml_locations;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const
  {
    throw sim::InputError{location(field) + ": " + field + (field.empty() ? "" : ": ") + what};
  }
  std::string string(const nlohmann::json& value, const std::string& field) const
  {
    if (!value.is_string() || value.get<std::string>().empty())
      fail(field, "expected a non-empty string");
    return value.get<std::string>();
  }
  std::vector<std::string> strings(const nlohmann::json& value, const std::string& field, bool allow_empty) const
  {
    if (!value.is_array() || (!allow_empty && value.empty()))
      fail(field, allow_empty ? "expected an array of strings" : "expected a non-empty array of strings");
    std::vector<std::string> list;
    for (std::size_t k = 0; k < value.size(); ++k)
      list.push_back(string(value[k], field + "[" + std::to_string(k) + "]"));
    return list;
  }
  void known_fields(const nlohmann::json& object, const std::vector<std::string>& known, const std::string& where) const
  {
    for (const auto& [key, value] : object.items()) {
      bool found = false;
      for (const std::string& k : known)
        found = found || k == key;
      if (!found) {
        std::string list;
        for (const std::string& k : known)
          list += (list.empty() ? "" : ", ") + k;
        fail(where + key, "unknown field (expected one of: " + list + ")");
      }
    }
  }

private:
  // "FILE:LINE:COLUMN" of `path`'s value, or of the nearest enclosing value
  // that has one; the file alone for JSON.
  std::string location(std::string path) const
  {
    while (!path.empty()) {
      if (auto it = toml_locations.find(path); it != toml_locations.end())
        return it->second;
      std::size_t cut = path.find_last_of(".[");
      path = cut == std::string::npos ? "" : path.substr(0, cut);
    }
    return file_;
  }

  std::string file_;
};

bool is_file(const std::string& path)
{
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// `path` relative to the spec's directory, made absolute.
std::string resolve(const std::string& dir, const std::string& path)
{
  return path.empty() || path[0] == '/' ? path : dir + "/" + path;
}

std::string base_name(const std::string& path)
{
  std::string name = path.substr(path.rfind('/') + 1);
  return name.substr(0, name.find('.'));
}

bool valid_name(const std::string& name)
{
  if (name.empty() || name[0] == '.')
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
      return false;
  return true;
}

// 64-bit FNV-1a: a stable hash of a point's parameters (std::hash is not
// the same across libraries).
std::string hash_text(const std::string& text)
{
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return std::string(buf, 10);
}

SweepProgram read_program(const Checker& check, const nlohmann::json& entry, const std::string& field,
                          const std::string& dir, const std::string& output)
{
  if (!entry.is_object())
    check.fail(field, "expected an object with \"source\" or \"executable\" (and \"name\", \"flags\", \"args\")");
  check.known_fields(entry, kProgramFields, field + ".");
  SweepProgram program;
  bool has_source = entry.contains("source"), has_executable = entry.contains("executable");
  if (has_source == has_executable)
    check.fail(field, "give exactly one of \"source\" (compiled with progsim-cc) and \"executable\"");
  std::string given = has_source ? check.string(entry["source"], field + ".source")
                                 : check.string(entry["executable"], field + ".executable");
  std::string path = resolve(dir, given);
  if (!is_file(path))
    check.fail(field + (has_source ? ".source" : ".executable"), "no such file: " + path);
  program.name = entry.contains("name") ? check.string(entry["name"], field + ".name") : base_name(given);
  if (!valid_name(program.name))
    check.fail(field + ".name", "'" + program.name + "': use letters, digits, '_', '-' and '.' only");
  if (has_source) {
    program.source = path;
    program.executable = output + "/programs/" + program.name;
  } else {
    program.executable = path;
    if (entry.contains("flags"))
      check.fail(field + ".flags", "only a \"source\" is compiled; an \"executable\" takes no flags");
  }
  if (entry.contains("flags"))
    program.flags = check.strings(entry["flags"], field + ".flags", true);
  if (entry.contains("args"))
    program.args = check.strings(entry["args"], field + ".args", true);
  return program;
}

// Each key and value is checked as `progsim run --cfg` would check it
// before running (every policy's parameters are registered whichever runs):
// a refused spec runs no point.
std::vector<SweepAxis> read_cfg(const Checker& check, const nlohmann::json& cfg)
{
  if (!cfg.is_object())
    check.fail("cfg", "expected an object {\"KEY\": [VALUE, ...]} (progsim run --cfg help lists the keys)");
  std::vector<SweepAxis> axes;
  mpi::MpiModel model("weak");
  for (const auto& [key, values] : cfg.items()) {
    std::string field = "cfg." + key;
    if (key.empty() || key.find_first_of("= ") != std::string::npos)
      check.fail(field, "a --cfg key has no '=' or space");
    if (!sim::Simulation::knows_parameter(model, key))
      check.fail(field, "unknown --cfg parameter '" + key + "' (progsim run --cfg help lists them)");
    nlohmann::json list = values.is_array() ? values : nlohmann::json::array({values});
    if (list.empty())
      check.fail(field, "expected at least one value");
    SweepAxis axis{key, {}};
    std::set<std::string> seen;
    for (std::size_t k = 0; k < list.size(); ++k) {
      const nlohmann::json& v = list[k];
      std::string where = field + "[" + std::to_string(k) + "]";
      if (!(v.is_string() || v.is_number()) || (v.is_string() && v.get<std::string>().empty()))
        check.fail(where, "expected a number or a non-empty string");
      std::string text = v.is_string() ? v.get<std::string>() : v.dump();
      if (!seen.insert(text).second)
        check.fail(where, "'" + text + "' is given twice");
      try {
        sim::Simulation::check_parameter(model, key, text);
      } catch (const sim::InputError& e) {
        check.fail(where, e.message);
      }
      axis.values.push_back(text);
    }
    axes.push_back(axis);
  }
  return axes;
}

void expand(SweepSpec& spec)
{
  std::vector<std::vector<std::pair<std::string, std::string>>> combinations = {{}};
  for (const SweepAxis& axis : spec.cfg) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& combination : combinations)
      for (const std::string& value : axis.values) {
        next.push_back(combination);
        next.back().emplace_back(axis.key, value);
      }
    combinations = next;
  }
  for (std::size_t p = 0; p < spec.programs.size(); ++p)
    for (int ranks : spec.ranks)
      for (std::size_t f = 0; f < spec.platforms.size(); ++f)
        for (const auto& cfg : combinations)
          for (const std::string& policy : spec.policies) {
            SweepPoint point;
            point.index = spec.points.size();
            point.program = p;
            point.ranks = ranks;
            point.policy = policy;
            point.platform = f;
            point.cfg = cfg;
            auto& params = point.parameters;
            params["program"] = spec.programs[p].name;
            params["args"] = spec.programs[p].args;
            params["ranks"] = ranks;
            params["policy"] = policy;
            params["platform"] = spec.platforms[f];
            params["cfg"] = nlohmann::ordered_json::object();
            for (const auto& [key, value] : cfg)
              params["cfg"][key] = value;
            params["options"] = spec.options;
            point.id = spec.programs[p].name + "-n" + std::to_string(ranks) + "-" + policy + "-" +
                       hash_text(params.dump());
            spec.points.push_back(point);
          }
}

}  // namespace

SweepSpec read_sweep_spec(const std::string& file, const std::string& output)
{
  Checker check(file);
  std::ifstream in(file, std::ios_base::binary);
  if (std::string why = sim::input_file_problem(file); !why.empty() || !in)
    throw sim::InputError{file + ": cannot read the sweep spec" + why};
  // A TOML spec becomes the JSON value it denotes: the checks below are the same.
  bool toml = file.size() > 5 && file.compare(file.size() - 5, 5, ".toml") == 0;
  nlohmann::json json =
      toml ? read_toml_as_json(in, file, &check.toml_locations) : nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded())
    throw sim::InputError{file + ": not valid JSON"};
  if (!json.is_object())
    check.fail("", "expected a JSON object with \"programs\" and \"ranks\" (progsim sweep --help)");
  check.known_fields(json, kFields, "");

  char buf[PATH_MAX];
  std::string dir = file.find('/') == std::string::npos ? "." : file.substr(0, file.rfind('/'));
  if (dir.empty())
    dir = "/";
  if (!::realpath(dir.c_str(), buf))
    throw sim::InputError{file + ": cannot find its directory"};
  dir = buf;

  SweepSpec spec;
  spec.file = file;
  std::string out = output;
  if (out.empty())
    out = json.contains("output") ? check.string(json["output"], "output") : base_name(file) + ".sweep";
  // A relative "output" is beside the spec; a relative --output, in the current directory.
  std::string base = dir;
  if (!output.empty())
    base = ::getcwd(buf, sizeof buf) ? buf : ".";
  spec.output = out[0] == '/' ? out : base + "/" + out;

  if (!json.contains("programs") || !json["programs"].is_array() || json["programs"].empty())
    check.fail("programs", "expected a non-empty array of programs ({\"source\": \"app.c\"} or {\"executable\": ...})");
  std::set<std::string> names;
  for (std::size_t k = 0; k < json["programs"].size(); ++k) {
    std::string field = "programs[" + std::to_string(k) + "]";
    spec.programs.push_back(read_program(check, json["programs"][k], field, dir, spec.output));
    if (!names.insert(spec.programs.back().name).second)
      check.fail(field + ".name", "'" + spec.programs.back().name + "' names two programs (give each a \"name\")");
  }

  if (!json.contains("ranks") || !json["ranks"].is_array() || json["ranks"].empty())
    check.fail("ranks", "expected a non-empty array of rank counts, e.g. [2, 4]");
  for (std::size_t k = 0; k < json["ranks"].size(); ++k) {
    const nlohmann::json& n = json["ranks"][k];
    if (!n.is_number_integer() || n.get<long long>() < 1 || n.get<long long>() > 100000000)
      check.fail("ranks[" + std::to_string(k) + "]", "expected a whole number of ranks, 1 or more");
    spec.ranks.push_back(n.get<int>());
  }

  if (json.contains("policies")) {
    spec.policies = check.strings(json["policies"], "policies", false);
    for (std::size_t k = 0; k < spec.policies.size(); ++k) {
      try {
        mpi::check_policy_name(spec.policies[k]);
      } catch (const sim::InputError& e) {
        check.fail("policies[" + std::to_string(k) + "]", e.message);
      }
    }
  } else {
    for (const mpi::PolicyDescription* p : mpi::policy_catalog())
      spec.policies.push_back(p->name);
  }

  spec.platforms = json.contains("platforms") ? check.strings(json["platforms"], "platforms", false)
                                              : std::vector<std::string>{"default"};
  for (std::size_t k = 0; k < spec.platforms.size(); ++k) {
    const std::string& p = spec.platforms[k];
    std::string path = p == "default" ? "" : resolve(dir, p);
    if (!path.empty() && !is_file(path))
      check.fail("platforms[" + std::to_string(k) + "]", "no such file: " + path + " (or \"default\")");
    spec.platform_files.push_back(path);
  }

  if (json.contains("cfg"))
    spec.cfg = read_cfg(check, json["cfg"]);
  if (json.contains("options")) {
    spec.options = check.strings(json["options"], "options", true);
    for (std::size_t k = 0; k < spec.options.size(); ++k) {
      std::string name = spec.options[k].substr(0, spec.options[k].find('='));
      if (auto axis = kAxisOptions.find(name); axis != kAxisOptions.end())
        check.fail("options[" + std::to_string(k) + "]", name + " is chosen by " + axis->second);
    }
  }
  for (const std::string list : {"policies", "platforms"}) {
    const std::vector<std::string>& values = list == "policies" ? spec.policies : spec.platforms;
    std::set<std::string> seen(values.begin(), values.end());
    if (seen.size() != values.size())
      check.fail(list, "a value is given twice");
  }
  std::set<int> seen_ranks(spec.ranks.begin(), spec.ranks.end());
  if (seen_ranks.size() != spec.ranks.size())
    check.fail("ranks", "a rank count is given twice");
  expand(spec);
  return spec;
}

std::vector<std::string> point_run_options(const SweepSpec& spec, const SweepPoint& point)
{
  std::vector<std::string> options = {"-n", std::to_string(point.ranks), "--progress", point.policy};
  if (!spec.platform_files[point.platform].empty())
    options.insert(options.end(), {"--platform", spec.platform_files[point.platform]});
  for (const auto& [key, value] : point.cfg)
    options.insert(options.end(), {"--cfg", key + "=" + value});
  options.insert(options.end(), spec.options.begin(), spec.options.end());
  return options;
}

}  // namespace progsim::cli
