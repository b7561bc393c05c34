#include "core/Attributes.hpp"

#include "core/CreationSites.hpp"

#include <algorithm>

namespace progsim::mpi {

int KeyvalTable::create(const Keyval& keyval)
{
  int created = kFirstKeyval + static_cast<int>(table_.insert(keyval));
  note_created(static_cast<std::uint32_t>(created));
  return created;
}

std::vector<int> KeyvalTable::live_keyvals() const
{
  std::vector<int> keyvals;
  for (std::uint32_t index : table_.live_indices())
    if (!(*table_.slot(index))->freed)
      keyvals.push_back(kFirstKeyval + static_cast<int>(index));
  return keyvals;
}

Keyval* KeyvalTable::find(int keyval)
{
  if (keyval < kFirstKeyval)
    return nullptr;
  std::optional<Keyval>* slot = table_.slot(static_cast<std::uint32_t>(keyval - kFirstKeyval));
  return slot && *slot ? &**slot : nullptr;
}

Keyval* KeyvalTable::find_usable(int keyval, KeyvalKind kind)
{
  Keyval* k = find(keyval);
  return k && !k->freed && k->kind == kind ? k : nullptr;
}

Keyval* KeyvalTable::find_referenced(int keyval, KeyvalKind kind)
{
  Keyval* k = find(keyval);
  return k && k->kind == kind ? k : nullptr;
}

bool KeyvalTable::free_keyval(int keyval, KeyvalKind kind)
{
  Keyval* k = find_referenced(keyval, kind);
  if (!k)
    return false;
  k->freed = true;
  release_if_done(keyval);
  return true;
}

std::string KeyvalTable::why_unusable(int keyval, KeyvalKind kind)
{
  if (keyval == MPI_KEYVAL_INVALID)
    return "MPI_KEYVAL_INVALID";
  std::string name = std::to_string(keyval);
  Keyval* k = find(keyval);
  if (!k)
    return "unknown keyval " + name;
  if (k->kind != kind) {
    const char* kinds[] = {"communicator", "window", "datatype"};
    return "keyval " + name + " is not a " + kinds[static_cast<int>(kind)] + " keyval";
  }
  return "keyval " + name + " was freed";
}

void KeyvalTable::add_use(int keyval)
{
  if (Keyval* k = find(keyval))
    ++k->uses;
}

void KeyvalTable::drop_use(int keyval)
{
  if (Keyval* k = find(keyval)) {
    --k->uses;
    release_if_done(keyval);
  }
}

void KeyvalTable::release_if_done(int keyval)
{
  Keyval* k = find(keyval);
  if (k && k->freed && k->uses <= 0) {
    table_.take(static_cast<std::uint32_t>(keyval - kFirstKeyval));
  }
}

std::optional<void*> AttributeSet::get(int keyval) const
{
  auto it = values_.find(keyval);
  if (it == values_.end())
    return std::nullopt;
  return it->second.second;
}

void AttributeSet::set(int keyval, void* value)
{
  auto it = values_.find(keyval);
  if (it != values_.end())
    it->second.second = value;  // keeps its place in the set order
  else
    values_.emplace(keyval, std::make_pair(next_order_++, value));
}

bool AttributeSet::erase(int keyval)
{
  return values_.erase(keyval) > 0;
}

std::vector<std::pair<int, void*>> AttributeSet::in_set_order() const
{
  std::vector<std::pair<std::uint64_t, std::pair<int, void*>>> ordered;
  for (const auto& [keyval, entry] : values_)
    ordered.push_back({entry.first, {keyval, entry.second}});
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<int, void*>> out;
  for (const auto& o : ordered)
    out.push_back(o.second);
  return out;
}

}  // namespace progsim::mpi
