// A TOML file read as the JSON value it denotes, so that a spec given in
// TOML goes through the same checks as one given in JSON (progsim sweep).
#pragma once

#include <nlohmann/json.hpp>

#include <istream>
#include <map>
#include <string>

namespace progsim::cli {

// The TOML document read from IN (FILE names it in errors). Tables become
// objects, arrays arrays, integers, floats, booleans and strings their JSON
// kinds. Throws sim::InputError naming FILE:LINE:COLUMN (toml11's location,
// with its message) for a syntax error, and for a date or time, which JSON
// has no kind for.
//
// `locations`, when given, receives where each value is, "FILE:LINE:COLUMN",
// by its path as the spec's checks name fields: "ranks", "ranks[1]",
// "cfg.eager-threshold[0]", "programs[0].source".
nlohmann::json read_toml_as_json(std::istream& in, const std::string& file,
                                 std::map<std::string, std::string>* locations = nullptr);

}  // namespace progsim::cli
