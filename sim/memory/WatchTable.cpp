#include "sim/memory/WatchTable.hpp"

#include <algorithm>

#include <sys/mman.h>
#include <unistd.h>

namespace progsim::sim::memory {

WatchEntry WatchTable::entries_[kMaxWatches];
volatile int WatchTable::used_ = 0;

std::uintptr_t WatchTable::page_size()
{
  static const auto size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

// A free entry holding the range, not yet active; -1 when the table is full.
int WatchTable::claim(std::uintptr_t base, std::size_t bytes)
{
  for (int i = 0; i < kMaxWatches; ++i) {
    WatchEntry& e = entries_[i];
    if (e.active || e.lazy)
      continue;
    e.base = base;
    e.bytes = bytes;
    e.page_lo = page_of(base);
    e.page_hi = page_of(base + bytes - 1) + page_size();
    e.generation = e.generation + 1;
    e.owner = -1;
    e.reads_allowed = false;
    e.visible_at = 0;  // a write to the range this entry watched before says nothing of this one
    if (i >= used_)
      used_ = i + 1;  // before the entry becomes active: scans then reach it
    return i;
  }
  return -1;
}

int WatchTable::add(std::uintptr_t base, std::size_t bytes)
{
  int i = claim(base, bytes);
  if (i >= 0) {
    entries_[i].active = true;  // published last: handlers never see a half-written entry
    protect_range(entries_[i].page_lo, entries_[i].page_hi);
  }
  return i;
}

int WatchTable::add_guard(std::uintptr_t base, std::size_t bytes, int owner, bool reads_allowed)
{
  int i = claim(base, bytes);
  if (i >= 0) {
    entries_[i].owner = owner;
    entries_[i].reads_allowed = reads_allowed;
    entries_[i].active = true;
    for (std::uintptr_t p = entries_[i].page_lo; p < entries_[i].page_hi; p += page_size())
      protect(p);  // read-only pages stay readable where no other watch closes them
  }
  return i;
}

int WatchTable::add_lazy(std::uintptr_t base, std::size_t bytes)
{
  int i = claim(base, bytes);
  if (i >= 0)
    entries_[i].lazy = true;
  return i;
}

void WatchTable::arm(int index)
{
  WatchEntry& e = entries_[index];
  if (!e.lazy || e.active)
    return;
  e.active = true;
  protect_range(e.page_lo, e.page_hi);
}

void WatchTable::disarm(int index)
{
  WatchEntry& e = entries_[index];
  if (!e.lazy || !e.active)
    return;
  open_unneeded(index);
  e.active = false;
}

// Opens the pages of `index` that no other active watch needs. Done before
// the entry is retired: a page must never be protected without a watch
// that explains its faults (the caller's own stack may be on it).
void WatchTable::open_unneeded(int index)
{
  const WatchEntry& e = entries_[index];
  for (std::uintptr_t p = e.page_lo; p < e.page_hi; p += page_size())
    if (!needed_by_other(index, p))
      open(p);
}

bool WatchTable::needed_by_other(int index, std::uintptr_t page)
{
  for (int i = 0; i < used_; ++i)
    if (i != index && entries_[i].active && page >= entries_[i].page_lo && page < entries_[i].page_hi)
      return true;
  return false;
}

// Meanwhile the entry covers both ranges, so that every protected page has
// a watch that explains its faults (as in remove: opened before retired).
bool WatchTable::resize_guard(int index, std::uintptr_t base, std::size_t bytes)
{
  WatchEntry& e = entries_[index];
  if (!e.active || e.owner < 0 || bytes == 0)
    return false;
  const std::uintptr_t old_lo = e.page_lo, old_hi = e.page_hi;
  const std::uintptr_t lo = page_of(base), hi = page_of(base + bytes - 1) + page_size();
  const std::uintptr_t end = std::max(e.base + e.bytes, base + bytes);
  e.base = std::min<std::uintptr_t>(e.base, base);
  e.bytes = end - e.base;
  e.page_lo = std::min(old_lo, lo);
  e.page_hi = std::max(old_hi, hi);
  for (std::uintptr_t p = lo; p < hi; p += page_size())
    if (p < old_lo || p >= old_hi)
      protect(p);
  auto lost = [&](std::uintptr_t p) { return p < lo || p >= hi; };
  for (std::uintptr_t p = old_lo; p < old_hi; p += page_size())
    if (lost(p) && !needed_by_other(index, p))
      open(p);
  e.base = base;
  e.bytes = bytes;
  e.page_lo = lo;
  e.page_hi = hi;
  // A lost page other watches keep: as they need it (a send guard's readable).
  for (std::uintptr_t p = old_lo; p < old_hi; p += page_size())
    if (lost(p) && needed_by_other(index, p))
      protect(p);
  return true;
}

void WatchTable::remove(int index)
{
  WatchEntry& e = entries_[index];
  if (e.active)
    open_unneeded(index);
  e.active = false;
  e.lazy = false;
}

void WatchTable::remove_all()
{
  for (int i = 0; i < kMaxWatches; ++i)
    remove(i);
}

bool WatchTable::page_watched(std::uintptr_t page)
{
  for (const WatchEntry& e : in_use())
    if (e.active && page >= e.page_lo && page < e.page_hi)
      return true;
  return false;
}

int WatchTable::find(std::uintptr_t address)
{
  for (int i = 0; i < used_; ++i) {
    const WatchEntry& e = entries_[i];
    if (e.active && e.owner < 0 && address >= e.base && address < e.base + e.bytes)
      return i;
  }
  return -1;
}

int WatchTable::find_guard(std::uintptr_t address, bool write)
{
  for (int i = 0; i < used_; ++i) {
    const WatchEntry& e = entries_[i];
    if (e.active && e.owner >= 0 && (write || !e.reads_allowed) && address >= e.base && address < e.base + e.bytes)
      return i;
  }
  return -1;
}

void WatchTable::bump_page(std::uintptr_t page)
{
  bump_range(page, page_size());
}

void WatchTable::bump_range(std::uintptr_t address, std::size_t bytes)
{
  for (WatchEntry& e : in_use())
    if (e.active && address < e.base + e.bytes && e.base < address + bytes)
      e.generation = e.generation + 1;
}

std::uintptr_t WatchTable::lowest_watched_page(std::uintptr_t lo, std::uintptr_t hi)
{
  // One pass over the table, not one per page: every diversion asks this of
  // the many pages of its frame reserve (a poll of a Wtime-bounded spin is a
  // diversion).
  std::uintptr_t first = page_of(lo), lowest = 0;
  for (const WatchEntry& e : in_use())
    if (e.active && e.page_lo < e.page_hi && e.page_lo < hi && e.page_hi > first) {
      std::uintptr_t p = e.page_lo > first ? e.page_lo : first;
      if (lowest == 0 || p < lowest)
        lowest = p;
    }
  return lowest;
}

void WatchTable::protect(std::uintptr_t page)
{
  // Guards of send buffers let reads through (MPI-4.1 §3.7.2 allows them);
  // any other watch on the page closes it.
  bool readable = true;
  for (const WatchEntry& e : in_use())
    if (e.active && page >= e.page_lo && page < e.page_hi && !(e.owner >= 0 && e.reads_allowed))
      readable = false;
  ::mprotect(reinterpret_cast<void*>(page), page_size(), readable ? PROT_READ : PROT_NONE);
}

void WatchTable::open(std::uintptr_t page)
{
  // Watched memory is data: it was read-write before it was watched.
  ::mprotect(reinterpret_cast<void*>(page), page_size(), PROT_READ | PROT_WRITE);
}

void WatchTable::protect_range(std::uintptr_t lo, std::uintptr_t hi)
{
  ::mprotect(reinterpret_cast<void*>(lo), hi - lo, PROT_NONE);
}

}  // namespace progsim::sim::memory
