#include "traces/TraceEvent.hpp"

#include "traces/FlatEventScan.hpp"

#include <utility>

namespace progsim::traces {

static_assert(sizeof(FlatField) == 16, "a replayed rank holds two events' fields");

TraceEvent& TraceEvent::operator=(TraceEvent&& other) noexcept
{
  call.swap(other.call);
  text_.swap(other.text_);
  fields_.swap(other.fields_);
  json_.swap(other.json_);
  std::swap(flat_, other.flat_);
  std::swap(json_made_, other.json_made_);
  line = other.line;
  index = other.index;
  return *this;
}

// A few fields of short keys: a byte loop, not a call to memcmp per field.
const FlatField* TraceEvent::find_flat(std::string_view key) const
{
  const char* text = text_.data();
  for (const FlatField& field : fields_) {
    if (field.key_length != key.size())
      continue;
    std::size_t i = 0;
    while (i < key.size() && text[field.key + i] == key[i])
      ++i;
    if (i == key.size())
      return &field;
  }
  return nullptr;
}

// Each accessor answers from a flat field of the right kind, and otherwise
// as nlohmann's JSON answers (its conversions, its exceptions).
long long TraceEvent::integer(const char* key) const
{
  if (flat_)
    if (const FlatField* f = find_flat(key); f && f->kind == FlatField::Kind::Integer)
      return f->integer;
  return json_field(key).get<long long>();
}

int TraceEvent::small(const char* key) const
{
  if (flat_)
    if (const FlatField* f = find_flat(key); f && f->kind == FlatField::Kind::Integer)
      return static_cast<int>(f->integer);  // as get<int>() of a JSON integer
  return json_field(key).get<int>();
}

double TraceEvent::number(const char* key) const
{
  if (flat_)
    if (const FlatField* f = find_flat(key)) {
      if (f->kind == FlatField::Kind::Number)
        return f->number;
      if (f->kind == FlatField::Kind::Integer)
        return static_cast<double>(f->integer);
    }
  return json_field(key).get<double>();
}

bool TraceEvent::has(const char* key) const
{
  if (flat_)
    return find_flat(key) != nullptr;
  return fields().contains(key);
}

std::string_view TraceEvent::string(const char* key) const
{
  if (flat_)
    if (const FlatField* f = find_flat(key); f && f->kind == FlatField::Kind::String)
      return flat_string(*f);
  const nlohmann::json& value = json_field(key);
  if (!value.is_string())
    (void)value.get<std::string>();  // the error get<std::string>() raises
  return value.get_ref<const std::string&>();
}

void TraceEvent::integers(const char* key, std::vector<int>& out) const
{
  out.clear();
  if (flat_)
    if (const FlatField* f = find_flat(key); f && f->kind == FlatField::Kind::IntegerList) {
      flat_integers(flat_string(*f), out);
      return;
    }
  out = json_field(key).get<std::vector<int>>();
}

const nlohmann::json& TraceEvent::fields() const
{
  if (!json_made_) {
    // The scan accepted the line: it is JSON, and means what the fields say.
    json_ = nlohmann::json::parse(text_, nullptr, false);
    json_made_ = true;
  }
  return json_;
}

nlohmann::json& TraceEvent::mutable_fields()
{
  (void)fields();
  flat_ = false;
  return json_;
}

void TraceEvent::assign(nlohmann::json fields)
{
  call = fields["call"].get<std::string>();
  json_ = std::move(fields);
  json_made_ = true;
  flat_ = false;
  fields_.clear();
}

bool TraceEvent::assign_line()
{
  flat_ = false;
  json_made_ = false;
  if (!json_.is_null())
    json_ = nullptr;
  if (!scan_flat_event(text_, fields_))
    return false;
  const FlatField* kind = find_flat("call");
  if (!kind || kind->kind != FlatField::Kind::String)
    return false;  // the schema's error, from the JSON form
  call.assign(flat_string(*kind));
  flat_ = true;
  return true;
}

}  // namespace progsim::traces
