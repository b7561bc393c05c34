// One event of a progsim trace, and the error raised for bad trace input.
// The format is described in docs/traces.md.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace progsim::traces {

// Identifies a progsim trace in its header line. The version is bumped when
// events are added (2: one-sided communication) or a field an older reader
// knows changes meaning (3: a reduction's count is of items of "elements"
// elements, docs/traces.md); a reader reads every version from
// kOldestFormatVersion, whose events keep their meaning.
inline constexpr const char* kFormatName = "progsim-trace";
inline constexpr int kFormatVersion = 3;
inline constexpr int kOldestFormatVersion = 1;

// Where one field of a flat event line is (FlatEventScan): a key and a
// value that is an integer, a number, a string without escapes or a list
// of integers.
struct FlatField {
  enum class Kind : std::uint8_t { Integer, Number, String, IntegerList };
  // Offsets in the line (a longer line than 64 KiB is not flat): of the
  // key's first character, of the value's (a string's or list's inside
  // the quotes/brackets), and one past the value's last. 16 bytes: a
  // replayed rank holds two events.
  std::uint16_t key = 0;
  std::uint16_t value = 0;
  std::uint16_t value_end = 0;
  std::uint8_t key_length = 0;
  Kind kind = Kind::Integer;
  union {
    long long integer = 0;  // Integer
    double number;          // Number
  };
};

// An event of one rank: `call` names it ("isend", "compute", ...), and its
// fields (validated against the schema, TraceSchema) are read by name.
//
// A replay reads every event's fields, so how they are held is what a
// replayed event costs besides the MPI call (issue 19): a line of a progsim
// trace is kept as it is read, with the place of each field found by one
// scan (FlatEventScan), not as a JSON tree (a std::map node and strings per
// field, ~20,000 instructions per event to build, search and free). The
// scan only takes the lines whose meaning is plain (integers, numbers,
// strings without escapes, lists of integers, no repeated key); other
// lines, and the events imported from other formats, are a JSON object.
// Both answer every accessor alike: where a flat field cannot answer as
// nlohmann's JSON would (a missing field, another type), the accessor asks
// the JSON form of the line, made on first use.
class TraceEvent {
public:
  std::string call;
  long line = 0;  // line of the event in its file (1-based), for messages
  // Index among its rank's events (0-based; RankReplay counts them): a
  // memory_wait names the write it waits for by the writer's event index.
  long long index = -1;

  TraceEvent() = default;
  TraceEvent(const TraceEvent&) = default;
  TraceEvent& operator=(const TraceEvent&) = default;
  TraceEvent(TraceEvent&&) noexcept = default;
  // Swaps the buffers: a replay moves each event from its read-ahead slot to
  // the current one, and the read-ahead slot keeps the old buffers to read
  // the next line into, so a replayed event allocates nothing.
  TraceEvent& operator=(TraceEvent&& other) noexcept;

  long long integer(const char* key) const;
  int small(const char* key) const;
  double number(const char* key) const;
  bool has(const char* key) const;
  // A string field's value (valid while the event is unchanged).
  std::string_view string(const char* key) const;
  // A list of integers, into `out`.
  void integers(const char* key, std::vector<int>& out) const;
  // Every field as a JSON object (a flat line's is parsed on first use).
  const nlohmann::json& fields() const;
  // For a source that changes an event's fields: the event is a JSON object from then on.
  nlohmann::json& mutable_fields();

  // The event's fields are `fields` (a JSON object whose "call" is a string).
  void assign(nlohmann::json fields);
  // For a reader: the buffer to read the event's line into, then
  // assign_line() takes it (false: not a flat line; the caller parses it
  // as JSON and calls assign()).
  std::string& line_buffer() { return text_; }
  bool assign_line();
  // The fields found by assign_line(): for the schema check (TraceSchema).
  bool is_flat() const { return flat_; }
  const FlatField* find_flat(std::string_view key) const;
  std::string_view flat_string(const FlatField& field) const
  {
    return std::string_view(text_).substr(field.value, field.value_end - field.value);
  }

private:
  const nlohmann::json& json_field(const char* key) const { return fields().at(key); }

  std::string text_;               // a flat event's line
  std::vector<FlatField> fields_;  // its fields, in line order
  bool flat_ = false;
  mutable bool json_made_ = false;
  mutable nlohmann::json json_;  // the JSON form (made on first use for a flat line)
};

// Malformed or inconsistent trace input: "FILE:LINE: reason".
class TraceError : public std::runtime_error {
public:
  TraceError(const std::string& file, long line, const std::string& reason)
      : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + reason)
  {
  }
};

}  // namespace progsim::traces
