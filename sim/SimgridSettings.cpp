#include "sim/SimgridSettings.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <array>
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
