#include "progsim/TomlJson.hpp"

#include "sim/Diagnostics.hpp"

#include <toml.hpp>

namespace progsim::cli {

namespace {

std::string where(const toml::source_location& loc)
{
  return loc.file_name() + ":" + std::to_string(loc.line()) + ":" + std::to_string(loc.column());
}

using Locations = std::map<std::string, std::string>;

nlohmann::json to_json(const toml::value& value, const std::string& path, Locations* locations)
{
  if (locations && !path.empty())
    (*locations)[path] = where(value.location());
  switch (value.type()) {
  case toml::value_t::boolean:
    return value.as_boolean();
  case toml::value_t::integer:
    return value.as_integer();
  case toml::value_t::floating:
    return value.as_floating();
  case toml::value_t::string:
    return value.as_string().str;
  case toml::value_t::array: {
    nlohmann::json array = nlohmann::json::array();
    for (const toml::value& element : value.as_array())
      array.push_back(to_json(element, path + "[" + std::to_string(array.size()) + "]", locations));
    return array;
  }
  case toml::value_t::table: {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, element] : value.as_table())
      object[key] = to_json(element, path.empty() ? key : path + "." + key, locations);
    return object;
  }
  default:  // offset/local date-times, dates and times
    throw sim::InputError{where(value.location()) + ": a TOML date or time has no meaning in a spec\n" +
                          toml::format_error("a date or time", value, "quote it to make it a string")};
  }
}

}  // namespace

nlohmann::json read_toml_as_json(std::istream& in, const std::string& file, Locations* locations)
{
  try {
    return to_json(toml::parse(in, file), "", locations);
  } catch (const toml::syntax_error& e) {
    // toml11's message: what it expected, the line, a caret under the column.
    throw sim::InputError{where(e.location()) + ": not valid TOML\n" + e.what()};
  }
}

}  // namespace progsim::cli
