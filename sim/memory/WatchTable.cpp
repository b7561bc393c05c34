#include "sim/memory/WatchTable.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace progsim::sim::memory {

WatchEntry WatchTable::entries_[kMaxWatches];

std::uintptr_t WatchTable::page_size()
{
  static const auto size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

int WatchTable::add(std::uintptr_t base, std::size_t bytes)
{
  for (int i = 0; i < kMaxWatches; ++i) {
    WatchEntry& e = entries_[i];
    if (e.active)
      continue;
    e.base = base;
    e.bytes = bytes;
    e.page_lo = page_of(base);
    e.page_hi = page_of(base + bytes - 1) + page_size();
    e.generation = e.generation + 1;
    e.active = true;  // published last: handlers never see a half-written entry
    protect_range(e.page_lo, e.page_hi);
    return i;
  }
  return -1;
}

void WatchTable::remove(int index)
{
  WatchEntry& e = entries_[index];
  if (!e.active)
    return;
  // Open the pages no other watch needs any more, then retire the entry: a
  // page must never be protected without a watch that explains its faults
  // (the caller's own stack may be on it).
  for (std::uintptr_t p = e.page_lo; p < e.page_hi; p += page_size()) {
    bool needed = false;
    for (int i = 0; i < kMaxWatches && !needed; ++i)
      needed = i != index && entries_[i].active && p >= entries_[i].page_lo && p < entries_[i].page_hi;
    if (!needed)
      open(p);
  }
  e.active = false;
}

void WatchTable::remove_all()
{
  for (int i = 0; i < kMaxWatches; ++i)
    remove(i);
}

bool WatchTable::page_watched(std::uintptr_t page)
{
  for (const WatchEntry& e : entries_)
    if (e.active && page >= e.page_lo && page < e.page_hi)
      return true;
  return false;
}

int WatchTable::find(std::uintptr_t address)
{
  for (int i = 0; i < kMaxWatches; ++i) {
    const WatchEntry& e = entries_[i];
    if (e.active && address >= e.base && address < e.base + e.bytes)
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
  for (WatchEntry& e : entries_)
    if (e.active && address < e.base + e.bytes && e.base < address + bytes)
      e.generation = e.generation + 1;
}

std::uintptr_t WatchTable::lowest_watched_page(std::uintptr_t lo, std::uintptr_t hi)
{
  for (std::uintptr_t p = page_of(lo); p < hi; p += page_size())
    if (page_watched(p))
      return p;
  return 0;
}

void WatchTable::protect(std::uintptr_t page)
{
  ::mprotect(reinterpret_cast<void*>(page), page_size(), PROT_NONE);
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
