// The events a progsim trace may contain and the fields each must have
// (docs/traces.md). One table serves the reader (validation), the recorder
// and the documentation test.
#pragma once

#include "traces/TraceEvent.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::traces {

enum class FieldType { Integer, Number, String, IntegerList };

struct FieldSpec {
  const char* name;
  FieldType type;
  bool required;
};

struct EventSpec {
  const char* call;
  std::vector<FieldSpec> fields;
};

// Every event kind, in documentation order.
const std::vector<EventSpec>& event_specs();
const EventSpec* find_event_spec(const std::string& call);

// Checks one event object; returns "" when valid, else the reason.
std::string validate_event(const nlohmann::json& event);
// The same check of a flat event line (TraceEvent::is_flat), without its
// JSON form: true when validate_event would return "". False when it may
// not: validate_event on the JSON form then gives the reason.
bool valid_flat_event(const TraceEvent& event);

}  // namespace progsim::traces
