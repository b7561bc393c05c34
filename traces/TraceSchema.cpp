#include "traces/TraceSchema.hpp"

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace progsim::traces {

namespace {

constexpr FieldType I = FieldType::Integer;
constexpr FieldType N = FieldType::Number;
constexpr FieldType S = FieldType::String;
constexpr FieldType L = FieldType::IntegerList;

// The field kinds TraceEvents.def names.
std::vector<EventSpec> make_specs()
{
  FieldSpec comm{"comm", I, true};
  FieldSpec peer{"peer", I, true};
  FieldSpec tag{"tag", I, true};
  FieldSpec bytes{"bytes", I, true};
  FieldSpec rbytes{"rbytes", I, true};
  FieldSpec req{"req", I, true};
  FieldSpec reqs{"reqs", L, true};
  FieldSpec root{"root", I, true};
  FieldSpec count{"count", I, true};
  FieldSpec dt{"dt", S, true};
  FieldSpec op{"op", S, true};
  FieldSpec elements{"elements", I, false};     // elements of dt per item (a derived type, a user op)
  FieldSpec commutative{"commutative", I, false};  // op "user"
  FieldSpec in_place{"in_place", I, false};     // 1: the program passed MPI_IN_PLACE
  FieldSpec win{"win", I, true};
  FieldSpec target{"target", I, true};
  FieldSpec disp{"disp", I, true};
  FieldSpec region{"region", I, false};
  // A target datatype that is not one byte range: one item's pieces
  // (offset from its true lower bound, length, flattened), its extent, and
  // the number of items (docs/traces.md, RMA).
  FieldSpec pieces{"pieces", L, false};
  FieldSpec extent{"extent", I, false};
  FieldSpec items{"items", I, false};
  FieldSpec assert_{"assert", I, true};
  // 1: the run ended with the rank still in the call (a livelock held it),
  // so the event was written then, with the flag it never returned.
  FieldSpec unreturned{"unreturned", I, false};
  return {
#define PROGSIM_TRACE_EVENT(kind, ...) {#kind, __VA_ARGS__},
#include "traces/TraceEvents.def"
#undef PROGSIM_TRACE_EVENT
  };
}

const char* type_name(FieldType type)
{
  switch (type) {
    case FieldType::Integer: return "an integer";
    case FieldType::Number: return "a number";
    case FieldType::String: return "a string";
    case FieldType::IntegerList: return "a list of integers";
  }
  return "?";
}

// The fields of one event as the schema checks them, in either form an
// event has: a JSON object, or a flat line (TraceEvent, FlatEventScan). One
// set of rules below (validate_fields) serves both, so that the flat path
// accepts exactly what the JSON path accepts.
struct JsonFields {
  const nlohmann::json& event;
  bool has(const char* name) const { return event.contains(name); }
  bool is(const char* name, FieldType type) const
  {
    const nlohmann::json& value = event.at(name);
    switch (type) {
      case FieldType::Integer: return value.is_number_integer();
      case FieldType::Number: return value.is_number();
      case FieldType::String: return value.is_string();
      case FieldType::IntegerList:
        if (!value.is_array())
          return false;
        for (auto& item : value)
          if (!item.is_number_integer())
            return false;
        return true;
    }
    return false;
  }
  // A number field (of its type) below zero.
  bool negative_number(const char* name) const { return event.at(name).get<double>() < 0; }
  // An integer field below zero (false when absent or of another type).
  bool negative_integer(const char* name) const
  {
    auto value = event.find(name);
    return value != event.end() && value->is_number_integer() && value->get<long long>() < 0;
  }
};

struct FlatFields {
  using Kind = FlatField::Kind;
  const TraceEvent& event;
  bool has(const char* name) const { return event.find_flat(name) != nullptr; }
  bool is(const char* name, FieldType type) const
  {
    Kind kind = event.find_flat(name)->kind;
    switch (type) {
      case FieldType::Integer: return kind == Kind::Integer;
      case FieldType::Number: return kind == Kind::Integer || kind == Kind::Number;
      case FieldType::String: return kind == Kind::String;
      case FieldType::IntegerList: return kind == Kind::IntegerList;
    }
    return false;
  }
  bool negative_number(const char* name) const
  {
    const FlatField* value = event.find_flat(name);
    return value->kind == Kind::Integer ? value->integer < 0 : value->number < 0;
  }
  bool negative_integer(const char* name) const
  {
    const FlatField* value = event.find_flat(name);
    return value && value->kind == Kind::Integer && value->integer < 0;
  }
};

// The schema's rules for an event of kind `call`: "" when valid, else the
// reason.
template <class Fields>
std::string validate_fields(const Fields& event, const std::string& call)
{
  const EventSpec* spec = find_event_spec(call);
  if (!spec)
    return "unknown call \"" + call + "\"";
  for (const FieldSpec& field : spec->fields) {
    if (!event.has(field.name)) {
      if (field.required)
        return spec->call + std::string(": missing field \"") + field.name + "\"";
      continue;
    }
    if (!event.is(field.name, field.type))
      return spec->call + std::string(": field \"") + field.name + "\" must be " + type_name(field.type);
    if (field.type == FieldType::Number && event.negative_number(field.name))
      return spec->call + std::string(": field \"") + field.name + "\" must not be negative";
  }
  if (std::strcmp(spec->call, "compute") == 0 && event.has("s") == event.has("flops"))
    return "compute: exactly one of \"s\" (seconds) and \"flops\" is required";
  for (const char* size : {"bytes", "count", "repeat", "elements"})
    if (event.negative_integer(size))
      return spec->call + std::string(": field \"") + size + "\" must not be negative";
  return "";
}

}  // namespace

const std::vector<EventSpec>& event_specs()
{
  static const std::vector<EventSpec> specs = make_specs();
  return specs;
}

const EventSpec* find_event_spec(const std::string& call)
{
  // Every replayed event looks its kind up: a scan of the ~180 kinds was a
  // tenth of a stencil replay's instructions per event.
  static const std::unordered_map<std::string_view, const EventSpec*> by_call = [] {
    std::unordered_map<std::string_view, const EventSpec*> index;
    for (const EventSpec& spec : event_specs())
      index.emplace(spec.call, &spec);
    return index;
  }();
  auto found = by_call.find(call);
  return found == by_call.end() ? nullptr : found->second;
}

std::string validate_event(const nlohmann::json& event)
{
  if (!event.is_object())
    return "an event must be a JSON object";
  auto call = event.find("call");
  if (call == event.end() || !call->is_string())
    return "missing \"call\" (the event kind)";
  return validate_fields(JsonFields{event}, call->get<std::string>());
}

bool valid_flat_event(const TraceEvent& event)
{
  // "call" is a string (TraceEvent::assign_line).
  return validate_fields(FlatFields{event}, event.call).empty();
}

}  // namespace progsim::traces
