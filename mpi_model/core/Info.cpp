#include "core/Info.hpp"

#include "core/CreationSites.hpp"

#include <algorithm>

namespace progsim::mpi {

namespace {
constexpr HandleKind<MPI_Info> kInfo{0x5c000000};
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
  std::optional<Info>* slot = table_.slot(kInfo.index_or(handle, 0));
  return slot && *slot ? &**slot : nullptr;
}

MPI_Info InfoTable::insert(Info info)
{
  MPI_Info handle = kInfo.handle(table_.insert(std::move(info)));
  note_created(static_cast<std::uint32_t>(handle));
  return handle;
}

std::vector<MPI_Info> InfoTable::live_handles() const
{
  return kInfo.handles(table_.live_indices());
}

bool InfoTable::erase(MPI_Info handle)
{
  return table_.erase(kInfo.index_or(handle, 0));
}

}  // namespace progsim::mpi
