// Finds the fields of a flat event line without building a JSON tree
// (TraceEvent): `{"key":value,...}` whose values are integers, numbers,
// strings without escapes or lists of integers, each key once. Any other
// line (escapes, nested values, true/false/null, numbers beyond a long
// long, repeated keys, bytes outside printable ASCII in strings, invalid
// JSON) is left to nlohmann's parser: the scan says no, never something
// the parser would not say.
#pragma once

#include "traces/TraceEvent.hpp"

#include <string_view>
#include <vector>

namespace progsim::traces {

// The fields of `line` in line order, true if it is such a flat object.
bool scan_flat_event(std::string_view line, std::vector<FlatField>& fields);

// The integers of a list field found by scan_flat_event (its text between
// the brackets, already checked), appended to `out` as ints (a JSON
// integer's get<int>(): its low bits).
void flat_integers(std::string_view list, std::vector<int>& out);

}  // namespace progsim::traces
