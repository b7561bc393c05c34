#include "rma/Window.hpp"

#include "core/CreationSites.hpp"

namespace progsim::mpi::rma {

const char* to_string(Flavor flavor)
{
  switch (flavor) {
    case Flavor::Create: return "MPI_Win_create";
    case Flavor::Allocate: return "MPI_Win_allocate";
    case Flavor::Dynamic: return "MPI_Win_create_dynamic";
    case Flavor::Shared: return "MPI_Win_allocate_shared";
  }
  return "?";
}

int flavor_constant(Flavor flavor)
{
  switch (flavor) {
    case Flavor::Create: return MPI_WIN_FLAVOR_CREATE;
    case Flavor::Allocate: return MPI_WIN_FLAVOR_ALLOCATE;
    case Flavor::Dynamic: return MPI_WIN_FLAVOR_DYNAMIC;
    case Flavor::Shared: return MPI_WIN_FLAVOR_SHARED;
  }
  return MPI_WIN_FLAVOR_CREATE;
}

bool Window::in_epoch(int target) const
{
  if (fence_epoch || lock_all)
    return true;
  if (access_group && access_group->local_rank(shared->world_rank(target)) >= 0)
    return true;
  return target >= 0 && target < static_cast<int>(locks.size()) && locks[static_cast<size_t>(target)] != 0;
}

bool Window::in_fence_epoch(int target) const
{
  if (!fence_epoch || lock_all || locks[static_cast<size_t>(target)] != 0)
    return false;
  return !access_group || access_group->local_rank(shared->world_rank(target)) < 0;
}

bool Window::in_any_epoch() const
{
  if (fence_epoch || lock_all || access_group || exposure_group)
    return true;
  for (int l : locks)
    if (l != 0)
      return true;
  return false;
}

namespace {
// MPI_WIN_NULL is index 0 of the kind (rma/Window.hpp).
constexpr HandleKind<MPI_Win> kWindow{MPI_WIN_NULL};
}  // namespace

Window* WindowTable::find(MPI_Win handle)
{
  std::uint32_t index = kWindow.index_or(handle, 0);
  return table_.holds(index) ? table_.slot(index)->get() : nullptr;
}

Window& WindowTable::add(std::unique_ptr<Window> window)
{
  std::uint32_t index = table_.insert(std::move(window));
  Window& w = **table_.slot(index);
  w.handle = kWindow.handle(index);
  note_created(static_cast<std::uint32_t>(w.handle));
  return w;
}

std::vector<const Window*> WindowTable::live_windows() const
{
  std::vector<const Window*> windows;
  for (std::uint32_t index : table_.live_indices())
    windows.push_back(table_.slot(index)->get());
  return windows;
}

void WindowTable::remove(MPI_Win handle)
{
  auto index = static_cast<std::uint32_t>(handle & 0xffffff);
  if (table_.holds(index))
    table_.take(index);
}

}  // namespace progsim::mpi::rma
