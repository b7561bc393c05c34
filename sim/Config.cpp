#include "sim/Config.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace progsim::sim {

namespace {

std::string shortest(double value)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

// Accepts plain numbers and the SI suffixes users write in platform files.
double parse_number(const std::string& key, const std::string& text)
{
  static const std::vector<std::pair<std::string, double>> suffixes = {
      {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}, {"KiB", 1024.0}, {"MiB", 1048576.0},
      {"GiB", 1073741824.0}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}};
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || errno != 0)
    throw InputError{"--cfg " + key + "=" + text + ": not a number"};
  if (!std::isfinite(value))
    throw InputError{"--cfg " + key + "=" + text + ": not a finite number"};
  std::string rest(end);
  if (!rest.empty()) {
    auto it = std::find_if(suffixes.begin(), suffixes.end(), [&](auto& s) { return s.first == rest; });
    if (it == suffixes.end())
      throw InputError{"--cfg " + key + "=" + text + ": unknown unit '" + rest + "'"};
    value *= it->second;
  }
  return value;
}

// Whole numbers as integers (sizes, counts), the rest as %g.
std::string bound_text(double value)
{
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  return shortest(value);
}

std::string with_unit(const std::string& text, const std::string& unit)
{
  return unit.empty() ? text : text + " " + unit;
}

// The number in `text`, checked against `range`.
double parse_in_range(const std::string& key, const std::string& text, const Range& range, const std::string& unit)
{
  double value = parse_number(key, text);
  if (!range.contains(value))
    throw InputError{"--cfg " + key + "=" + text + ": out of range (allowed: " +
                     with_unit(range.describe(), unit) + ")"};
  return value;
}

void check_default(const std::string& key, double value, const Range& range)
{
  if (!range.contains(value))
    throw std::logic_error("parameter " + key + ": default " + bound_text(value) + " outside its range " +
                           range.describe());
}

}  // namespace

std::string Range::describe() const
{
  std::string text = bound_text(min) + " to " + bound_text(max);
  bool zero_outside = min > 0 || max < 0;
  return zero_allowed && zero_outside ? "0 (off) or " + text : text;
}

void Config::add(const std::string& key, double& field, Range range, const std::string& unit,
                 const std::string& meaning)
{
  check_default(key, field, range);
  entries_.push_back({key, unit, meaning, shortest(field), range, {},
                      [&field, key, range, unit](const std::string& v) { field = parse_in_range(key, v, range, unit); },
                      [&field] { return nlohmann::ordered_json(field); }});
}

void Config::add(const std::string& key, long long& field, Range range, const std::string& unit,
                 const std::string& meaning)
{
  check_default(key, static_cast<double>(field), range);
  entries_.push_back({key, unit, meaning, std::to_string(field), range, {},
                      [&field, key, range, unit](const std::string& v) {
                        // The range (well inside long long) is checked before the conversion.
                        double d = parse_in_range(key, v, range, unit);
                        if (d != std::floor(d))
                          throw InputError{"--cfg " + key + "=" + v + ": not a whole number"};
                        field = static_cast<long long>(d);
                      },
                      [&field] { return nlohmann::ordered_json(field); }});
}

void Config::add(const std::string& key, bool& field, const std::string& meaning)
{
  entries_.push_back({key, "", meaning, field ? "yes" : "no", std::nullopt, {"yes", "no"},
                      [&field, key](const std::string& v) {
                        if (v == "yes" || v == "on" || v == "true" || v == "1")
                          field = true;
                        else if (v == "no" || v == "off" || v == "false" || v == "0")
                          field = false;
                        else
                          throw InputError{"--cfg " + key + "=" + v + ": expected yes or no"};
                      },
                      [&field] { return nlohmann::ordered_json(field); }});
}

void Config::add(const std::string& key, std::string& field, std::vector<std::string> choices,
                 const std::string& meaning)
{
  entries_.push_back({key, "", meaning, field, std::nullopt, choices,
                      [&field, key, choices](const std::string& v) {
                        if (!choices.empty() && std::find(choices.begin(), choices.end(), v) == choices.end()) {
                          std::string list;
                          for (auto& c : choices)
                            list += (list.empty() ? "" : ", ") + c;
                          throw InputError{"--cfg " + key + "=" + v + ": expected one of " + list};
                        }
                        field = v;
                      },
                      [&field] { return nlohmann::ordered_json(field); }});
}

const Config::Entry* Config::find(const std::string& key) const
{
  for (auto& e : entries_)
    if (e.key == key)
      return &e;
  return nullptr;
}

bool Config::knows(const std::string& key) const
{
  return find(key) != nullptr;
}

std::vector<std::string> Config::keys() const
{
  std::vector<std::string> keys;
  for (auto& e : entries_)
    keys.push_back(e.key);
  return keys;
}

std::optional<Range> Config::range(const std::string& key) const
{
  const Entry* e = find(key);
  return e ? e->range : std::nullopt;
}

void Config::set(const std::string& key, const std::string& value)
{
  const Entry* e = find(key);
  if (!e)
    throw InputError{"--cfg " + key + ": unknown parameter (see --cfg help)"};
  e->parse(value);
}

std::string Config::help() const
{
  std::ostringstream out;
  out << "progsim parameters (--cfg key=value); numbers accept ns/us/ms/s and KiB/MiB/GiB suffixes.\n"
         "Keys with a '/' that progsim does not know are passed to SimGrid (e.g. --cfg network/model=SMPI).\n\n";
  for (auto& e : entries_) {
    out << "  " << e.key << " (default " << with_unit(e.default_text, e.unit);
    if (e.range)
      out << "; " << with_unit(e.range->describe(), e.unit);
    out << ")\n      " << e.meaning;
    if (!e.choices.empty()) {
      out << " [";
      for (size_t i = 0; i < e.choices.size(); ++i)
        out << (i ? "|" : "") << e.choices[i];
      out << "]";
    }
    out << "\n";
  }
  return out.str();
}

nlohmann::ordered_json Config::to_json() const
{
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (auto& e : entries_)
    j[e.key] = e.value();
  return j;
}

}  // namespace progsim::sim
