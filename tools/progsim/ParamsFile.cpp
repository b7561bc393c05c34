#include "progsim/ParamsFile.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/InputFile.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

namespace progsim::cli {

std::vector<std::pair<std::string, std::string>> read_params_file(const std::string& path)
{
  std::ifstream in(path);
  if (std::string why = sim::input_file_problem(path); !why.empty() || !in)
    throw sim::InputError{"--params " + path + ": cannot read the file" + why};
  nlohmann::ordered_json file = nlohmann::ordered_json::parse(in, nullptr, false);
  if (file.is_discarded() || !file.is_object() || !file.contains("cfg") || !file["cfg"].is_object())
    throw sim::InputError{"--params " + path + ": expected a JSON object with a \"cfg\" object of --cfg settings"};
  std::vector<std::pair<std::string, std::string>> settings;
  for (const auto& [key, value] : file["cfg"].items()) {
    std::string text;
    if (value.is_string())
      text = value.get<std::string>();
    else if (value.is_boolean())
      text = value.get<bool>() ? "yes" : "no";
    else if (value.is_number())
      text = value.dump();
    else
      throw sim::InputError{"--params " + path + ": cfg." + key + " is not a number, string or boolean"};
    settings.emplace_back(key, text);
  }
  return settings;
}

}  // namespace progsim::cli
