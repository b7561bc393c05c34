#include "core/Info.hpp"

#include <algorithm>

namespace progsim::mpi {

namespace {
constexpr MPI_Info kInfoKind = 0x5c000000;
constexpr std::uint32_t kIndexMask = 0x00ffffff;
constexpr std::uint32_t kEnvIndex = 1;
constexpr std::uint32_t kFirstIndex = 2;
}  // namespace

const std::string* Info::get(const std::string& key) const
{
  for (const auto& [k, v] : entries)
    if (k == key)
      return &v;
  return nullptr;
}

void Info::set(const std::string& key, const std::string& value)
{
  for (auto& [k, v] : entries)
    if (k == key) {
      v = value;
      return;
    }
  entries.emplace_back(key, value);
}

bool Info::erase(const std::string& key)
{
  auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == key; });
  if (it == entries.end())
    return false;
  entries.erase(it);
  return true;
}

void Info::merge(const Info& other)
{
  for (const auto& [k, v] : other.entries)
    set(k, v);
}

InfoTable::InfoTable() : table_(kFirstIndex)
{
  *table_.slot(kEnvIndex) = Info{};
}

Info* InfoTable::find(MPI_Info handle)
{
  if ((handle & ~static_cast<MPI_Info>(kIndexMask)) != kInfoKind)
    return nullptr;
  auto index = static_cast<std::uint32_t>(handle) & kIndexMask;
  std::optional<Info>* slot = table_.slot(index);
  return slot && *slot ? &**slot : nullptr;
}

MPI_Info InfoTable::insert(Info info)
{
  return kInfoKind | static_cast<MPI_Info>(table_.insert(std::move(info)));
}

bool InfoTable::erase(MPI_Info handle)
{
  if ((handle & ~static_cast<MPI_Info>(kIndexMask)) != kInfoKind)
    return false;
  auto index = static_cast<std::uint32_t>(handle) & kIndexMask;
  if (!table_.holds(index))
    return false;
  table_.take(index);
  return true;
}

}  // namespace progsim::mpi
