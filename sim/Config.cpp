#include "sim/Config.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

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
  std::string rest(end);
  if (!rest.empty()) {
    auto it = std::find_if(suffixes.begin(), suffixes.end(), [&](auto& s) { return s.first == rest; });
    if (it == suffixes.end())
      throw InputError{"--cfg " + key + "=" + text + ": unknown unit '" + rest + "'"};
    value *= it->second;
  }
  return value;
}

}  // namespace

void Config::add(const std::string& key, double& field, const std::string& unit, const std::string& meaning)
{
  entries_.push_back({key, unit, meaning, shortest(field), {},
                      [&field, key](const std::string& v) { field = parse_number(key, v); },
                      [&field] { return nlohmann::ordered_json(field); }});
}

void Config::add(const std::string& key, long long& field, const std::string& unit, const std::string& meaning)
{
  entries_.push_back({key, unit, meaning, std::to_string(field), {},
                      [&field, key](const std::string& v) {
                        double d = parse_number(key, v);
                        if (d != static_cast<double>(static_cast<long long>(d)))
                          throw InputError{"--cfg " + key + "=" + v + ": not a whole number"};
                        field = static_cast<long long>(d);
                      },
                      [&field] { return nlohmann::ordered_json(field); }});
}

void Config::add(const std::string& key, bool& field, const std::string& meaning)
{
  entries_.push_back({key, "", meaning, field ? "yes" : "no", {"yes", "no"},
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
  entries_.push_back({key, "", meaning, field, choices,
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
    out << "  " << e.key << " (default " << e.default_text << (e.unit.empty() ? "" : " " + e.unit) << ")\n      "
        << e.meaning;
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
