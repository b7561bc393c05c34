// The objects of one kind of MPI handle by index (docs/design/handles.md):
// a handle is (KIND << 24) | INDEX, each table knows its KIND and turns
// handles into indices; this template keeps the slots and the indices freed
// for reuse.
//
// Which freed index a new object takes is visible to programs (handle
// values) and in outputs, so each kind keeps its order: the lowest free
// index (most kinds: small, deterministic numbers) or the last freed one
// (requests and datatypes, as MPICH).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

namespace progsim::mpi {

enum class HandleReuse { LowestFirst, LastFreedFirst };

// The handle values of one kind: KIND | INDEX, the kind in the top byte.
template <typename Handle>
struct HandleKind {
  static constexpr std::uint32_t kIndexMask = 0x00ffffff;
  Handle kind;

  Handle handle(std::uint32_t index) const { return kind | static_cast<Handle>(index); }
  std::vector<Handle> handles(const std::vector<std::uint32_t>& indices) const
  {
    std::vector<Handle> out;
    out.reserve(indices.size());
    for (std::uint32_t i : indices)
      out.push_back(handle(i));
    return out;
  }
  bool holds_kind(Handle handle) const { return (handle & ~static_cast<Handle>(kIndexMask)) == kind; }
  // The index of a handle (of this kind or not: the caller checked).
  static std::uint32_t index(Handle handle) { return static_cast<std::uint32_t>(handle) & kIndexMask; }
  // The index of a handle of this kind; `none` for one of another kind.
  std::uint32_t index_or(Handle handle, std::uint32_t none) const { return holds_kind(handle) ? index(handle) : none; }
};

// `Slot`: an object or an empty value (a smart pointer or std::optional,
// tested with bool); indices below `first_index` are reserved (null and
// predefined handles) and never handed out or freed.
template <typename Slot, HandleReuse reuse = HandleReuse::LowestFirst>
class HandleTable {
public:
  explicit HandleTable(std::uint32_t first_index) : slots_(first_index), first_(first_index) {}

  // Stores `value` at a free index and returns the index.
  std::uint32_t insert(Slot value)
  {
    std::uint32_t index;
    if (free_.empty()) {
      index = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      index = take_free();
    }
    slots_[index] = std::move(value);
    ++live_;
    return index;
  }

  // The slot at `index` (possibly empty), or nullptr beyond the table.
  Slot* slot(std::uint32_t index) { return index < slots_.size() ? &slots_[index] : nullptr; }
  const Slot* slot(std::uint32_t index) const { return index < slots_.size() ? &slots_[index] : nullptr; }
  // Whether `index` holds an object that insert() stored.
  bool holds(std::uint32_t index) const { return index >= first_ && index < slots_.size() && slots_[index]; }

  // Frees `index` (holds(index) must be true): returns its object, the slot
  // is empty.
  Slot take(std::uint32_t index)
  {
    Slot value = std::move(slots_[index]);
    slots_[index] = Slot{};
    release(index);
    return value;
  }
  // Frees `index` if it holds an object; whether it did.
  bool erase(std::uint32_t index)
  {
    if (!holds(index))
      return false;
    take(index);
    return true;
  }
  // Frees `index` but leaves the slot as it is: readable until the index is
  // reused (datatypes keep a freed type for operations still using it).
  void release(std::uint32_t index)
  {
    if constexpr (reuse == HandleReuse::LowestFirst)
      free_.insert(index);
    else
      free_.push_back(index);
    --live_;
  }

  // Objects stored and not freed (reserved slots not counted).
  std::size_t live() const { return live_; }
  // Every slot by index, reserved ones included.
  const std::vector<Slot>& slots() const { return slots_; }
  // The indices holding an object, ascending (leak reports at finalization).
  std::vector<std::uint32_t> live_indices() const
  {
    std::vector<std::uint32_t> indices;
    for (std::uint32_t i = first_; i < slots_.size(); ++i)
      if (slots_[i])
        indices.push_back(i);
    return indices;
  }

private:
  using FreeIndices = std::conditional_t<reuse == HandleReuse::LowestFirst, std::set<std::uint32_t>,
                                         std::vector<std::uint32_t>>;

  std::uint32_t take_free()
  {
    std::uint32_t index;
    if constexpr (reuse == HandleReuse::LowestFirst) {
      index = *free_.begin();
      free_.erase(free_.begin());
    } else {
      index = free_.back();
      free_.pop_back();
    }
    return index;
  }

  std::vector<Slot> slots_;
  std::uint32_t first_;
  FreeIndices free_;
  std::size_t live_ = 0;
};

}  // namespace progsim::mpi
