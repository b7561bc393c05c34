// The `--cfg key=value` registry. Every tunable of the simulator is declared
// here once, bound to a field of a parameter struct, with its default, unit
// and meaning; `progsim run --cfg help` prints the table. Keys that progsim
// does not know are handed to SimGrid (e.g. network/model:...).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace progsim::sim {

class Config {
public:
  void add(const std::string& key, double& field, const std::string& unit, const std::string& meaning);
  void add(const std::string& key, long long& field, const std::string& unit, const std::string& meaning);
  void add(const std::string& key, bool& field, const std::string& meaning);
  // A string parameter restricted to `choices` (empty: free text).
  void add(const std::string& key, std::string& field, std::vector<std::string> choices, const std::string& meaning);

  bool knows(const std::string& key) const;
  // Parses and stores; throws InputError naming the key and the reason.
  void set(const std::string& key, const std::string& value);
  std::string help() const;
  nlohmann::ordered_json to_json() const;

private:
  struct Entry {
    std::string key;
    std::string unit;
    std::string meaning;
    std::string default_text;
    std::vector<std::string> choices;
    std::function<void(const std::string&)> parse;
    std::function<nlohmann::ordered_json()> value;
  };
  const Entry* find(const std::string& key) const;
  std::vector<Entry> entries_;
};

}  // namespace progsim::sim
