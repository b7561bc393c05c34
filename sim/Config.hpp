// The `--cfg key=value` registry. Every tunable of the simulator is declared
// here once, bound to a field of a parameter struct, with its default, unit,
// the range of values it accepts and its meaning; `progsim run --cfg help`
// prints the table. Keys that progsim does not know are handed to SimGrid
// (e.g. network/model:...).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace progsim::sim {

// The values a numeric parameter accepts: min..max (inclusive), and 0 on top
// of them when `zero_allowed` (a parameter whose 0 means "off"). NaN and the
// infinities are never accepted. Every numeric parameter states one, so that
// no cost can be negative and no size absurd (a negative cost would shorten
// simulated time).
struct Range {
  double min;
  double max;
  bool zero_allowed = false;

  bool contains(double value) const { return (value >= min && value <= max) || (zero_allowed && value == 0); }
  // "0 to 1", "0 (off) or 0.001 to 1e+06".
  std::string describe() const;
};

class Config {
public:
  // Throws std::logic_error when the field's default is outside `range` (a
  // programming error, caught by the unit tests).
  void add(const std::string& key, double& field, Range range, const std::string& unit, const std::string& meaning);
  void add(const std::string& key, long long& field, Range range, const std::string& unit,
           const std::string& meaning);
  void add(const std::string& key, bool& field, const std::string& meaning);
  // A string parameter restricted to `choices` (empty: free text).
  void add(const std::string& key, std::string& field, std::vector<std::string> choices, const std::string& meaning);

  bool knows(const std::string& key) const;
  // Every registered key, in registration order.
  std::vector<std::string> keys() const;
  // The range of a numeric parameter; nullopt for other kinds and unknown keys.
  std::optional<Range> range(const std::string& key) const;
  // Parses, checks the range and stores; throws InputError naming the key,
  // the value and the reason (for a number out of range: the range).
  void set(const std::string& key, const std::string& value);
  std::string help() const;
  nlohmann::ordered_json to_json() const;

private:
  struct Entry {
    std::string key;
    std::string unit;
    std::string meaning;
    std::string default_text;
    std::optional<Range> range;  // numeric parameters only
    std::vector<std::string> choices;
    std::function<void(const std::string&)> parse;
    std::function<nlohmann::ordered_json()> value;
  };
  const Entry* find(const std::string& key) const;
  std::vector<Entry> entries_;
};

}  // namespace progsim::sim
