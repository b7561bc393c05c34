#include "sim/SimgridSettings.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace progsim::sim {

namespace {

struct ModelKey {
  std::string_view key;
  std::vector<std::string_view> choices;  // SimGrid 3.32's model tables (surf_interface.cpp)
};

// The model names SimGrid 3.32 knows, less those progsim cannot run on:
// network "Constant" and "ns-3" abort when the platform has links or
// clusters, host "ptask_L07" does not carry progsim's host-to-host transfers
// (runs end in false deadlocks), cpu/optim "TI" aborts on multi-core hosts.
const std::array<ModelKey, 6>& model_keys()
{
  static const std::array<ModelKey, 6> keys{{
      {"network/model", {"CM02", "LV08", "SMPI", "IB"}},
      {"cpu/model", {"Cas01"}},
      {"host/model", {"default", "compound"}},
      {"disk/model", {"default"}},
      {"cpu/optim", {"Lazy", "Full"}},
      {"network/optim", {"Lazy", "Full"}},
  }};
  return keys;
}

// SimGrid 3.32 takes any number for these and then hangs (a precision of 0
// or less: its clock never advances), aborts ("The Impossible Did Happen"
// for a bandwidth factor of 0, negative or NaN), deadlocks at MPI_Init (a
// concurrency limit of 0) or lets a message arrive before it was sent (a
// negative latency).
struct NumericKey {
  std::string_view key;
  double min;
  bool min_allowed;         // false: the value must be above min
  std::string_view allowed;  // the range in words, for the message
};

const std::array<NumericKey, 8>& numeric_keys()
{
  static const std::array<NumericKey, 8> keys{{
      {"surf/precision", 0, false, "a number above 0"},
      {"maxmin/precision", 0, false, "a number above 0"},
      {"network/bandwidth-factor", 0, false, "a number above 0"},
      {"network/loopback-bw", 0, false, "a number above 0"},
      {"network/latency-factor", 0, true, "0 or more"},
      {"network/loopback-lat", 0, true, "0 or more"},
      {"network/weight-S", 0, true, "0 or more"},
      {"network/TCP-gamma", 0, true, "0 or more"},
  }};
  return keys;
}

// VALUE as a number, when all of it is one.
bool parse_number(const std::string& value, double& number)
{
  char* end = nullptr;
  number = std::strtod(value.c_str(), &end);
  return !value.empty() && end && *end == '\0';
}

std::string numeric_problem(const std::string& key, const std::string& value)
{
  double number = 0;
  if (!parse_number(value, number))
    return "";  // not a number: SimGrid's parser refuses it where a number is due
  if (!std::isfinite(number))
    return "not a finite number";
  if (key == "maxmin/concurrency-limit" && number != -1 && number < 1)
    return "out of range (allowed: -1 (no limit) or 1 and more)";
  for (const NumericKey& k : numeric_keys())
    if (k.key == key && (number < k.min || (number == k.min && !k.min_allowed)))
      return "out of range (allowed: " + std::string(k.allowed) + ")";
  return "";
}

std::string joined(const std::vector<std::string_view>& choices)
{
  std::string text;
  for (std::string_view c : choices)
    text += (text.empty() ? "" : ", ") + std::string(c);
  return text;
}

// Why `key=value` cannot be passed to SimGrid, or "".
std::string problem(const std::string& key, const std::string& value)
{
  // The ranks are coroutines on SimGrid's boost contexts, with the stack and
  // guard pages of progsim's own parameters; the fault handlers know those.
  if (key.rfind("contexts/", 0) == 0)
    return "progsim sets SimGrid's contexts itself (boost contexts on one thread, sized by --cfg stack-size "
           "and --cfg guard-pages)";
  // A breakpoint for a debugger: SimGrid raises SIGTRAP at that time.
  if (key == "debug/breakpoint")
    return "a SimGrid debugging aid that stops the process with SIGTRAP; progsim runs without it";
  if (std::string why = numeric_problem(key, value); !why.empty())
    return why;
  for (const ModelKey& m : model_keys())
    if (m.key == key && std::find(m.choices.begin(), m.choices.end(), value) == m.choices.end())
      return "not a " + std::string(key) + " progsim runs on (choices: " + joined(m.choices) + ")";
  return "";
}

}  // namespace

void check_simgrid_setting(const std::string& key, const std::string& value)
{
  if (std::string why = problem(key, value); !why.empty())
    throw InputError{"--cfg " + key + "=" + value + ": " + why};
}

std::string simgrid_error_summary(const std::string& what)
{
  return what.substr(0, what.find('\n'));
}

}  // namespace progsim::sim
