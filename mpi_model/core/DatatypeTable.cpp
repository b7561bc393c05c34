#include "core/DatatypeTable.hpp"

#include "datatype/TypeConstructors.hpp"

namespace progsim::mpi {

namespace {
constexpr MPI_Datatype kKind = 0x4c000000;
constexpr std::uint32_t kIndexMask = 0x00ffffff;
constexpr std::uint32_t kFirstDerived = 256;
}  // namespace

DatatypeTable::DatatypeTable()
{
  predefined_.resize(kFirstDerived);
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS) \
  predefined_[INDEX] = dt::predefined(static_cast<dt::PrimitiveId>(INDEX));
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
}

dt::DatatypePtr DatatypeTable::find(MPI_Datatype handle) const
{
  if ((handle & ~static_cast<MPI_Datatype>(kIndexMask)) != kKind)
    return nullptr;
  auto index = static_cast<std::uint32_t>(handle) & kIndexMask;
  if (index < kFirstDerived)
    return predefined_[index];
  index -= kFirstDerived;
  return index < derived_.size() ? derived_[index].type : nullptr;
}

MPI_Datatype DatatypeTable::insert(dt::DatatypePtr type)
{
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(derived_.size());
    derived_.emplace_back();
  }
  derived_[index] = Entry{std::move(type), false};
  return kKind | static_cast<MPI_Datatype>(index + kFirstDerived);
}

void DatatypeTable::erase(MPI_Datatype handle)
{
  auto index = static_cast<std::uint32_t>(handle) & kIndexMask;
  if (index < kFirstDerived || index - kFirstDerived >= derived_.size())
    return;
  derived_[index - kFirstDerived] = Entry{};
  free_.push_back(index - kFirstDerived);
}

bool DatatypeTable::is_predefined(MPI_Datatype handle) const
{
  auto index = static_cast<std::uint32_t>(handle) & kIndexMask;
  return (handle & ~static_cast<MPI_Datatype>(kIndexMask)) == kKind && index > 0 && index < kFirstDerived &&
         predefined_[index];
}

bool DatatypeTable::is_committed(MPI_Datatype handle) const
{
  if (is_predefined(handle))
    return true;
  auto index = static_cast<std::uint32_t>(handle) & kIndexMask;
  return index >= kFirstDerived && index - kFirstDerived < derived_.size() &&
         derived_[index - kFirstDerived].committed;
}

void DatatypeTable::commit(MPI_Datatype handle)
{
  auto index = static_cast<std::uint32_t>(handle) & kIndexMask;
  if (index >= kFirstDerived && index - kFirstDerived < derived_.size())
    derived_[index - kFirstDerived].committed = true;
}

}  // namespace progsim::mpi
