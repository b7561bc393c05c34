// The events a progsim trace may contain and the fields each must have
// (docs/traces.md). One table serves the reader (validation), the recorder
// and the documentation test.
#pragma once

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

}  // namespace progsim::traces
