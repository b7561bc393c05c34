#include "core/DatatypeTable.hpp"

#include "core/CreationSites.hpp"

#include "datatype/TypeConstructors.hpp"

#include <cstring>

namespace progsim::mpi {

namespace {
constexpr HandleKind<MPI_Datatype> kDatatype{0x4c000000};
constexpr std::uint32_t kFirstDerived = 256;

bool has_kind(MPI_Datatype handle)
{
  return kDatatype.holds_kind(handle);
}

std::uint32_t index_of(MPI_Datatype handle)
{
  return kDatatype.index(handle);
}

// The default name of a predefined type. MPI_C_COMPLEX and
// MPI_C_FLOAT_COMPLEX share a handle; MPI-4.1 §20.1 lists MPI_C_COMPLEX first.
std::string predefined_name(const dt::Datatype& type)
{
  if (type.predefined_id() == dt::PrimitiveId::kC_FLOAT_COMPLEX)
    return "MPI_C_COMPLEX";
  return type.name();
}
}  // namespace

DatatypeTable::DatatypeTable()
{
  predefined_.resize(kFirstDerived);
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS) \
  predefined_[INDEX] = dt::predefined(static_cast<dt::PrimitiveId>(INDEX));
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
}

const DatatypeTable::Entry* DatatypeTable::derived_entry(MPI_Datatype handle) const
{
  if (!has_kind(handle))
    return nullptr;
  std::uint32_t index = index_of(handle);
  if (index < kFirstDerived)
    return nullptr;
  const Entry* e = derived_.slot(index - kFirstDerived);
  return e && e->type ? e : nullptr;
}

DatatypeTable::Entry* DatatypeTable::derived_entry(MPI_Datatype handle)
{
  return const_cast<Entry*>(static_cast<const DatatypeTable*>(this)->derived_entry(handle));
}

dt::DatatypePtr DatatypeTable::find(MPI_Datatype handle) const
{
  if (!has_kind(handle))
    return nullptr;
  std::uint32_t index = index_of(handle);
  if (index < kFirstDerived)
    return predefined_[index];
  const Entry* e = derived_entry(handle);
  return e ? e->type : nullptr;
}

const dt::Datatype* DatatypeTable::find_live_borrowed(MPI_Datatype handle) const
{
  if (has_kind(handle) && index_of(handle) < kFirstDerived)
    return predefined_[index_of(handle)].get();
  const Entry* e = derived_entry(handle);
  return e && e->live ? e->type.get() : nullptr;
}

dt::DatatypePtr DatatypeTable::find_live(MPI_Datatype handle) const
{
  if (has_kind(handle) && index_of(handle) < kFirstDerived)
    return predefined_[index_of(handle)];
  const Entry* e = derived_entry(handle);
  return e && e->live ? e->type : nullptr;
}

MPI_Datatype DatatypeTable::predefined_handle(const dt::Datatype& type)
{
  if (!type.is_predefined())
    return MPI_DATATYPE_NULL;
  return kDatatype.handle(static_cast<std::uint32_t>(dt::primitive_index(type.predefined_id())));
}

MPI_Datatype DatatypeTable::insert(dt::DatatypePtr type, int owner, bool committed)
{
  Entry e;
  e.type = std::move(type);
  e.live = true;
  e.committed = committed;
  e.owner = owner;
  MPI_Datatype handle = kDatatype.handle(derived_.insert(std::move(e)) + kFirstDerived);
  note_created(static_cast<std::uint32_t>(handle));
  return handle;
}

std::vector<MPI_Datatype> DatatypeTable::live_derived_of(int owner) const
{
  std::vector<MPI_Datatype> handles;
  const std::vector<Entry>& entries = derived_.slots();
  for (std::size_t index = 0; index < entries.size(); ++index)
    if (entries[index].live && entries[index].owner == owner)
      handles.push_back(kDatatype.handle(static_cast<std::uint32_t>(index) + kFirstDerived));
  return handles;
}

void DatatypeTable::erase(MPI_Datatype handle)
{
  Entry* e = derived_entry(handle);
  if (!e || !e->live)
    return;
  e->live = false;
  e->committed = false;
  e->extras = Extras{};
  derived_.release(index_of(handle) - kFirstDerived);
}

bool DatatypeTable::is_predefined(MPI_Datatype handle) const
{
  std::uint32_t index = index_of(handle);
  return has_kind(handle) && index > 0 && index < kFirstDerived && predefined_[index];
}

bool DatatypeTable::is_committed(MPI_Datatype handle) const
{
  if (is_predefined(handle))
    return true;
  const Entry* e = derived_entry(handle);
  return e && e->live && e->committed;
}

void DatatypeTable::commit(MPI_Datatype handle)
{
  Entry* e = derived_entry(handle);
  if (!e || !e->live)
    return;
  e->committed = true;
  // Forget objects that no longer exist once the map has doubled.
  static constexpr std::size_t kPruneAt = 1024;
  if (committed_objects_.size() >= kPruneAt && committed_objects_.size() >= 2 * derived_.live()) {
    for (auto it = committed_objects_.begin(); it != committed_objects_.end();)
      it = it->second.expired() ? committed_objects_.erase(it) : std::next(it);
  }
  committed_objects_[e->type.get()] = e->type;
}

bool DatatypeTable::object_committed(const dt::DatatypePtr& type) const
{
  if (!type)
    return false;
  if (type->is_predefined())
    return true;
  auto it = committed_objects_.find(type.get());
  return it != committed_objects_.end() && it->second.lock() == type;
}

DatatypeTable::Extras& DatatypeTable::extras(MPI_Datatype handle, int rank)
{
  if (Entry* e = derived_entry(handle))
    return e->extras;
  return predefined_extras_[{rank, index_of(handle)}];
}

std::string DatatypeTable::name(MPI_Datatype handle, int rank) const
{
  if (const Entry* e = derived_entry(handle))
    return e->extras.name;
  auto it = predefined_extras_.find({rank, index_of(handle)});
  if (it != predefined_extras_.end() && it->second.named)
    return it->second.name;
  dt::DatatypePtr t = find(handle);
  return t ? predefined_name(*t) : std::string();
}

void DatatypeTable::set_name(MPI_Datatype handle, int rank, const std::string& name)
{
  Extras& x = extras(handle, rank);
  x.name = name;
  x.named = true;
}

TypeAttributes& DatatypeTable::attributes(MPI_Datatype handle, int rank)
{
  return extras(handle, rank).attributes;
}

}  // namespace progsim::mpi
